/**
 * The search engine behind `POST /projects/search` and `POST /tasks/search` (spec § Projects,
 * § Tasks, § Limits): validation of the filter object, the criteria (combined with AND), the
 * sort, pagination and the 100,000-record cap.
 *
 * What the spec leaves open is taken from the open choices (rules/choices.json,
 * `app.choice('search.…')`): the largest page and what happens above it, the order of ties,
 * of records without a sort value, of names, owners, related records, statuses and priorities,
 * what `allow_empty: false` and an empty list criterion select, the case of tags and names,
 * unknown members, and a header with the number of matches. Fixed here: bounds (dates, custom field values) are inclusive and a record
 * without a value never satisfies one; an absent custom field value counts as empty ("absent or
 * empty are returned as null"); mixed `assignee_ids` such as `[12, -2]` select the union; bad
 * input (ill-typed members, page numbers below 1, unknown sort fields or directions, an unknown
 * custom field definition) is refused with `invalid` (status and body: general choices);
 * `null` means "absent".
 *
 * Faults hook in at the points declared in reference/faults/search.ts (`search.*`).
 *
 * Speed: the criteria are checked in one pass over the collection, then the matches are
 * sorted once on precomputed keys; only the requested page is presented.
 */
import type { App } from './app.js';
import type { Reply } from './http.js';
import { definition, isEmptyValue } from './custom-fields.js';
import { invalid, asObject, lenient } from './routes/common.js';
import type { Rec } from './model.js';
import { FIXTURES } from './profile.js';

/** "Records reachable in one search: first 100,000, whatever the pagination". */
export const SEARCH_CAP = 100_000;
export const DEFAULT_PAGE_SIZE = 20;
/** `-2` in assignee_ids / project_ids: "no owner" / "no project". */
export const NONE = -2;

/** Project statuses of the reference account (reference/profile.json). */
export const PROJECT_STATUSES: { id: number; name: string }[] = FIXTURES.project_statuses;
/** Users of the reference account (reference/profile.json): id → e-mail. */
export const USER_EMAILS: Record<number, string> = Object.fromEntries(FIXTURES.users.map((u) => [u.id, u.email]));

const PRIORITY_RANK: Record<string, number> = { None: 0, Low: 1, Medium: 2, High: 3 };
/** `search.status-order` = workflow-rank: Open first, Completed last, any other status between them. */
const WORKFLOW_RANK: Record<string, number> = { Open: 0, Completed: 2 };

/** A key whose code-unit order is a natural collation: case folded, digit runs compared by value ("p2" before "p10"). */
const naturalKey = (name: string): string => name.toLowerCase().replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, '').padStart(24, '0'));

/** Collections by record type (`related_resource.type`). */
const TYPE_COLLECTIONS: Record<string, string> = {
  person: 'people',
  company: 'companies',
  lead: 'leads',
  opportunity: 'opportunities',
  project: 'projects',
  task: 'tasks',
};

/** The natural key of the name of a related record (`search.related-to-order` = name); "" when it is not found. */
function relatedName(app: App, type: string | null, id: number | string): string {
  const collection = type ? TYPE_COLLECTIONS[type] : undefined;
  const rec = collection ? app.store.collection<Rec>(collection).get(id) : undefined;
  return naturalKey(typeof rec?.name === 'string' ? rec.name : '');
}

export type SortKey = string | number | null;
export type Key = SortKey | [SortKey, SortKey];
export type Predicate = (rec: Rec) => boolean;
/** A criterion: validates the member's value (never null/undefined) and answers a predicate, or undefined when it restricts nothing. */
export type Criterion = (value: unknown, app: App) => Predicate | undefined;
export type SortKeyOf = (rec: Rec, app: App) => Key;

/** One searchable resource: its sort fields, default sort and criteria. */
export interface SearchDef {
  kind: 'project' | 'task';
  /** sort_by → key of a record. */
  sortKeys: Record<string, SortKeyOf>;
  defaultSort: string;
  /** Member name → criterion. */
  criteria: Record<string, Criterion>;
}

