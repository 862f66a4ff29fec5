/**
 * The search properties (spec § Search, § Projects, § Tasks, § Limits), shared by
 * projects.property.spec.ts and tasks.property.spec.ts: a record set generated from the
 * property's seed is created once in the test's namespace (generators/search-domain.ts), then
 * random requests run against it and the answers are compared with the model of the spec
 * (generators/search-model.ts). They run through the one property runner (support/property.ts).
 */
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import {
  QUICK_RECORD_SET_SIZE,
  RECORD_SET_SIZE,
  recordBody,
  recordName,
  recordSet,
  requestSpec,
  toFilter,
  type CriteriaSpec,
  type RecordSet,
  type SearchWorld,
} from '../../generators/search-domain.js';
import {
  FIXED_ORDER,
  compareOrder,
  comparePage,
  compareReversed,
  compareSets,
  expectedMatches,
  pageIsFixed,
  pagingOf,
  type ModelContext,
} from '../../generators/search-model.js';
import type { TargetConfig } from '../support/core/config.js';
import { breaks } from '../support/fixtures/test.js';
import { extension, make, opportunitiesToRelate, type Ctx as MakeCtx, type Rec } from '../support/make.js';
import { checkProperty, PropertyFailure, propertySeed, scaledBudget } from '../support/property.js';
import { create, createMany, createUntilLater, expectSameRecords, follow, idOf, idsOf, inNs, search, searchAll, type Kind } from '../support/search.js';

/**
 * The time budget of each search property (its runs, not its record set), raised in proportion
 * with CRM_FC_RUNS: past it the property passes with the runs it made and says how many (a run
 * warning of the report too). One after the other, a far target's runs made the properties lane
 * the tail of a whole run; so the runs are sent several at a time against a far target, and the
 * budget grows with the latency measured (support/property.ts `latencyBudget`), so a far target
 * gets every run, within a bound; past it the property passes with the runs it made and the report
 * gives them (`npm run bench` measures it). Every fault of the catalog is also caught without the
 * random tests (docs/calibration.md). Each run only reads the record set: runs in flight share
 * nothing else.
 */
const SEARCH_BUDGET_MS = 8_000;
/** The smallest page size of the paging property at quick depth (1 otherwise). */
const QUICK_MIN_PAGE_SIZE = 5;

type Ctx = MakeCtx & { profile: NonNullable<MakeCtx['profile']> };
type PropertyCtx = Ctx & { target: TargetConfig };

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
  const body = (s: RecordSet['main'][number]) => ({ name: recordName(s, ns.name(s.label)), ...recordBody(s, world) });
  const half = Math.ceil(set.main.length / 2);
  const made: { rec: Rec; follow: boolean }[] = [];
  const first = await createMany(kind, ctx, set.main.slice(0, half).map(body));
  first.forEach((rec, i) => made.push({ rec, follow: set.main[i].follow }));
  let spare = 0;
  const probes = await createUntilLater(
    async () => {
      const s = set.spares[spare++];
      if (!s) throw new Error(`the server's date_created did not move on during ${set.spares.length} creates`);
      return create(kind, ctx, body(s));
    },
    Math.max(...first.map((r) => r.date_created)),
  );
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
  // A step the property rests on: the namespace's pages from the first (SEARCH-2) give each record once (SEARCH-4).
  expectSameRecords(
    records,
    made.map((m) => m.rec),
    `the namespace search gives every record of the generated set${breaks(['SEARCH-4', 'SEARCH-2'])}`,
  );
  return { records, followed };
}

/** The rules of the criteria of a generated request (to name them when a counterexample fails). */
export function criteriaRules(kind: Kind, c: CriteriaSpec): string[] {
  const byCriterion: Record<keyof CriteriaSpec, string> = {
    ids: 'SEARCH-14',
    name: 'PSEARCH-3',
    owners: 'SEARCH-15',
    statusIds: 'PSEARCH-4',
    statuses: 'PSEARCH-4',
    tags: 'SEARCH-8',
    followed: 'SEARCH-9',
    created: 'SEARCH-10',
    modified: 'SEARCH-10',
    due: 'TSEARCH-6',
    dropdownEmpty: 'SEARCH-11',
    multiEmpty: 'SEARCH-11',
    score: 'SEARCH-12',
    opportunities: 'TSEARCH-3',
    projects: 'TSEARCH-4',
    taskStatuses: 'TSEARCH-5',
  };
  const keys = Object.keys(c) as (keyof CriteriaSpec)[];
  // Every search is restricted to the namespace by a tags criterion when none is generated.
  return [...keys.map((k) => byCriterion[k]), ...(keys.length > 1 || (keys.length === 1 && keys[0] !== 'tags') ? ['SEARCH-5'] : [])].filter((r) =>
    kind === 'projects' ? !r.startsWith('TSEARCH') : !r.startsWith('PSEARCH'),
  );
}

