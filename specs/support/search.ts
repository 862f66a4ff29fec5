/**
 * Helpers of the project and task specs (spec § Projects, § Tasks, § Limits): creating
 * namespaced records (projects through the spec, tasks and follows through the documented
 * extensions of the profile), searching (one page, or every page), and the order checks that
 * assert only what the spec fixes (key groups, never tie order).
 */
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { ProjectList, TaskList, type TargetProfile } from '../../contracts/index.js';
import { recordBody, recordSet, requestSpec, toFilter, type CriteriaSpec, type RecordSet, type SearchWorld } from '../../generators/search-domain.js';
import {
  FIXED_ORDER, compareOrder, comparePage, compareReversed, compareSets, expectedMatches, pageIsFixed, pagingOf, type ModelContext,
} from '../../generators/search-model.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { extension, make, NO_FOLLOW, NO_TASK_CREATE, opportunitiesToRelate, type Extension, type Rec } from './make.js';
import type { TargetConfig } from './core/config.js';
import { redactText } from './core/redact.js';
import { conforms, expect, expectJson, hasStatus, isJsonAnswer, test, type Namespace } from './fixtures/test.js';

export type Kind = 'projects' | 'tasks';
export type { Rec };
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

type Ctx = Parameters<typeof make.task>[0];

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
export async function createMany(kind: Kind, ctx: Ctx, bodies: Record<string, unknown>[], concurrency = 8): Promise<Rec[]> {
  const out: Rec[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      out[i] = await create(kind, ctx, bodies[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
  return out;
}

/**
 * Creates records (from `nextBody`) until one has a `field` timestamp later than `after`,
 * polling with a deadline (never a fixed sleep): timestamps have a resolution of one second
 * and the suite does not assume the server's clock. Returns every record created meanwhile.
 */
export async function createUntilLater(create1: () => Promise<Rec>, after: number, field: 'date_created' | 'date_modified' = 'date_created', deadlineMs = 10_000): Promise<Rec[]> {
  const made: Rec[] = [];
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const rec = await create1();
    made.push(rec);
    if (rec[field] > after) return made;
    if (Date.now() > deadline) throw new Error(`no record with ${field} later than ${after} within ${deadlineMs / 1000} s: the server's ${field} does not advance`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

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
  const out: Rec[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const got = await search(api, kind, { ...filter, page_size: pageSize, page_number: page });
    if (got.length > pageSize) expect(got.length, `page ${page} of ${JSON.stringify(filter)} has at most page_size (${pageSize}) entries`).toBeLessThanOrEqual(pageSize);
    out.push(...got);
    if (got.length < pageSize) return out;
  }
  throw new Error(`more than ${maxPages} pages of ${pageSize}: the namespace filter does not restrict the search`);
}

/** Expects exactly these records (as a set of ids), each once. */
export function expectSameRecords(got: { id: unknown }[], want: { id: unknown }[], what: string): void {
  const ids = idsOf(got);
  if (ids.length !== new Set(ids).size) expect(ids.length, `${what}: no record twice`).toBe(new Set(ids).size);
  if (!sameList(sortedIds(got), sortedIds(want))) expect(sortedIds(got), what).toEqual(sortedIds(want));
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

/* ---------------- property-based checks ---------------- */


/** What exists for a property's record set: users, custom fields, records to relate to. */
export async function buildWorld(kind: Kind, ctx: Ctx): Promise<SearchWorld> {
  const { ns, profile } = ctx;
  const entity = kind === 'projects' ? 'project' : 'task';
  const { dropdown, multi_select: multi, number } = profile.fixtures.custom_fields;
  const on = (d: { available_on: string[] } | undefined) => !!d && (!d.available_on.length || d.available_on.includes(entity));
  let relatables: { id: string | number; type: string }[] = [];
  let opportunities: { id: string | number; type: string }[] = [];
  if (kind === 'projects') {
    const companies = [await make.company(ctx), await make.company(ctx)];
    relatables = companies.map((c) => ({ id: c.id as string | number, type: 'company' }));
  } else {
    relatables = (await Promise.all([make.project(ctx), make.project(ctx)])).map((p) => ({ id: p.id, type: 'project' }));
    const [opp] = await opportunitiesToRelate(ctx, 1);
    if (opp) opportunities = [{ id: opp.id, type: 'opportunity' }];
  }
  return {
    kind,
    nsTag: ns.id,
    extraTags: [0, 1, 2].map((i) => `${ns.id}-t${i}`),
    users: profile.fixtures.users.map((u) => u.id),
    dropdown: on(dropdown) && dropdown!.options.length ? { id: dropdown!.id, options: dropdown!.options.map((o) => o.id) } : undefined,
    multi: on(multi) && multi!.options.length ? { id: multi!.id, options: multi!.options.map((o) => o.id) } : undefined,
    number: on(number) ? { id: number!.id } : undefined,
    statuses: kind === 'projects' ? profile.fixtures.project_statuses : [],
    relatables,
    opportunities,
    canFollow: !!extension(profile, 'follow'),
  };
}

/**
 * Creates a generated record set: the first half, then records from the spares until the
 * server's clock has moved on by a second (so that date bounds and date sorts see two
 * distinct values), then the second half; follows the records the seeds say. Returns the
 * records as an unfiltered search of the namespace shows them, and the followed ids.
 */
export async function createRecordSet(kind: Kind, ctx: Ctx, set: RecordSet, world: SearchWorld): Promise<{ records: Rec[]; followed: Set<string> }> {
  const { api, ns, profile } = ctx;
  const body = (s: RecordSet['main'][number]) => ({ name: ns.name(s.label), ...recordBody(s, world) });
  const half = Math.ceil(set.main.length / 2);
  const made: { rec: Rec; follow: boolean }[] = [];
  const first = await createMany(kind, ctx, set.main.slice(0, half).map(body));
  first.forEach((rec, i) => made.push({ rec, follow: set.main[i].follow }));
  let spare = 0;
  const probes = await createUntilLater(async () => {
    const s = set.spares[spare++];
    if (!s) throw new Error(`the server's date_created did not move on during ${set.spares.length} creates`);
    return create(kind, ctx, body(s));
  }, Math.max(...first.map((r) => r.date_created)));
  probes.forEach((rec, i) => made.push({ rec, follow: set.spares[i].follow }));
  const second = await createMany(kind, ctx, set.main.slice(half).map(body));
  second.forEach((rec, i) => made.push({ rec, follow: set.main[half + i].follow }));
  // Records the target follows by itself, then the ones the seeds follow.
  const followed = new Set(idsOf(await searchAll(api, kind, inNs(ns, { followed: 1 }))));
  if (world.canFollow) {
    for (const m of made.filter((x) => x.follow && !followed.has(idOf(x.rec)))) {
      await follow(api, profile, kind, m.rec.id);
      followed.add(idOf(m.rec));
    }
  }
  const records = await searchAll(api, kind, inNs(ns));
  expectSameRecords(records, made.map((m) => m.rec), 'the namespace search gives every record of the generated set');
  return { records, followed };
}

/** The seed of a property: CRM_FC_SEED, or a fresh one. */
export function propertySeed(target: TargetConfig): number {
  return target.fc.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

/** A discrepancy found by a property: the filter sent and what was wrong. */
export class PropertyFailure extends Error {
  constructor(readonly filter: unknown, readonly problems: string[]) {
    super(`${problems.join('\n')}\n  filter: ${JSON.stringify(filter)}`);
  }
}

/**
 * Runs an asynchronous property with the run's seed and number of runs. On failure it
 * attaches `counterexample.txt` (seed, path, generated value, filter, problems) and fails with
 * a message that says how to replay.
 */
export async function checkProperty<T>(testInfo: TestInfo, target: TargetConfig, seed: number, name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, rulesOf: (value: T) => string[] = () => []): Promise<void> {
  const runs = target.fc.runs;
  const details = await fc.check(fc.asyncProperty(arb, predicate), { seed, numRuns: runs });
  testInfo.annotations.push({ type: 'note', description: `property "${name}": ${details.numRuns} runs, seed ${seed}` });
  if (!details.failed) return;
  const err = details.errorInstance;
  const filter = err instanceof PropertyFailure ? err.filter : undefined;
  const message = err instanceof Error ? err.message : String(err);
  const replay = `CRM_FC_SEED=${seed} CRM_FC_RUNS=${runs} npx playwright test ${testInfo.file.replace(/^.*?(specs\/)/, '$1')} -g "${testInfo.title.replace(/"/g, '\\"')}"`;
  const text = [
    `property: ${name}`,
    `seed: ${seed}`,
    `path: ${details.counterexamplePath}`,
    `runs: ${details.numRuns} (CRM_FC_RUNS=${runs}), shrinks: ${details.numShrinks}`,
    `generated value: ${JSON.stringify(details.counterexample?.[0])}`,
    ...(filter !== undefined ? [`filter sent: ${JSON.stringify(filter)}`] : []),
    `problem:\n${message}`,
    `replay: ${replay}`,
  ].join('\n');
  await testInfo.attach('counterexample.txt', { body: redactText(text), contentType: 'text/plain' });
  // The failure also counts against the rules of the criteria in the (shrunk) counterexample.
  const implicated = details.counterexample ? [...new Set(rulesOf(details.counterexample[0]))] : [];
  for (const id of implicated) testInfo.annotations.push({ type: 'rule', description: id });
  const about = implicated.length ? ` (rules of its criteria: ${implicated.join(', ')})` : '';
  throw new Error(redactText(`${name}: counterexample${about} (seed ${seed}, path ${details.counterexamplePath}):\n${message}\nReplay with: ${replay}`));
}

/** The rules of the criteria of a generated request (to name them when a counterexample fails). */
export function criteriaRules(kind: Kind, c: CriteriaSpec): string[] {
  const byCriterion: Record<keyof CriteriaSpec, string> = {
    ids: 'SEARCH-14', name: 'PSEARCH-3', owners: 'SEARCH-15', statusIds: 'PSEARCH-4', statuses: 'PSEARCH-4', tags: 'SEARCH-8', followed: 'SEARCH-9',
    created: 'SEARCH-10', modified: 'SEARCH-10', due: 'TSEARCH-6', dropdownEmpty: 'SEARCH-11', multiEmpty: 'SEARCH-11', score: 'SEARCH-12',
    opportunities: 'TSEARCH-3', projects: 'TSEARCH-4', taskStatuses: 'TSEARCH-5',
  };
  const keys = Object.keys(c) as (keyof CriteriaSpec)[];
  // Every search is restricted to the namespace by a tags criterion when none is generated.
  return [...keys.map((k) => byCriterion[k]), ...(keys.length > 1 || (keys.length === 1 && keys[0] !== 'tags') ? ['SEARCH-5'] : [])].filter((r) => kind === 'projects' ? !r.startsWith('TSEARCH') : !r.startsWith('PSEARCH'));
}

/** The record set of a property: created once in the test's namespace, from the run's seed. */
async function propertyWorld(kind: Kind, f: { api: ApiClient; ns: Namespace; profile: TargetProfile; target: TargetConfig }) {
  const { api, ns, profile, target } = f;
  const seed = propertySeed(target);
  const world = await buildWorld(kind, f);
  const set = fc.sample(recordSet(), { seed, numRuns: 1 })[0];
  const { records, followed } = await createRecordSet(kind, f, set, world);
  const ctx: ModelContext = { kind, statusIds: Object.fromEntries(world.statuses.map((s) => [s.name, String(s.id)])), followed };
  return { seed, world, records, ctx };
}

/** Property: random criteria select exactly what the model of the spec selects (as sets, over all pages). */
export async function criteriaProperty(kind: Kind, f: { api: ApiClient; ns: Namespace; profile: TargetProfile; target: TargetConfig }, testInfo: TestInfo): Promise<void> {
  const { api, target } = f;
  const { seed, world, records, ctx } = await propertyWorld(kind, f);
  await checkProperty(testInfo, target, seed, `random ${kind} criteria select what the spec's model selects`, requestSpec(world, { density: 0.17, paging: false }), async (spec) => {
    const filter = toFilter(spec, world, records);
    const want = expectedMatches(filter, records, ctx);
    const got = await searchAll(api, kind, filter, 20, 20);
    const problems = compareSets(got, want);
    if (problems.length) throw new PropertyFailure(filter, [...problems, `expected ids: ${JSON.stringify(idsOf(want))}`, `got ids: ${JSON.stringify(idsOf(got))}`]);
  }, (spec) => criteriaRules(kind, spec.criteria));
}

/**
 * Property: random sort, direction, page size and number (with a few criteria) give the pages
 * the spec fixes. Where the order is fixed (names, timestamps without nulls) the requested
 * page is compared key by key; otherwise every page is read and checked as a set, for the
 * order the spec does fix (sorted non-null keys; contiguous groups, reversed by desc), and for
 * consistency with the requested page.
 */
export async function orderProperty(kind: Kind, f: { api: ApiClient; ns: Namespace; profile: TargetProfile; target: TargetConfig }, testInfo: TestInfo): Promise<void> {
  const { api, target } = f;
  const { seed, world, records, ctx } = await propertyWorld(kind, f);
  await checkProperty(testInfo, target, seed, `random ${kind} sorts and pages give what the spec fixes`, requestSpec(world, { density: 0.1, paging: true }), async (spec) => {
    const filter = toFilter(spec, world, records);
    const paging = pagingOf(kind, filter);
    const matched = expectedMatches(filter, records, ctx);
    const page = await search(api, kind, filter);
    const problems: string[] = [];
    if (pageIsFixed(paging.sortBy, matched)) {
      problems.push(...comparePage(page, matched, paging));
    } else {
      const { page_number: _n, ...rest } = filter;
      const all = await searchAll(api, kind, { ...rest, page_size: paging.pageSize }, paging.pageSize, 100);
      problems.push(...compareSets(all, matched), ...compareOrder(all, paging.sortBy, paging.direction));
      const start = (paging.pageNumber - 1) * paging.pageSize;
      const slice = idsOf(all.slice(start, start + paging.pageSize));
      if (JSON.stringify(idsOf(page)) !== JSON.stringify(slice)) problems.push(`page ${paging.pageNumber} ${JSON.stringify(idsOf(page))} differs from the same positions of the pages read one after the other ${JSON.stringify(slice)}`);
      if (!FIXED_ORDER.has(paging.sortBy)) {
        const opposite = paging.direction === 'asc' ? 'desc' : 'asc';
        const other = await searchAll(api, kind, { ...rest, page_size: paging.pageSize, sort_direction: opposite }, paging.pageSize, 100);
        problems.push(...compareSets(other, matched));
        problems.push(...(paging.direction === 'asc' ? compareReversed(all, other, paging.sortBy) : compareReversed(other, all, paging.sortBy)));
      }
    }
    if (problems.length) throw new PropertyFailure(filter, [...problems, `matching ids: ${JSON.stringify(idsOf(matched))}`]);
  }, (spec) => {
    // A shrunk counterexample keeps what it needs: criteria it still has are to blame; the
    // defaults (sort, direction, page size and number) only when it has no criterion left.
    const criteriaLeft = Object.keys(spec.criteria).length > 0;
    const sortRule = kind === 'projects' ? 'PSEARCH-2' : 'TSEARCH-2';
    const defaultSortRule = kind === 'projects' ? 'PSEARCH-1' : 'TSEARCH-1';
    return [
      ...criteriaRules(kind, spec.criteria),
      ...(spec.sortBy !== undefined ? [sortRule] : criteriaLeft ? [] : [defaultSortRule]),
      ...(spec.direction === 'desc' || (spec.direction === undefined && !criteriaLeft) ? ['SEARCH-6'] : []),
      ...(spec.pageSize === undefined && !criteriaLeft ? ['SEARCH-3'] : []),
      ...(spec.pageNumber === undefined && !criteriaLeft ? ['SEARCH-2'] : []),
    ];
  });
}
