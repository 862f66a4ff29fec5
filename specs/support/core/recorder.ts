/**
 * What a test sent and got: every exchange recorded (redacted) so that a failure shows what was
 * sent, what came back and how to replay it (a curl line with secrets as $CRM_* variables).
 */
import { loadConfig } from './config.js';
import { answerShape } from './answer-shape.js';
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
  /** What the answer held member by member (core/answer-shape.ts, one line), kept in place of its body when the exchange was slimmed. */
  answerShape?: string;
  /** Network failure (timeout, reset, oversized body) instead of an answer. */
  error?: string;
  /** What is wrong with an answer that did arrive (invalid JSON, wrong Content-Type). */
  problem?: string;
  /** A shell line replaying the request; secrets appear as $CRM_* variables. */
  curl: string;
}

/**
 * What a check that failed on an answer's body expected of it, as data a replay script checks again
 * (core/body-check.cjs): the Lead it should be (`id`), the records a search should find, each once
 * (`ids`), or the contract it should match (`schema`, a JSON Schema). Ids as the failed run knew them.
 */
export type Expectation = { kind: 'id'; equals: string } | { kind: 'ids'; equals: readonly string[] } | { kind: 'schema'; name: string; schema: object };

/** A failed body check: the answers it judged (a search's pages: all of them), what it expected, in words. */
export interface BodyCheck {
  exchanges: Exchange[];
  expect: Expectation;
  label: string;
}

export const MAX_RECORDED_BODY = 8_000;
/** Exchanges of a test kept whole; older ones keep their request line, status and problem only. */
export const FULL_EXCHANGES = 100;

/** The recorder of each exchange (registered when answered): the test whose earlier requests it may depend on. */
const owners = new WeakMap<Exchange, Recorder>();

/**
 * Exchanges and created records of one test. A property test sends thousands of requests: the
 * last {@link FULL_EXCHANGES} keep their headers, bodies and replay line (what a failure shows),
 * the earlier ones are slimmed to method, URL, request body, status, duration, problem and the
 * answer's shape (its members and the kinds of value they held, core/answer-shape.ts), so that the
 * count, the statuses, every problem and what was sent and shown (the value classes of the coverage
 * map, reporting/coverage/: a request body is small, an answer is not) stay while the evidence
 * files stay small.
 */
export class Recorder {
  readonly exchanges: Exchange[] = [];
  readonly created: { path: string; id: unknown }[] = [];
  /**
   * Where the test's replay script is written when it fails (core/replay-script.ts), as the run's
   * working directory names it: a failure message names it.
   */
  replayScript?: string;
  /** The first check of the test that failed on an answer's body (for its replay script), see {@link noteBodyCheck}. */
  bodyCheck?: BodyCheck;
  private slimmed = 0;
  private owned = 0;

  /** Slims the exchanges that have fallen out of the last FULL_EXCHANGES (after each answer). */
  settle(): void {
    // Each exchange knows its test's recorder: a failure's evidence names the earlier requests it depends on.
    for (; this.owned < this.exchanges.length; this.owned++) owners.set(this.exchanges[this.owned], this);
    const keepFrom = this.exchanges.length - FULL_EXCHANGES;
    for (; this.slimmed < keepFrom; this.slimmed++) {
      const x = this.exchanges[this.slimmed];
      if (x.error || x.problem) continue;
      x.requestHeaders = {};
      x.responseHeaders = {};
      const shape = answerShape(x.responseBody);
      if (shape) x.answerShape = shape;
      delete x.responseBody;
      x.curl = '';
    }
  }
}

/** The exchanges whose answers each parsed body (each entry of a list body, each list of pages) is: {@link answerOf}. */
const answers = new WeakMap<object, { exchanges: Exchange[]; whole: boolean }>();

/** Notes that `body` (parsed, as the client hands it to the test) is the answer of `exchange`. */
export function noteAnswer(body: unknown, exchange: Exchange): void {
  if (!body || typeof body !== 'object') return;
  answers.set(body, { exchanges: [exchange], whole: true });
  if (Array.isArray(body))
    for (const item of body) if (item && typeof item === 'object' && !answers.has(item)) answers.set(item, { exchanges: [exchange], whole: false });
}

/** Notes that `list` is the records of these answers (a search's pages) taken together, whole. */
export function notePages(list: unknown[], pages: unknown[]): void {
  const exchanges = pages.flatMap((p) => answerOf(p)?.exchanges ?? []);
  if (exchanges.length === pages.length) answers.set(list, { exchanges, whole: true });
}

/** The exchanges `value` is the answer of, whole (`whole`), or an entry of whose list answer it is. */
export function answerOf(value: unknown): { exchanges: Exchange[]; whole: boolean } | undefined {
  return value && typeof value === 'object' ? answers.get(value) : undefined;
}

/**
 * Notes a check that failed on the body of answers: the test's replay script then checks the same
 * of the answers it gets (core/replay-script.ts). The first such check of a test is kept.
 */
export function noteBodyCheck(check: BodyCheck): void {
  const rec = check.exchanges.length ? owners.get(check.exchanges[check.exchanges.length - 1]) : undefined;
  if (rec) rec.bodyCheck ??= check;
}

/** The exchanges of the test `x` belongs to, in the order sent (`[x]` when it belongs to none). */
export function exchangesOfTest(x: Exchange): readonly Exchange[] {
  return owners.get(x)?.exchanges ?? [x];
}

