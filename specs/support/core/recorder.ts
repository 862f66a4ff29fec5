/**
 * What a test sent and got: every exchange recorded (redacted) so that a failure shows what was
 * sent, what came back and how to replay it (a curl line with secrets as $CRM_* variables).
 */
import { loadConfig } from './config.js';
import { redactText } from './redact.js';
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

/** One-line summary of an exchange for failure messages. */
export function describeExchange(x: Exchange): string {
  const body = x.responseBody === undefined ? '(empty body)' : JSON.stringify(x.responseBody);
  const sent = x.requestBody === undefined ? '' : `\n  sent: ${JSON.stringify(x.requestBody).slice(0, 600)}`;
  if (x.error) return `${x.method} ${x.url} → no usable answer: ${x.error}${sent}\n  replay: ${x.curl}`;
  const problem = x.problem ? ` (${x.problem})` : '';
  return `${x.method} ${x.url} → ${x.status}${problem}${sent}\n  got: ${body.slice(0, 1200)}\n  replay: ${x.curl}`;
}
