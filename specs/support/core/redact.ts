/**
 * Redaction: secrets (tokens, client secret, codes, passwords) never reach a report, trace,
 * log or attachment. Every recorded exchange and every message passes through here.
 */
import { loadConfig } from './config.js';

export const REDACTED = '«redacted»';
/** Header names whose values are always secret. */
const SECRET_HEADERS = new Set(['x-svc-accesstoken', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);
/** Form/JSON member names whose values are always secret. */
const SECRET_KEYS = /^(access_token|refresh_token|client_secret|code|password|secret_token|security_token|signature|policy)$/i;

/** A message without its terminal colour codes (Playwright's expect messages carry them). */
export const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

export function redactText(text: string, extra: string[] = []): string {
  let out = text;
  for (const s of extra.length ? [...loadConfig().secrets, ...extra] : loadConfig().secrets) {
    if (s && s.length >= 4 && out.includes(s)) out = out.split(s).join(REDACTED);
  }
  return out;
}

/** Member names whose values are secret, as they appear in JSON text. */
const SECRET_KEY_IN_JSON = /"(access_token|refresh_token|client_secret|code|password|secret_token|security_token|signature|policy)"\s*:/i;

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(k.toLowerCase())) out[k] = k.toLowerCase() === 'authorization' ? v.replace(/^(\w+)\s.*$/, `$1 ${REDACTED}`) : REDACTED;
    else out[k] = redactText(String(v));
  }
  return out;
}

/**
 * Redacts a JSON-like value: secret member names and every known secret string. `json`, the
 * value's JSON text when the caller has it (an answer's body), makes the common case cheap: a
 * text with no secret and no secret member name is returned as is, without a walk.
 */
export function redactValue<T>(value: T, json?: string): T {
  // (Escaped member names, \\u…, always take the walk.)
  if (json !== undefined && !json.includes('\\u') && redactText(json) === json && !SECRET_KEY_IN_JSON.test(json)) return value;
  const walk = (v: unknown, key?: string): unknown => {
    if (key && SECRET_KEYS.test(key) && typeof v === 'string') return REDACTED;
    if (typeof v === 'string') return redactText(v);
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
    return v;
  };
  return walk(value) as T;
}