/* ---------- validation helpers: each answers a value or throws a 4xx ---------- */

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isIdent = (v: unknown): v is number | string => isInt(v) || (typeof v === 'string' && v !== '');

export function idList(app: App, name: string, v: unknown): (number | string)[] {
  if (!Array.isArray(v) || !v.every(isIdent)) invalid(app, `${name} must be a list of identifiers`, name);
  return v as (number | string)[];
}

function stringList(app: App, name: string, v: unknown): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) invalid(app, `${name} must be a list of strings`, name);
  return v as string[];
}

export function timestampBound(app: App, name: string, v: unknown): number {
  if (!isInt(v)) invalid(app, `${name} must be a Unix timestamp in seconds (an integer)`, name);
  return v as number;
}

/** An empty list criterion: restricts nothing under the choice `search.empty-list` = no-restriction. */
export const emptyMeansAll = (app: App, list: unknown[]): boolean => list.length === 0 && app.choice('search.empty-list') === 'no-restriction';

/** A predicate over a list criterion, or undefined when the empty list restricts nothing. */
const listCriterion = <T>(app: App, list: T[], pred: (set: Set<string>) => Predicate): Predicate | undefined =>
  emptyMeansAll(app, list) ? undefined : pred(new Set(list.map(String)));

/** How tags compare (`search.tag-case`). */
export const tagNorm = (app: App) => (app.choice('search.tag-case') === 'case-insensitive' ? (t: string) => t.toLowerCase() : (t: string) => t);

/** The tags of a `tags` member: a list, or `{ option: "ANY", value: [...] }`. */
export function tagsOf(app: App, v: unknown): string[] {
  if (Array.isArray(v)) return stringList(app, 'tags', v);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.option !== 'ANY') invalid(app, 'tags.option must be "ANY"', 'tags');
    return stringList(app, 'tags.value', o.value);
  }
  return invalid(app, 'tags must be a list of strings or { option: "ANY", value: [...] }', 'tags');
}

/** `tags`: matches records carrying at least one of the tags. */
const tagsCriterion: Criterion = (v, app) => {
  const tags = tagsOf(app, v);
  if (emptyMeansAll(app, tags)) return undefined;
  const norm = tagNorm(app);
  const wanted = new Set(tags.map(norm));
  return (rec) => (rec.tags as string[]).some((t) => wanted.has(norm(t)));
};

/** `assignee_ids`: owners; -2 selects records with no owner. */
const assigneeCriterion: Criterion = (v, app) => {
  const ids = idList(app, 'assignee_ids', v);
  const none = ids.some((x) => Number(x) === NONE);
  return listCriterion(app, ids, (set) => (rec) => (rec.assignee_id === null || rec.assignee_id === undefined ? none : set.has(String(rec.assignee_id))));
};

/** `followed`: 1 followed, 2 not followed. */
const followedCriterion: Criterion = (v, app) => {
  if (v !== 1 && v !== 2) invalid(app, 'followed must be 1 (followed) or 2 (not followed)', 'followed');
  return (rec) => !!rec._followed === (v === 1);
};

/** The custom field value of a record (undefined when it has none). */
export const customValue = (defId: number) => (rec: Rec) =>
  (rec.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]).find((c) => Number(c.custom_field_definition_id) === defId)?.value;

