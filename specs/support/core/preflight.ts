/**
 * The preflight: before any test, a handful of requests tell whether the target can be judged at
 * all. It is `misconfigured` when the credentialed GET /account is answered 401 or 403 (the
 * configured credentials are refused) or 404 (no API at the configured base URL): a mistake of
 * the set-up, not a verdict on the server. It is `dead` when the credentialed GET /account gets no usable HTTP answer (no answer
 * within the request deadline, connection refused or reset, not HTTP, a body cut or too large),
 * `nonsense` when its answers break a MUST rule in a way no conformant server could (a 2xx to
 * GET /account whose body is no Account at all; the same 2xx answer with and without credentials
 * and for a path the API does not have), and `alive` otherwise. What the spec leaves open (the
 * statuses of refusals and of unknown paths) is never held against the target here: 500 to
 * everything is `alive`, and the tests judge it.
 *
 * Pure Node (no Playwright test import): the global set-up runs it once (one request deadline at
 * most, two in the rare case of the same 2xx answer with and without credentials) and writes the result to
 * a run file (PREFLIGHT_ENV names it for the workers); the one `rule()` asks {@link skipReason}
 * before each test, which also reports the mid-run latch of the API client (the target stopped
 * answering during the run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { getRule } from '../../../rules/index.js';
import { loadConfig, type TargetConfig } from './config.js';
import { ApiClient, TransportError, targetSilence, type ApiResponse } from './http.js';
import { Recorder, type Exchange } from './recorder.js';

export type TargetState = 'alive' | 'misconfigured' | 'dead' | 'nonsense';

/** One request of the preflight and what came back (redacted). */
export interface Probe {
  /** What the request checks, in words. */
  label: string;
  method: string;
  url: string;
  /** HTTP status; 0 when no usable answer came back. */
  status: number;
  contentType?: string;
  /** The body as text, clipped. */
  body?: string;
  /** No usable answer: the transport problem, in words. */
  error?: string;
  /** An answer with a problem (invalid JSON, not JSON). */
  problem?: string;
  durationMs: number;
  curl: string;
}

/**
 * A MUST rule the preflight saw broken. The report marks the rule FAIL with this message (its
 * tests are skipped with the rest: each failed test would cost a new Playwright worker).
 */
export interface Finding {
  rule: string;
  message: string;
  /** The curl line of the request that shows it (secrets as $CRM_* variables). */
  replay: string;
}

export interface PreflightResult {
  version: 1;
  runId: string;
  /** `{base_url}/developer_api/v1` */
  target: string;
  at: string;
  deadlineMs: number;
  state: TargetState;
  /** One line: what is wrong (empty when alive). */
  headline: string;
  /** What it means for the run (empty when alive). */
  meaning: string;
  probes: Probe[];
  findings: Finding[];
  durationMs: number;
}

/** The environment variable naming the run's preflight file (set by the global set-up, read by workers). */
export const PREFLIGHT_ENV = 'CRM_PREFLIGHT_FILE';
export const PREFLIGHT_FILE = 'preflight.json';
/** A path the API does not have: a target that answers it like GET /account answers everything alike. */
export const NO_SUCH_PATH = '/crm-conformance-preflight-no-such-endpoint';

const MAX_BODY = 300;
const ACCOUNT_MEMBERS = ['id', 'name', 'primary_timezone', 'settings'];

function probeOf(label: string, x: Exchange, res?: ApiResponse): Probe {
  const text = res ? res.text : undefined;
  return {
    label,
    method: x.method,
    url: x.url,
    status: x.error ? 0 : x.status,
    ...(res?.headers['content-type'] ? { contentType: res.headers['content-type'] } : {}),
    ...(text !== undefined ? { body: text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text } : {}),
    ...(x.error ? { error: x.error } : {}),
    ...(x.problem ? { problem: x.problem } : {}),
    durationMs: x.durationMs,
    curl: x.curl,
  };
}

/** Sends one probe; never throws. The body kept is the redacted one of the recorded exchange. */
async function probe(api: ApiClient, label: string, path: string, auth: 'default' | 'none'): Promise<{ probe: Probe; res?: ApiResponse }> {
  try {
    const res = await api.get(path, auth === 'none' ? { auth: 'none', honour429: false } : { honour429: false });
    const body = res.exchange.responseBody;
    const redacted = { ...res, text: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body) };
    return { probe: probeOf(label, res.exchange, redacted), res };
  } catch (err) {
    if (err instanceof TransportError) return { probe: probeOf(label, err.exchange) };
    const x = api.recorder.exchanges.at(-1);
    return { probe: { label, method: 'GET', url: api.url(path), status: 0, error: (err as Error).message, durationMs: 0, curl: x?.curl ?? '' } };
  }
}

const is2xx = (status: number) => status >= 200 && status < 300;

/** What came back, in a few words: `200 application/json {}` or the transport problem. */
export function describeProbe(p: Probe): string {
  if (p.error) return `no usable answer: ${p.error}`;
  const body = p.body === undefined || p.body === '' ? '(empty body)' : p.body.replace(/\s+/g, ' ');
  return `${p.status}${p.contentType ? ` ${p.contentType}` : ''} ${body}${p.problem ? ` (${p.problem})` : ''}`;
}

