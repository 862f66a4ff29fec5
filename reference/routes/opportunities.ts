/**
 * Opportunities (spec § Bulk create of Opportunities): `POST /opportunities/bulk_create`.
 *
 * Open choices (rules/choices.json), taken from `app.choice`:
 * - Rate limit ("3 per second … excess may get 429"), `bulk.rate-window`: per credential, at most
 *   3 admitted bulk requests in any sliding second or in each calendar second; an excess request
 *   gets 429 with `Retry-After` (seconds) and the body `bulk.rate-limit-body`. Refused requests
 *   are not counted.
 * - More than 10 entries: 422 `{ error }` naming the limit, worded as `bulk.too-large-message`.
 * - A body that is not `{ opportunities: [...] }`: `invalid` (`errors.validation-status`).
 * - Entry checks: `name` a non-empty string; `pipeline_id` an opportunity pipeline;
 *   `pipeline_stage_id` a stage of it; members of the wrong type. A failed entry is
 *   `{ success: false, message: { <field>: [ { error } ] } }` with the codes `bulk.error-codes`.
 * - `close_date` is accepted as "MM/DD/YYYY" or a Unix timestamp and answered slash-separated,
 *   as `bulk.close-date`.
 * - Without `pipeline_id`: the first opportunity pipeline; without `pipeline_stage_id`: the
 *   pipeline's first stage. `monetary_unit`: `bulk.monetary-unit`.
 * Faults: reference/faults/opportunities.ts (hook points `bulk.*`).
 */
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { C, NESTED_EXTRA, firstStage, makeOpportunity, present, type Rec } from '../model.js';
import type { Collection } from '../store.js';
import type { PipelineRecord } from './pipelines.js';
import { invalid } from './common.js';
import { FIXTURES } from '../profile.js';

/** Entries per request (spec § Limits), the documented 10 or, per the open choice bulk.entries-limit, raised or lowered. */
export const BULK_LIMIT = 10;
const ENTRIES_LIMIT = { '10': BULK_LIMIT, raised: 12, lowered: 8 } as const;
/** The server's limit of entries per request under its choices. */
export const entriesLimit = (app: App): number => ENTRIES_LIMIT[app.choice('bulk.entries-limit')];
/** Bulk requests per second and credential (spec § Limits). */
export const BULK_RATE = 3;

// typeof 'object' made true: a number or text entry fails on name instead of as a whole (which field a failed entry names: not stated, rule 4).
// Made true as a whole, !!v or typeof made true (a null entry read), WIRE-5 (bulk entries) fails; made false, BULK-4 fails.
// Stryker disable next-line ConditionalExpression: a primitive entry fails on another field (not stated); the other mutants, WIRE-5 fails (above)
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// A text id refused, or an empty one taken (and dropped): an identifier's format is not fixed, ill-typed ids are refused or taken
// leniently (WIRE-5); typeof number made true: Number.isInteger implies a number (equivalent). A fraction or any value made an id
// (true as a whole, ||, typeof !== string): WIRE-5 (bulk entries) fails; numbers made no ids (false, typeof !== or ""), BULK-7 fails.
// Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: text ids refused or an empty one dropped (WIRE-5), or equivalent
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
// Stryker disable next-line StringLiteral: unpadded, MM/DD/YYYY is answered M/D/YYYY: the m/d/yyyy alternative of open choice bulk.close-date
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** close_date input → { month, day, year } in UTC, or undefined when not a date. */
// Stryker disable next-line StringLiteral: the default order emptied reads month-first too (equivalent: the routes pass bulk.close-date-input)
export function parseCloseDate(v: unknown, order: 'month-first' | 'year-first' = 'month-first'): { y: number; m: number; d: number } | undefined {
  // An integer close_date (§ Opportunity: "null or string") read as Unix seconds, refused (test made false), a fractional one read too
  // (||): ill-typed input, refused or taken leniently (WIRE-5); created, BULK-6 judges its answer. Made true as a whole, BULK-6 fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BlockStatement: a number close_date, ill-typed (WIRE-5)
  if (typeof v === 'number' && Number.isInteger(v)) {
    // Stryker disable next-line ArithmeticOperator: which date a number names is not stated (ill-typed, read leniently: WIRE-5)
    const t = new Date(v * 1000);
    return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
  }
  if (typeof v !== 'string') return undefined;
  // Year-first: code of bulk.close-date-input's other alternative (the test made false or its name emptied reads month-first, the default).
  // Month-first unanchored, or untrimmed: an ill-formed close_date read leniently or refused, not stated (WIRE-5). The test made true,
  // or a month-first digit class changed, BULK-6 fails.
  // Stryker disable next-line ConditionalExpression,StringLiteral,Regex,MethodExpression: year-first is another alternative; ill-formed input (WIRE-5)
  const m = order === 'year-first' ? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(v.trim()) : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim());
  if (!m) return undefined;
  // Stryker disable next-line ConditionalExpression,StringLiteral,ArrayDeclaration: year-first is bulk.close-date-input's other alternative
  // (made false or emptied: month-first, the default's reading); made true or the month-first parts emptied, BULK-6 fails
  const [mo, d, y] = order === 'year-first' ? [Number(m[2]), Number(m[3]), Number(m[1])] : [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  // An impossible date (02/30/2024, month 27) rolled over to a real one instead of failed: a lenient reading, not stated (BULK-6 notes
  // it, does not judge it). Made true, every date fails: BULK-6 fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: an impossible date rolled over, not failed: lenient, not stated (above)
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return { y, m: mo, d };
}

