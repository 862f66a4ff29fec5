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
// Stryker disable next-line ArrayDeclaration: read only under search.assigned-to-order = owner-email, another alternative (what owners sort by: not said)
export const USER_EMAILS: Record<number, string> = Object.fromEntries(FIXTURES.users.map((u) => [u.id, u.email]));

// Stryker disable next-line ObjectLiteral: read only under search.priority-order = rank, another alternative (priority "by name or by rank: not said")
const PRIORITY_RANK: Record<string, number> = { None: 0, Low: 1, Medium: 2, High: 3 };
/** `search.status-order` = workflow-rank: Open first, Completed last, any other status between them. */
// Stryker disable next-line ObjectLiteral: read only under search.status-order = workflow-rank, another alternative (status order: not said)
const WORKFLOW_RANK: Record<string, number> = { Open: 0, Completed: 2 };

/** A key whose code-unit order is a natural collation: case folded, digit runs compared by value ("p2" before "p10"). */
// Stryker disable all: naturalKey, TYPE_COLLECTIONS and relatedName serve only other alternatives (search.name-order natural, search.related-to-order name)
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

// Stryker restore all
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

// Made false, or true as a whole, checks fail (SEARCH-14; SEARCH-16: page_number 1.5 answers 500); so does `||` (not disabled).
// Stryker disable next-line ConditionalExpression: `typeof v === 'number'` made true is equivalent: Number.isInteger is false for any non-number
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
// The reference's ids are numbers: refusing a string identifier, or taking "", null, an object or a fraction as one (it matches no record), is refusing
// or taking ill-typed input, which WIRE-5 and SEARCH-16 leave open; made false as a whole, or `&&`, every id list is refused and SEARCH-14 fails.
// Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: ill-typed identifiers, refused or taken (above)
const isIdent = (v: unknown): v is number | string => isInt(v) || (typeof v === 'string' && v !== '');

export function idList(app: App, name: string, v: unknown): (number | string)[] {
  if (!Array.isArray(v) || !v.every(isIdent)) invalid(app, `${name} must be a list of identifiers`, name);
  return v as (number | string)[];
}

function stringList(app: App, name: string, v: unknown): string[] {
  // The whole test made false (or `&&`, or no call): statuses "Open" answers 500 and SEARCH-16 fails; made true, SEARCH-8 fails; `some`, PSEARCH-4.
  // Stryker disable next-line ConditionalExpression: the entry test made true takes entries that are no strings (they match nothing): ill-typed, open (WIRE-5)
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) invalid(app, `${name} must be a list of strings`, name);
  return v as string[];
}

export function timestampBound(app: App, name: string, v: unknown): number {
  // Stryker disable next-line ConditionalExpression,CallExpression: a bound that is no integer taken (WIRE-5, SEARCH-16: open); made true, SEARCH-10 fails
  if (!isInt(v)) invalid(app, `${name} must be a Unix timestamp in seconds (an integer)`, name);
  return v as number;
}

/** An empty list criterion: restricts nothing under the choice `search.empty-list` = no-restriction. */
// Under the default search.empty-list = matches-nothing this answers false: undefined, false, or `true &&`/`!==` on the length answer the same, and `||`
// answers the no-restriction alternative (an empty list restricts nothing); made true as a whole, every list restricts nothing and SEARCH-14 fails.
// Stryker disable next-line ArrowFunction,ConditionalExpression,LogicalOperator,EqualityOperator: equivalent, or another alternative (above)
export const emptyMeansAll = (app: App, list: unknown[]): boolean => list.length === 0 && app.choice('search.empty-list') === 'no-restriction';

/** A predicate over a list criterion, or undefined when the empty list restricts nothing. */
const listCriterion = <T>(app: App, list: T[], pred: (set: Set<string>) => Predicate): Predicate | undefined =>
  emptyMeansAll(app, list) ? undefined : pred(new Set(list.map(String)));

/** How tags compare (`search.tag-case`). */
export const tagNorm = (app: App) => (app.choice('search.tag-case') === 'case-insensitive' ? (t: string) => t.toLowerCase() : (t: string) => t);