/** Why a 2xx body to GET /account is no Account at all, or undefined when it is one or close to one. */
function notAnAccount(res: ApiResponse): string | undefined {
  if (!res.isJson) return res.exchange.problem ?? 'the body is not JSON';
  const body = res.body as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `the body is ${Array.isArray(body) ? 'an array' : JSON.stringify(body)}, not an object`;
  if (!ACCOUNT_MEMBERS.some((k) => k in body)) return `the body has none of the members of an Account (${ACCOUNT_MEMBERS.join(', ')})`;
  return undefined;
}

type Sent = { probe: Probe; res?: ApiResponse };

/** The same 2xx answer as `account` (status and body text). */
const sameAnswer = (account: Sent, other?: Sent) =>
  !!account.res && !!other?.res && is2xx(other.res.status) && other.res.status === account.res.status && other.res.text === account.res.text;

/**
 * A mistake of the set-up that the credentialed GET /account shows: 401/403 (the configured
 * credentials are refused) or 404 (nothing serves the API's path at the configured base URL).
 * GET /account needs nothing but valid credentials; no conformant server refuses it to them.
 */
function setupProblem(a: Probe): { headline: string; fix: string } | undefined {
  const api = a.url.replace(/\/account$/, '');
  if (a.status === 401 || a.status === 403) {
    return {
      headline: `the target refuses the configured credentials: GET ${a.url} answered ${a.status}`,
      fix: 'Check the credentials: CRM_ACCESS_TOKEN with CRM_USER_EMAIL (the X-SVC-AccessToken and X-SVC-UserEmail headers), or CRM_BEARER_TOKEN; `npx crm-conformance doctor` tries each.',
    };
  }
  if (a.status === 404) {
    return {
      headline: `no API at the configured base URL: GET ${a.url} answered 404`,
      fix: `CRM_BASE_URL must be the server's base URL, before /developer_api/v1 (the suite adds it: requests now go to ${api}/…). Check its host, port and path prefix.`,
    };
  }
  return undefined;
}

/**
 * Classifies the probes (pure: the self-tests call it with made-up answers). `unknown`, the
 * answer for a path the API does not have, is only asked for when the answers with and without
 * credentials are the same 2xx answer.
 */
export function classify(account: Sent, anonymous: Sent, unknown?: Sent): Pick<PreflightResult, 'state' | 'headline' | 'meaning' | 'findings'> {
  const a = account.probe;
  if (a.error || !account.res) {
    return {
      state: 'dead',
      headline: `the target is dead: ${a.method} ${a.url} with the configured credentials got no usable answer: ${a.error ?? 'no answer'}`,
      meaning:
        'No rule can be judged against a target that does not answer. Every test is skipped with this reason and the verdict is INCONCLUSIVE (exit code 1). Check CRM_BASE_URL, that the server is up and reachable from here, and CRM_REQUEST_TIMEOUT_MS.',
      findings: [],
    };
  }
  const setup = setupProblem(a);
  if (setup)
    return {
      state: 'misconfigured',
      headline: setup.headline,
      meaning: `${setup.fix} No rule is judged until the set-up is right: every test is skipped with this reason and the verdict is INCONCLUSIVE (exit code 1).`,
      findings: [],
    };
  const findings: Finding[] = [];
  const wrong = is2xx(a.status) ? notAnAccount(account.res) : undefined;
  if (wrong) findings.push({ rule: 'ACCOUNT-1', message: `GET /account answered ${a.status}: ${wrong}; that is not an Account`, replay: a.curl });
  const anon = anonymous.res;
  const echoesAll = sameAnswer(account, anonymous) && sameAnswer(account, unknown);
  if (anon && is2xx(anon.status) && (wrong || echoesAll)) {
    findings.push({
      rule: 'AUTH-3',
      message: `GET /account without credentials answered ${anon.status}${sameAnswer(account, anonymous) ? ', the same answer as with credentials' : ''}: a request without credentials must be refused`,
      replay: anonymous.probe.curl,
    });
  }
  if (!wrong && !echoesAll) return { state: 'alive', headline: '', meaning: '', findings: [] };
  const rules = findings.map((f) => `${f.rule} (${getRule(f.rule).level})`).join(', ');
  const shown = (a.body ?? '').replace(/\s+/g, ' ');
  const headline = wrong
    ? `the target answers nonsense: GET /account answered ${a.status} ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown || '(empty body)'}: ${wrong}`
    : `the target answers nonsense: the same ${a.status} answer with credentials, without credentials and for a path the API does not have`;
  return {
    state: 'nonsense',
    headline,
    meaning: `MUST rules fail before any test: ${rules}; the report records them with these requests as evidence. Nothing else can be judged against answers like these: every test is skipped with this reason. Verdict: NOT CONFORMANT (exit code 1).`,
    findings,
  };
}