/** The credential a request is counted against. */
// Stryker disable next-line BlockStatement: what the bulk rate counts against (a credential, the account, every caller) is not stated (§ Limits)
function credentialKey(headers: Record<string, unknown>): string {
  // Stryker disable next-line LogicalOperator,StringLiteral: the same (§ Limits: "bulk interfaces | 3 per second", counted per what: not stated)
  return String(headers.authorization ?? headers['x-svc-accesstoken'] ?? 'anonymous');
}

type Window = (now: number) => { from: number; end: (admitted: number[]) => number };
/** `bulk.rate-window`: which admitted requests count against a new one, and when a slot frees. */
const WINDOWS: Record<string, Window> = {
  // No request counted (from undefined, or in the future): a target may admit more than 3 a second ("excess may get 429"; BULK-9 is MAY).
  // The slot's end undefined or a second earlier: Retry-After NaN, or 1 as it is (equivalent); Retry-After is not stated (§ Errors: the
  // 429's body "not stated", no header named). The window made () => undefined, every bulk call fails (killed).
  // Stryker disable next-line ObjectLiteral,ArithmeticOperator,ArrowFunction: "excess may get 429" (MAY); Retry-After not stated (above)
  sliding: (now) => ({ from: now - 999, end: (admitted) => admitted[0] + 1000 }),
  // Stryker disable next-line all: the calendar-second alternative of open choice bulk.rate-window (a mutation run takes the default, sliding)
  'calendar-second': (now) => ({ from: Math.floor(now / 1000) * 1000, end: () => Math.floor(now / 1000) * 1000 + 1000 }),
};

/** Admitted bulk requests per credential. */
class RateLimiter {
  private admitted = new Map<string, number[]>();
  constructor(private readonly window: Window) {}
  /** undefined when admitted; otherwise the seconds to wait. */
  // Stryker disable next-line BlockStatement: never refused: a target may admit more than 3 a second ("excess may get 429"; BULK-9 is MAY)
  check(key: string, now = Date.now()): number | undefined {
    const w = this.window(now);
    // Nothing counted (filter made false or () => undefined), or a request 999 ms old no longer (>): more than 3 a second admitted, which
    // "excess may get 429" allows (BULK-9 is MAY); a placeholder in a new key's list is no time and is filtered out (equivalent). Made
    // true, paced requests are refused: BULK-12 fails; made <, the requests of a second ago drop and older ones stay: BULK-12 fails.
    // Stryker disable next-line ArrayDeclaration,ArrowFunction,ConditionalExpression,EqualityOperator: "excess may get 429" (MAY), or equivalent (above)
    const recent = (this.admitted.get(key) ?? []).filter((t) => t >= w.from);
    // Stryker disable next-line CallExpression: nothing kept, nothing refused: "excess may get 429" (BULK-9 is MAY)
    this.admitted.set(key, recent);
    // Never refused or a 4th admitted: "excess may get 429" (BULK-9 is MAY); Math.min: equivalent (a slot frees within 1000 ms, so the
    // wait is 1 s); * or +: another Retry-After, not stated (§ Errors: the 429's body "not stated"). Made true or <, BULK-12 fails.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression,ArithmeticOperator: "excess may get 429" (MAY); Retry-After (above)
    if (recent.length >= BULK_RATE) return Math.max(1, Math.ceil((w.end(recent) - now) / 1000));
    // Stryker disable next-line CallExpression: nothing counted, nothing refused: "excess may get 429" (BULK-9 is MAY)
    recent.push(now);
    return undefined;
  }
}

