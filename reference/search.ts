/**
 * The search engine behind `POST /projects/search` and `POST /tasks/search` (spec § Projects,
 * § Tasks, § Limits): validation of the filter object, the criteria (combined with AND), the
 * sort, pagination and the 100,000-record cap.
 *
 * Open choices of the spec and what this server does (the variant mode, REFERENCE_VARIANT=1,
 * chooses differently):
 * - Maximum page size ("not shown"): 200. Above it the default mode refuses the request
 *   (422); the variant clamps the page size to 200.
 * - Ties of the sort key: broken by id ascending (variant: id descending), in both directions.
 * - Order of names: by UTF-16 code units (variant: case-insensitive first).
 * - Null sort keys (no owner, no due date …): last in asc and first in desc, i.e. desc is the
 *   exact reverse (variant: last in both directions).
 * - `assigned_to` orders by owner id (variant: by the owner's e-mail); `related_to` by related
 *   type then id (variant: id then type); `status` by name (variant: by status id); `priority`
 *   by name (variant: by rank None < Low < Medium < High).
 * - `custom_fields` entry with `allow_empty: false`: no restriction (variant: non-empty values
 *   only). An absent custom field value counts as empty ("absent or empty are returned as null").
 * - Minimum and maximum bounds (dates, custom field values) are inclusive; a record without a
 *   value never satisfies a bound.
 * - Mixed `assignee_ids` such as `[12, -2]` select the union (owner 12, or no owner).
 * - Tags and the project `name` criterion match case-sensitively (variant: ignoring case).
 * - Bad input (ill-typed members, page numbers below 1, unknown sort fields or directions, an
 *   unknown custom field definition) answers 422 `{ success: false, status, message }`
 *   (variant: 400 `{ errors: [...] }`). Unknown members are ignored; `null` means "absent".
 *
 * Speed: the criteria are checked in one pass over the collection, then the matches are
 * sorted once on precomputed keys; only the requested page is presented.
 */
import type { App, FaultDef } from './app.js';
import { definition, isEmptyValue } from './custom-fields.js';
import { invalid, asObject } from './routes/common.js';
import type { Rec } from './model.js';
import { FIXTURES } from './profile.js';

/** "Records reachable in one search: first 100,000, whatever the pagination". */
export const SEARCH_CAP = 100_000;
/** Largest page size this server serves (the spec does not show one). */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 20;
/** `-2` in assignee_ids / project_ids: "no owner" / "no project". */
export const NONE = -2;

/** Project statuses of the reference account (reference/profile.json). */
export const PROJECT_STATUSES: { id: number; name: string }[] = FIXTURES.project_statuses;
/** Users of the reference account (reference/profile.json): id → e-mail. */
export const USER_EMAILS: Record<number, string> = Object.fromEntries(FIXTURES.users.map((u) => [u.id, u.email]));

const PRIORITY_RANK: Record<string, number> = { None: 0, Low: 1, Medium: 2, High: 3 };

export type SortKey = string | number | null;
type Key = SortKey | [SortKey, SortKey];

/** One searchable resource: its sort fields, default sort and extra criteria. */
export interface SearchDef {
  /** `project` or `task`: used in messages. */
  kind: string;
  /** sort_by → key of a record (default and variant mode). */
  sortKeys: Record<string, (rec: Rec, app: App) => Key>;
  defaultSort: (app: App) => string;
  /** Criteria beyond the shared ones: member name → validator returning a predicate. */
  criteria: Record<string, (value: unknown, app: App) => ((rec: Rec) => boolean) | undefined>;
}

