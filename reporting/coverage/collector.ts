/**
 * The coverage of one run, gathered as it goes: the conformance reporter hands each test's
 * recorded exchanges (its `exchanges.json`), the notifications its `hooks` received
 * (`notifications.json`) and its OAuth steps (`oauth-steps.json`) to {@link CoverageCollector.addTest}
 * once, when the test ends; each exchange is matched to its endpoint and classified once
 * (reporting/coverage/classify.ts), its transitions judged in the order of the test's exchanges
 * (reporting/coverage/transitions.ts). Only counts are kept, and per endpoint the spec files whose
 * tests sent it requests (given the test's file): no value, no exchange.
 */
import { readAnswerShape } from '../../specs/support/core/answer-shape.js';
import type { OAuthStep } from '../../specs/support/core/oauth-steps.js';
import { answerMembers, answerShapeMembers, param, request, type Counts } from './classify.js';
import { endpointMatcher, surface as surfaceOf, type EndpointSurface, type Surface } from './surface.js';
import { TestTransitions } from './transitions.js';

/** An exchange as exchanges.json holds it (the members the map reads). */
export interface RecordedExchange {
  method?: string;
  url?: string;
  status?: number;
  requestBody?: unknown;
  responseBody?: unknown;
  /** What a slimmed exchange kept of its answer (specs/support/core/answer-shape.ts). */
  answerShape?: string;
  error?: string;
}

/** What the map counts beside the classes (summed by a merge). */
export interface CoverageTallies {
  /** Requests per endpoint key. */
  requests: Record<string, number>;
  /** Statuses seen per endpoint key ("0": no usable answer). */
  statuses: Record<string, Record<string, number>>;
  /** Requests to paths the spec does not show (the profile's extensions, a signed upload's step 2), by method and path shape. */
  outsideSpec: Record<string, number>;
  exchanges: number;
  /** Answers with neither a body nor a shape (longer than the recorder keeps, then slimmed): their members are not counted. */
  answersWithoutBody: number;
  notifications: number;
  oauthSteps: number;
  /**
   * Per endpoint key, the spec files whose tests sent it a request (`GET /oauth/authorize`: whose
   * tests made an authorization request, through the browser: an OAuth step), and per path shape outside the spec the same;
   * each list sorted, without repeats (united by a merge).
   */
  specFiles: Record<string, string[]>;
  outsideSpecFiles: Record<string, string[]>;
}

export const emptyTallies = (): CoverageTallies => ({
  requests: {},
  statuses: {},
  outsideSpec: {},
  exchanges: 0,
  answersWithoutBody: 0,
  notifications: 0,
  oauthSteps: 0,
  specFiles: {},
  outsideSpecFiles: {},
});

/** Adds `file` to the sorted list of `key` (kept without repeats). */
export function addFile(lists: Record<string, string[]>, key: string, file: string): void {
  const list = (lists[key] ??= []);
  if (list.includes(file)) return;
  list.push(file);
  list.sort();
}

/** The endpoint the OAuth steps stand for: the authorization request, made by the browser and never recorded as an exchange. */
const AUTHORIZE = 'GET /oauth/authorize';

export interface TestInput {
  /** The test's spec file, relative to the project (`specs/people/create.spec.ts`): listed for each endpoint it sent requests to. */
  file?: string;
  exchanges: RecordedExchange[];
  /** notifications.json of the hooks fixture: `{ <receiving path>: [{ body, … }] }`. */
  notifications?: unknown;
  oauthSteps?: OAuthStep[];
}