type Failure = Record<string, { error: string }[]>;

/**
 * A name that is no string, or blank. A blank name ("  ") created is not stated either way (rule 4 names no entry that must fail);
 * every name failed (typeof made true, 'string' emptied), BULK-4 fails. (Out of the `else if`: StrykerJS reads no directive before `else`.)
 */
// Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: a blank name created, not stated (above)
const nameless = (v: unknown) => typeof v !== 'string' || v.trim() === '';

/** `bulk.close-date`: the answered form of a date. */
export const CLOSE_DATE: Record<string, (d: { y: number; m: number; d: number }) => string> = {
  'mm/dd/yyyy': (d) => `${pad(d.m)}/${pad(d.d)}/${d.y}`,
  // Stryker disable all: the yyyy/mm/dd and m/d/yyyy alternatives of open choice bulk.close-date (a mutation run takes the default)
  'yyyy/mm/dd': (d) => `${d.y}/${pad(d.m)}/${pad(d.d)}`,
  'm/d/yyyy': (d) => `${d.m}/${d.d}/${d.y}`,
};
// Stryker restore all

/** The 429 body (`bulk.rate-limit-body`). */
// Stryker disable next-line BlockStatement: no body: the empty alternative of open choice bulk.rate-limit-body (§ Errors: the 429's "not stated")
function rateLimitBody(app: App): unknown {
  const message = `rate limit: at most ${BULK_RATE} bulk requests per second`;
  // Stryker disable next-line StringLiteral: the id emptied reads no alternative: the message shape, as under the default (equivalent)
  const shape = app.choice('bulk.rate-limit-body');
  if (shape === 'errors-list') return { errors: [{ code: 'rate_limited', detail: message }] };
  if (shape === 'empty') return undefined;
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the 429's body is "not stated" (§ Errors)
  return { success: false, status: 429, message };
}

/** What a bulk create reads of the server once: the stores and the open choices of its answers. */
interface Bulk {
  app: App;
  store: Collection<Rec>;
  pipelines: Collection<PipelineRecord>;
  /** The codes of a missing and of an ill-typed member (`bulk.error-codes`). */
  required: string;
  wrongType: string;
  closeDate: (d: { y: number; m: number; d: number }) => string;
  monetaryUnit: string;
}

