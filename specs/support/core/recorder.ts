/**
 * What a test sent and got: every exchange recorded (redacted) so that a failure shows what was
 * sent, what came back and how to replay it (a curl line with secrets as $CRM_* variables).
 */
import { loadConfig } from './config.js';
import { isSecretHeader, redactKnownPlaces, REDACTED, redactSecretValues, replaceSecrets } from './redact.js';
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: unknown;
  durationMs: number;
  /** Network failure (timeout, reset, oversized body) instead of an answer. */
  error?: string;
  /** What is wrong with an answer that did arrive (invalid JSON, wrong Content-Type). */
  problem?: string;
  /** A shell line replaying the request; secrets appear as $CRM_* variables. */
  curl: string;
}

export const MAX_RECORDED_BODY = 8_000;
/** Exchanges of a test kept whole; older ones keep their request line, status and problem only. */
export const FULL_EXCHANGES = 100;

/**
 * Exchanges and created records of one test. A property test sends thousands of requests: the
 * last {@link FULL_EXCHANGES} keep their headers, bodies and replay line (what a failure shows),
 * the earlier ones are slimmed to method, URL, status, duration and problem, so that the count,
 * the statuses and every problem stay while the evidence files stay small.
 */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly created: { path: string; id: unknown }[] = [];
  private slimmed = 0;

  /** Slims the exchanges that have fallen out of the last FULL_EXCHANGES (after each answer). */
  settle(): void {
    const keepFrom = this.exchanges.length - FULL_EXCHANGES;
    for (; this.slimmed < keepFrom; this.slimmed++) {
      const x = this.exchanges[this.slimmed];
      if (x.error || x.problem) continue;
      x.requestHeaders = {};
      x.responseHeaders = {};
      delete x.requestBody;
      delete x.responseBody;
      x.curl = '';
    }
  }
}

export function clip(value: unknown): unknown {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text !== undefined && text.length > MAX_RECORDED_BODY) return `${text.slice(0, MAX_RECORDED_BODY)}… (${text.length} characters)`;
  return value;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Stands for `$NAME` while a replay line is built: spliced into double quotes as is, out of single quotes around it. */
const REF = (name: string) => `\u0000${name}\u0000`;
const REFS = /\u0000(\w+)\u0000/g;

/**
 * A shell line replaying a request; a configured secret appears as its variable ($CRM_ACCESS_TOKEN,
 * $CRM_BEARER_TOKEN, $CRM_CLIENT_SECRET), any other secret as «redacted». Where a secret stands is
 * known (a credential header, a form field, a JSON member) it is replaced whatever its length;
 * elsewhere only as {@link replaceSecrets} allows (a one-letter token is not searched for in the URL
 * or the body), so the line stays readable. The userinfo of a URL never appears.
 */
export function curlLine(method: string, url: string, headers: Record<string, string>, body?: string): string {
  const cfg = loadConfig();
  const refs: [string, string][] = [];
  if (cfg.credentials.accessToken) refs.push([cfg.credentials.accessToken, REF('CRM_ACCESS_TOKEN')]);
  if (cfg.credentials.bearerToken) refs.push([cfg.credentials.bearerToken, REF('CRM_BEARER_TOKEN')]);
  if (cfg.oauth.clientSecret) refs.push([cfg.oauth.clientSecret, REF('CRM_CLIENT_SECRET')]);
  if (cfg.oauth.loginPassword) refs.push([cfg.oauth.loginPassword, REF('CRM_LOGIN_PASSWORD')]);
  /** A value found in a secret place: its variable when it is a configured secret, else «redacted». */
  const standing = (value: string): string => {
    let decoded = value;
    try { decoded = decodeURIComponent(value.replace(/\+/g, ' ')); } catch { /* as written */ }
    return refs.find(([secret]) => secret === value || secret === decoded)?.[1] ?? REDACTED;
  };
  const sub = (s: string) => redactSecretValues(replaceSecrets(redactKnownPlaces(s, standing), refs));
  const inDouble = (s: string) => s.replace(/["\\`$]/g, '\\$&').replace(REFS, '$$$1');
  const headerValue = (k: string, v: string): string => {
    if (!isSecretHeader(k)) return sub(v);
    const m = /^(\w+)\s+(.*)$/s.exec(v);
    return m && /authorization$/i.test(k) ? `${m[1]} ${standing(m[2])}` : standing(v);
  };
  const parts = [`curl -sS -X ${method}`, `"${inDouble(sub(url))}"`];
  for (const [k, v] of Object.entries(headers)) parts.push(`-H "${inDouble(`${k}: ${headerValue(k, String(v))}`)}"`);
  if (body !== undefined) {
    const text = sub(body.length > MAX_RECORDED_BODY ? body.slice(0, MAX_RECORDED_BODY) + '…' : body);
    // Single quotes keep the body as it is; a variable is spliced in between them, in double quotes.
    parts.push(`--data-raw ${text.split(REFS).map((piece, i) => (i % 2 ? `"$${piece}"` : piece === '' ? '' : shellQuote(piece))).join('') || "''"}`);
  }
  return parts.join(' ');
}

/** One-line summary of an exchange for failure messages. */
export function describeExchange(x: Exchange): string {
  const body = x.responseBody === undefined ? '(empty body)' : JSON.stringify(x.responseBody);
  const sent = x.requestBody === undefined ? '' : `\n  sent: ${JSON.stringify(x.requestBody).slice(0, 600)}`;
  if (x.error) return `${x.method} ${x.url} → no usable answer: ${x.error}${sent}\n  replay: ${x.curl}`;
  const problem = x.problem ? ` (${x.problem})` : '';
  return `${x.method} ${x.url} → ${x.status}${problem}${sent}\n  got: ${body.slice(0, 1200)}\n  replay: ${x.curl}`;
}