/** Faults of the shared search behaviour (listed by the projects module; they act on both searches). */
export const SEARCH_FAULTS: FaultDef[] = [
  { name: 'search-pages-zero-based', rules: ['SEARCH-2', 'SEARCH-4'], description: 'page_number counts from 0: page 1 answers the second page' },
  { name: 'search-default-page-size-10', rules: ['SEARCH-3'], description: 'the default page size is 10 instead of 20' },
  { name: 'search-sort-direction-ignored', rules: ['SEARCH-6', 'PSEARCH-2', 'TSEARCH-2'], description: 'sort_direction is ignored: results are always ascending' },
  { name: 'search-criteria-or', rules: ['SEARCH-5'], description: 'criteria combine with OR instead of AND' },
  { name: 'search-tags-all', rules: ['SEARCH-8'], description: 'tags selects records carrying all the tags instead of at least one' },
  { name: 'search-tags-object-ignored', rules: ['SEARCH-8'], description: 'the object form { option: "ANY", value } of tags is ignored (no restriction)' },
  { name: 'search-followed-inverted', rules: ['SEARCH-9'], description: 'followed 1 selects the records not followed and 2 the followed ones' },
  { name: 'search-max-bound-exclusive', rules: ['SEARCH-10', 'TSEARCH-6'], description: 'maximum_* date bounds are exclusive (a record at the bound is left out)' },
  { name: 'search-allow-empty-ignored', rules: ['SEARCH-11'], description: 'custom_fields allow_empty is ignored (no restriction)' },
  { name: 'search-custom-range-exclusive', rules: ['SEARCH-12'], description: 'custom_fields maximum_value is exclusive' },
  { name: 'search-computed-values-off', rules: ['SEARCH-13'], description: 'search results carry option ids instead of computed option names' },
  { name: 'search-ids-ignored', rules: ['SEARCH-14'], description: 'the ids criterion is ignored' },
  { name: 'search-unowned-unsupported', rules: ['SEARCH-15'], description: 'assignee_ids -2 is taken as an owner id and selects no record without owner' },
  { name: 'search-bad-page-500', rules: ['SEARCH-16'], description: 'a zero or negative page_number fails with 500 (negative array offset)' },
  { name: 'search-sort-related-ignored', rules: ['PSEARCH-2', 'TSEARCH-2'], description: 'sort_by related_to is ignored: results are sorted by name' },
  { name: 'search-cap-10k', rules: ['SEARCH-7'], description: 'results are limited to the first 10,000 records instead of 100,000 (caught with CRM_HEAVY=1)' },
];

/* ---------- validation helpers: each answers a predicate or throws a 4xx ---------- */

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

/** `followed`: 1 followed, 2 not followed. */
function followedCriterion(app: App, v: unknown): (rec: Rec) => boolean {
  if (v !== 1 && v !== 2) invalid(app, 'followed must be 1 (followed) or 2 (not followed)', 'followed');
  const want = (v === 1) !== app.fault('search-followed-inverted');
  return (rec) => !!rec._followed === want;
}

/** `tags`: a list, or `{ option: "ANY", value: [...] }`; matches records carrying at least one. */
function tagsCriterion(app: App, v: unknown): ((rec: Rec) => boolean) | undefined {
  let tags: string[];
  if (Array.isArray(v)) tags = stringList(app, 'tags', v);
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.option !== 'ANY') invalid(app, 'tags.option must be "ANY"', 'tags');
    tags = stringList(app, 'tags.value', o.value);
    if (app.fault('search-tags-object-ignored')) return undefined;
  } else return invalid(app, 'tags must be a list of strings or { option: "ANY", value: [...] }', 'tags');
  // Case of tags: the default mode matches exactly, the variant ignores case.
  const norm = app.variant ? (t: string) => t.toLowerCase() : (t: string) => t;
  const wanted = new Set(tags.map(norm));
  if (app.fault('search-tags-all')) return (rec) => [...wanted].every((t) => (rec.tags as string[]).some((x) => norm(x) === t));
  return (rec) => (rec.tags as string[]).some((t) => wanted.has(norm(t)));
}

/** `assignee_ids`: owners; -2 selects records with no owner. */
function assigneeCriterion(app: App, v: unknown): (rec: Rec) => boolean {
  const ids = idList(app, 'assignee_ids', v);
  const none = ids.some((x) => Number(x) === NONE) && !app.fault('search-unowned-unsupported');
  const set = new Set(ids.map(String));
  return (rec) => (rec.assignee_id === null || rec.assignee_id === undefined ? none : set.has(String(rec.assignee_id)));
}

