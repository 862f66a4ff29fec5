/**
 * The API client the specs use: real HTTP (undici) with the configured credentials, recording
 * every exchange (redacted) so a failure shows what was sent, what came back and how to
 * replay it. Hostile answers stay contained: every request has a deadline
 * (CRM_REQUEST_TIMEOUT_MS), bodies are bounded (CRM_MAX_RESPONSE_BYTES), and the error names
 * the problem ("no answer within 15 s", "connection reset", "body larger than N bytes").
 */
import { Agent, request, type Dispatcher } from 'undici';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { loadConfig, type TargetConfig } from './config.js';
import { clip, curlLine, Recorder, type Exchange } from './recorder.js';
import { redactHeaders, redactText, redactValue } from './redact.js';
import { runFile, writeRunFile } from './run-files.js';

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

/**
 * The wait a Retry-After header asks for, in milliseconds: delta-seconds or an HTTP-date (RFC 9110
 * §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
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

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

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

/**
 * Requests in a row that got no answer at all, shared by the run's workers through a small file
 * per target (Playwright replaces a worker after each failed test, so memory alone would forget). After
 * SILENT_LIMIT of them the target is taken as down: further requests fail at once, one probe
 * is still sent every PROBE_EVERY_MS, and tests that start later skip naming the first
 * unanswered request (targetSilence(), asked by the preflight's skipReason()), so a target that
 * dies mid-run costs seconds, not one full timeout per test.
 */
export const SILENT_LIMIT = 3;
const PROBE_EVERY_MS = 10_000;
/** Forgotten when nobody refreshed it for this long (probes refresh it every 10 s). */
const SILENCE_MEMORY_MS = 60_000;
interface Silence {
  count: number;
  timeoutMs: number;
  lastProbe: number;
  at?: number;
  /** The first unanswered request of the streak (redacted), named by the tests skipped after it. */
  first?: string;
}
const silence = {
  state: { count: 0, timeoutMs: 0, lastProbe: 0 } as Silence,
  readAt: 0,
  // Per target: a run of the fault matrix tests many instances at once (scripts/matrix.config.ts).
  file: () => runFile('silence'),
  current(): Silence {
    if (Date.now() - this.readAt > 500) {
      this.readAt = Date.now();
      try {
        const read = JSON.parse(readFileSync(this.file(), 'utf8')) as Silence;
        // A state nobody refreshed for a minute is forgotten (probes refresh it every 10 s).
        this.state = Date.now() - (read.at ?? 0) < SILENCE_MEMORY_MS ? read : { count: 0, timeoutMs: 0, lastProbe: 0 };
      } catch {
        /* none yet */
      }
    }
    return this.state;
  },
  save(next: Silence): void {
    next.at = Date.now();
    this.state = next;
    this.readAt = Date.now();
    try {
      writeRunFile('silence', JSON.stringify(next));
    } catch {
      /* best effort */
    }
  },
  noAnswer(timeoutMs: number, what: string): void {
    const now = this.current();
    this.save({ ...now, count: now.count + 1, timeoutMs, first: now.count ? (now.first ?? what) : what });
  },
  answered(): void {
    if (this.current().count) this.save({ count: 0, timeoutMs: 0, lastProbe: 0 });
  },
};

/**
 * The run-wide "target is dead" latch, for the tests: when the last SILENT_LIMIT requests of the
 * run (all workers) got no answer at all, the reason later tests give for skipping, naming the
 * first unanswered request; undefined while the target answers. The latch is forgotten a minute
 * after its last refresh, so a target that comes back is tested again.
 */
export function targetSilence(): string | undefined {
  const s = silence.current();
  if (s.count < SILENT_LIMIT) return undefined;
  return `the target stopped answering: the last ${s.count} requests of this run got no answer within ${seconds(s.timeoutMs)}; the first: ${s.first ?? '(unknown)'}`;
}

function codeOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
  }
  return (err as { code?: string })?.code;
}

/** Names the network problem of a failed request in words. */
function networkProblem(err: unknown, host: string): string {
  const code = codeOf(err);
  const msg = (err as Error)?.message ?? String(err);
  switch (code) {
    case 'ECONNRESET':
      return 'connection reset by the target (ECONNRESET) before a complete answer';
    case 'EPIPE':
      return 'connection closed by the target while the request was being sent (EPIPE)';
    case 'ECONNREFUSED':
      return `connection refused: nothing listens at ${host} (ECONNREFUSED)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found: ${host} (${code})`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `could not connect to ${host} within 10 s (${code})`;
    case 'UND_ERR_HEADERS_OVERFLOW':
      return "the answer's headers are too large";
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return 'the body does not match its Content-Length';
    default:
      if (code?.startsWith('HPE_')) return `not a valid HTTP answer (${code}: ${msg})`;
      if (/other side closed|socket hang up|closed/i.test(msg)) return `connection closed by the target before a complete answer (${msg})`;
      if (/certificate|SSL|TLS/i.test(msg)) return `TLS failure: ${msg}`;
      return code ? `${msg} (${code})` : msg;
  }
}

