/**
 * Helpers of the project and task specs (spec § Projects, § Tasks, § Limits): creating
 * namespaced records (projects through the spec, tasks and follows through the documented
 * extensions of the profile), searching (one page, or every page), and the order checks that
 * assert only what the spec fixes (key groups, never tie order).
 */
import { ProjectList, TaskList, type TargetProfile } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { inPool } from './core/pool.js';
import { answerOf, noteBodyCheck, notePages } from './core/recorder.js';
import { breaks, conforms, expect, expectJson, hasStatus, isJsonAnswer, ownRules, test, type Namespace } from './fixtures/test.js';
import { extension, make, NO_FOLLOW, NO_TASK_CREATE, type Ctx as MakeCtx, type Extension, type Rec } from './make.js';

export type Kind = 'projects' | 'tasks';
export type { Rec };
/** The pool of warm connections the concurrent races send through (core/pool.ts), for the specs that open one of their own. */
export { inPool };
export type Filter = Record<string, unknown>;

/** Ids as strings (identifiers may be numbers or strings). */
export const idOf = (r: { id: unknown }): string => String(r.id);
export const idsOf = (rs: { id: unknown }[]): string[] => rs.map(idOf);
export const sortedIds = (rs: { id: unknown }[]): string[] => idsOf(rs).sort();

/** Restricts a search to the records of this test's namespace. */
export const inNs = (ns: Namespace, filter: Filter = {}): Filter => ({ tags: [ns.id], ...filter });

/** Skips the running test when the target cannot create tasks. */
export function needTaskCreate(profile: TargetProfile): Extension {
  const ext = extension(profile, 'create_task');
  test.skip(!ext, NO_TASK_CREATE);
  return ext!;
}

/* ---------------- creating records ---------------- */

type Ctx = MakeCtx & { profile: NonNullable<MakeCtx['profile']> };

/** A project or a task (make.ts), with the namespace's tags and a namespaced name. */
export function create(kind: Kind, ctx: Ctx, body: Record<string, unknown> = {}): Promise<Rec> {
  return kind === 'projects' ? make.project(ctx, body) : make.task(ctx, body);
}

/** Creates records one after the other (so that creation order is the order of `bodies`). */
export async function createInOrder(kind: Kind, ctx: Ctx, bodies: Record<string, unknown>[]): Promise<Rec[]> {
  const out: Rec[] = [];
  for (const b of bodies) out.push(await create(kind, ctx, b));
  return out;
}

/** Creates records concurrently, a few at a time. */
export const createMany = (kind: Kind, ctx: Ctx, bodies: Record<string, unknown>[], concurrency = 8): Promise<Rec[]> =>
  inPool(bodies, concurrency, (b) => create(kind, ctx, b));

/**
 * Creates records (from `create1`) until one has a `field` timestamp later than `after`.
 * Timestamps have a resolution of one second and the suite does not assume the server's clock,
 * so it waits for the clock rather than polling with creates (each a record on a real account):
 * the first create waits until our clock's second after `after` (a server whose clock agrees
 * with ours, on loopback or synchronised, stamps it later); each further one waits a second
 * after the last answer (any running clock has moved on by then). A deadline ends a clock that
 * does not move. Returns every record created meanwhile.
 */
export async function createUntilLater(
  create1: () => Promise<Rec>,
  after: number,
  field: 'date_created' | 'date_modified' = 'date_created',
  deadlineMs = 10_000,
): Promise<Rec[]> {
  const made: Rec[] = [];
  const deadline = Date.now() + deadlineMs;
  // When the next create may go: our clock's next second after `after` (at most a second from now).
  let at = Date.now() + Math.min(1000, Math.max(0, (after + 1) * 1000 + CLOCK_MARGIN_MS - Date.now()));
  for (;;) {
    await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
    const rec = await create1();
    made.push(rec);
    if (rec[field] > after) return made;
    if (Date.now() > deadline)
      throw new Error(`no record with ${field} later than ${after} within ${deadlineMs / 1000} s: the server's ${field} does not advance`);
    at = Date.now() + 1000 + CLOCK_MARGIN_MS;
  }
}

/** How far past a second's start {@link createUntilLater} waits (timers and clocks are not exact). */
const CLOCK_MARGIN_MS = 20;

/** Follows a record through the profile's extension (the spec gives no way to follow). */
export async function follow(api: ApiClient, profile: TargetProfile, kind: Kind, id: unknown): Promise<void> {
  const ext = extension(profile, 'follow');
  if (!ext) throw new Error(NO_FOLLOW);
  const path = ext.path.replace('{entity_type}', kind).replace('{entity_id}', encodeURIComponent(String(id)));
  const res = await api.send({ method: ext.method, path });
  expect(res, `the follow extension answers 2xx for ${kind} ${String(id)}`).toHaveStatus([200, 201, 204]);
}

/* ---------------- searching ---------------- */

const listContract = (kind: Kind) => (kind === 'projects' ? ProjectList : TaskList);

/** One search request; checks 200, JSON and the list contract (quietly unless one fails: properties make thousands). */
export async function search(api: ApiClient, kind: Kind, filter: Filter): Promise<Rec[]> {
  const res = await searchRaw(api, kind, filter);
  if (!hasStatus(res, 200) || !isJsonAnswer(res) || !conforms(res, listContract(kind))) {
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(listContract(kind));
  }
  return res.body as Rec[];
}

