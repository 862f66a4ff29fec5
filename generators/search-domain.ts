/**
 * Domain generators of the search properties: random record sets (projects or tasks) to create
 * in a fresh namespace, and random search requests over them (any subset of the criteria, sort,
 * page size and number). Generators produce only inputs whose outcome the spec fixes: names
 * from one lower-case alphabet behind the namespace prefix (followed by a name as real users
 * write it, outside ASCII, which the label before it keeps out of any order; details of free text
 * likewise: generators/real-text.ts), non-empty lists, inclusive bounds,
 * page sizes of at most 20, `allow_empty: true` only, and no `followed` unless the target can
 * follow records.
 */
import fc from 'fast-check';
import {
  boundPair,
  direction,
  dropdownChoice,
  followedChoice,
  multiChoice,
  owner,
  pageSize,
  pick,
  picks,
  resolve,
  resolveAll,
  resolveBound,
  scoreValue,
  tagForm,
  tagSubset,
  uniqueLabels,
  freeText,
  realName,
  type TimestampBound,
} from './arbitraries.js';
import { NO_OWNER, SORT_FIELDS, type Filter, type Id, type Kind, type ModelRecord } from './search-model.js';

/** What exists at run time, against which generated indices are resolved. */
export interface SearchWorld {
  kind: Kind;
  /** The namespace tag: every search without a tags criterion is restricted to it. */
  nsTag: string;
  /** Extra tags of this namespace the records may carry (the tags criterion uses only these). */
  extraTags: string[];
  /** Users usable as owners (profile.fixtures.users). */
  users: Id[];
  dropdown?: { id: Id; options: Id[] };
  multi?: { id: Id; options: Id[] };
  number?: { id: Id };
  /** Project statuses of the profile (id and name). */
  statuses: { id: Id; name: string }[];
  /** Records a project may relate to (companies), or the projects a task may relate to. */
  relatables: { id: Id; type: string }[];
  /** Opportunities a task may relate to. */
  opportunities: { id: Id; type: string }[];
  /** The target can follow records (extension). */
  canFollow: boolean;
}

const TASK_DAY = 86_400;
/** Due, reminder and completion dates of generated tasks: a few fixed instants (2030), so ties happen. */
export const TASK_DATES = [0, 1, 2, 3, 5].map((d) => 1_893_456_000 + d * TASK_DAY);

/* ---------------- record sets ---------------- */

export interface RecordSeed {
  label: string;
  /** What follows the label in the name: a name as real users write it (the label decides any order). */
  nameTail: string;
  /** Free text as real users write it, or none. */
  details: string | null;
  owner: number | null;
  tags: number[];
  dropdown: number | null;
  multi: number[];
  score: number;
  related: number | null;
  follow: boolean;
  /** Tasks: relate to an opportunity instead of a project/company. */
  toOpportunity: boolean;
  status: 'Open' | 'Completed';
  priority: 'None' | 'High';
  due: number | null;
  reminder: number | null;
  completed: number;
}

const seedOf = (label: string) =>
  fc
    .record({
      owner: owner(),
      tags: tagSubset(3),
      dropdown: dropdownChoice(),
      multi: multiChoice(),
      score: scoreValue(),
      related: fc.option(pick(), { nil: null, freq: 3 }),
      follow: fc.boolean(),
      toOpportunity: fc.boolean(),
      status: fc.constantFrom('Open' as const, 'Completed' as const),
      priority: fc.constantFrom('None' as const, 'High' as const),
      due: fc.option(pick(), { nil: null, freq: 4 }),
      reminder: fc.option(pick(), { nil: null, freq: 3 }),
      completed: pick(),
      nameTail: realName(),
      details: fc.option(freeText(), { nil: null, freq: 2 }),
    })
    .map((s): RecordSeed => ({ label, ...s }));

/** How many `main` records a record set has (quick depth passes a smaller range: QUICK_RECORD_SET_SIZE). */
export const RECORD_SET_SIZE = { min: 10, max: 16 };
/** A quick run's record sets, smaller: they are created a record at a time, a large share of quick's bound of requests. */
export const QUICK_RECORD_SET_SIZE = { min: 7, max: 10 };

/**
 * A record set: `main` records, then `spares` used when the suite must create more records to
 * reach a later second (the first half is created, then records from `spares` until the
 * server's clock has moved on, then the second half). Labels are distinct.
 */
export const recordSet = (size: { min: number; max: number } = RECORD_SET_SIZE) =>
  fc.integer(size).chain((n) =>
    uniqueLabels(n + 12)
      .chain((labels) => fc.tuple(...labels.map(seedOf)))
      .map((seeds) => ({ main: seeds.slice(0, n), spares: seeds.slice(n) })),
  );