/** The tags of a `tags` member: a list, or `{ option: "ANY", value: [...] }`. */
export function tagsOf(app: App, v: unknown): string[] {
  if (Array.isArray(v)) return stringList(app, 'tags', v);
  // Made false, the object form is refused and SEARCH-8 fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: null never gets here; a primitive has no option "ANY", refused below alike
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // Made true, the object form is refused and SEARCH-8 fails.
    // Stryker disable next-line ConditionalExpression,CallExpression: the spec shows only option "ANY"; another taken as it, or refused, is open (WIRE-5)
    if (o.option !== 'ANY') invalid(app, 'tags.option must be "ANY"', 'tags');
    return stringList(app, 'tags.value', o.value);
  }
  return invalid(app, 'tags must be a list of strings or { option: "ANY", value: [...] }', 'tags');
}

/** `tags`: matches records carrying at least one of the tags. */
const tagsCriterion: Criterion = (v, app) => {
  const tags = tagsOf(app, v);
  // Stryker disable next-line ConditionalExpression: false under the default search.empty-list = matches-nothing (equivalent); made true, SEARCH-8 fails
  if (emptyMeansAll(app, tags)) return undefined;
  const norm = tagNorm(app);
  const wanted = new Set(tags.map(norm));
  return (rec) => (rec.tags as string[]).some((t) => wanted.has(norm(t)));
};

/** `assignee_ids`: owners; -2 selects records with no owner. */
const assigneeCriterion: Criterion = (v, app) => {
  const ids = idList(app, 'assignee_ids', v);
  const none = ids.some((x) => Number(x) === NONE);
  // Made true or false on the null test, SEARCH-15 fails; `rec.assignee_id === undefined` made false is equivalent:
  // Stryker disable next-line ConditionalExpression: a stored record's assignee_id is null when it has no owner, never undefined (reference/model.ts id())
  return listCriterion(app, ids, (set) => (rec) => (rec.assignee_id === null || rec.assignee_id === undefined ? none : set.has(String(rec.assignee_id))));
};

