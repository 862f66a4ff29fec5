/**
 * The model of the project and task searches (spec § Projects, § Tasks, § Limits): which
 * records a filter selects, and what the spec fixes about their order and pagination.
 *
 * Everything here follows the spec's text only:
 * - criteria combine with AND; lists select records matching at least one entry;
 * - `tags` (list or `{ option: "ANY", value }`) selects records carrying at least one tag;
 * - `assignee_ids` / `project_ids` with `-2` select records with no owner / no project;
 * - minimum/maximum bounds are inclusive and a record without the value is outside any bound;
 * - `custom_fields` `allow_empty: true` selects empty (null, absent, "" or []) values;
 *   `minimum_value`/`maximum_value` bound a numeric value;
 * - defaults: page 1, page size 20, sort `name` (projects) / `due_date` (tasks), asc.
 * What the spec leaves open is not modelled: the order of ties, the place of null keys, and
 * the order between different keys of `assigned_to`, `related_to`, `status` and `priority`
 * (only their grouping is fixed). The comparison functions return a list of discrepancies.
 */

export type Kind = 'projects' | 'tasks';
export type Id = string | number;
export type ModelRecord = Record<string, unknown> & { id: Id };
export type Filter = Record<string, unknown>;

export const NO_OWNER = -2;
export const DEFAULTS = {
  page_number: 1,
  page_size: 20,
  sort_direction: 'asc' as const,
  sort_by: { projects: 'name', tasks: 'due_date' } as Record<Kind, string>,
};

export const SORT_FIELDS: Record<Kind, readonly string[]> = {
  projects: ['name', 'assigned_to', 'related_to', 'status', 'date_modified', 'date_created'],
  tasks: ['name', 'assigned_to', 'related_to', 'status', 'priority', 'due_date', 'reminder_date', 'completed_date', 'date_created', 'date_modified'],
};

/** Sort fields whose order between different keys the spec fixes (given the generated names). */
export const FIXED_ORDER = new Set(['name', 'date_created', 'date_modified', 'due_date', 'reminder_date', 'completed_date']);

export interface ModelContext {
  kind: Kind;
  /** Project status name → status id (profile.fixtures.project_statuses). */
  statusIds: Record<string, string>;
  /** Ids of the followed records; needed only when `followed` is in a filter. */
  followed?: ReadonlySet<string>;
}

const str = (v: unknown) => String(v);
const given = (v: unknown) => v !== undefined && v !== null;