/** `custom_fields`: each entry `allow_empty` or `minimum_value` + `maximum_value`. */
const customFieldsCriterion: Criterion = (v, app) => {
  if (!Array.isArray(v)) return invalid(app, 'custom_fields must be a list of filter objects', 'custom_fields');
  const preds: Predicate[] = [];
  for (const entry of v) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) invalid(app, 'each custom_fields entry must be an object', 'custom_fields');
    const e = entry as Record<string, unknown>;
    const def = isIdent(e.custom_field_definition_id) ? definition(e.custom_field_definition_id) : undefined;
    if (!def) invalid(app, 'custom_fields entry names an unknown custom_field_definition_id', 'custom_fields');
    const valueOf = customValue(def!.id);
    const hasEmpty = e.allow_empty !== undefined && e.allow_empty !== null;
    const hasRange = (e.minimum_value !== undefined && e.minimum_value !== null) || (e.maximum_value !== undefined && e.maximum_value !== null);
    if (hasEmpty && typeof e.allow_empty !== 'boolean') invalid(app, 'allow_empty must be a boolean', 'custom_fields');
    for (const k of ['minimum_value', 'maximum_value'] as const) {
      if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) invalid(app, `${k} must be a number`, 'custom_fields');
    }
    if (hasEmpty) {
      const onlyNonEmpty = app.choice('search.allow-empty-false') === 'non-empty-only';
      const p: Predicate | undefined =
        e.allow_empty === true ? (rec) => isEmptyValue(valueOf(rec)) : onlyNonEmpty ? (rec) => !isEmptyValue(valueOf(rec)) : undefined;
      const hooked = app.at('search.custom-field', p, { part: 'allow_empty', entry: e, valueOf });
      if (hooked) preds.push(hooked);
    }
    if (hasRange) {
      const min = typeof e.minimum_value === 'number' ? e.minimum_value : -Infinity;
      const max = typeof e.maximum_value === 'number' ? e.maximum_value : Infinity;
      const p: Predicate = (rec) => {
        const x = valueOf(rec);
        return typeof x === 'number' && x >= min && x <= max;
      };
      const hooked = app.at('search.custom-field', p, { part: 'range', entry: e, valueOf });
      if (hooked) preds.push(hooked);
    }
  }
  return preds.length ? (rec) => preds.every((p) => p(rec)) : undefined;
};

/** A bound on a timestamp member (inclusive; a record without a value never satisfies it). */
export function timestampCriterion(field: string, name: string, op: 'min' | 'max'): Criterion {
  return (v, app) => {
    const t = timestampBound(app, name, v);
    return (rec) => {
      const x = rec[field];
      return typeof x === 'number' && (op === 'min' ? x >= t : x <= t);
    };
  };
}

/** Timestamp member bounded by each bound criterion (for faults on bounds). */
export const BOUND_FIELDS: Record<string, string> = {
  minimum_created_date: 'date_created',
  maximum_created_date: 'date_created',
  minimum_modified_date: 'date_modified',
  maximum_modified_date: 'date_modified',
  minimum_due_date: 'due_date',
  maximum_due_date: 'due_date',
};

const bound = (name: string) => timestampCriterion(BOUND_FIELDS[name], name, name.startsWith('minimum') ? 'min' : 'max');

/** Criteria shared by both searches. */
export function sharedCriteria(): Record<string, Criterion> {
  return {
    ids: (v, app) => listCriterion(app, idList(app, 'ids', v), (set) => (rec) => set.has(String(rec.id))),
    assignee_ids: assigneeCriterion,
    tags: tagsCriterion,
    followed: followedCriterion,
    minimum_created_date: bound('minimum_created_date'),
    maximum_created_date: bound('maximum_created_date'),
    minimum_modified_date: bound('minimum_modified_date'),
    maximum_modified_date: bound('maximum_modified_date'),
    custom_fields: customFieldsCriterion,
  };
}

/** `statuses`: status names. */
export const statusesCriterion: Criterion = (v, app) => listCriterion(app, stringList(app, 'statuses', v), (names) => (rec) => names.has(String(rec.status)));

/* ---------- sort keys ---------- */