/** `custom_fields`: each entry `allow_empty` or `minimum_value` + `maximum_value`. */
function customFieldsCriterion(app: App, v: unknown): ((rec: Rec) => boolean) | undefined {
  if (!Array.isArray(v)) return invalid(app, 'custom_fields must be a list of filter objects', 'custom_fields');
  const preds: ((rec: Rec) => boolean)[] = [];
  for (const entry of v) {
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) invalid(app, 'each custom_fields entry must be an object', 'custom_fields');
    const e = entry as Record<string, unknown>;
    const def = isIdent(e.custom_field_definition_id) ? definition(e.custom_field_definition_id) : undefined;
    if (!def) invalid(app, 'custom_fields entry names an unknown custom_field_definition_id', 'custom_fields');
    const defId = def!.id;
    const valueOf = (rec: Rec) => (rec.custom_fields as { custom_field_definition_id: unknown; value: unknown }[]).find((c) => Number(c.custom_field_definition_id) === defId)?.value;
    const hasEmpty = e.allow_empty !== undefined && e.allow_empty !== null;
    const hasRange = (e.minimum_value !== undefined && e.minimum_value !== null) || (e.maximum_value !== undefined && e.maximum_value !== null);
    if (hasEmpty && typeof e.allow_empty !== 'boolean') invalid(app, 'allow_empty must be a boolean', 'custom_fields');
    for (const k of ['minimum_value', 'maximum_value'] as const) {
      if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) invalid(app, `${k} must be a number`, 'custom_fields');
    }
    if (hasEmpty && e.allow_empty === true && !app.fault('search-allow-empty-ignored')) preds.push((rec) => isEmptyValue(valueOf(rec)));
    else if (hasEmpty && e.allow_empty === false && app.variant) preds.push((rec) => !isEmptyValue(valueOf(rec)));
    if (hasRange) {
      const min = typeof e.minimum_value === 'number' ? e.minimum_value : -Infinity;
      const max = typeof e.maximum_value === 'number' ? e.maximum_value : Infinity;
      const exclusive = app.fault('search-custom-range-exclusive');
      preds.push((rec) => {
        const x = valueOf(rec);
        return typeof x === 'number' && x >= min && (exclusive ? x < max : x <= max);
      });
    }
  }
  return preds.length ? (rec) => preds.every((p) => p(rec)) : undefined;
}

/**
 * Criteria shared by both searches. Each takes the member value (never null/undefined) and
 * returns a predicate, or undefined when it restricts nothing.
 */
export function sharedCriteria(): SearchDef['criteria'] {
  const bound = (field: string, op: 'min' | 'max') => (v: unknown, app: App) => {
    const name = `${op === 'min' ? 'minimum' : 'maximum'}_${field.replace('date_', '')}_date`;
    const t = timestampBound(app, name, v);
    const exclusive = op === 'max' && app.fault('search-max-bound-exclusive');
    return (rec: Rec) => {
      const x = rec[field];
      if (typeof x !== 'number') return false;
      return op === 'min' ? x >= t : exclusive ? x < t : x <= t;
    };
  };
  return {
    ids: (v, app) => {
      const set = new Set(idList(app, 'ids', v).map(String));
      return app.fault('search-ids-ignored') ? undefined : (rec) => set.has(String(rec.id));
    },
    assignee_ids: (v, app) => assigneeCriterion(app, v),
    tags: (v, app) => tagsCriterion(app, v),
    followed: (v, app) => followedCriterion(app, v),
    minimum_created_date: bound('date_created', 'min'),
    maximum_created_date: bound('date_created', 'max'),
    minimum_modified_date: bound('date_modified', 'min'),
    maximum_modified_date: bound('date_modified', 'max'),
    custom_fields: (v, app) => customFieldsCriterion(app, v),
  };
}

/** A bound on another timestamp member (due dates of tasks). */
export function timestampCriterion(field: string, name: string, op: 'min' | 'max', faultExclusive?: string) {
  return (v: unknown, app: App) => {
    const t = timestampBound(app, name, v);
    const exclusive = op === 'max' && (app.fault('search-max-bound-exclusive') || (!!faultExclusive && app.fault(faultExclusive)));
    return (rec: Rec) => {
      const x = rec[field];
      if (typeof x !== 'number') return false;
      return op === 'min' ? x >= t : exclusive ? x < t : x <= t;
    };
  };
}

export function statusesCriterion(ignoreFault: string) {
  return (v: unknown, app: App) => {
    const names = new Set(stringList(app, 'statuses', v));
    return app.fault(ignoreFault) ? undefined : (rec: Rec) => names.has(String(rec.status));
  };
}

/* ---------- sort keys ---------- */

