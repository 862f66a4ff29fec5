/**
 * The API client the specs use: real HTTP (undici) with the configured credentials, recording
 * every exchange (redacted) so a failure shows what was sent, what came back and how to
 * replay it. Hostile answers stay contained: every request has a deadline
 * (CRM_REQUEST_TIMEOUT_MS), bodies are bounded (CRM_MAX_RESPONSE_BYTES), and the error names
 * the problem ("no answer within 15 s", "connection reset", "body larger than N bytes").
 */
import { Agent, request, type Dispatcher } from 'undici';
import { loadConfig, type TargetConfig } from './config.js';
import { clip, curlLine, noteAnswer, Recorder, type Exchange } from './recorder.js';
import { redactHeaders, redactText, redactValue } from './redact.js';
import { honouring429 } from './gate.js';
import { PROBE_EVERY_MS, SILENT_LIMIT, silence } from './silence.js';
import { decode, flattenHeaders, isJsonType, networkProblem, seconds } from './transport.js';

export { retryAfterMs } from './gate.js';
export { SILENT_LIMIT, targetSilence } from './silence.js';

/** How a request authenticates. */
export type Auth = 'header' | 'bearer' | 'none' | { headers: Record<string, string> };

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: T;
  text: string;
  /** The body parsed as JSON. */
  isJson: boolean;
  exchange: Exchange;
}

export interface SendOptions {
  method: string;
  /** Path relative to `{base_url}/developer_api/v1`, or an absolute URL. */
  path: string;
  body?: unknown;
  /** A raw body sent as is (malformed JSON tests). */
  rawBody?: string | Buffer;
  /** Form fields, sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  auth?: Auth;
  timeout?: number;
  /** Retry after 429 honouring Retry-After (default: the client's setting). */
  honour429?: boolean;
  /** The connections to send on (a pool of warm connections for a race); default: the worker's pool. */
  dispatcher?: Dispatcher;
  /** Keep the exchange out of the test's evidence (bulk seeding of thousands of records). */
  unrecorded?: boolean;
}

/** A request that got no usable answer: the message names the problem (timeout, reset, size…). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/**
 * One HTTP connection pool per worker process. undici rather than Playwright's
 * APIRequestContext: it streams the body (so a size bound can stop a huge answer early instead
 * of buffering it whole), reports resets and refusals by code, and costs a third of the CPU per
 * request.
 */
let pool: Agent | undefined;
function dispatcher(): Agent {
  pool ??= new Agent({ connect: { rejectUnauthorized: false, timeout: 10_000 }, keepAliveTimeout: 4_000, headersTimeout: 0, bodyTimeout: 0 });
  return pool;
}

/** A request as it goes out: its URL (and host), headers and body. */
interface Outgoing {
  url: string;
  host: string;
  headers: Record<string, string>;
  data: string | Buffer | undefined;
}

/** How far an answer came: the status line and headers, then the body's bytes. */
interface Progress {
  phase: 'headers' | 'body';
  received: number;
  status: number;
}

/**
 * When the target answered none of the last SILENT_LIMIT requests of the run, a request is not
 * sent (`fail`), but one probe every PROBE_EVERY_MS.
 */
function holdIfSilent(fail: (problem: string) => never): void {
  const quiet = silence.current();
  if (quiet.count < SILENT_LIMIT) return;
  if (Date.now() - quiet.lastProbe < PROBE_EVERY_MS) {
    fail(
      `no answer within ${seconds(quiet.timeoutMs)}: the target answered none of the last ${quiet.count} requests of this run, so this one was not sent (one probe goes out every ${PROBE_EVERY_MS / 1000} s)`,
    );
  }
  silence.save({ ...quiet, lastProbe: Date.now() });
}

/** The body's chunks, read up to `maxBytes` (declared or received): larger is `fail`. */
async function readBounded(raw: Dispatcher.ResponseData, maxBytes: number, got: Progress, fail: (problem: string) => never): Promise<Buffer[]> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    raw.body.destroy();
    fail(`body larger than ${maxBytes} bytes (Content-Length: ${declared}); not read (CRM_MAX_RESPONSE_BYTES)`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of raw.body as AsyncIterable<Buffer>) {
    got.received += chunk.length;
    if (got.received > maxBytes) {
      raw.body.destroy();
      fail(`body larger than ${maxBytes} bytes: stopped reading after ${got.received} bytes (CRM_MAX_RESPONSE_BYTES)`);
    }
    chunks.push(chunk);
  }
  return chunks;
}