/** Checks one entry: the failure map, or undefined when it can be created. */
function check(b: Bulk, entry: unknown): Failure | undefined {
  const { app, pipelines, required, wrongType } = b;
  const fail: Failure = {};
  const add = (field: string, code: string) => {
    (fail[field] ??= []).push({ error: code });
  };
  if (!isObj(entry)) return { opportunity: [{ error: wrongType }] };
  const e = entry;
  // A missing, null or empty name failed as ill-typed (invalid_type, not required): the code is open (bulk.error-codes; rule 4: "for
  // example invalid"), the entry fails either way. The field name emptied, BULK-5 fails; made true, BULK-4 fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: which code a missing name fails with is open (above)
  if (e.name === undefined || e.name === null || e.name === '') add('name', required);
  // The field name emptied, BULK-5 fails; every name failed (made true), BULK-4 fails.
  else if (nameless(e.name)) add('name', wrongType);
  let pipeline: PipelineRecord | undefined;
  // Stryker disable next-line ConditionalExpression: pipeline_id null (no identifier) failed: ill-typed (WIRE-5); made false, PIPE-5, true, BULK-4 fails
  if (e.pipeline_id !== undefined && e.pipeline_id !== null) {
    pipeline = isId(e.pipeline_id) ? pipelines.get(e.pipeline_id as number) : undefined;
    // An entry in a pipeline of another type (project) created: not stated (the bulk answer carries its pipeline_type). Made false as a whole,
    // PIPE-5 fails; made true, BULK-7 fails.
    // Stryker disable next-line ConditionalExpression: an Opportunity in a pipeline of another type, not stated (above)
    if (!pipeline || pipeline.type !== 'opportunity') add('pipeline_id', 'invalid');
  }
  // Stryker disable next-line ConditionalExpression: pipeline_stage_id null (no identifier) failed: ill-typed (WIRE-5); made false, PIPE-5, true, BULK-4 fails
  if (e.pipeline_stage_id !== undefined && e.pipeline_stage_id !== null) {
    // A pipeline_stage_id sent without pipeline_id: which pipeline it is of is not shown (PIPE-5: the pipeline chosen for such an entry is not shown).
    // Made pipeline && …, PIPE-5 fails.
    // Stryker disable next-line ArrowFunction,ConditionalExpression,EqualityOperator,StringLiteral: a stage sent without pipeline_id (above)
    const p = pipeline ?? pipelines.all().find((x) => x.type === 'opportunity');
    // Stryker disable next-line OptionalChaining: equivalent: p is always a pipeline (the account has an opportunity pipeline)
    if (!isId(e.pipeline_stage_id) || !p?.stages.some((s) => s.id === Number(e.pipeline_stage_id))) add('pipeline_stage_id', 'invalid');
  }
  // An ill-typed details, priority or status taken (dropped: a valid Opportunity) instead of failed: ill-typed input refused or taken
  // leniently (WIRE-5), and rule 4 names no entry that must fail. Made to fail a null ("string or null"), BULK-5 fails; made true, BULK-4 fails.
  // Stryker disable next-line ArrayDeclaration,StringLiteral,ConditionalExpression,CallExpression: an ill-typed member taken leniently (above)
  for (const k of ['details', 'priority', 'status']) if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'string') add(k, wrongType);
  // A text monetary_value or win_probability taken (dropped), or a null one (§ Opportunity: number) failed: ill-typed input refused or
  // taken leniently (WIRE-5); BULK-5 sends them and allows either.
  // Stryker disable next-line ArrayDeclaration,StringLiteral: an ill-typed number member taken leniently (above)
  for (const k of ['monetary_value', 'win_probability'])
    // Made true (a number failed, or every entry), BULK-4 fails.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,CallExpression: the same (above)
    if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) add(k, wrongType);
  for (const k of ['assignee_id', 'primary_contact_id', 'customer_source_id']) if (e[k] !== undefined && e[k] !== null && !isId(e[k])) add(k, 'invalid');
  // Ill-typed tags (a text, a number among them) taken (dropped) or null tags failed: refused or taken leniently (WIRE-5). Made to fail
  // an entry without tags, WIRE-5 (bulk entries) and WIRE-3 fail; made to fail empty tags, or to read a text as a list, WIRE-5 (bulk entries) fails;
  // made true (string tags failed), BULK-4 fails.
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrowFunction: ill-typed tags taken leniently, or null tags failed (above)
  if (e.tags !== undefined && e.tags !== null && (!Array.isArray(e.tags) || e.tags.some((t) => typeof t !== 'string'))) add('tags', 'invalid');
  if (
    // Ill-typed custom_fields taken (dropped): refused or taken leniently (WIRE-5). Made true (every entry failed), BULK-4 fails.
    // Stryker disable next-line ConditionalExpression: ill-typed custom_fields taken (dropped), WIRE-5 (above)
    e.custom_fields !== undefined &&
    // Stryker disable next-line ConditionalExpression,EqualityOperator: custom_fields null (no list) failed: refused or taken (WIRE-5)
    e.custom_fields !== null &&
    // A value that is no custom field value taken (dropped): WIRE-5. Made && or every, WIRE-5 (bulk entries) fails; made true, BULK-8 fails.
    // Stryker disable next-line ArrowFunction,ConditionalExpression: an ill-typed custom field value taken leniently (above)
    (!Array.isArray(e.custom_fields) || e.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))
  )
    add('custom_fields', 'invalid');
  // The choice's id emptied reads month-first, the default (equivalent; the order read is open: bulk.close-date-input, BULK-6 accepts
  // either). The field or the code emptied, BULK-6 fails.
  // Stryker disable next-line StringLiteral: the choice's id emptied reads the default's order (above)
  if (e.close_date !== undefined && e.close_date !== null && !parseCloseDate(e.close_date, app.choice('bulk.close-date-input'))) add('close_date', 'invalid');
  return Object.keys(fail).length ? fail : undefined;
}