export function clip(value: unknown): unknown {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text !== undefined && text.length > MAX_RECORDED_BODY) return `${text.slice(0, MAX_RECORDED_BODY)}… (${text.length} characters)`;
  return value;
}

/** A string in single quotes for the shell. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

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
    try {
      decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      /* as written */
    }
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
    parts.push(
      `--data-raw ${
        text
          .split(REFS)
          .map((piece, i) => (i % 2 ? `"$${piece}"` : piece === '' ? '' : shellQuote(piece)))
          .join('') || "''"
      }`,
    );
  }
  return parts.join(' ');
}

/** The ids of the records a 2xx answer to a POST or PUT made (an object with `id`, or a list of them), but those its URL names. */
export function idsMadeBy(x: Exchange): string[] {
  if (!(x.status >= 200 && x.status < 300) || !['POST', 'PUT'].includes(x.method) || /\/search\b|\/oauth\//.test(x.url)) return [];
  const body = x.responseBody;
  const ids = (Array.isArray(body) ? body : [body]).flatMap((item) => {
    const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
    return typeof id === 'string' || typeof id === 'number' ? [String(id)] : [];
  });
  // A record the request's own URL names was changed by it, not made (PUT /people/7004).
  const own = pathSegments(x);
  return ids.filter((id) => !own.has(id));
}

function pathSegments(x: Exchange): Set<string> {
  const out = new Set<string>();
  try {
    for (const seg of new URL(x.url).pathname.split('/')) if (seg) out.add(decodeURIComponent(seg));
  } catch {
    /* not a URL */
  }
  return out;
}

/** The ids a request names: the segments of its URL's path and the values of id-like members of its body (`id`, `*_id`, `*_ids`, `ids`). */
function idsNamedBy(x: Exchange): Set<string> {
  const out = pathSegments(x);
  const walk = (v: unknown, idLike: boolean): void => {
    if (Array.isArray(v)) v.forEach((i) => walk(i, idLike));
    else if (v && typeof v === 'object') for (const [k, w] of Object.entries(v)) walk(w, /^(id|ids)$|_ids?$/.test(k));
    else if (idLike && (typeof v === 'string' || typeof v === 'number')) out.add(String(v));
  };
  walk(x.requestBody, false);
  return out;
}

/** A request that changes what it names: not a read, not a search, answered 2xx. */
export const changes = (x: Exchange) => x.status >= 200 && x.status < 300 && x.method !== 'GET' && !/\/search\b|\/oauth\//.test(x.url);

/**
 * The earlier exchanges of `x`'s test that made records `x` names (and, in turn, those they name),
 * and those that changed them since (a conversion, an update), in the order they were sent; at
 * most `limit`.
 */
export function dependenciesOf(x: Exchange, limit = 8): { exchange: Exchange; ids: string[]; made: boolean }[] {
  const rec = owners.get(x);
  const at = rec ? rec.exchanges.indexOf(x) : -1;
  if (!rec || at <= 0) return [];
  const found = new Map<number, { ids: string[]; made: boolean }>();
  const visit = (i: number, depth: number) => {
    const named = idsNamedBy(rec.exchanges[i]);
    if (!named.size || depth > 4) return;
    for (let j = i - 1; j >= 0 && found.size < limit; j--) {
      const ids = idsMadeBy(rec.exchanges[j]).filter((id) => named.has(id));
      if (!ids.length || found.has(j)) continue;
      found.set(j, { ids, made: true });
      ids.forEach((id) => named.delete(id)); // the latest maker of an id is the one depended on
      // What changed those records between their making and request i.
      for (let k = j + 1; k < i && found.size < limit; k++) {
        if (found.has(k) || !changes(rec.exchanges[k])) continue;
        const touched = idsNamedBy(rec.exchanges[k]);
        const same = ids.filter((id) => touched.has(id));
        if (same.length) found.set(k, { ids: same, made: false });
      }
      visit(j, depth + 1);
    }
  };
  visit(at, 0);
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([i, d]) => ({ exchange: rec.exchanges[i], ...d }));
}

/**
 * What the replay of `x` needs first: the requests of its test that made (or since changed) the
 * records it names, and the script that sends them all with the ids the server gives now.
 */
function dependencyLines(x: Exchange): string {
  const deps = dependenciesOf(x);
  if (!deps.length) return '';
  const made = deps
    .map((d) => `${d.ids.join(', ')} ${d.made ? 'made' : 'changed'} by ${d.exchange.method} ${d.exchange.url} → ${d.exchange.status}`)
    .join('; ');
  const script = owners.get(x)?.replayScript;
  return `\n  depends on records made earlier in this test: ${made}.${
    script
      ? ` The replay script sends them first, taking the ids from their answers as the server gives them now, and says whether the failure shows: bash ${script}`
      : ''
  }`;
}

/** One-line summary of an exchange for failure messages; a request naming records made earlier in its test carries their requests. */
export function describeExchange(x: Exchange): string {
  const body = x.responseBody === undefined ? '(empty body)' : JSON.stringify(x.responseBody);
  const sent = x.requestBody === undefined ? '' : `\n  sent: ${JSON.stringify(x.requestBody).slice(0, 600)}`;
  if (x.error) return `${x.method} ${x.url} → no usable answer: ${x.error}${sent}\n  replay: ${x.curl}${dependencyLines(x)}`;
  const problem = x.problem ? ` (${x.problem})` : '';
  return `${x.method} ${x.url} → ${x.status}${problem}${sent}\n  got: ${body.slice(0, 1200)}\n  replay: ${x.curl}${dependencyLines(x)}`;
}