export class ApiClient {
  readonly cfg: TargetConfig;
  private readonly defaults: { auth: Auth; honour429: boolean; timeout: number };
  /** The default timeout is CRM_REQUEST_TIMEOUT_MS (15 s); requests go through undici (see dispatcher()). */
  constructor(
    readonly recorder: Recorder = new Recorder(),
    defaults: Partial<{ auth: Auth; honour429: boolean; timeout: number }> = {},
    cfg: TargetConfig = loadConfig(),
  ) {
    this.cfg = cfg;
    this.defaults = { auth: 'header', honour429: true, timeout: this.cfg.requestTimeoutMs, ...defaults };
    if (this.defaults.auth === 'header' && !this.cfg.credentials.accessToken) this.defaults.auth = 'bearer';
  }

  /** The same client with other defaults (e.g. `{ auth: 'none' }`), recording into the same test. */
  with(defaults: Partial<{ auth: Auth; honour429: boolean; timeout: number }>): ApiClient {
    return new ApiClient(this.recorder, { ...this.defaults, ...defaults }, this.cfg);
  }

  authHeaders(auth: Auth): Record<string, string> {
    const c = this.cfg.credentials;
    if (auth === 'none') return {};
    if (auth === 'bearer') return c.bearerToken ? { Authorization: `Bearer ${c.bearerToken}` } : {};
    if (auth === 'header') return { 'X-SVC-AccessToken': c.accessToken ?? '', 'X-SVC-Application': 'developer_api', 'X-SVC-UserEmail': c.userEmail ?? '' };
    return auth.headers;
  }

  url(path: string): string {
    return /^https?:\/\//.test(path) ? path : this.cfg.apiUrl + (path.startsWith('/') ? path : `/${path}`);
  }