export type RecordSet = { main: RecordSeed[]; spares: RecordSeed[] };

/** The name of a seed's record: `base` (the namespaced label, which decides any order), then its tail. */
export const recordName = (seed: RecordSeed, base: string): string => `${base} ${seed.nameTail}`;

/** The create body of a seed (without name and namespace tags, which the spec adds). */
export function recordBody(seed: RecordSeed, world: SearchWorld): Record<string, unknown> {
  const body: Record<string, unknown> = { tags: seed.tags.map((i) => world.extraTags[i]) };
  if (seed.details !== null) body.details = seed.details;
  if (seed.owner !== null && world.users.length) body.assignee_id = resolve(world.users, seed.owner);
  const custom: { custom_field_definition_id: Id; value: unknown }[] = [];
  if (world.dropdown)
    custom.push({ custom_field_definition_id: world.dropdown.id, value: seed.dropdown === null ? null : resolve(world.dropdown.options, seed.dropdown) });
  if (world.multi) custom.push({ custom_field_definition_id: world.multi.id, value: resolveAll(world.multi.options, seed.multi) });
  if (world.number) custom.push({ custom_field_definition_id: world.number.id, value: seed.score });
  if (custom.length) body.custom_fields = custom;
  if (world.kind === 'projects') {
    if (seed.related !== null && world.relatables.length) body.related_resource = resolve(world.relatables, seed.related);
    return body;
  }
  const targets = seed.toOpportunity && world.opportunities.length ? world.opportunities : world.relatables;
  if (seed.related !== null && targets.length) body.related_resource = resolve(targets, seed.related);
  body.status = seed.status;
  body.priority = seed.priority;
  if (seed.due !== null) body.due_date = resolve(TASK_DATES, seed.due);
  if (seed.reminder !== null) body.reminder_date = resolve(TASK_DATES, seed.reminder);
  if (seed.status === 'Completed') body.completed_date = resolve(TASK_DATES, seed.completed);
  return body;
}

/* ---------------- search requests ---------------- */

type Bounds = { min?: TimestampBound; max?: TimestampBound };

export interface CriteriaSpec {
  ids?: number[];
  /** An existing record's name, or a name no record has. */
  name?: { existing: boolean; at: number };
  owners?: { at: number[]; none: boolean };
  statusIds?: number[];
  statuses?: number[];
  tags?: { form: 'list' | 'object'; at: number[] };
  followed?: 1 | 2;
  created?: Bounds;
  modified?: Bounds;
  due?: Bounds;
  dropdownEmpty?: true;
  multiEmpty?: true;
  score?: { min: number; max: number };
  opportunities?: number[];
  projects?: { at: number[]; none: boolean };
  taskStatuses?: ('Open' | 'Completed')[];
}

export interface RequestSpec {
  criteria: CriteriaSpec;
  sortBy?: number;
  direction?: 'asc' | 'desc';
  pageSize?: number;
  pageNumber?: number;
}

const ownerSet = () => fc.record({ at: fc.uniqueArray(pick(), { maxLength: 2 }), none: fc.boolean() }).filter((o) => o.at.length > 0 || o.none);

/** Any subset of the criteria the world supports; `density` is the chance of each. */
export function criteria(world: SearchWorld, density: number): fc.Arbitrary<CriteriaSpec> {
  const weight = Math.min(99, Math.max(1, Math.round(density * 100)));
  // Cross-shrinking towards "absent": a counterexample keeps only the criteria it needs.
  const often = (a: fc.Arbitrary<unknown>) =>
    fc.oneof({ withCrossShrink: true }, { arbitrary: fc.constant(undefined), weight: 100 - weight }, { arbitrary: a, weight });
  const model: Record<string, fc.Arbitrary<unknown>> = {
    ids: often(picks(4)),
    owners: often(ownerSet()),
    tags: often(fc.record({ form: tagForm(), at: fc.uniqueArray(fc.nat({ max: world.extraTags.length - 1 }), { minLength: 1, maxLength: 2 }) })),
    created: often(boundPair()),
    modified: often(boundPair()),
  };
  if (world.canFollow) model.followed = often(followedChoice());
  if (world.dropdown) model.dropdownEmpty = often(fc.constant(true));
  if (world.multi) model.multiEmpty = often(fc.constant(true));
  if (world.number) model.score = often(fc.tuple(scoreValue(), scoreValue()).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })));
  if (world.kind === 'projects') {
    model.name = often(fc.record({ existing: fc.constantFrom(true, true, true, false), at: pick() }));
    if (world.statuses.length) {
      model.statusIds = often(picks(2));
      model.statuses = often(picks(2));
    }
  } else {
    model.due = often(boundPair());
    model.taskStatuses = often(fc.subarray(['Open', 'Completed'] as ('Open' | 'Completed')[], { minLength: 1 }));
    if (world.relatables.length)
      model.projects = often(fc.record({ at: fc.uniqueArray(pick(), { maxLength: 2 }), none: fc.boolean() }).filter((o) => o.at.length > 0 || o.none));
    if (world.opportunities.length) model.opportunities = often(picks(2));
  }
  return fc.record(model).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as CriteriaSpec);
}

