/**
 * Faults of webhook subscriptions and notifications (reference/routes/webhooks.ts). How they
 * hook in: reference/faults/types.ts.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { App } from '../app.js';
import { C } from '../model.js';
import { DELIVERY_TIMEOUT_MS, WEBHOOK_EVENTS, WEBHOOK_TYPES, type DeliveryJob, type Subscription } from '../routes/webhooks.js';
import type { Fault, Presented } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** The body of POST /webhooks, before its checks. */
    'webhook.create-body': { value: Record<string, unknown>; ctx: undefined };
    /** Is this member of a new subscription acceptable? */
    'webhook.accepts': { value: boolean; ctx: { member: 'target' | 'type' | 'event' } };
    /** The subscriptions a record event is delivered to (`lookup` reads the delivery index). */
    'webhook.targets': { value: Subscription[]; ctx: { type: string; event: string; lookup: (type: string, event: string) => Subscription[] } };
    /** Does the notification carry computed custom field values (the subscription's flag)? */
    'webhook.computed': { value: boolean; ctx: undefined };
    /** The secret pairs sent with a notification. */
    'webhook.secret': { value: Record<string, unknown>; ctx: undefined };
  }
  interface SeamPoints {
    /** DELETE /webhooks/{id} removes the subscription from the delivery index. */
    'webhook.unindex': { id: number };
    /** A notification is queued for delivery. */
    'webhook.deliver': { job: DeliveryJob };
  }
}

const ok = (res: Presented) => res.status >= 200 && res.status < 300;
const body = (res: Presented) => res.body as Record<string, unknown>;

/**
 * Delivery inside the API call (the fault `webhook-delivery-blocking`): each notification is sent
 * at once, and the answer of the request that caused it waits until its receiver has answered (or
 * DELIVERY_TIMEOUT_MS). Only that request waits, as on a server that delivers in the request's own
 * thread; the rest of the server goes on (the process is never blocked).
 */
let causedBy: AsyncLocalStorage<Promise<void>[]> | undefined;
async function answerAfterDeliveries<T>(next: () => T | Promise<T>): Promise<T> {
  causedBy ??= new AsyncLocalStorage();
  const deliveries: Promise<void>[] = [];
  try {
    return await causedBy.run(deliveries, next);
  } finally {
    await Promise.all(deliveries);
  }
}
function deliverInRequest(job: DeliveryJob): void {
  const sent = fetch(job.target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'reference-hooks/1', ...job.headers },
    body: job.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  })
    .then((r) => r.arrayBuffer())
    .then(
      () => undefined,
      () => undefined,
    );
  causedBy?.getStore()?.push(sent);
}

/** Subscriptions only flagged as deleted (the fault `webhook-get-after-delete`), per server. */
const flagged = new WeakMap<App, Set<number>>();

/** Subscriptions the delivery index lost with a sibling's DELETE (the fault `webhook-delete-unroutes-siblings`), per server. */
const unrouted = new WeakMap<App, Set<number>>();

/** The other subscriptions of the type and event of subscription `id` (before it is deleted). */
function siblingsOf(app: App, id: number): Subscription[] {
  const subs = app.store.collection<Subscription>(C.webhooks);
  const s = subs.get(id);
  return s ? subs.filter((x) => x.id !== s.id && x.type === s.type && x.event === s.event) : [];
}

/** Secret keys as a case-insensitive store keeps them: lower case. */
const lowerKeys = (secret: unknown) =>
  secret && typeof secret === 'object' && !Array.isArray(secret) ? Object.fromEntries(Object.entries(secret).map(([k, v]) => [k.toLowerCase(), v])) : secret;

const createdAtMs = (res: Presented): Presented => {
  if (ok(res) && typeof body(res).created_at === 'number') res.body = { ...body(res), created_at: (body(res).created_at as number) * 1000 + 123 };
  return res;
};

const createdAtDropped = (res: Presented): Presented => {
  if (ok(res)) {
    const { created_at: _, ...rest } = body(res);
    res.body = rest;
  }
  return res;
};