const isJsonType = (type: string) => /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim());

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
   * reset or refused, body larger than CRM_MAX_RESPONSE_BYTES. After 429 it waits (Retry-After,
   * at most 10 s at a time and 15 s in all) and retries up to 4 times.
   */
  async send<T = unknown>(o: SendOptions): Promise<ApiResponse<T>> {
    const honour = o.honour429 ?? this.defaults.honour429;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const res = await this.once<T>(o);
      if (res.status !== 429 || !honour || attempt >= 4) return res;
      const waitMs = Math.min(retryAfterMs(res.headers['retry-after']) || 400 * 2 ** attempt, 10_000);
      if (waited + waitMs > 15_000) return res;
      waited += waitMs;
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  private async once<T>(o: SendOptions): Promise<ApiResponse<T>> {
    const url = this.url(o.path);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.authHeaders(o.auth ?? this.defaults.auth), ...o.headers };
    let data: string | Buffer | undefined;
    if (o.rawBody !== undefined) data = o.rawBody;
    else if (o.form) {
      data = new URLSearchParams(o.form).toString();
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
    } else if (o.body !== undefined) data = JSON.stringify(o.body);
    if (data !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    const started = Date.now();
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
    const timeout = o.timeout ?? this.defaults.timeout;
    const maxBytes = this.cfg.maxResponseBytes;
    const fail = (problem: string): never => {
      exchange.error = redactText(problem);
      exchange.durationMs = Date.now() - started;
      throw new TransportError(`${o.method} ${redactText(url)}: ${exchange.error}\n  replay: ${exchange.curl}`, exchange);
    };

    const parsedUrl = new URL(url);
    const quiet = silence.current();
    if (quiet.count >= SILENT_LIMIT) {
      if (Date.now() - quiet.lastProbe < PROBE_EVERY_MS) {
        fail(
          `no answer within ${seconds(quiet.timeoutMs)}: the target answered none of the last ${quiet.count} requests of this run, so this one was not sent (one probe goes out every ${PROBE_EVERY_MS / 1000} s)`,
        );
      }
      silence.save({ ...quiet, lastProbe: Date.now() });
    }

    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort(new Error('deadline'));
    }, timeout);
    let phase: 'headers' | 'body' = 'headers';
    let received = 0;
    let status = 0;
    let raw: Dispatcher.ResponseData | undefined;
    try {
      try {
        // Redirects are not followed (undici's request never does): the answer is judged as is.
        const wire = Object.keys(headers).some((k) => k.toLowerCase() === 'user-agent') ? headers : { ...headers, 'User-Agent': 'crm-conformance' };
        raw = await request(url, {
          method: o.method as Dispatcher.HttpMethod,
          headers: wire,
          body: data,
          signal: abort.signal,
          dispatcher: o.dispatcher ?? dispatcher(),
        });
        phase = 'body';
        status = raw.statusCode;
        const declared = Number(raw.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          raw.body.destroy();
          fail(`body larger than ${maxBytes} bytes (Content-Length: ${declared}); not read (CRM_MAX_RESPONSE_BYTES)`);
        }
        const chunks: Buffer[] = [];
        for await (const chunk of raw.body as AsyncIterable<Buffer>) {
          received += chunk.length;
          if (received > maxBytes) {
            raw.body.destroy();
            fail(`body larger than ${maxBytes} bytes: stopped reading after ${received} bytes (CRM_MAX_RESPONSE_BYTES)`);
          }
          chunks.push(chunk);
        }
        clearTimeout(timer);
        const headersOut = flattenHeaders(raw.headers);
        const bytes = decode(Buffer.concat(chunks), headersOut['content-encoding'], maxBytes, fail);
        silence.answered();
        return this.answer<T>(o, url, exchange, started, status, headersOut, bytes);
      } catch (err) {
        if (err instanceof TransportError) throw err;
        if (timedOut) {
          if (phase === 'headers') {
            const problem = `no answer within ${seconds(timeout)} (no status line and headers received)`;
            silence.noAnswer(timeout, redactText(`${o.method} ${url}: ${problem}`));
            fail(problem);
          }
          fail(
            `answer incomplete after ${seconds(timeout)}: status ${status}, then only ${received} byte${received === 1 ? '' : 's'} of the body (a stalled or very slow body)`,
          );
        }
        silence.answered();
        fail(networkProblem(err, parsedUrl.host));
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
    return { status, headers, body: body as T, text, isJson, exchange };
  }
}

/** Lower-case names, one string per header (repeated headers joined by ", "; Set-Cookie by newlines). */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** Undoes a Content-Encoding (the client asks for none, a server may send one anyway), within the size bound. */
function decode(bytes: Buffer, encoding: string | undefined, maxBytes: number, fail: (problem: string) => never): Buffer {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (!enc || enc === 'identity' || !bytes.length) return bytes;
  const options = { maxOutputLength: maxBytes };
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(bytes, options);
    if (enc === 'deflate') return inflateSync(bytes, options);
    if (enc === 'br') return brotliDecompressSync(bytes, options);
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      fail(`body larger than ${maxBytes} bytes once decompressed (Content-Encoding: ${enc}; CRM_MAX_RESPONSE_BYTES)`);
    fail(`body cannot be decoded with its Content-Encoding ${enc} (${(e as Error).message})`);
  }
  return bytes;
}