/** An empty custom field value: null, absent, "" or []. */
export function isEmptyValue(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

export function customValue(rec: ModelRecord, definitionId: Id): unknown {
  const list = (rec.custom_fields as { custom_field_definition_id: Id; value: unknown }[] | undefined) ?? [];
  return list.find((c) => str(c.custom_field_definition_id) === str(definitionId))?.value;
}

const related = (rec: ModelRecord) => (rec.related_resource ?? null) as { id: Id | null; type: string | null } | null;

function tagsOf(filter: unknown): string[] {
  if (Array.isArray(filter)) return filter.map(str);
  return ((filter as { value: string[] }).value ?? []).map(str);
}

function within(x: unknown, min: unknown, max: unknown): boolean {
  if (typeof x !== 'number') return false;
  if (given(min) && x < (min as number)) return false;
  if (given(max) && x > (max as number)) return false;
  return true;
}

/** Does `rec` satisfy every criterion of `filter`? */
export function matches(filter: Filter, rec: ModelRecord, ctx: ModelContext): boolean {
  const f = filter;
  if (given(f.ids) && !(f.ids as Id[]).map(str).includes(str(rec.id))) return false;
  if (given(f.name) && rec.name !== f.name) return false;
  if (given(f.assignee_ids)) {
    const ids = (f.assignee_ids as Id[]).map(str);
    const owner = rec.assignee_id;
    if (!(given(owner) ? ids.includes(str(owner)) : ids.includes(str(NO_OWNER)))) return false;
  }
  if (given(f.statuses) && !(f.statuses as string[]).includes(str(rec.status))) return false;
  if (given(f.status_ids)) {
    const id = ctx.statusIds[str(rec.status)];
    if (id === undefined || !(f.status_ids as Id[]).map(str).includes(id)) return false;
  }
  if (given(f.tags)) {
    const want = tagsOf(f.tags);
    if (!((rec.tags as string[]) ?? []).some((t) => want.includes(t))) return false;
  }
  if (given(f.followed)) {
    if (!ctx.followed) throw new Error('the model needs the followed records to judge `followed`');
    const isFollowed = ctx.followed.has(str(rec.id));
    if (isFollowed !== (f.followed === 1)) return false;
  }
  for (const [field, name] of [
    ['date_created', 'created'],
    ['date_modified', 'modified'],
    ['due_date', 'due'],
  ] as const) {
    const min = f[`minimum_${name}_date`];
    const max = f[`maximum_${name}_date`];
    if ((given(min) || given(max)) && !within(rec[field], min, max)) return false;
  }
  if (given(f.opportunity_ids)) {
    const rr = related(rec);
    if (!(rr && rr.type === 'opportunity' && (f.opportunity_ids as Id[]).map(str).includes(str(rr.id)))) return false;
  }
  if (given(f.project_ids)) {
    const rr = related(rec);
    const ids = (f.project_ids as Id[]).map(str);
    const project = rr && rr.type === 'project' && given(rr.id) ? str(rr.id) : undefined;
    if (!(project !== undefined ? ids.includes(project) : ids.includes(str(NO_OWNER)))) return false;
  }
  if (given(f.custom_fields)) {
    for (const c of f.custom_fields as { custom_field_definition_id: Id; allow_empty?: boolean; minimum_value?: number; maximum_value?: number }[]) {
      const v = customValue(rec, c.custom_field_definition_id);
      if (c.allow_empty === true && !isEmptyValue(v)) return false;
      if ((given(c.minimum_value) || given(c.maximum_value)) && !within(v, c.minimum_value, c.maximum_value)) return false;
    }
  }
  return true;
}

export function expectedMatches(filter: Filter, records: ModelRecord[], ctx: ModelContext): ModelRecord[] {
  return records.filter((r) => matches(filter, r, ctx));
}

/** The key a record sorts by; null when the record has no value. */
export function sortKey(field: string, rec: ModelRecord): string | number | null {
  switch (field) {
    case 'name':
      return str(rec.name);
    case 'assigned_to':
      return given(rec.assignee_id) ? `owner ${str(rec.assignee_id)}` : null;
    case 'related_to': {
      const rr = related(rec);
      return rr && given(rr.id) ? `${str(rr.type)} ${str(rr.id)}` : null;
    }
    case 'status':
      return given(rec.status) ? str(rec.status) : null;
    case 'priority':
      return given(rec.priority) ? str(rec.priority) : null;
    default:
      return typeof rec[field] === 'number' ? (rec[field] as number) : null;
  }
}

/** Code-unit order (generated names use one lower-case alphabet, so every collation agrees). */
export const compareKeys = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);

export interface Paging {
  sortBy: string;
  direction: 'asc' | 'desc';
  pageSize: number;
  pageNumber: number;
}

export function pagingOf(kind: Kind, filter: Filter): Paging {
  return {
    sortBy: (filter.sort_by as string | undefined) ?? DEFAULTS.sort_by[kind],
    direction: (filter.sort_direction as 'asc' | 'desc' | undefined) ?? DEFAULTS.sort_direction,
    pageSize: (filter.page_size as number | undefined) ?? DEFAULTS.page_size,
    pageNumber: (filter.page_number as number | undefined) ?? DEFAULTS.page_number,
  };
}

/** Does the spec fix the key sequence of every page of this result? */
export function pageIsFixed(sortBy: string, matched: ModelRecord[]): boolean {
  return FIXED_ORDER.has(sortBy) && matched.every((r) => sortKey(sortBy, r) !== null);
}