export const keys = {
  name: (rec: Rec, app: App): Key => {
    const order = app.choice('search.name-order');
    const name = String(rec.name);
    if (order === 'case-insensitive') return [name.toLowerCase(), name];
    if (order === 'natural') return [naturalKey(name), name];
    return name;
  },
  assignedTo: (rec: Rec, app: App): Key => {
    const a = rec.assignee_id;
    if (a === null || a === undefined) return null;
    if (app.choice('search.assigned-to-order') === 'owner-email') return USER_EMAILS[Number(a)] ?? String(a);
    return typeof a === 'number' ? a : String(a);
  },
  relatedTo: (rec: Rec, app: App): Key => {
    const rr = rec.related_resource as { id: number | string | null; type: string | null } | null;
    if (!rr || rr.id === null || rr.id === undefined) return null;
    const id = typeof rr.id === 'number' ? rr.id : String(rr.id);
    const order = app.choice('search.related-to-order');
    if (order === 'name') return [relatedName(app, rr.type, rr.id), `${rr.type ?? ''}\u0000${String(id)}`];
    return order === 'id-then-type' ? [id, rr.type ?? ''] : [rr.type ?? '', id];
  },
  number:
    (field: string) =>
    (rec: Rec): Key =>
      typeof rec[field] === 'number' ? (rec[field] as number) : null,
  status: (rec: Rec, app: App): Key => {
    if (app.choice('search.status-order') === 'workflow-rank') return [WORKFLOW_RANK[String(rec.status)] ?? 1, String(rec.status)];
    if (app.choice('search.status-order') === 'status-id') {
      const s = PROJECT_STATUSES.find((x) => x.name === rec.status);
      if (s) return s.id;
    }
    return String(rec.status);
  },
  priority: (rec: Rec, app: App): Key => {
    if (rec.priority === null || rec.priority === undefined) return null;
    const p = String(rec.priority);
    return app.choice('search.priority-order') === 'rank' ? (PRIORITY_RANK[p] ?? 99) : p;
  },
};

function cmpScalar(a: SortKey, b: SortKey): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function cmpKey(a: Key, b: Key): number {
  if (Array.isArray(a) && Array.isArray(b)) return cmpScalar(a[0], b[0]) || cmpScalar(a[1], b[1]);
  return cmpScalar(a as SortKey, b as SortKey);
}

/** Where a record without a sort value goes (`search.null-placement`): sign of null vs a value, given the direction. */
function nullSign(app: App, dir: 1 | -1): 1 | -1 {
  switch (app.choice('search.null-placement')) {
    case 'largest':
      return dir;
    case 'smallest':
      return dir === 1 ? -1 : 1;
    case 'always-last':
      return 1;
    case 'always-first':
      return -1;
  }
}

/** Order of ties (`search.tie-order`): sign applied to the id comparison. */
function tieSign(app: App, dir: 1 | -1): 1 | -1 {
  switch (app.choice('search.tie-order')) {
    case 'id-asc':
      return 1;
    case 'id-desc':
      return -1;
    case 'with-direction':
      return dir;
  }
}

/* ---------- the search ---------- */

export interface SearchOptions {
  /** Present one record of the page (with computed custom field values or not). */
  present(rec: Rec, computed: boolean): Record<string, unknown>;
}

const num = (app: App, name: string, v: unknown, dflt: number): number => {
  if (v === undefined || v === null) return dflt;
  if (!isInt(v)) invalid(app, `${name} must be an integer`, name);
  return v as number;
};

const PAGING = ['page_number', 'page_size', 'sort_by', 'sort_direction'];

/** Header reporting the number of matches (`search.total-header`). */
const TOTAL_HEADER = { none: undefined, 'x-total-count': 'x-total-count', 'x-pw-total': 'x-pw-total' } as const;

/** Runs a search over `records` (the whole collection) with the request body: the page, and the total header of `search.total-header`. */
export async function runSearch(app: App, def: SearchDef, records: Iterable<Rec>, body: unknown, options: SearchOptions): Promise<Reply> {
  const page = await searchPage(app, def, records, body, options);
  const header = TOTAL_HEADER[app.choice('search.total-header')];
  return { status: 200, body: page.records, ...(header ? { headers: { [header]: String(page.total) } } : {}) };
}