export function searchRaw(api: ApiClient, kind: Kind, filter: unknown): Promise<ApiResponse<unknown>> {
  return api.post(`/${kind}/search`, filter);
}

/**
 * Every page of a search (page_size ≤ 20, which every target serves since 20 is the
 * default), until a short page. Checks that no page is longer than page_size.
 */
export async function searchAll(api: ApiClient, kind: Kind, filter: Filter, pageSize = 20, maxPages = 200): Promise<Rec[]> {
  const { records, complete } = await searchPages(api, kind, filter, pageSize, maxPages);
  if (!complete) throw new Error(`more than ${maxPages} pages of ${pageSize}: the namespace filter does not restrict the search`);
  return records;
}

/** {@link searchAll}, but a search of more than `maxPages` pages answers those it read, as not `complete` (the caller says what that means). */
export async function searchPages(
  api: ApiClient,
  kind: Kind,
  filter: Filter,
  pageSize: number,
  maxPages: number,
): Promise<{ records: Rec[]; complete: boolean }> {
  const out: Rec[] = [];
  const pages: Rec[][] = [];
  for (let page = 1; page <= maxPages; page++) {
    const got = await search(api, kind, { ...filter, page_size: pageSize, page_number: page });
    if (got.length > pageSize)
      expect(got.length, `page ${page} of ${JSON.stringify(filter)} has at most page_size (${pageSize}) entries`).toBeLessThanOrEqual(pageSize);
    out.push(...got);
    pages.push(got);
    if (got.length < pageSize) {
      notePages(out, pages); // a failed check of the records found replays every page
      return { records: out, complete: true };
    }
  }
  return { records: out, complete: false };
}

/**
 * Expects exactly these records (as a set of ids), each once. A search of the test's namespace (its
 * one tag) with the test's criteria rests on criteria combining with AND (SEARCH-5): a failure names
 * it beside the test's own rule (reporting/blame.ts), or the `rules` a step of one criterion rests on.
 */
export function expectSameRecords(got: { id: unknown }[], want: { id: unknown }[], what: string, rules = [...ownRules(), 'SEARCH-5']): void {
  const ids = idsOf(got);
  const names = breaks(rules);
  if (ids.length !== new Set(ids).size) {
    noteRecordsCheck(got, want, what);
    expect(ids.length, `${what}: no record twice${names}`).toBe(new Set(ids).size);
  }
  if (!sameList(sortedIds(got), sortedIds(want))) {
    noteRecordsCheck(got, want, what);
    expect(sortedIds(got), `${what}${names}`).toEqual(sortedIds(want));
  }
}

/** For the replay script: the records `got` (a search's answer, or its pages, whole) should have been `want`. */
function noteRecordsCheck(got: { id: unknown }[], want: { id: unknown }[], what: string): void {
  const answer = answerOf(got);
  if (!answer?.whole) return; // a part of the answers: the script could not tell the rest from a failure
  noteBodyCheck({
    exchanges: answer.exchanges,
    expect: { kind: 'ids', equals: sortedIds(want) },
    label: `${what}: the records found are exactly ${sortedIds(want).join(', ') || 'none'}, each once`,
  });
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/* ---------------- order checks ---------------- */

/** Collapses a sequence of keys into its runs: ['a','a','b','a'] → ['a','b','a']. */
export function runsOf(keys: string[]): string[] {
  return keys.filter((k, i) => i === 0 || keys[i - 1] !== k);
}

/**
 * For a sort whose order between different keys the spec does not fix: the records with equal
 * keys are contiguous in both directions, and desc gives the groups in the reverse order of asc.
 * Records whose key is null are left out (null placement is not specified).
 */
export function expectGroupedOrder(asc: Rec[], desc: Rec[], keyOf: (r: Rec) => string | null, what: string): void {
  const a = runsOf(asc.map(keyOf).filter((k): k is string => k !== null));
  const d = runsOf(desc.map(keyOf).filter((k): k is string => k !== null));
  if (new Set(a).size === a.length && new Set(d).size === d.length && sameList(d, [...a].reverse())) return;
  expect(new Set(a).size, `${what} asc: records with equal keys are contiguous (groups in order: ${a.join(' | ')})`).toBe(a.length);
  expect(new Set(d).size, `${what} desc: records with equal keys are contiguous (groups in order: ${d.join(' | ')})`).toBe(d.length);
  expect(d, `${what}: desc gives the groups in the reverse order of asc`).toEqual([...a].reverse());
}

/**
 * For a sort whose order the spec fixes (names of one lower-case alphabet, timestamps): the
 * sequence of keys is the sorted sequence; ties may come in any order. Null keys left out.
 */
export function expectKeyOrder<K extends string | number>(got: Rec[], keyOf: (r: Rec) => K | null, direction: 'asc' | 'desc', what: string): void {
  const keys = got.map(keyOf).filter((k): k is K => k !== null);
  const sorted = [...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  if (direction === 'desc') sorted.reverse();
  if (!sameList(keys, sorted)) expect(keys, `${what}: keys in ${direction} order`).toEqual(sorted);
}

/** Distinct values, sorted. */
export function distinct(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}