/** `followed`: 1 followed, 2 not followed. */
const followedCriterion: Criterion = (v, app) => {
  // Made true, every followed is refused and SEARCH-9 fails.
  // Stryker disable next-line ConditionalExpression,CallExpression: followed other than 1 or 2 taken (it selects unfollowed records): open (WIRE-5)
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
    // Made false as a whole, or its first two terms (or `&&`, or no call), a null entry answers 500 and SEARCH-16 fails; made true, SEARCH-11 fails.
    // Stryker disable next-line ConditionalExpression: `typeof entry !== 'object'` made false is equivalent: a primitive entry is refused by the next check
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) invalid(app, 'each custom_fields entry must be an object', 'custom_fields');
    const e = entry as Record<string, unknown>;
    const def = isIdent(e.custom_field_definition_id) ? definition(e.custom_field_definition_id) : undefined;
    if (!def) invalid(app, 'custom_fields entry names an unknown custom_field_definition_id', 'custom_fields');
    const valueOf = customValue(def!.id);
    // `!== null` made true refuses allow_empty: null (not a boolean): ill-typed input, refused or taken (WIRE-5, SEARCH-16: open); the other terms
    // made true or false, SEARCH-11 fails.
    // Stryker disable next-line ConditionalExpression: the null test made true (above)
    const hasEmpty = e.allow_empty !== undefined && e.allow_empty !== null;
    // These mutants differ only for an entry with one bound, or a bound null: the spec shows an entry "with `minimum_value` and `maximum_value`"
    // (both); one bound alone is not shown, a null bound is ill-typed (WIRE-5). Made true or false as a whole, or a `!== undefined`, SEARCH-12 fails.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: one bound alone, or null (above)
    const hasRange = (e.minimum_value !== undefined && e.minimum_value !== null) || (e.maximum_value !== undefined && e.maximum_value !== null);
    // Stryker disable next-line ConditionalExpression,CallExpression: an allow_empty that is no boolean taken: ill-typed input, open (WIRE-5, SEARCH-16)
    if (hasEmpty && typeof e.allow_empty !== 'boolean') invalid(app, 'allow_empty must be a boolean', 'custom_fields');
    // Stryker disable next-line BlockStatement: a bound that is no number taken: ill-typed input, refused or taken (WIRE-5, SEARCH-16: open)
    for (const k of ['minimum_value', 'maximum_value'] as const) {
      // A bound that is no finite number (1e999 parses as Infinity) or null, refused or taken: ill-typed input, open (WIRE-5, SEARCH-16);
      // made true (or `||`, or `=== undefined`), every range is refused and SEARCH-12 fails.
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,CallExpression: ill-typed bounds, refused or taken (above)
      if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) invalid(app, `${k} must be a number`, 'custom_fields');
    }
    // Made true: equivalent under the default search.allow-empty-false = no-restriction (no predicate without allow_empty); under non-empty-only it
    // differs only for an entry with neither allow_empty nor bounds, which the spec does not show. Made false, SEARCH-11 fails.
    // Stryker disable next-line ConditionalExpression: equivalent, or a shape not shown (above)
    if (hasEmpty) {
      const onlyNonEmpty = app.choice('search.allow-empty-false') === 'non-empty-only';
      const p: Predicate | undefined =
        e.allow_empty === true ? (rec) => isEmptyValue(valueOf(rec)) : onlyNonEmpty ? (rec) => !isEmptyValue(valueOf(rec)) : undefined;
      const hooked = app.at('search.custom-field', p, { part: 'allow_empty', entry: e, valueOf });
      if (hooked) preds.push(hooked);
    }
    if (hasRange) {
      // Made true, or +Infinity: only an entry without minimum_value differs, one bound alone, not shown ("with minimum_value and maximum_value");
      // made false, SEARCH-12 fails.
      // Stryker disable next-line ConditionalExpression,UnaryOperator: one bound alone (above)
      const min = typeof e.minimum_value === 'number' ? e.minimum_value : -Infinity;
      // Stryker disable next-line ConditionalExpression: the same (made true, only an entry without maximum_value differs); made false, SEARCH-12 fails
      const max = typeof e.maximum_value === 'number' ? e.maximum_value : Infinity;
      const p: Predicate = (rec) => {
        const x = valueOf(rec);
        return typeof x === 'number' && x >= min && x <= max;
      };
      const hooked = app.at('search.custom-field', p, { part: 'range', entry: e, valueOf });
      // Stryker disable next-line ConditionalExpression: made true, equivalent: p is a predicate, which app.at hands back (no fault on); false: SEARCH-12 fails
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
  // Stryker disable next-line StringLiteral: read only by faults (reference/faults/search.ts): routes/tasks.ts builds the due-date criteria itself
  minimum_due_date: 'due_date',
  // Stryker disable next-line StringLiteral: the same
  maximum_due_date: 'due_date',
};