/** The record set of a property: created once in the test's namespace, from the run's seed. */
async function propertyWorld(kind: Kind, f: PropertyCtx) {
  const seed = propertySeed(f.target);
  const world = await buildWorld(kind, f);
  const set = fc.sample(recordSet(f.target.depth === 'quick' ? QUICK_RECORD_SET_SIZE : RECORD_SET_SIZE), { seed, numRuns: 1 })[0];
  const { records, followed } = await createRecordSet(kind, f, set, world);
  const ctx: ModelContext = { kind, statusIds: Object.fromEntries(world.statuses.map((s) => [s.name, String(s.id)])), followed };
  return { seed, world, records, ctx };
}

/** Property: random criteria select exactly what the model of the spec selects (as sets, over all pages). */
export async function criteriaProperty(kind: Kind, f: PropertyCtx, testInfo: TestInfo): Promise<void> {
  const { api, target } = f;
  const { seed, world, records, ctx } = await propertyWorld(kind, f);
  await checkProperty(
    testInfo,
    target,
    requestSpec(world, { density: 0.17, paging: false }),
    async (spec) => {
      const filter = toFilter(spec, world, records);
      const want = expectedMatches(filter, records, ctx);
      const got = await searchAll(api, kind, filter, 20, 20);
      const problems = compareSets(got, want);
      if (problems.length)
        throw new PropertyFailure(filter, [...problems, `expected ids: ${JSON.stringify(idsOf(want))}`, `got ids: ${JSON.stringify(idsOf(got))}`]);
    },
    {
      name: `random ${kind} criteria select what the spec's model selects`,
      seed,
      rulesOf: (spec) => criteriaRules(kind, spec.criteria),
      timeLimitMs: scaledBudget(target.fc.runs, SEARCH_BUDGET_MS),
      exchanges: () => api.recorder.exchanges,
      requestsPerRun: 2,
    },
  );
}

/**
 * Property: random sort, direction, page size and number (with a few criteria) give the pages
 * the spec fixes. Where the order is fixed (names, timestamps without nulls) the requested
 * page is compared key by key; otherwise every page is read and checked as a set, for the
 * order the spec does fix (sorted non-null keys; contiguous groups, reversed by desc), and for
 * consistency with the requested page.
 */
export async function orderProperty(kind: Kind, f: PropertyCtx, testInfo: TestInfo): Promise<void> {
  const { api, target } = f;
  const { seed, world, records, ctx } = await propertyWorld(kind, f);
  await checkProperty(
    testInfo,
    target,
    // At quick, pages of 5 or more: a page walk in both directions with pages of 1 sent up to 59 requests a run.
    requestSpec(world, { density: 0.1, paging: true, minPageSize: target.depth === 'quick' ? QUICK_MIN_PAGE_SIZE : 1 }),
    async (spec) => {
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
        if (JSON.stringify(idsOf(page)) !== JSON.stringify(slice))
          problems.push(
            `page ${paging.pageNumber} ${JSON.stringify(idsOf(page))} differs from the same positions of the pages read one after the other ${JSON.stringify(slice)}`,
          );
        if (!FIXED_ORDER.has(paging.sortBy)) {
          const opposite = paging.direction === 'asc' ? 'desc' : 'asc';
          const other = await searchAll(api, kind, { ...rest, page_size: paging.pageSize, sort_direction: opposite }, paging.pageSize, 100);
          problems.push(...compareSets(other, matched));
          problems.push(...(paging.direction === 'asc' ? compareReversed(all, other, paging.sortBy) : compareReversed(other, all, paging.sortBy)));
        }
      }
      if (problems.length) throw new PropertyFailure(filter, [...problems, `matching ids: ${JSON.stringify(idsOf(matched))}`]);
    },
    {
      name: `random ${kind} sorts and pages give what the spec fixes`,
      seed,
      rulesOf: (spec) => {
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
      },
      timeLimitMs: scaledBudget(target.fc.runs, SEARCH_BUDGET_MS),
      exchanges: () => api.recorder.exchanges,
      // One page, or every page in both directions (a few pages each).
      requestsPerRun: 6,
    },
  );
}