  get<T = unknown>(path: string, o: Partial<SendOptions> = {}) {
    return this.send<T>({ ...o, method: 'GET', path });
  }
  post<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) {
    return this.send<T>({ ...o, method: 'POST', path, body });
  }
  put<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) {
    return this.send<T>({ ...o, method: 'PUT', path, body });
  }
  delete<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) {
    return this.send<T>({ ...o, method: 'DELETE', path, body });
  }

  /**
   * Sends a request and returns the answer, whatever its status. Throws a {@link TransportError}
   * naming the problem when there is no usable answer: no answer within the timeout, connection
   * reset or refused, body larger than CRM_MAX_RESPONSE_BYTES. A request that honours 429 (the
   * default) waits at the worker's gate, and after a 429 waits its Retry-After (either form) and
   * retries, within a bounded total wait (core/gate.ts); then the 429 is returned. One that does not
   * (a burst, a race, a paced bulk call) is sent at once and its answer returned as it is.
   */
  async send<T = unknown>(o: SendOptions): Promise<ApiResponse<T>> {
    if (!(o.honour429 ?? this.defaults.honour429)) return this.once<T>(o);
    return honouring429(() => this.once<T>(o));
  }

  private async once<T>(o: SendOptions): Promise<ApiResponse<T>> {
    const url = this.url(o.path);
    const { headers, data } = this.outgoing(o);
    const started = Date.now();
    const exchange = this.record(o, url, headers, data);
    const fail = (problem: string): never => {
      exchange.error = redactText(problem);
      exchange.durationMs = Date.now() - started;
      throw new TransportError(`${o.method} ${redactText(url)}: ${exchange.error}\n  replay: ${exchange.curl}`, exchange);
    };
    const parsedUrl = new URL(url);
    holdIfSilent(fail);
    return this.transfer<T>(o, { url, host: parsedUrl.host, headers, data }, exchange, started, fail);
  }

  /** The headers and the body a request sends: JSON (the default), a form, or a raw body. */
  private outgoing(o: SendOptions): { headers: Record<string, string>; data: string | Buffer | undefined } {
    const headers: Record<string, string> = { Accept: 'application/json', ...this.authHeaders(o.auth ?? this.defaults.auth), ...o.headers };
    let data: string | Buffer | undefined;
    if (o.rawBody !== undefined) data = o.rawBody;
    else if (o.form) {
      data = new URLSearchParams(o.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    } else if (o.body !== undefined) data = JSON.stringify(o.body);
    if (data !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    return { headers, data };
  }

  /** The exchange of a request (redacted), in the test's evidence unless `unrecorded`. */
  private record(o: SendOptions, url: string, headers: Record<string, string>, data: string | Buffer | undefined): Exchange {
    const requestBody = o.form
      ? redactValue(o.form)
      : o.body !== undefined
        ? redactValue(o.body)
        : o.rawBody !== undefined
          ? redactText(String(o.rawBody))
          : undefined;
    const exchange: Exchange = {
      method: o.method,
      url: redactText(url),
      requestHeaders: redactHeaders(headers),
      requestBody: clip(requestBody),
      status: 0,
      responseHeaders: {},
      durationMs: 0,
      curl: curlLine(o.method, url, headers, typeof data === 'string' ? data : data?.toString('utf8')),
    };
    if (!o.unrecorded) this.recorder.exchanges.push(exchange);
    return exchange;
  }

  /**
   * Sends the request and reads the answer, within the deadline and the size bound: the answer, or
   * `fail` naming the problem (no answer, a stalled body, too large, a network error).
   */
  private async transfer<T>(o: SendOptions, req: Outgoing, exchange: Exchange, started: number, fail: (problem: string) => never): Promise<ApiResponse<T>> {
    const timeout = o.timeout ?? this.defaults.timeout;
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort(new Error('deadline'));
    }, timeout);
    const got: Progress = { phase: 'headers', received: 0, status: 0 };
    try {
      try {
        // Redirects are not followed (undici's request never does): the answer is judged as is.
        const raw = await request(req.url, {
          method: o.method as Dispatcher.HttpMethod,
          headers: Object.keys(req.headers).some((k) => k.toLowerCase() === 'user-agent') ? req.headers : { ...req.headers, 'User-Agent': 'crm-conformance' },
          body: req.data,
          signal: abort.signal,
          dispatcher: o.dispatcher ?? dispatcher(),
        });
        got.phase = 'body';
        got.status = raw.statusCode;
        const chunks = await readBounded(raw, this.cfg.maxResponseBytes, got, fail);
        clearTimeout(timer);
        const headersOut = flattenHeaders(raw.headers);
        const bytes = decode(Buffer.concat(chunks), headersOut['content-encoding'], this.cfg.maxResponseBytes, fail);
        silence.answered();
        return this.answer<T>(o, req.url, exchange, started, got.status, headersOut, bytes);
      } catch (err) {
        if (err instanceof TransportError) throw err;
        if (timedOut) {
          if (got.phase === 'headers') {
            const problem = `no answer within ${seconds(timeout)} (no status line and headers received)`;
            silence.noAnswer(timeout, redactText(`${o.method} ${req.url}: ${problem}`));
            fail(problem);
          }
          fail(
            `answer incomplete after ${seconds(timeout)}: status ${got.status}, then only ${got.received} byte${got.received === 1 ? '' : 's'} of the body (a stalled or very slow body)`,
          );
        }
        silence.answered();
        fail(networkProblem(err, req.host));
      }
    } finally {
      clearTimeout(timer);
    }
    throw new Error('unreachable');
  }

  private answer<T>(
    o: SendOptions,
    url: string,
    exchange: Exchange,
    started: number,
    status: number,
    headers: Record<string, string>,
    bytes: Buffer,
  ): ApiResponse<T> {
    const text = bytes.toString('utf8');
    const type = headers['content-type'] ?? '';
    let body: unknown = text;
    let isJson = false;
    if (text.length) {
      try {
        body = JSON.parse(text);
        isJson = true;
      } catch (e) {
        if (isJsonType(type)) exchange.problem = `invalid JSON with Content-Type ${type} (${(e as Error).message})`;
      }
    } else body = undefined;
    if (!exchange.problem && text.length && !isJsonType(type) && url.startsWith(this.cfg.apiUrl)) {
      exchange.problem = `Content-Type ${type || '(none)'} where the API answers application/json${isJson ? ' (the body itself is JSON)' : ''}`;
    }
    exchange.status = status;
    exchange.responseHeaders = redactHeaders(headers);
    exchange.responseBody = clip(redactValue(body, isJson ? text : undefined));
    this.recorder.settle();
    exchange.durationMs = Date.now() - started;
    if (status >= 200 && status < 300 && ['POST', 'PUT'].includes(o.method) && !/search|activities$|token|authorize/.test(o.path)) {
      for (const item of Array.isArray(body) ? body : [body]) {
        if (item && typeof item === 'object' && 'id' in item) this.recorder.created.push({ path: o.path, id: (item as { id: unknown }).id });
      }
    }
    noteAnswer(body, exchange);
    return { status, headers, body: body as T, text, isJson, exchange };
  }
}