export const WEBHOOKS_FAULTS: Fault[] = [
  {
    name: 'webhook-target-unchecked',
    rules: ['HOOK-3'],
    description: 'an invalid target URL is accepted',
    at: { 'webhook.accepts': (accepted, { member }) => accepted || member === 'target' },
  },
  {
    name: 'webhook-422-without-success',
    rules: ['HOOK-3'],
    description: 'the 422 body of an invalid target lacks success: false',
    routes: [
      {
        route: 'POST /webhooks',
        respond: (res) => {
          if (res.status === 422 && body(res) && 'success' in body(res)) {
            const { success: _s, ...rest } = body(res);
            res.body = rest;
          }
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-required-unchecked',
    rules: ['HOOK-4'],
    description: 'a subscription without target, type or event is created with defaults',
    at: { 'webhook.create-body': (b) => ({ ...b, target: b.target ?? 'https://example.invalid/', type: b.type ?? 'lead', event: b.event ?? 'new' }) },
  },
  {
    name: 'webhook-type-unchecked',
    rules: ['HOOK-5'],
    description: 'a type outside the six entity types is accepted',
    at: { 'webhook.accepts': (accepted, { member }) => accepted || member === 'type' },
  },
  {
    name: 'webhook-event-unchecked',
    rules: ['HOOK-6'],
    description: 'an event outside new, update, delete is accepted',
    at: { 'webhook.accepts': (accepted, { member }) => accepted || member === 'event' },
  },
  {
    name: 'webhook-secret-not-echoed',
    rules: ['HOOK-2'],
    description: 'POST /webhooks answers secret: null whatever was sent',
    routes: [
      {
        route: 'POST /webhooks',
        respond: (res) => {
          if (ok(res)) res.body = { ...body(res), secret: null };
          return res;
        },
      },
    ],
  },
  {
    // A timestamp in milliseconds breaks WIRE-2 (timestamps are integer seconds): the test of HOOK-1
    // that finds it is blocked by it (reporting/blame.ts).
    name: 'webhook-created-at-ms',
    rules: ['WIRE-2'],
    description: 'created_at is in milliseconds',
    routes: [
      { route: 'POST /webhooks', respond: createdAtMs },
      { route: 'GET /webhooks/{webhook_id}', respond: createdAtMs },
    ],
  },
  {
    name: 'webhook-created-at-missing',
    rules: ['HOOK-1'],
    description: 'the answer to POST /webhooks carries no created_at',
    routes: [{ route: 'POST /webhooks', respond: createdAtDropped }],
  },

  {
    name: 'webhook-get-stale',
    rules: ['HOOK-7'],
    description: 'GET /webhooks/{id} answers custom_field_computed_values false whatever was sent',
    routes: [
      {
        route: 'GET /webhooks/{webhook_id}',
        respond: (res) => {
          if (ok(res)) res.body = { ...body(res), custom_field_computed_values: false };
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-fetch-secret-keys-lowercased',
    rules: ['HOOK-7'],
    description:
      'the subscription store keeps the secret in a case-insensitive map: GET /webhooks/{id} answers its keys in lower case ("X-Api-Key" → "x-api-key")',
    routes: [
      {
        route: 'GET /webhooks/{webhook_id}',
        respond: (res) => {
          if (ok(res)) res.body = { ...body(res), secret: lowerKeys(body(res).secret) };
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-delete-removes-siblings',
    rules: ['HOOK-7'],
    description:
      'DELETE /webhooks/{id} deletes by type and event instead of by id: every other subscription of that type and event is gone too (GET no longer answers it)',
    routes: [
      {
        route: 'DELETE /webhooks/{webhook_id}',
        around: async (ctx, next, app) => {
          const siblings = siblingsOf(app, Number(ctx.params.webhook_id));
          const res = await next();
          if (ok(res)) for (const x of siblings) app.store.collection<Subscription>(C.webhooks).delete(x.id);
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-delete-unroutes-siblings',
    rules: ['EVENT-1'],
    description:
      'DELETE /webhooks/{id} drops the whole type-and-event entry of the delivery index: the other subscriptions of that type and event still exist but are no longer notified',
    routes: [
      {
        route: 'DELETE /webhooks/{webhook_id}',
        around: async (ctx, next, app) => {
          const siblings = siblingsOf(app, Number(ctx.params.webhook_id));
          const res = await next();
          const lost = unrouted.get(app) ?? unrouted.set(app, new Set()).get(app)!;
          if (ok(res)) for (const x of siblings) lost.add(x.id);
          return res;
        },
      },
    ],
    at: { 'webhook.targets': (found, _ctx, app) => found.filter((x) => !unrouted.get(app)?.has(x.id)) },
  },
  {
    name: 'webhook-delete-without-id',
    rules: ['HOOK-8'],
    description: 'DELETE /webhooks/{id} answers { deleted: true } without the id',
    routes: [
      {
        route: 'DELETE /webhooks/{webhook_id}',
        respond: (res) => {
          if (ok(res)) res.body = { deleted: true };
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-get-after-delete',
    rules: ['HOOK-9'],
    description: 'a deleted subscription is only flagged: GET still answers it',
    routes: [
      {
        route: 'DELETE /webhooks/{webhook_id}',
        around: async (ctx, next, app) => {
          const subs = app.store.collection<Subscription>(C.webhooks);
          const marks = flagged.get(app) ?? flagged.set(app, new Set()).get(app)!;
          const id = Number(ctx.params.webhook_id);
          if (marks.has(id)) return { status: 404, body: { success: false, status: 404, message: 'webhook subscription not found' } };
          const kept = subs.get(id);
          const res = await next();
          if (ok(res) && kept) {
            subs.insert(kept);
            marks.add(id);
          }
          return res;
        },
      },
    ],
  },
  {
    name: 'webhook-secret-stringified',
    rules: ['EVENT-4'],
    description: 'notifications carry the secret values JSON-encoded a second time',
    at: { 'webhook.secret': (pairs) => Object.fromEntries(Object.entries(pairs).map(([k, v]) => [k, JSON.stringify(v)])) },
  },
  {
    name: 'webhook-secret-key-dropped',
    rules: ['EVENT-4'],
    description: 'notifications carry the secret without its last key',
    at: {
      'webhook.secret': (pairs) => {
        const keys = Object.keys(pairs);
        return keys.length > 1 ? Object.fromEntries(keys.slice(0, -1).map((k) => [k, pairs[k]])) : pairs;
      },
    },
  },
  {
    name: 'webhook-computed-values-ignored',
    rules: ['EVENT-5'],
    description: 'notifications carry option ids even with custom_field_computed_values true',
    at: { 'webhook.computed': () => false },
  },
  {
    name: 'webhook-type-ignored',
    rules: ['EVENT-6'],
    description: 'a notification goes to every subscription of its event kind, whatever the type',
    at: { 'webhook.targets': (_found, { event, lookup }) => WEBHOOK_TYPES.flatMap((t) => lookup(t, event)) },
  },
  {
    name: 'webhook-event-ignored',
    rules: ['EVENT-6'],
    description: 'a notification goes to every subscription of its type, whatever the event kind',
    at: { 'webhook.targets': (_found, { type, lookup }) => WEBHOOK_EVENTS.flatMap((e) => lookup(type, e)) },
  },
  {
    name: 'webhook-notify-after-delete',
    rules: ['EVENT-7'],
    description: 'the delivery index is not updated by DELETE: notifications continue',
    seam: { 'webhook.unindex': () => undefined as never },
  },
  {
    name: 'webhook-update-not-sent',
    rules: ['EVENT-2'],
    description: 'update events are not delivered',
    at: { 'webhook.targets': (found, { event }) => (event === 'update' ? [] : found) },
  },
  {
    name: 'webhook-new-not-sent',
    rules: ['EVENT-1'],
    description: 'new events of people are not delivered',
    at: { 'webhook.targets': (found, { type, event }) => (event === 'new' && type === 'person' ? [] : found) },
  },
  {
    name: 'webhook-none-sent',
    rules: ['EVENT-2'],
    description: 'subscriptions are stored but no notification is ever delivered',
    at: { 'webhook.targets': () => [] },
  },
  {
    name: 'webhook-delivery-blocking',
    rules: ['EVENT-9'],
    description: 'notifications are delivered inside the API call, which waits for the receiver',
    handling: answerAfterDeliveries,
    seam: { 'webhook.deliver': ({ job }) => deliverInRequest(job) as never },
  },
];
