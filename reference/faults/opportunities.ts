/**
 * Faults of the bulk create of Opportunities (reference/routes/opportunities.ts). How they hook
 * in: reference/faults/types.ts.
 */
import type { App } from '../app.js';
import { HttpError } from '../http.js';
import { C, type Rec } from '../model.js';
import { parseCloseDate } from '../routes/opportunities.js';
import type { PipelineRecord } from '../routes/pipelines.js';
import type { Fault, Presented } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Entries a bulk request may carry. */
    'bulk.limit': { value: number; ctx: undefined };
    /** The failure of each entry (undefined: the entry is created). */
    'bulk.checks': { value: (Record<string, { error: string }[]> | undefined)[]; ctx: undefined };
    /** An entry about to be created. */
    'bulk.entry': { value: Record<string, unknown>; ctx: undefined };
    /** The stage of an entry without pipeline_stage_id. */
    'bulk.default-stage': { value: number | undefined; ctx: { pipeline: PipelineRecord } };
  }
}

const ROUTE = 'POST /opportunities/bulk_create';
const ok = (res: Presented) => res.status >= 200 && res.status < 300;
type Entry = Record<string, unknown>;
const created = (e: Entry) => e.success !== false;
/** Applies `f` to every created entry of a successful answer. */
const eachCreated =
  (f: (e: Entry, sent: Entry | undefined) => Entry) =>
  (res: Presented, ctx: { body: unknown }): Presented => {
    if (!ok(res) || !Array.isArray(res.body)) return res;
    const sent = ((ctx.body as { opportunities?: unknown[] })?.opportunities ?? []) as Entry[];
    return { ...res, body: (res.body as Entry[]).map((e, i) => (created(e) ? f(e, sent[i]) : e)) };
  };
const BULK_FIELDS = [
  'pipeline_is_revenue',
  'pipeline_type',
  'monetary_unit',
  'converted_unit',
  'converted_value',
  'date_stage_changed',
  'date_last_contacted',
  'leads_converted_from',
  'date_lead_created',
];

/** Arrival times of the bulk requests the fault `bulk-429-within-pace` let through, per server. */
const admitted = new WeakMap<App, number[]>();

/** End of the 20-second lock after a refused burst (the fault `bulk-rate-limit-stuck`), per server. */
const lockedUntil = new WeakMap<App, number>();

