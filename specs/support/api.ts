/**
 * The API client the specs use: Playwright's APIRequestContext with the configured
 * credentials, recording every exchange (redacted) so a failure shows what was sent, what
 * came back and how to replay it.
 */
import type { APIRequestContext } from '@playwright/test';
import { loadConfig, type TargetConfig } from './config.js';
import { REDACTED, redactHeaders, redactText, redactValue } from './redact.js';

/** How a request authenticates. */
export type Auth = 'header' | 'bearer' | 'none' | { headers: Record<string, string> };

export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: unknown;
  durationMs: number;
  /** Network failure (timeout, reset) instead of an answer. */
  error?: string;
  /** A shell line replaying the request; secrets appear as $CRM_* variables. */
  curl: string;
}

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
}

const MAX_RECORDED_BODY = 8_000;

/** Exchanges and created records of one test. */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly created: { path: string; id: unknown }[] = [];
}

function clip(value: unknown): unknown {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text !== undefined && text.length > MAX_RECORDED_BODY) return `${text.slice(0, MAX_RECORDED_BODY)}… (${text.length} characters)`;
  return value;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlLine(method: string, url: string, headers: Record<string, string>, body?: string): string {
  const cfg = loadConfig();
  const envRef: Record<string, string> = {};
  if (cfg.credentials.accessToken) envRef[cfg.credentials.accessToken] = '$CRM_ACCESS_TOKEN';
  if (cfg.credentials.bearerToken) envRef[cfg.credentials.bearerToken] = '$CRM_BEARER_TOKEN';
  if (cfg.oauth.clientSecret) envRef[cfg.oauth.clientSecret] = '$CRM_CLIENT_SECRET';
  const sub = (s: string) => {
    let out = s;
    for (const [secret, ref] of Object.entries(envRef)) out = out.split(secret).join(ref);
    return redactText(out);
  };
  const parts = [`curl -sS -X ${method}`, `"${sub(url)}"`];
  for (const [k, v] of Object.entries(headers)) parts.push(`-H "${k}: ${sub(v).replace(/"/g, '\\"')}"`);
  if (body !== undefined) parts.push(`--data-raw ${shellQuote(sub(body.length > MAX_RECORDED_BODY ? body.slice(0, MAX_RECORDED_BODY) + '…' : body))}`);
  return parts.join(' ');
}

export class ApiClient {
  readonly cfg: TargetConfig;
  constructor(
    private readonly ctx: APIRequestContext,
    readonly recorder: Recorder = new Recorder(),
    private readonly defaults: { auth: Auth; honour429: boolean; timeout: number } = { auth: 'header', honour429: true, timeout: 15_000 },
  ) {
    this.cfg = loadConfig();
    if (defaults.auth === 'header' && !this.cfg.credentials.accessToken) this.defaults = { ...defaults, auth: 'bearer' };
  }

  /** The same client with other defaults (e.g. `{ auth: 'none' }`), recording into the same test. */
  with(defaults: Partial<{ auth: Auth; honour429: boolean; timeout: number }>): ApiClient {
    return new ApiClient(this.ctx, this.recorder, { ...this.defaults, ...defaults });
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

  get<T = unknown>(path: string, o: Partial<SendOptions> = {}) { return this.send<T>({ ...o, method: 'GET', path }); }
  post<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) { return this.send<T>({ ...o, method: 'POST', path, body }); }
  put<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) { return this.send<T>({ ...o, method: 'PUT', path, body }); }
  delete<T = unknown>(path: string, body?: unknown, o: Partial<SendOptions> = {}) { return this.send<T>({ ...o, method: 'DELETE', path, body }); }

  async send<T = unknown>(o: SendOptions): Promise<ApiResponse<T>> {
    const honour = o.honour429 ?? this.defaults.honour429;
    for (let attempt = 0; ; attempt++) {
      const res = await this.once<T>(o);
      if (res.status !== 429 || !honour || attempt >= 4) return res;
      const after = Number(res.headers['retry-after']);
      const waitMs = Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 400 * 2 ** attempt, 10_000);
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  private async once<T>(o: SendOptions): Promise<ApiResponse<T>> {
    const url = this.url(o.path);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.authHeaders(o.auth ?? this.defaults.auth), ...o.headers };
    let data: string | Buffer | undefined;
    if (o.rawBody !== undefined) data = o.rawBody;
    else if (o.form) { data = new URLSearchParams(o.form).toString(); headers['Content-Type'] ??= 'application/x-www-form-urlencoded'; }
    else if (o.body !== undefined) data = JSON.stringify(o.body);
    if (data !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    const started = Date.now();
    const requestBody = o.form ? redactValue(o.form) : o.body !== undefined ? redactValue(o.body) : o.rawBody !== undefined ? redactText(String(o.rawBody)) : undefined;
    const exchange: Exchange = {
      method: o.method, url: redactText(url), requestHeaders: redactHeaders(headers), requestBody: clip(requestBody),
      status: 0, responseHeaders: {}, durationMs: 0, curl: curlLine(o.method, url, headers, typeof data === 'string' ? data : data?.toString('utf8')),
    };
    this.recorder.exchanges.push(exchange);
    try {
      const res = await this.ctx.fetch(url, { method: o.method, headers, data, timeout: o.timeout ?? this.defaults.timeout, failOnStatusCode: false, maxRedirects: 0 });
      const text = (await res.body()).toString('utf8');
      let body: unknown = text;
      let isJson = false;
      if (text.length) {
        try { body = JSON.parse(text); isJson = true; } catch { /* not JSON */ }
      } else body = undefined;
      exchange.status = res.status();
      exchange.responseHeaders = redactHeaders(res.headers());
      exchange.responseBody = clip(redactValue(body));
      exchange.durationMs = Date.now() - started;
      if (res.status() >= 200 && res.status() < 300 && ['POST', 'PUT'].includes(o.method) && !/search|activities$|token|authorize/.test(o.path)) {
        for (const item of Array.isArray(body) ? body : [body]) {
          if (item && typeof item === 'object' && 'id' in item) this.recorder.created.push({ path: o.path, id: (item as { id: unknown }).id });
        }
      }
      return { status: res.status(), headers: res.headers(), body: body as T, text, isJson, exchange };
    } catch (err) {
      exchange.error = redactText((err as Error).message.split('\n')[0]);
      exchange.durationMs = Date.now() - started;
      throw new Error(`${o.method} ${redactText(url)} got no answer: ${exchange.error}`);
    }
  }
}

/** One-line summary of an exchange for failure messages. */
export function describeExchange(x: Exchange): string {
  const body = x.responseBody === undefined ? '(empty body)' : JSON.stringify(x.responseBody);
  const sent = x.requestBody === undefined ? '' : `\n  sent: ${JSON.stringify(x.requestBody).slice(0, 600)}`;
  return `${x.method} ${x.url} → ${x.error ? `no answer (${x.error})` : x.status}${sent}\n  got: ${body.slice(0, 1200)}\n  replay: ${x.curl}`;
}

export { REDACTED };