/**
 * Probes the target once, each request with the run's request deadline: GET /account with and
 * without credentials at the same time, then, only when both got the same 2xx answer, a path the
 * API does not have.
 */
export async function runPreflight(cfg: TargetConfig = loadConfig()): Promise<PreflightResult> {
  const started = Date.now();
  const api = new ApiClient(new Recorder(), { timeout: cfg.requestTimeoutMs, honour429: false }, cfg);
  const [account, anonymous] = await Promise.all([
    probe(api, 'GET /account with the configured credentials (ACCOUNT-1: answers an Account)', '/account', 'default'),
    probe(api, 'GET /account without credentials (AUTH-3: refused)', '/account', 'none'),
  ]);
  const unknown = sameAnswer(account, anonymous)
    ? await probe(api, 'GET a path the API does not have, with credentials (not judged: does the target answer everything alike?)', NO_SUCH_PATH, 'default')
    : undefined;
  const verdict = classify(account, anonymous, unknown);
  return {
    version: 1,
    runId: cfg.runId,
    target: cfg.apiUrl,
    at: new Date(started).toISOString(),
    deadlineMs: cfg.requestTimeoutMs,
    ...verdict,
    probes: [account.probe, anonymous.probe, ...(unknown ? [unknown.probe] : [])],
    durationMs: Date.now() - started,
  };
}

/** The one banner printed before any test when the target is dead or answers nonsense (empty when alive). */
export function banner(r: PreflightResult): string {
  if (r.state === 'alive') return '';
  const rule = '='.repeat(100);
  const title = {
    dead: 'THE TARGET DOES NOT ANSWER',
    nonsense: 'THE TARGET ANSWERS NONSENSE',
    misconfigured: 'THE SET-UP IS WRONG (NOT A VERDICT ON THE SERVER)',
  }[r.state];
  const lines = [
    rule,
    `crm-conformance preflight: ${title}`,
    `Target: ${r.target}. Before any test, ${r.probes.length} requests were sent (deadline ${r.deadlineMs / 1000} s each); what came back:`,
    ...r.probes.map((p) => `  ${p.label}\n      ${p.method} ${p.url} → ${describeProbe(p).slice(0, 400)}`),
    `What it means: ${r.headline}.`,
    ...r.findings.map((f) => `  ${f.rule} (MUST) fails: ${f.message}`),
    r.meaning,
    `Replay: ${r.probes[0].curl}`,
    rule,
  ];
  return lines.join('\n');
}

export function writePreflight(file: string, r: PreflightResult): void {
  writeFileSync(file, JSON.stringify(r, null, 2));
}

/** The run's preflight result (the file PREFLIGHT_ENV names), or undefined when there is none. */
export function readPreflight(file = process.env[PREFLIGHT_ENV]): PreflightResult | undefined {
  if (!file) return undefined;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as PreflightResult;
    return r.version === 1 ? r : undefined;
  } catch {
    return undefined;
  }
}

/** The target's answer time as the preflight measured it: the median of its answered probes (ms); undefined without a preflight. */
export function measuredLatencyMs(r: PreflightResult | undefined = readPreflight()): number | undefined {
  const times = (r?.probes ?? [])
    .filter((p) => p.status > 0)
    .map((p) => p.durationMs)
    .sort((a, b) => a - b);
  return times.length ? times[Math.floor(times.length / 2)] : undefined;
}

/**
 * A test's time limit for a target that answers in `latencyMs`: the configured limit, plus room
 * for 60 answers at that latency beyond the first 50 ms of each (a test sends a few dozen requests
 * one after another). Loopback and near targets keep the configured limit.
 */
export function timeLimitFor(configuredMs: number, latencyMs: number | undefined): number {
  if (!latencyMs || latencyMs <= 50) return configuredMs;
  return Math.min(configuredMs + 60 * (latencyMs - 50), 15 * 60_000);
}

let cached: { file?: string; result?: PreflightResult } | undefined;

/**
 * Why a test must not run: the target was dead at the preflight, or answered nonsense (the
 * report records the MUST rules the preflight saw broken), or stopped answering during the run
 * (the API client's latch: the last requests of the run got no answer). Undefined when the test
 * should run.
 */
/** This worker's time limit for a test whose configured limit is `configuredMs` (the run's preflight, read once). */
export function testTimeLimit(configuredMs: number): number {
  const file = process.env[PREFLIGHT_ENV];
  if (!cached || cached.file !== file) cached = { file, result: readPreflight(file) };
  return timeLimitFor(configuredMs, measuredLatencyMs(cached.result));
}

export function skipReason(): string | undefined {
  const file = process.env[PREFLIGHT_ENV];
  if (!cached || cached.file !== file) cached = { file, result: readPreflight(file) };
  const r = cached.result;
  if (r?.state === 'dead' || r?.state === 'misconfigured') return `preflight: ${r.headline}`;
  if (r?.state === 'nonsense') return `preflight: ${r.headline}; failed before any test: ${r.findings.map((f) => f.rule).join(', ')}`;
  return targetSilence();
}