/** Creates the Opportunity of a valid entry: its answer. */
function create(b: Bulk, entry: Record<string, unknown>): Record<string, unknown> {
  const { app, pipelines } = b;
  const e = app.at('bulk.entry', entry, undefined);
  // The pipeline of an entry without pipeline_id is not shown (PIPE-5): another type's. Made false, PIPE-5 fails.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the pipeline of an entry without pipeline_id, not shown (above)
  const pipelineId = e.pipeline_id ?? pipelines.all().find((p) => p.type === 'opportunity')!.id;
  const pipeline = pipelines.get(pipelineId as number)!;
  // A pipeline_stage_id sent ignored (the first stage, BULK-7): it is none of the bulk body's "Members shown". firstStage is the
  // pipeline's first stage (&& and ?. equivalent); the hook's context is read by faults only.
  // Stryker disable next-line LogicalOperator,OptionalChaining,ObjectLiteral: a stage sent, not shown; equivalent (above)
  const stage = e.pipeline_stage_id ?? app.at('bulk.default-stage', firstStage(pipeline.id) ?? pipeline.stages[0]?.id, { pipeline });
  // Stryker disable next-line StringLiteral: the choice's id emptied reads month-first, the default (equivalent; bulk.close-date-input is open)
  const date = parseCloseDate(e.close_date, app.choice('bulk.close-date-input'));
  const rec = b.store.insert({
    ...makeOpportunity(app, { ...e, pipeline_id: pipeline.id, pipeline_stage_id: stage }),
    close_date: date ? b.closeDate(date) : null,
  });
  app.emit('opportunity', 'new', present(app, rec));
  return {
    ...present(app, rec, { computed: true }),
    pipeline_is_revenue: pipeline.is_revenue,
    pipeline_type: pipeline.type,
    monetary_unit: b.monetaryUnit,
    converted_unit: null,
    converted_value: null,
    date_stage_changed: app.now(),
    date_last_contacted: null,
    // Stryker disable next-line ArrayDeclaration: what leads_converted_from lists is not stated ("(list)")
    leads_converted_from: [],
    date_lead_created: null,
  };
}

export const opportunities: AreaModule = {
  name: 'opportunities',
  // The profile's fixture opportunities (reference/profile.json): records to relate tasks and files to.
  // Stryker disable all: seed data of the account (the profile's fixture opportunities), no part of the spec
  seed(app) {
    const store = app.store.collection<Rec>(C.opportunities);
    FIXTURES.opportunities.forEach(({ id }, i) => store.insert({ ...makeOpportunity(app, { name: `Seeded Opportunity ${String.fromCharCode(65 + i)}` }), id }));
  },
  // Stryker restore all
  api(router, app) {
    const limiter = new RateLimiter(WINDOWS[app.choice('bulk.rate-window')]);
    const specific = app.choice('bulk.error-codes') === 'specific';
    const bulk: Bulk = {
      app,
      store: app.store.collection<Rec>(C.opportunities),
      pipelines: app.store.collection<PipelineRecord>('pipelines'),
      required: specific ? 'required' : 'invalid',
      wrongType: specific ? 'invalid_type' : 'invalid',
      closeDate: CLOSE_DATE[app.choice('bulk.close-date')],
      monetaryUnit: app.choice('bulk.monetary-unit'),
    };

    router.add('POST', '/opportunities/bulk_create', (ctx) => {
      const wait = limiter.check(credentialKey(ctx.headers));
      // Stryker disable next-line ConditionalExpression,ObjectLiteral: "excess may get 429" (BULK-9 is MAY); Retry-After not stated; made true, BULK-12 fails
      if (wait !== undefined) throw new HttpError(429, rateLimitBody(app), { 'retry-after': String(wait) });
      const b = ctx.body;
      if (!isObj(b) || !Array.isArray(b.opportunities)) invalid(app, 'the body must be { opportunities: [ … ] }', 'opportunities');
      const entries = (b as { opportunities: unknown[] }).opportunities;
      const limit = entriesLimit(app);
      if (entries.length > app.at('bulk.limit', limit, undefined)) {
        const error =
          app.choice('bulk.too-large-message') === 'count-first'
            ? `Too many opportunities in one request (${entries.length}); limit is ${limit}`
            : `Request too large: the limit is ${limit} entries per request`;
        throw new HttpError(422, { error });
      }
      const checks = app.at(
        'bulk.checks',
        entries.map((e) => check(bulk, e)),
        undefined,
      );
      const failureExtra = app.choice('general.extra-fields') === 'nested-members' ? { [NESTED_EXTRA]: true } : {};
      return entries.map((e, i) => {
        const failure = checks[i];
        return failure ? { success: false, message: failure, ...failureExtra } : create(bulk, e as Record<string, unknown>);
      });
    });
  },
};