export const keys = {
  name: (rec: Rec, app: App): Key => (app.variant ? [String(rec.name).toLowerCase(), String(rec.name)] : String(rec.name)),
  assignedTo: (rec: Rec, app: App): Key => {
    const a = rec.assignee_id;
    if (a === null || a === undefined) return null;
    return app.variant ? USER_EMAILS[Number(a)] ?? String(a) : typeof a === 'number' ? a : String(a);
  },
  relatedTo: (rec: Rec, app: App): Key => {
    if (app.fault('search-sort-related-ignored')) return String(rec.name);
    const rr = rec.related_resource as { id: number | string | null; type: string | null } | null;
    if (!rr || rr.id === null || rr.id === undefined) return null;
    const id = typeof rr.id === 'number' ? rr.id : String(rr.id);
    return app.variant ? [id, rr.type ?? ''] : [rr.type ?? '', id];
  },
  number: (field: string) => (rec: Rec): Key => (typeof rec[field] === 'number' ? (rec[field] as number) : null),
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

/* ---------- the search ---------- */

export interface SearchOptions {
  /** Present one record of the page (computed custom field values). */
  present(rec: Rec): Record<string, unknown>;
}

const num = (app: App, name: string, v: unknown, dflt: number): number => {
  if (v === undefined || v === null) return dflt;
  if (!isInt(v)) invalid(app, `${name} must be an integer`, name);
  return v as number;
};

/** Runs a search over `records` (the whole collection) with the request body. */
export function runSearch(app: App, def: SearchDef, records: Iterable<Rec>, body: unknown, options: SearchOptions): Record<string, unknown>[] {
  const b = asObject(body, 'the search filter');
  // Pagination.
  const zeroBased = app.fault('search-pages-zero-based');
  const pageNumber = num(app, 'page_number', b.page_number, zeroBased ? 0 : 1);
  let pageSize = num(app, 'page_size', b.page_size, app.fault('search-default-page-size-10') ? 10 : DEFAULT_PAGE_SIZE);
  if (pageNumber < (zeroBased ? 0 : 1)) {
    if (app.fault('search-bad-page-500')) throw new RangeError(`Invalid array offset ${(pageNumber - 1) * pageSize}`);
    invalid(app, 'page_number must be 1 or more (the first page is 1)', 'page_number');
  }
  if (pageSize < 1) invalid(app, 'page_size must be 1 or more', 'page_size');
  if (pageSize > MAX_PAGE_SIZE) {
    if (app.variant) pageSize = MAX_PAGE_SIZE;
    else invalid(app, `page_size must be at most ${MAX_PAGE_SIZE}`, 'page_size');
  }
  /** Records skipped before the page. */
  const skipPages = zeroBased ? pageNumber : pageNumber - 1;
  // Sort.
  const sortBy = b.sort_by === undefined || b.sort_by === null ? def.defaultSort(app) : b.sort_by;
  if (typeof sortBy !== 'string' || !Object.hasOwn(def.sortKeys, sortBy)) {
    return invalid(app, `sort_by must be one of ${Object.keys(def.sortKeys).join(', ')}`, 'sort_by');
  }
  const direction = b.sort_direction === undefined || b.sort_direction === null ? 'asc' : b.sort_direction;
  if (direction !== 'asc' && direction !== 'desc') invalid(app, 'sort_direction must be asc or desc', 'sort_direction');
  const dir = direction === 'desc' && !app.fault('search-sort-direction-ignored') ? -1 : 1;
  // Criteria (validated before any record is looked at).
  const preds: ((rec: Rec) => boolean)[] = [];
  for (const [member, make] of Object.entries(def.criteria)) {
    const v = b[member];
    if (v === undefined || v === null) continue;
    const p = make(v, app);
    if (p) preds.push(p);
  }
  const or = app.fault('search-criteria-or') && preds.length > 1;
  const matches: { rec: Rec; key: Key }[] = [];
  const keyOf = def.sortKeys[sortBy];
  for (const rec of records) {
    if (preds.length && !(or ? preds.some((p) => p(rec)) : preds.every((p) => p(rec)))) continue;
    matches.push({ rec, key: keyOf(rec, app) });
  }
  const tie = app.variant ? -1 : 1;
  const nullsLastAlways = app.variant;
  matches.sort((x, y) => {
    const xn = x.key === null;
    const yn = y.key === null;
    let c: number;
    if (xn || yn) {
      c = xn && yn ? 0 : xn ? 1 : -1; // null after non-null…
      if (!nullsLastAlways) c *= dir; // …in asc; before in desc (default mode)
    } else c = dir * cmpKey(x.key, y.key);
    return c || tie * cmpScalar(x.rec.id, y.rec.id);
  });
  const cap = app.fault('search-cap-10k') ? SEARCH_CAP / 10 : SEARCH_CAP;
  const reachable = Math.min(matches.length, cap);
  const start = skipPages * pageSize;
  if (start >= reachable) return [];
  const end = Math.min(start + pageSize, reachable);
  const out: Record<string, unknown>[] = [];
  for (let i = start; i < end; i++) out.push(options.present(matches[i].rec));
  return out;
}

/** Sort key of `status` (variant: status id of projects; name otherwise). */
export function statusKey(rec: Rec, app: App): Key {
  if (app.variant) {
    const s = PROJECT_STATUSES.find((x) => x.name === rec.status);
    return s ? s.id : String(rec.status);
  }
  return String(rec.status);
}

export function priorityKey(rec: Rec, app: App): Key {
  const p = rec.priority === null || rec.priority === undefined ? null : String(rec.priority);
  if (p === null) return null;
  return app.variant ? PRIORITY_RANK[p] ?? 99 : p;
}

