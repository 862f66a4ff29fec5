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

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** close_date input → { month, day, year } in UTC, or undefined when not a date. */
export function parseCloseDate(v: unknown, order: 'month-first' | 'year-first' = 'month-first'): { y: number; m: number; d: number } | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) {
    const t = new Date(v * 1000);
    return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
  }
  if (typeof v !== 'string') return undefined;
  const m = order === 'year-first' ? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(v.trim()) : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim());
  if (!m) return undefined;
  const [mo, d, y] = order === 'year-first' ? [Number(m[2]), Number(m[3]), Number(m[1])] : [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return { y, m: mo, d };
}

/** The credential a request is counted against. */
function credentialKey(headers: Record<string, unknown>): string {
  return String(headers.authorization ?? headers['x-svc-accesstoken'] ?? 'anonymous');
}

type Window = (now: number) => { from: number; end: (admitted: number[]) => number };
/** `bulk.rate-window`: which admitted requests count against a new one, and when a slot frees. */
const WINDOWS: Record<string, Window> = {
  sliding: (now) => ({ from: now - 999, end: (admitted) => admitted[0] + 1000 }),
  'calendar-second': (now) => ({ from: Math.floor(now / 1000) * 1000, end: () => Math.floor(now / 1000) * 1000 + 1000 }),
};

/** Admitted bulk requests per credential. */
class RateLimiter {
  private admitted = new Map<string, number[]>();
  constructor(private readonly window: Window) {}
  /** undefined when admitted; otherwise the seconds to wait. */
  check(key: string, now = Date.now()): number | undefined {
    const w = this.window(now);
    const recent = (this.admitted.get(key) ?? []).filter((t) => t >= w.from);
    this.admitted.set(key, recent);
    if (recent.length >= BULK_RATE) return Math.max(1, Math.ceil((w.end(recent) - now) / 1000));
    recent.push(now);
    return undefined;
  }
}

type Failure = Record<string, { error: string }[]>;

/** `bulk.close-date`: the answered form of a date. */
export const CLOSE_DATE: Record<string, (d: { y: number; m: number; d: number }) => string> = {
  'mm/dd/yyyy': (d) => `${pad(d.m)}/${pad(d.d)}/${d.y}`,
  'yyyy/mm/dd': (d) => `${d.y}/${pad(d.m)}/${pad(d.d)}`,
  'm/d/yyyy': (d) => `${d.m}/${d.d}/${d.y}`,
};

/** The 429 body (`bulk.rate-limit-body`). */
function rateLimitBody(app: App): unknown {
  const message = `rate limit: at most ${BULK_RATE} bulk requests per second`;
  const shape = app.choice('bulk.rate-limit-body');
  return shape === 'errors-list'
    ? { errors: [{ code: 'rate_limited', detail: message }] }
    : shape === 'empty'
      ? undefined
      : { success: false, status: 429, message };
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
  if (e.name === undefined || e.name === null || e.name === '') add('name', required);
  else if (typeof e.name !== 'string' || e.name.trim() === '') add('name', wrongType);
  let pipeline: PipelineRecord | undefined;
  if (e.pipeline_id !== undefined && e.pipeline_id !== null) {
    pipeline = isId(e.pipeline_id) ? pipelines.get(e.pipeline_id as number) : undefined;
    if (!pipeline || pipeline.type !== 'opportunity') add('pipeline_id', 'invalid');
  }
  if (e.pipeline_stage_id !== undefined && e.pipeline_stage_id !== null) {
    const p = pipeline ?? pipelines.all().find((x) => x.type === 'opportunity');
    if (!isId(e.pipeline_stage_id) || !p?.stages.some((s) => s.id === Number(e.pipeline_stage_id))) add('pipeline_stage_id', 'invalid');
  }
  for (const k of ['details', 'priority', 'status']) if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'string') add(k, wrongType);
  for (const k of ['monetary_value', 'win_probability'])
    if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) add(k, wrongType);
  for (const k of ['assignee_id', 'primary_contact_id', 'customer_source_id']) if (e[k] !== undefined && e[k] !== null && !isId(e[k])) add(k, 'invalid');
  if (e.tags !== undefined && e.tags !== null && (!Array.isArray(e.tags) || e.tags.some((t) => typeof t !== 'string'))) add('tags', 'invalid');
  if (
    e.custom_fields !== undefined &&
    e.custom_fields !== null &&
    (!Array.isArray(e.custom_fields) || e.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))
  )
    add('custom_fields', 'invalid');
  if (e.close_date !== undefined && e.close_date !== null && !parseCloseDate(e.close_date, app.choice('bulk.close-date-input'))) add('close_date', 'invalid');
  return Object.keys(fail).length ? fail : undefined;
}

/** Creates the Opportunity of a valid entry: its answer. */
function create(b: Bulk, entry: Record<string, unknown>): Record<string, unknown> {
  const { app, pipelines } = b;
  const e = app.at('bulk.entry', entry, undefined);
  const pipelineId = e.pipeline_id ?? pipelines.all().find((p) => p.type === 'opportunity')!.id;
  const pipeline = pipelines.get(pipelineId as number)!;
  const stage = e.pipeline_stage_id ?? app.at('bulk.default-stage', firstStage(pipeline.id) ?? pipeline.stages[0]?.id, { pipeline });
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
    leads_converted_from: [],
    date_lead_created: null,
  };
}

export const opportunities: AreaModule = {
  name: 'opportunities',
  // The profile's fixture opportunities (reference/profile.json): records to relate tasks and files to.
  seed(app) {
    const store = app.store.collection<Rec>(C.opportunities);
    FIXTURES.opportunities.forEach(({ id }, i) => store.insert({ ...makeOpportunity(app, { name: `Seeded Opportunity ${String.fromCharCode(65 + i)}` }), id }));
  },
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