export const OPPORTUNITIES_FAULTS: Fault[] = [
  {
    name: 'bulk-limit-off-by-one',
    rules: ['BULK-1'],
    description: 'a request with 11 entries is accepted (the check is "> 11")',
    at: { 'bulk.limit': (limit) => limit + 1 },
  },
  {
    name: 'bulk-limit-message',
    rules: ['BULK-2'],
    description: 'the 422 for too many entries says "request too large" without the limit',
    routes: [
      {
        route: ROUTE,
        respond: (res) =>
          res.status === 422 && typeof (res.body as Entry)?.error === 'string' && /\d/.test(String((res.body as Entry).error))
            ? { ...res, body: { error: 'Request too large' } }
            : res,
      },
    ],
  },
  {
    name: 'bulk-empty-refused',
    rules: ['BULK-3'],
    description: 'a request with 0 entries is refused with 422',
    routes: [
      {
        route: ROUTE,
        respond: (res) => (ok(res) && Array.isArray(res.body) && res.body.length === 0 ? { status: 422, body: { error: 'no opportunities given' } } : res),
      },
    ],
  },
  {
    name: 'bulk-results-reordered',
    rules: ['BULK-3'],
    description: 'the answer lists the created entries first and the failed ones after them',
    routes: [
      {
        route: ROUTE,
        respond: (res) =>
          ok(res) && Array.isArray(res.body)
            ? { ...res, body: [...(res.body as Entry[]).filter(created), ...(res.body as Entry[]).filter((e) => !created(e))] }
            : res,
      },
    ],
  },
  {
    name: 'bulk-id-string',
    rules: ['BULK-4'],
    description: 'created entries carry their id as a string',
    routes: [{ route: ROUTE, respond: eachCreated((e) => ({ ...e, id: String(e.id) })) }],
  },
  {
    name: 'bulk-fields-missing',
    rules: ['BULK-4'],
    description: 'created entries lack the bulk-create fields (pipeline_is_revenue, pipeline_type, …)',
    routes: [{ route: ROUTE, respond: eachCreated((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !BULK_FIELDS.includes(k)))) }],
  },
  {
    name: 'bulk-one-bad-fails-all',
    rules: ['BULK-5'],
    description: 'one invalid entry makes the whole request fail with 422',
    at: {
      'bulk.checks': (checks) => {
        if (checks.some(Boolean)) throw new HttpError(422, { success: false, status: 422, message: 'invalid entries' });
        return checks;
      },
    },
  },
  {
    name: 'bulk-failed-entry-shape',
    rules: ['BULK-5'],
    description: 'a failed entry is { success: false, error: "<text>" } instead of the message map',
    routes: [
      {
        route: ROUTE,
        respond: (res) =>
          ok(res) && Array.isArray(res.body)
            ? {
                ...res,
                body: (res.body as Entry[]).map((e) => (created(e) ? e : { success: false, error: `invalid ${Object.keys(e.message as object).join(', ')}` })),
              }
            : res,
      },
    ],
  },
  {
    name: 'bulk-close-date-timestamp',
    rules: ['BULK-6'],
    description: 'close_date of a created entry is a Unix timestamp',
    routes: [
      {
        route: ROUTE,
        respond: eachCreated((e, sent) => {
          const date = parseCloseDate(sent?.close_date);
          return date ? { ...e, close_date: Math.floor(Date.UTC(date.y, date.m - 1, date.d) / 1000) } : e;
        }),
      },
    ],
  },
  {
    name: 'bulk-stage-not-first',
    rules: ['BULK-7'],
    description: 'without pipeline_stage_id an entry lands in the last stage of its pipeline',
    at: { 'bulk.default-stage': (stage, { pipeline }) => pipeline.stages[pipeline.stages.length - 1]?.id ?? stage },
  },
  {
    name: 'bulk-computed-values-off',
    rules: ['BULK-8'],
    description: 'the bulk answer carries option ids instead of option names',
    routes: [
      {
        route: ROUTE,
        respond: (res, ctx, app) =>
          eachCreated((e) => ({ ...e, custom_fields: app.store.collection<Rec>(C.opportunities).get(Number(e.id))?.custom_fields ?? e.custom_fields }))(
            res,
            ctx,
          ),
      },
    ],
  },
  {
    name: 'bulk-burst-500',
    rules: ['BULK-9'],
    description: 'requests above the rate limit get 500 instead of 429',
    routes: [
      { route: ROUTE, respond: (res) => (res.status === 429 ? { status: 500, body: { success: false, status: 500, message: 'internal error' } } : res) },
    ],
  },
  {
    name: 'bulk-rate-limit-stuck',
    rules: ['BULK-10'],
    description: 'after a burst the bulk interface refuses every request for 20 seconds',
    routes: [
      {
        route: ROUTE,
        around: async (_ctx, next, app) => {
          const now = Date.now();
          const until = lockedUntil.get(app) ?? 0;
          if (now < until)
            return {
              status: 429,
              body: { success: false, status: 429, message: 'rate limit' },
              headers: { 'retry-after': String(Math.ceil((until - now) / 1000)) },
            };
          const res = await next();
          if (res.status === 429) lockedUntil.set(app, now + 20_000);
          return res;
        },
      },
    ],
  },
  {
    name: 'bulk-429-within-pace',
    rules: ['BULK-12'],
    description: 'the bulk limit counts 2 requests a second, not 3: the third bulk request within a second gets 429 although the pace is within 3 a second',
    routes: [
      {
        route: ROUTE,
        around: async (_ctx, next, app) => {
          const now = Date.now();
          const recent = (admitted.get(app) ?? []).filter((t) => now - t < 1000);
          if (recent.length >= 2) {
            admitted.set(app, recent);
            return { status: 429, body: { success: false, status: 429, message: 'rate limit' }, headers: { 'retry-after': '1' } };
          }
          admitted.set(app, [...recent, now]);
          return next();
        },
      },
    ],
  },
  {
    name: 'bulk-fields-dropped',
    rules: ['BULK-11'],
    description: 'details, tags and monetary_value of an entry are not stored',
    at: { 'bulk.entry': (e) => ({ ...e, details: null, tags: [], monetary_value: null }) },
  },
];