async function searchPage(
  app: App,
  def: SearchDef,
  records: Iterable<Rec>,
  body: unknown,
  options: SearchOptions,
): Promise<{ records: Record<string, unknown>[]; total: number }> {
  const { kind } = def;
  const b = asObject(body, 'the search filter');
  if (app.choice('search.unknown-members') === 'refused') {
    const unknown = Object.keys(b).filter((k) => !PAGING.includes(k) && !Object.hasOwn(def.criteria, k));
    if (unknown.length) invalid(app, `unknown filter members: ${unknown.join(', ')}`, unknown[0]);
  }
  const defaults = app.at('search.defaults', { firstPage: 1, pageSize: DEFAULT_PAGE_SIZE, sortBy: def.defaultSort }, { kind });
  // Pagination.
  let pageNumber = num(app, 'page_number', b.page_number, defaults.firstPage);
  let pageSize = num(app, 'page_size', b.page_size, defaults.pageSize);
  if (pageNumber < defaults.firstPage && lenient(app)) pageNumber = defaults.firstPage;
  if (pageNumber < defaults.firstPage) {
    await app.seam('search.bad-page', { pageNumber, pageSize }, () => invalid(app, 'page_number must be 1 or more (the first page is 1)', 'page_number'));
  }
  if (pageSize < 1) invalid(app, 'page_size must be 1 or more', 'page_size');
  const maxPageSize = Number(app.choice('search.max-page-size'));
  if (pageSize > maxPageSize) {
    if (app.choice('search.page-size-over-max') === 'clamp') pageSize = maxPageSize;
    else invalid(app, `page_size must be at most ${maxPageSize}`, 'page_size');
  }
  // Sort.
  const unknownSort = typeof b.sort_by === 'string' && !Object.hasOwn(def.sortKeys, b.sort_by) && lenient(app);
  const sortBy = b.sort_by === undefined || b.sort_by === null || unknownSort ? defaults.sortBy : b.sort_by;
  if (typeof sortBy !== 'string' || !Object.hasOwn(def.sortKeys, sortBy)) {
    invalid(app, `sort_by must be one of ${Object.keys(def.sortKeys).join(', ')}`, 'sort_by');
  }
  const requested = b.sort_direction === undefined || b.sort_direction === null ? 'asc' : b.sort_direction;
  if (requested !== 'asc' && requested !== 'desc') invalid(app, 'sort_direction must be asc or desc', 'sort_direction');
  const dir = app.at('search.direction', requested as 'asc' | 'desc', { kind }) === 'desc' ? -1 : 1;
  // Criteria (validated before any record is looked at).
  const preds: Predicate[] = [];
  for (const [member, make] of Object.entries(def.criteria)) {
    const v = b[member];
    if (v === undefined || v === null) continue;
    const p = app.at('search.criterion', make(v, app), { kind, member, value: v });
    if (p) preds.push(p);
  }
  const match = app.at('search.match', (rec: Rec) => preds.every((p) => p(rec)), { preds });
  const keyOf = app.at('search.sort-key', def.sortKeys[sortBy], { kind, sortBy });
  const matches: { rec: Rec; key: Key }[] = [];
  for (const rec of records) if (!preds.length || match(rec)) matches.push({ rec, key: keyOf(rec, app) });
  const nulls = nullSign(app, dir);
  const tie = tieSign(app, dir);
  matches.sort((x, y) => {
    const xn = x.key === null;
    const yn = y.key === null;
    const c = xn || yn ? (xn && yn ? 0 : xn ? nulls : -nulls) : dir * cmpKey(x.key, y.key);
    return c || tie * cmpScalar(x.rec.id, y.rec.id);
  });
  const reachable = Math.min(matches.length, app.at('search.cap', SEARCH_CAP, { kind }));
  const start = (pageNumber - defaults.firstPage) * pageSize;
  if (start >= reachable) return { records: [], total: reachable };
  const end = Math.min(start + pageSize, reachable);
  const computed = app.at('search.computed', true, { kind });
  const out: Record<string, unknown>[] = [];
  for (let i = start; i < end; i++) out.push(options.present(matches[i].rec, computed));
  return { records: out, total: reachable };
}