/** A search request: criteria, and (for the order property) sort, direction, page size and number. */
/** `minPageSize`: the smallest page size drawn (1 by default; quick depth raises it, so that a page walk stays short). */
export function requestSpec(world: SearchWorld, options: { density: number; paging: boolean; minPageSize?: number }): fc.Arbitrary<RequestSpec> {
  if (!options.paging) return criteria(world, options.density).map((c) => ({ criteria: c }));
  return fc.record(
    {
      criteria: criteria(world, options.density),
      sortBy: fc.nat({ max: SORT_FIELDS[world.kind].length - 1 }),
      direction: direction(),
      pageSize: pageSize(options.minPageSize),
      pageNumber: pick(),
    },
    { requiredKeys: ['criteria'] },
  );
}

/** Distinct values of a timestamp field among the records (never empty). */
function distinctOf(records: ModelRecord[], field: string): number[] {
  const values = [...new Set(records.map((r) => r[field]).filter((v): v is number => typeof v === 'number'))].sort((a, b) => a - b);
  return values.length ? values : [TASK_DATES[0]];
}

function bounds(filter: Filter, name: string, b: Bounds | undefined, distinct: number[]): void {
  if (!b) return;
  if (b.min) filter[`minimum_${name}_date`] = resolveBound(distinct, b.min);
  if (b.max) filter[`maximum_${name}_date`] = resolveBound(distinct, b.max);
}

/**
 * The filter object of a request spec over the created records. Without a tags criterion the
 * search is restricted to the namespace tag; the tags criterion uses only this namespace's
 * extra tags, so every search stays inside the namespace.
 */
export function toFilter(spec: RequestSpec, world: SearchWorld, records: ModelRecord[]): Filter {
  const c = spec.criteria;
  const f: Filter = {};
  if (c.tags) {
    const tags = c.tags.at.map((i) => world.extraTags[i % world.extraTags.length]);
    f.tags = c.tags.form === 'list' ? tags : { option: 'ANY', value: tags };
  } else f.tags = [world.nsTag];
  if (c.ids) f.ids = resolveAll(records, c.ids).map((r) => r.id);
  if (c.name) f.name = c.name.existing ? String(resolve(records, c.name.at).name) : `${world.nsTag} no such name`;
  if (c.owners)
    f.assignee_ids = [...(world.users.length ? resolveAll(world.users, c.owners.at) : []), ...(c.owners.none || !world.users.length ? [NO_OWNER] : [])];
  if (c.statusIds) f.status_ids = resolveAll(world.statuses, c.statusIds).map((s) => s.id);
  if (c.statuses) f.statuses = resolveAll(world.statuses, c.statuses).map((s) => s.name);
  if (c.taskStatuses) f.statuses = c.taskStatuses;
  if (c.followed) f.followed = c.followed;
  bounds(f, 'created', c.created, distinctOf(records, 'date_created'));
  bounds(f, 'modified', c.modified, distinctOf(records, 'date_modified'));
  bounds(f, 'due', c.due, distinctOf(records, 'due_date'));
  const custom: Record<string, unknown>[] = [];
  if (c.dropdownEmpty && world.dropdown) custom.push({ custom_field_definition_id: world.dropdown.id, allow_empty: true });
  if (c.multiEmpty && world.multi) custom.push({ custom_field_definition_id: world.multi.id, allow_empty: true });
  if (c.score && world.number) custom.push({ custom_field_definition_id: world.number.id, minimum_value: c.score.min, maximum_value: c.score.max });
  if (custom.length) f.custom_fields = custom;
  if (c.opportunities && world.opportunities.length) f.opportunity_ids = resolveAll(world.opportunities, c.opportunities).map((o) => o.id);
  if (c.projects && world.relatables.length)
    f.project_ids = [...resolveAll(world.relatables, c.projects.at).map((p) => p.id), ...(c.projects.none ? [NO_OWNER] : [])];
  if (spec.sortBy !== undefined) f.sort_by = SORT_FIELDS[world.kind][spec.sortBy];
  if (spec.direction) f.sort_direction = spec.direction;
  if (spec.pageSize !== undefined) f.page_size = spec.pageSize;
  if (spec.pageNumber !== undefined) {
    const size = spec.pageSize ?? 20;
    f.page_number = 1 + (spec.pageNumber % (Math.ceil(records.length / size) + 1));
  }
  return f;
}