// 'max' emptied is equivalent: timestampCriterion takes any op but 'min' as a maximum; 'minimum' or 'min' emptied, SEARCH-10 fails.
// Stryker disable next-line StringLiteral: equivalent (above)
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
    // Stryker disable next-line StringLiteral: the choice id emptied reads undefined: names then sort by code units, the default alternative (equivalent)
    const order = app.choice('search.name-order');
    const name = String(rec.name);
    if (order === 'case-insensitive') return [name.toLowerCase(), name];
    if (order === 'natural') return [naturalKey(name), name];
    return name;
  },
  assignedTo: (rec: Rec, app: App): Key => {
    const a = rec.assignee_id;
    // Made false (or a term, or `&&`), an owner-less record sorts as the text "null": after every numeric id in asc, first in desc, where the default
    // search.null-placement = largest puts it (equivalent); assignee_id is null, never undefined (model.ts id()). Made true (or `a !== null`, not
    // disabled), every key is null: the assigned_to grouping tests (PSEARCH-2, TSEARCH-2) fail.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent under the default choices (above)
    if (a === null || a === undefined) return null;
    if (app.choice('search.assigned-to-order') === 'owner-email') return USER_EMAILS[Number(a)] ?? String(a);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: owner ids as numbers or as text: what owners sort by is not said
    return typeof a === 'number' ? a : String(a);
  },
  relatedTo: (rec: Rec, app: App): Key => {
    const rr = rec.related_resource as { id: number | string | null; type: string | null } | null;
    // `rr.id === null` made false: a Task related to nothing ({ id: null, type: null }) sorts as ['', "null"], before every related record in asc,
    // after in desc: where records without a value sort is not said (search.null-placement); rr.id is never undefined (model.ts id()). Made true
    // (or `rr.id !== null`), every key is null and the related_to grouping tests fail; made false as a whole or on `!rr || …` (or `&&`), a
    // project related to nothing answers 500 and PSEARCH-2 (related_to, a record related to nothing) fails.
    // Stryker disable next-line ConditionalExpression: the null-id and undefined-id tests made false (above)
    if (!rr || rr.id === null || rr.id === undefined) return null;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: ids as numbers or as text: what related_to sorts by is not said
    const id = typeof rr.id === 'number' ? rr.id : String(rr.id);
    // Stryker disable next-line StringLiteral: the choice id emptied reads undefined: type then id, the default alternative (equivalent)
    const order = app.choice('search.related-to-order');
    if (order === 'name') return [relatedName(app, rr.type, rr.id), `${rr.type ?? ''}\u0000${String(id)}`];
    // Types emptied (`&&`): related_to sorts by id alone; another text for a missing type: what related_to sorts by is not said
    // (search.related-to-order); emptied as an array, the grouping tests fail.
    // Stryker disable next-line LogicalOperator,StringLiteral: what related_to sorts by (above)
    return order === 'id-then-type' ? [id, rr.type ?? ''] : [rr.type ?? '', id];
  },
  number:
    (field: string) =>
    (rec: Rec): Key =>
      // Stryker disable next-line ConditionalExpression: made true, equivalent: a stored timestamp is a number or null (model.ts n()); false: TSEARCH-2 fails
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
    // A task without a priority sorts where the spec leaves open (search.null-placement): kept as the text "null" or "undefined", it sorts after
    // every priority name, where the default puts null. Made true as a whole (no task has a priority), the TSEARCH-2 priority grouping test fails.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: where a task without a priority sorts is not said (above)
    if (rec.priority === null || rec.priority === undefined) return null;
    const p = String(rec.priority);
    return app.choice('search.priority-order') === 'rank' ? (PRIORITY_RANK[p] ?? 99) : p;
  },
};

function cmpScalar(a: SortKey, b: SortKey): number {
  // Stryker disable next-line ConditionalExpression: made false, equal keys still compare 0 (a - b, or equal texts); made true, the sort tests fail
  if (a === b) return 0;
  // An operand made true, or `||`: no sort mixes numbers and texts in its keys under the defaults, so only mixed pairs would change. Made false as a
  // whole, TSEARCH-2 "sort_by due_date orders by due_date" fails (999000000 sorts as text, after 2030), as the other mutants of the line do.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a number compared with a text occurs in no sort (above)
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  // Equal texts reach here only from equal keys of different types (1 and "1"; a === b answered 0 above), which no sort's keys mix. Made true or
  // false at the first test, or `x >= y` there, or false at the second test, or `x <= y` there, the sort tests fail.
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equal texts never reach here (above)
  return x < y ? -1 : x > y ? 1 : 0;
}

function cmpKey(a: Key, b: Key): number {
  // Only related_to keys are pairs under the defaults: compared as their texts ("project,12"), equal related records still compare equal and
  // different ones in one consistent order, which the spec does not fix (search.related-to-order); `||` changes only a pair against a scalar.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: the order between related records is not said (above)
  if (Array.isArray(a) && Array.isArray(b)) {
    return cmpScalar(a[0], b[0]) || cmpScalar(a[1], b[1]);
  }
  return cmpScalar(a as SortKey, b as SortKey);
}

