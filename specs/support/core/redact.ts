/**
 * Redaction: secrets (tokens, client secret, codes, passwords) never reach a report, trace,
 * log or attachment. Every recorded exchange and every message passes through here.
 *
 * Where a secret stands is known in most places: a credential header, a form field or query
 * parameter (`client_secret=…`, `code=…`), a member of a JSON text (`"access_token": "…"`), and
 * the userinfo of a URL (`https://user:pass@host`). Those are redacted whatever the value, always.
 * Elsewhere (free text: an error message echoing a token) a configured secret is found by its
 * value, and only where that is safe: a secret of {@link MIN_ANYWHERE} characters or more is
 * replaced wherever it occurs; a shorter one of {@link MIN_STANDALONE} or more only where it
 * stands alone (not inside a longer word); a shorter one still is never searched for in free text:
 * replacing a one-letter token `t` everywhere would turn `http://` into `h«redacted»«redacted»p://`.
 */
import { loadConfig, type TargetConfig } from './config.js';

export const REDACTED = '«redacted»';
/** A secret this long or longer is replaced wherever it occurs in a text. */
export const MIN_ANYWHERE = 8;
/** A secret this long (and shorter than MIN_ANYWHERE) is replaced where it stands alone; shorter ones only in known places. */
export const MIN_STANDALONE = 4;

/** Header names whose values are always secret. */
const SECRET_HEADERS = new Set(['x-svc-accesstoken', 'authorization', 'cookie', 'set-cookie', 'proxy-authorization']);
/** Header names that carry a credential by their name (x-api-key, x-auth-token, x-client-secret, …). */
const SECRET_HEADER_NAME = /token|secret|passw|api[-_]?key|credential/i;
/** Whether the value of a header is a credential, whatever it is. */
export const isSecretHeader = (name: string): boolean => SECRET_HEADERS.has(name.toLowerCase()) || SECRET_HEADER_NAME.test(name);

const KEY_NAMES = 'access_token|refresh_token|id_token|client_secret|code|password|secret_token|security_token|signature|policy';
/** Form/JSON member names whose values are always secret. */
const SECRET_KEYS = new RegExp(`^(${KEY_NAMES})$`, 'i');
/** A secret form field or query parameter: `client_secret=…` (its value up to the next `&`). */
const FORM_FIELD = new RegExp(`(^|[?&])(${KEY_NAMES})=([^&#\\s"'<>]+)`, 'gi');
/** A secret member of a JSON text with a string value: `"access_token": "…"`. */
const JSON_FIELD = new RegExp(`("(?:${KEY_NAMES})"\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"`, 'gi');
/** Member names whose values are secret, as they appear in JSON text. */
const SECRET_KEY_IN_JSON = new RegExp(`"(${KEY_NAMES})"\\s*:`, 'i');
/** The userinfo of a URL: `scheme://user:pass@`. */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>\\]+@/gi;

/** A message without its terminal colour codes (Playwright's expect messages carry them). */
export const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

/** A text with the userinfo of every URL in it replaced (`https://«redacted»@host/…`). */
export function stripUserinfo(text: string): string {
  return text.includes('@') && text.includes('://') ? text.replace(USERINFO, `$1${REDACTED}@`) : text;
}

/**
 * Every value of a known secret place in `text` (form fields and query parameters, JSON members,
 * a URL's userinfo) replaced by `to(value)`; `value` is the field's text as it stands (a form
 * value still percent-encoded, a JSON string still escaped).
 */
export function redactKnownPlaces(text: string, to: (value: string) => string = () => REDACTED): string {
  let out = stripUserinfo(text);
  if (out.includes('=')) out = out.replace(FORM_FIELD, (_m, pre: string, key: string, value: string) => `${pre}${key}=${to(value)}`);
  if (out.includes('":')) out = out.replace(JSON_FIELD, (_m, head: string, value: string) => `${head}"${to(value)}"`);
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Word characters (letters, digits, `_`, `-`): a shorter secret is replaced only where none of them touches it. */
const TOKEN_CHAR = 'A-Za-z0-9_\\-';

/**
 * Each secret of `pairs` replaced by its replacement where that is safe (see the file's comment):
 * anywhere from MIN_ANYWHERE characters, where it stands alone from MIN_STANDALONE, never below.
 * Longer secrets first, so that one containing another is replaced whole.
 */
export function replaceSecrets(text: string, pairs: [secret: string, replacement: string][]): string {
  let out = text;
  for (const [secret, replacement] of [...pairs].sort((a, b) => b[0].length - a[0].length)) {
    if (!secret || secret.length < MIN_STANDALONE || !out.includes(secret)) continue;
    if (secret.length >= MIN_ANYWHERE) out = out.split(secret).join(replacement);
    else out = out.replace(new RegExp(`(?<![${TOKEN_CHAR}])${escapeRegExp(secret)}(?![${TOKEN_CHAR}])`, 'g'), () => replacement);
  }
  return out;
}

/** The user and password of the configured URLs, as written and decoded: secrets wherever they appear. */
const userinfoSecrets = new WeakMap<TargetConfig, string[]>();
function secretsOf(cfg: TargetConfig): string[] {
  let fromUrls = userinfoSecrets.get(cfg);
  if (!fromUrls) {
    fromUrls = [];
    for (const raw of [cfg.baseUrl, cfg.authUrl, cfg.publicUrl]) {
      if (!raw) continue;
      try {
        const u = new URL(raw);
        for (const part of [u.username, u.password]) {
          if (!part) continue;
          fromUrls.push(part);
          try {
            fromUrls.push(decodeURIComponent(part));
          } catch {
            /* malformed escape: as written only */
          }
        }
      } catch {
        /* not a URL */
      }
    }
    userinfoSecrets.set(cfg, fromUrls);
  }
  return fromUrls.length ? [...cfg.secrets, ...fromUrls] : cfg.secrets;
}

/** The configured secrets (and those found at run time), with the user and password of the configured URLs. */
export const knownSecrets = (): string[] => secretsOf(loadConfig());

/** Every known secret (and `extra`) replaced by «redacted» where that is safe ({@link replaceSecrets}); known places left as they are. */
export function redactSecretValues(text: string, extra: string[] = []): string {
  const secrets = extra.length ? [...knownSecrets(), ...extra] : knownSecrets();
  return replaceSecrets(
    text,
    secrets.map((s): [string, string] => [s, REDACTED]),
  );
}

/** A text with its known secret places redacted ({@link redactKnownPlaces}) and every known secret where that is safe. */
export function redactText(text: string, extra: string[] = []): string {
  return redactSecretValues(redactKnownPlaces(text), extra);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (isSecretHeader(k))
      out[k] = /^(authorization|proxy-authorization)$/i.test(k)
        ? String(v)
            .replace(/^(\w+)\s.*$/s, `$1 ${REDACTED}`)
            .replace(/^[^\s]+$/, REDACTED)
        : REDACTED;
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
