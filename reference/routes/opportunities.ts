/**
 * Opportunities (spec § Bulk create of Opportunities): `POST /opportunities/bulk_create`.
 *
 * Open choices of the spec and what this server does (default mode / variant mode):
 * - Rate limit ("3 per second … excess may get 429"): per credential, at most 3 admitted bulk
 *   requests in any sliding second / in any calendar second; an excess request gets 429 with
 *   `Retry-After` (seconds) and a body `{ success, status, message }` / `{ errors: [...] }`.
 *   Refused requests are not counted.
 * - More than 10 entries: 422 `{ error }` naming the limit (both modes, as the spec shows),
 *   worded differently in the variant.
 * - A body that is not `{ opportunities: [...] }`: 422 / 400 (`invalid`).
 * - Entry checks: `name` a non-empty string; `pipeline_id` an opportunity pipeline;
 *   `pipeline_stage_id` a stage of it; members of the wrong type. A failed entry is
 *   `{ success: false, message: { <field>: [ { error } ] } }` with the code `invalid` /
 *   `required` (missing name) and `invalid_type`.
 * - `close_date` is accepted as "MM/DD/YYYY" or a Unix timestamp and answered as "MM/DD/YYYY" /
 *   "YYYY/MM/DD" (both slash-separated, as the spec requires).
 * - Without `pipeline_id`: the first opportunity pipeline; without `pipeline_stage_id`: the
 *   pipeline's first stage. `monetary_unit` "USD" / "EUR".
 */
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { C, firstStage, makeOpportunity, present, type Rec } from '../model.js';
import type { PipelineRecord } from './pipelines.js';
import { invalid } from './common.js';

/** Entries per request (spec § Limits). */
export const BULK_LIMIT = 10;
/** Bulk requests per second and credential (spec § Limits). */
export const BULK_RATE = 3;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** close_date input → { month, day, year } in UTC, or undefined when not a date. */
function parseCloseDate(v: unknown): { y: number; m: number; d: number } | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) {
    const t = new Date(v * 1000);
    return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
  }
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v.trim());
  if (!m) return undefined;
  const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return { y, m: mo, d };
}

/** The credential a request is counted against. */
function credentialKey(headers: Record<string, unknown>): string {
  return String(headers.authorization ?? headers['x-svc-accesstoken'] ?? 'anonymous');
}

/** Sliding window (default) or calendar-second window (variant) of admitted requests. */
class RateLimiter {
  private admitted = new Map<string, number[]>();
  private lockedUntil = new Map<string, number>();
  constructor(private readonly app: App) {}
  /** undefined when admitted; otherwise the seconds to wait. */
  check(key: string, now = Date.now()): number | undefined {
    const locked = this.lockedUntil.get(key) ?? 0;
    if (now < locked) return Math.max(1, Math.ceil((locked - now) / 1000));
    const windowStart = this.app.variant ? Math.floor(now / 1000) * 1000 : now - 1000;
    const recent = (this.admitted.get(key) ?? []).filter((t) => (this.app.variant ? t >= windowStart : t > windowStart));
    if (recent.length >= BULK_RATE) {
      this.admitted.set(key, recent);
      if (this.app.fault('bulk-rate-limit-stuck')) this.lockedUntil.set(key, now + 20_000);
      const free = this.app.variant ? windowStart + 1000 : recent[0] + 1000;
      return Math.max(1, Math.ceil((free - now) / 1000));
    }
    recent.push(now);
    this.admitted.set(key, recent);
    return undefined;
  }
}

type Failure = Record<string, { error: string }[]>;