const clipped = (v: unknown) => typeof v === 'string' && /… \(\d+ characters\)$/.test(v);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A path the spec does not show, as a shape: every segment with a digit, or not a plain word, stands as `{…}`. */
export function outsideShape(method: string, url: string): string {
  const m = /^[a-z]+:\/\/[^/]+(\/[^?#]*)?/i.exec(url);
  const path = m?.[1] ?? '';
  const api = path.indexOf('/developer_api/v1');
  if (api < 0) return `${method} (another host or path)`;
  const shape = path
    .slice(api + '/developer_api/v1'.length)
    .split('/')
    .map((s) => (!s || /^[a-z_]{1,30}$/.test(s) ? s : '{…}'))
    .join('/');
  return `${method} ${shape}`;
}

export class CoverageCollector {
  readonly counts: Counts;
  readonly tallies: CoverageTallies = emptyTallies();
  private readonly match: ReturnType<typeof endpointMatcher>;

  constructor(readonly surface: Surface = surfaceOf()) {
    this.counts = new Array(this.surface.classes.length).fill(0);
    this.match = endpointMatcher(this.surface);
  }

  /**
   * Counts one test's exchanges, notifications and OAuth steps; answers the endpoints it sent
   * requests to, sorted (`GET /oauth/authorize` for an authorization request).
   */
  addTest(input: TestInput): string[] {
    const t = new TestTransitions(this.counts, this.surface.named);
    const reached = new Set<string>();
    for (const x of input.exchanges) {
      const e = this.exchange(x, input.file);
      if (e) {
        t.exchange(e.key, x);
        reached.add(e.key);
      }
    }
    if (input.oauthSteps?.some((o) => o.step === 'authorize')) reached.add(AUTHORIZE);
    if (input.notifications) this.tallies.notifications += t.notifications(input.notifications);
    for (const step of input.oauthSteps ?? []) t.oauth(step);
    this.tallies.oauthSteps += input.oauthSteps?.length ?? 0;
    if (input.file && input.oauthSteps?.some((o) => o.step === 'authorize')) addFile(this.tallies.specFiles, AUTHORIZE, input.file);
    return [...reached].sort();
  }

  /** Matches and classifies one exchange of `file`; its endpoint, or undefined (a path the spec does not show). */
  private exchange(x: RecordedExchange, file: string | undefined): EndpointSurface | undefined {
    this.tallies.exchanges++;
    const method = String(x.method ?? 'GET');
    const found = this.match(method, String(x.url ?? ''));
    if (!found) {
      const shape = outsideShape(method, String(x.url ?? ''));
      this.tallies.outsideSpec[shape] = (this.tallies.outsideSpec[shape] ?? 0) + 1;
      if (file) addFile(this.tallies.outsideSpecFiles, shape, file);
      return undefined;
    }
    const { e, params } = found;
    if (file) addFile(this.tallies.specFiles, e.key, file);
    const status = String(x.status ?? 0);
    this.tallies.requests[e.key] = (this.tallies.requests[e.key] ?? 0) + 1;
    const seen = (this.tallies.statuses[e.key] ??= {});
    seen[status] = (seen[status] ?? 0) + 1;
    e.params.forEach((n, i) => param(this.counts, n, params[i]));
    // A body the recorder clipped (longer than it keeps) is not classified; nor is none at all.
    if (e.request && x.requestBody !== undefined && !clipped(x.requestBody)) request(this.counts, e.request, x.requestBody);
    this.answer(e, x);
    return e;
  }

  /** The status class and the answer's members (by the contract of its status). */
  private answer(e: EndpointSurface, x: RecordedExchange): void {
    const s = x.status ?? 0;
    const a = e.answers.find((y) => (y.status === '2xx' ? s >= 200 && s < 300 : y.status === String(s)));
    if (!a) return;
    this.counts[a.classIndex]++;
    if (!a.contracts.some((c) => c.members.size)) return;
    if (x.responseBody === undefined) {
      // A slimmed exchange keeps the answer's shape: enough for an answer of one contract.
      const shape = typeof x.answerShape === 'string' ? readAnswerShape(x.answerShape) : undefined;
      if (shape && a.contracts.length === 1 && (shape.items !== undefined) === a.contracts[0].list)
        answerShapeMembers(this.counts, a.contracts[0].members, shape);
      else if (!x.error) this.tallies.answersWithoutBody++;
      return;
    }
    const list = a.contracts[0].list;
    const items = list ? (Array.isArray(x.responseBody) ? x.responseBody : []) : [x.responseBody];
    for (const item of items) {
      if (!isObject(item)) continue;
      const c = a.contracts.length === 1 ? a.contracts[0] : bestContract(a.contracts, item);
      answerMembers(this.counts, c.members, item);
    }
  }
}

/** Of several contracts an item may match, the one whose members it has most of. */
function bestContract<T extends { members: Map<string, unknown> }>(contracts: T[], item: Record<string, unknown>): T {
  let best = contracts[0];
  let score = -1;
  for (const c of contracts) {
    let n = 0;
    for (const k of c.members.keys()) if (k in item) n++;
    const s = n / Math.max(1, c.members.size);
    if (s > score) [best, score] = [c, s];
  }
  return best;
}