/** Where a record without a sort value goes (`search.null-placement`): sign of null vs a value, given the direction. */
function nullSign(app: App, dir: 1 | -1): 1 | -1 {
  switch (app.choice('search.null-placement')) {
    // Stryker disable next-line ConditionalExpression: emptied, 'largest' falls through to 'smallest', another alternative (where nulls sort: not said)
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
// Stryker disable all: the order of records with equal sort keys is not said (search.tie-order): emptied, or with a choice or case emptied, the sign
// is undefined, ties compare equal and keep the store's order (the same on every page), or 'id-asc' falls through to 'id-desc', another alternative
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

// Stryker restore all
export interface SearchOptions {
  /** Present one record of the page (with computed custom field values or not). */
  present(rec: Rec, computed: boolean): Record<string, unknown>;
}

const num = (app: App, name: string, v: unknown, dflt: number): number => {
  // Made false at `v === null`, a null page_number or page_size is refused: a number member given null is ill-typed input, refused or taken (WIRE-5,
  // SEARCH-16). The other mutants of the line: checks fail (SEARCH-2, SEARCH-3).
  // Stryker disable next-line ConditionalExpression: null for a page member, refused or taken (above)
  if (v === undefined || v === null) return dflt;
  if (!isInt(v)) invalid(app, `${name} must be an integer`, name);
  return v as number;
};

// Stryker disable next-line ArrayDeclaration,StringLiteral: read only under search.unknown-members = refused, another alternative (not said)
const PAGING = ['page_number', 'page_size', 'sort_by', 'sort_direction'];

/** Header reporting the number of matches (`search.total-header`). */
const TOTAL_HEADER = { none: undefined, 'x-total-count': 'x-total-count', 'x-pw-total': 'x-pw-total' } as const;

/** Runs a search over `records` (the whole collection) with the request body: the page, and the total header of `search.total-header`. */
export async function runSearch(app: App, def: SearchDef, records: Iterable<Rec>, body: unknown, options: SearchOptions): Promise<Reply> {
  const page = await searchPage(app, def, records, body, options);
  // Stryker disable next-line StringLiteral: no choice read, no header: as the default none ("Response headers that report totals: not shown")
  const header = TOTAL_HEADER[app.choice('search.total-header')];
  // Stryker disable next-line ObjectLiteral: the header only under another alternative of search.total-header (not shown); made {} as a whole, all fail
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
  // Stryker disable next-line StringLiteral: the member's name reaches only an error's message and field (the general error body is not shown)
  let pageNumber = num(app, 'page_number', b.page_number, defaults.firstPage);
  // Stryker disable next-line StringLiteral: the member's name reaches only an error's message and field (the general error body is not shown)
  let pageSize = num(app, 'page_size', b.page_size, defaults.pageSize);
  // A page number below 1 taken as the first page is the lenient reading of errors.ill-typed-input (SEARCH-16: refused or answered as a search); under
  // the default the line does nothing, mutated or not. Made true as a whole, SEARCH-2 (page 2) fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a page below 1, refused or taken (above)
  if (pageNumber < defaults.firstPage && lenient(app)) pageNumber = defaults.firstPage;
  // A page below 1 is refused here (SEARCH-16 lets a server refuse it, or take it as the first page, above). Not refused, it crashes below (the page
  // starts before the first match): a 500 on page_number 0, which SEARCH-16 (a SHOULD: it fails the strict mutation run) catches. Made true, `<=`
  // or `>=`, SEARCH-2 fails.
  if (pageNumber < defaults.firstPage) {
    await app.seam('search.bad-page', { pageNumber, pageSize }, () => invalid(app, 'page_number must be 1 or more (the first page is 1)', 'page_number'));
  }
  // Not refused, a page_size of 0 or less answers an empty array (no entry per page): input the spec gives no status for, refused or answered as a
  // search (WIRE-5, SEARCH-16). Made true as a whole, every search is refused (not disabled: `<=`, `>=`).
  // Stryker disable next-line ConditionalExpression,CallExpression: a page_size below 1, refused or answered (above)
  if (pageSize < 1) invalid(app, 'page_size must be 1 or more', 'page_size');
  // Stryker disable next-line StringLiteral: no choice read, no largest page (NaN): "Maximum page size | searches | not shown"
  const maxPageSize = Number(app.choice('search.max-page-size'));
  // "Maximum page size | searches | not shown": serving any size, or refusing the largest, is a server's choice (search.max-page-size). Made true, or
  // `<=`, SEARCH-3 fails.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: the largest page is not shown (above)
  if (pageSize > maxPageSize) {
    // Stryker disable next-line CallExpression: served whole, a page above the largest: the maximum page size is not shown
    if (app.choice('search.page-size-over-max') !== 'clamp') invalid(app, `page_size must be at most ${maxPageSize}`, 'page_size');
    pageSize = maxPageSize;
  }
  // Sort.
  // Only the lenient alternative of errors.ill-typed-input takes an unknown sort_by (as the default sort); taking or refusing it is left open
  // (SEARCH-16). Under the default, `&& lenient(app)` keeps every mutant false but one: made true as a whole, the sort tests fail.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BooleanLiteral: an unknown sort_by (above)
  const unknownSort = typeof b.sort_by === 'string' && !Object.hasOwn(def.sortKeys, b.sort_by) && lenient(app);
  // Made false at `b.sort_by === null`, a null sort_by is refused: ill-typed input, refused or taken (WIRE-5, SEARCH-16). The other mutants: checks fail.
  // Stryker disable next-line ConditionalExpression: a null sort_by, refused or taken (above)
  const sortBy = b.sort_by === undefined || b.sort_by === null || unknownSort ? defaults.sortBy : b.sort_by;
  // Made false at `typeof sortBy !== 'string'`, a list such as ["name"] is taken as its text, a sort field: ill-typed input taken (WIRE-5). Made false
  // as a whole, SEARCH-16 "an unknown sort field or a fractional page over matching records" fails (500), as `&&`, `{}` and the call's `;` do.
  // Stryker disable next-line ConditionalExpression: a non-text sort_by naming a sort field, taken or refused (above)
  if (typeof sortBy !== 'string' || !Object.hasOwn(def.sortKeys, sortBy)) {
    invalid(app, `sort_by must be one of ${Object.keys(def.sortKeys).join(', ')}`, 'sort_by');
  }
  // Made false at `b.sort_direction === null`, a null sort_direction is refused: ill-typed input, refused or taken (WIRE-5, SEARCH-16). Other mutants:
  // checks fail (SEARCH-6).
  // Stryker disable next-line ConditionalExpression: a null sort_direction, refused or taken (above)
  const requested = b.sort_direction === undefined || b.sort_direction === null ? 'asc' : b.sort_direction;
  // Not refused, a sort_direction other than asc or desc is answered as asc: SEARCH-16 lets a server refuse it or answer it as a search. Made true
  // (the test or an operand), SEARCH-6 fails.
  // Stryker disable next-line ConditionalExpression,CallExpression: a bad sort_direction, refused or answered as a search (above)
  if (requested !== 'asc' && requested !== 'desc') invalid(app, 'sort_direction must be asc or desc', 'sort_direction');
  const dir = app.at('search.direction', requested as 'asc' | 'desc', { kind }) === 'desc' ? -1 : 1;
  // Criteria (validated before any record is looked at).
  const preds: Predicate[] = [];
  for (const [member, make] of Object.entries(def.criteria)) {
    const v = b[member];
    // Made false at `v === null`, a criterion given null is validated and refused: ill-typed input, refused or taken (WIRE-5, SEARCH-16).
    // Stryker disable next-line ConditionalExpression: a null criterion, refused or taken (above); the other mutants of the line: checks fail
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
    // Null compared as the text "null" (the first test false, or `&&`): a null sorts after every digit run and priority name, as under the default,
    // or for related_to between the groups; null with null made `nulls` (the second test false): only the order among records without a value. Where
    // those sort is not said (search.null-placement). `dir / cmp` keeps the sign; only ties (x / 0) change, whose order is not said either.
    // Made true (either test) or `||` at the second: checks fail; `+nulls`: TSEARCH-2 due_date fails (not disabled).
    // Stryker disable next-line ConditionalExpression,LogicalOperator,ArithmeticOperator: where records without a value and ties sort (above)
    const c = xn || yn ? (xn && yn ? 0 : xn ? nulls : -nulls) : dir * cmpKey(x.key, y.key);
    // Stryker disable next-line ArithmeticOperator: `tie / cmp` has the sign of `tie * cmp` (two records' ids differ)
    return c || tie * cmpScalar(x.rec.id, y.rec.id);
  });
  const reachable = Math.min(matches.length, app.at('search.cap', SEARCH_CAP, { kind }));
  const start = (pageNumber - defaults.firstPage) * pageSize;
  // Made false, or `>`: a start at or past the reachable end gives an empty page all the same. Made true or `<`, SEARCH-2 fails.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent (above)
  if (start >= reachable) return { records: [], total: reachable };
  const end = Math.min(start + pageSize, reachable);
  const computed = app.at('search.computed', true, { kind });
  const out: Record<string, unknown>[] = [];
  for (let i = start; i < end; i++) out.push(options.present(matches[i].rec, computed));
  return { records: out, total: reachable };
}