const label = (r: ModelRecord) => str(r.id);

/** Checks the record set of a whole result (all pages): each expected record once, nothing else. */
export function compareSets(got: ModelRecord[], want: ModelRecord[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const r of got) seen.set(label(r), (seen.get(label(r)) ?? 0) + 1);
  const wanted = new Set(want.map(label));
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const extra = [...seen.keys()].filter((id) => !wanted.has(id));
  const missing = [...wanted].filter((id) => !seen.has(id));
  if (twice.length) problems.push(`records returned more than once: ${twice.join(', ')}`);
  if (extra.length) problems.push(`records returned that do not match: ${extra.join(', ')}`);
  if (missing.length) problems.push(`matching records missing: ${missing.join(', ')}`);
  return problems;
}

/** One page of a fixed-order result: its length and the keys at its positions. */
export function comparePage(got: ModelRecord[], matched: ModelRecord[], paging: Paging): string[] {
  const { sortBy, direction, pageSize, pageNumber } = paging;
  const keys = matched.map((r) => sortKey(sortBy, r) as string | number).sort(compareKeys);
  if (direction === 'desc') keys.reverse();
  const start = (pageNumber - 1) * pageSize;
  const want = keys.slice(start, start + pageSize);
  const problems: string[] = [];
  if (got.length !== want.length)
    problems.push(`page ${pageNumber} of size ${pageSize} over ${matched.length} matches has ${got.length} entries instead of ${want.length}`);
  const wanted = new Set(matched.map(label));
  const foreign = got.filter((r) => !wanted.has(label(r))).map(label);
  if (foreign.length) problems.push(`records on the page that do not match: ${foreign.join(', ')}`);
  const gotKeys = got.map((r) => sortKey(sortBy, r));
  if (!problems.length && gotKeys.some((k, i) => k !== want[i])) {
    problems.push(`keys of ${sortBy} ${direction} on page ${pageNumber}: got ${JSON.stringify(gotKeys)}, expected ${JSON.stringify(want)}`);
  }
  return problems;
}

/** Collapses consecutive equal keys: [a, a, b, a] → [a, b, a]. */
export function runs<T>(keys: T[]): T[] {
  return keys.filter((k, i) => i === 0 || keys[i - 1] !== k);
}

/**
 * The order of a whole result (all pages) as far as the spec fixes it. Fixed-order fields: the
 * non-null keys are sorted in the direction. Other fields: equal non-null keys are contiguous.
 */
export function compareOrder(got: ModelRecord[], sortBy: string, direction: 'asc' | 'desc'): string[] {
  const keys = got.map((r) => sortKey(sortBy, r)).filter((k): k is string | number => k !== null);
  if (FIXED_ORDER.has(sortBy)) {
    const sorted = [...keys].sort(compareKeys);
    if (direction === 'desc') sorted.reverse();
    return keys.every((k, i) => k === sorted[i]) ? [] : [`keys of ${sortBy} not in ${direction} order: ${JSON.stringify(keys)}`];
  }
  const r = runs(keys);
  return new Set(r).size === r.length ? [] : [`records with equal ${sortBy} are not contiguous: groups ${JSON.stringify(r)}`];
}

/** For fields with an open order between keys: desc gives the groups of asc in reverse order. */
export function compareReversed(asc: ModelRecord[], desc: ModelRecord[], sortBy: string): string[] {
  const a = runs(asc.map((r) => sortKey(sortBy, r)).filter((k) => k !== null));
  const d = runs(desc.map((r) => sortKey(sortBy, r)).filter((k) => k !== null));
  const rev = [...a].reverse();
  return d.length === rev.length && d.every((k, i) => k === rev[i])
    ? []
    : [`groups of ${sortBy}: desc ${JSON.stringify(d)} is not asc ${JSON.stringify(a)} reversed`];
}