export const opportunities: AreaModule = {
  name: 'opportunities',
  faults: [
    { name: 'bulk-limit-off-by-one', rules: ['BULK-1'], description: 'a request with 11 entries is accepted (the check is "> 11")' },
    { name: 'bulk-limit-message', rules: ['BULK-2'], description: 'the 422 for too many entries says "request too large" without the limit' },
    { name: 'bulk-empty-refused', rules: ['BULK-3'], description: 'a request with 0 entries is refused with 422' },
    { name: 'bulk-results-reordered', rules: ['BULK-3'], description: 'the answer lists the created entries first and the failed ones after them' },
    { name: 'bulk-id-string', rules: ['BULK-4'], description: 'created entries carry their id as a string' },
    { name: 'bulk-fields-missing', rules: ['BULK-4'], description: 'created entries lack the bulk-create fields (pipeline_is_revenue, pipeline_type, …)' },
    { name: 'bulk-one-bad-fails-all', rules: ['BULK-5'], description: 'one invalid entry makes the whole request fail with 422' },
    { name: 'bulk-failed-entry-shape', rules: ['BULK-5'], description: 'a failed entry is { success: false, error: "<text>" } instead of the message map' },
    { name: 'bulk-close-date-timestamp', rules: ['BULK-6'], description: 'close_date of a created entry is a Unix timestamp' },
    { name: 'bulk-stage-not-first', rules: ['BULK-7'], description: 'without pipeline_stage_id an entry lands in the last stage of its pipeline' },
    { name: 'bulk-computed-values-off', rules: ['BULK-8'], description: 'the bulk answer carries option ids instead of option names' },
    { name: 'bulk-burst-500', rules: ['BULK-9'], description: 'requests above the rate limit get 500 instead of 429' },
    { name: 'bulk-rate-limit-stuck', rules: ['BULK-10'], description: 'after a burst the bulk interface refuses every request for 20 seconds' },
    { name: 'bulk-fields-dropped', rules: ['BULK-11'], description: 'details, tags and monetary_value of an entry are not stored' },
  ],
  // The profile's fixture opportunities (reference/profile.json): records to relate tasks and files to.
  seed(app) {
    const store = app.store.collection<Rec>(C.opportunities);
    store.insert({ ...makeOpportunity(app, { name: 'Seeded Opportunity A' }), id: 601 });
    store.insert({ ...makeOpportunity(app, { name: 'Seeded Opportunity B' }), id: 602 });
  },
  api(router, app) {
    const store = app.store.collection<Rec>(C.opportunities);
    const pipelines = app.store.collection<PipelineRecord>('pipelines');
    const limiter = new RateLimiter(app);

    /** Checks one entry: the failure map, or undefined when it can be created. */
    function check(entry: unknown): Failure | undefined {
      const fail: Failure = {};
      const add = (field: string, code: string) => { (fail[field] ??= []).push({ error: code }); };
      if (!isObj(entry)) return { opportunity: [{ error: app.variant ? 'invalid_type' : 'invalid' }] };
      const e = entry;
      if (e.name === undefined || e.name === null || e.name === '') add('name', app.variant ? 'required' : 'invalid');
      else if (typeof e.name !== 'string' || e.name.trim() === '') add('name', app.variant ? 'invalid_type' : 'invalid');
      let pipeline: PipelineRecord | undefined;
      if (e.pipeline_id !== undefined && e.pipeline_id !== null) {
        pipeline = isId(e.pipeline_id) ? pipelines.get(e.pipeline_id as number) : undefined;
        if (!pipeline || pipeline.type !== 'opportunity') add('pipeline_id', 'invalid');
      }
      if (e.pipeline_stage_id !== undefined && e.pipeline_stage_id !== null) {
        const p = pipeline ?? pipelines.all().find((x) => x.type === 'opportunity');
        if (!isId(e.pipeline_stage_id) || !p?.stages.some((s) => s.id === Number(e.pipeline_stage_id))) add('pipeline_stage_id', 'invalid');
      }
      for (const k of ['details', 'priority', 'status']) if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'string') add(k, app.variant ? 'invalid_type' : 'invalid');
      for (const k of ['monetary_value', 'win_probability']) if (e[k] !== undefined && e[k] !== null && (typeof e[k] !== 'number' || !Number.isFinite(e[k]))) add(k, app.variant ? 'invalid_type' : 'invalid');
      for (const k of ['assignee_id', 'primary_contact_id', 'customer_source_id']) if (e[k] !== undefined && e[k] !== null && !isId(e[k])) add(k, 'invalid');
      if (e.tags !== undefined && e.tags !== null && (!Array.isArray(e.tags) || e.tags.some((t) => typeof t !== 'string'))) add('tags', 'invalid');
      if (e.custom_fields !== undefined && e.custom_fields !== null && (!Array.isArray(e.custom_fields) || e.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))) add('custom_fields', 'invalid');
      if (e.close_date !== undefined && e.close_date !== null && !parseCloseDate(e.close_date)) add('close_date', 'invalid');
      return Object.keys(fail).length ? fail : undefined;
    }

    function create(e: Record<string, unknown>): Record<string, unknown> {
      const pipelineId = e.pipeline_id ?? pipelines.all().find((p) => p.type === 'opportunity')!.id;
      const pipeline = pipelines.get(pipelineId as number)!;
      const stage = e.pipeline_stage_id ?? (app.fault('bulk-stage-not-first') ? pipeline.stages[pipeline.stages.length - 1]?.id : firstStage(pipeline.id) ?? pipeline.stages[0]?.id);
      const date = parseCloseDate(e.close_date);
      const closeDate = date ? (app.variant ? `${date.y}/${pad(date.m)}/${pad(date.d)}` : `${pad(date.m)}/${pad(date.d)}/${date.y}`) : null;
      const input = app.fault('bulk-fields-dropped') ? { ...e, details: null, tags: [], monetary_value: null } : e;
      const rec = store.insert({ ...makeOpportunity(app, { ...input, pipeline_id: pipeline.id, pipeline_stage_id: stage }), close_date: closeDate });
      app.emit('opportunity', 'new', present(app, rec));
      const now = app.now();
      const answer: Record<string, unknown> = present(app, rec, { computed: !app.fault('bulk-computed-values-off') });
      if (app.fault('bulk-close-date-timestamp') && date) answer.close_date = Math.floor(Date.UTC(date.y, date.m - 1, date.d) / 1000);
      if (app.fault('bulk-id-string')) answer.id = String(rec.id);
      if (!app.fault('bulk-fields-missing')) {
        Object.assign(answer, {
          pipeline_is_revenue: pipeline.is_revenue,
          pipeline_type: pipeline.type,
          monetary_unit: app.variant ? 'EUR' : 'USD',
          converted_unit: null,
          converted_value: null,
          date_stage_changed: now,
          date_last_contacted: null,
          leads_converted_from: [],
          date_lead_created: null,
        });
      }
      return answer;
    }

    router.add('POST', '/opportunities/bulk_create', (ctx) => {
      const wait = limiter.check(credentialKey(ctx.headers));
      if (wait !== undefined) {
        if (app.fault('bulk-burst-500')) throw new HttpError(500, { success: false, status: 500, message: 'internal error' });
        const body = app.variant ? { errors: [{ code: 'rate_limited', detail: `at most ${BULK_RATE} bulk requests per second` }] } : { success: false, status: 429, message: `rate limit: at most ${BULK_RATE} bulk requests per second` };
        throw new HttpError(429, body, { 'retry-after': String(wait) });
      }
      const b = ctx.body;
      if (!isObj(b) || !Array.isArray(b.opportunities)) invalid(app, 'the body must be { opportunities: [ … ] }', 'opportunities');
      const entries = (b as { opportunities: unknown[] }).opportunities;
      const limit = app.fault('bulk-limit-off-by-one') ? BULK_LIMIT + 1 : BULK_LIMIT;
      if (entries.length > limit) {
        const error = app.fault('bulk-limit-message') ? 'Request too large'
          : app.variant ? `Too many opportunities in one request (${entries.length}); limit is ${BULK_LIMIT}` : `Request too large: the limit is ${BULK_LIMIT} entries per request`;
        throw new HttpError(422, { error });
      }
      if (entries.length === 0 && app.fault('bulk-empty-refused')) throw new HttpError(422, { error: 'no opportunities given' });
      const checks = entries.map(check);
      if (app.fault('bulk-one-bad-fails-all') && checks.some(Boolean)) throw new HttpError(422, { success: false, status: 422, message: 'invalid entries' });
      const results = entries.map((e, i) => {
        const failure = checks[i];
        if (!failure) return { ok: true, value: create(e as Record<string, unknown>) };
        if (app.fault('bulk-failed-entry-shape')) return { ok: false, value: { success: false, error: `invalid ${Object.keys(failure).join(', ')}` } };
        return { ok: false, value: { success: false, message: failure } };
      });
      const ordered = app.fault('bulk-results-reordered') ? [...results.filter((r) => r.ok), ...results.filter((r) => !r.ok)] : results;
      return ordered.map((r) => r.value);
    });
  },
};
