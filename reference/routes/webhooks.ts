/**
 * Webhook subscriptions (spec § Webhook subscriptions) and real notification delivery
 * (spec § Events). Record changes arrive on `app.events` ('record'); every matching
 * subscription gets a JSON POST to its target, asynchronously (the API answer never waits for
 * it), with a time-out and bounded concurrency. Retries, time-outs and the payload shape are
 * "not shown": the default mode nests the secret pairs in the payload (`secret: {…}`), the
 * variant puts them at the top level.
 */
import { spawnSync } from 'node:child_process';
import type { App, AreaModule, RecordEvent } from '../app.js';
import { HttpError } from '../http.js';
import { C, present, type Rec } from '../model.js';
import { asObject, idParam, invalid, notFound } from './common.js';

export const WEBHOOK_TYPES = ['lead', 'person', 'company', 'opportunity', 'project', 'task'] as const;
export const WEBHOOK_EVENTS = ['new', 'update', 'delete'] as const;

/** Store collection of each webhook entity type. */
const COLLECTION: Record<string, string> = {
  lead: C.leads, person: C.people, company: C.companies, opportunity: C.opportunities, project: C.projects, task: C.tasks,
};

export interface Subscription extends Rec {
  target: string;
  type: string;
  event: string;
  secret: Record<string, unknown> | null;
  custom_field_computed_values: boolean;
  created_at: number;
  /** Removed by DELETE but kept (only under the fault `webhook-get-after-delete`). */
  _deleted?: boolean;
}

/** Delivery limits: a notification waits at most this long for its receiver. */
export const DELIVERY_TIMEOUT_MS = 5_000;
const MAX_CONCURRENT = 8;
const MAX_QUEUED = 10_000;

interface Job { target: string; body: string }

/** A valid http(s) URL with a host. */
function validTarget(v: unknown): v is string {
  if (typeof v !== 'string' || v.trim() !== v || v === '') return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function present422(app: App, message: string): never {
  const body: Record<string, unknown> = app.fault('webhook-422-without-success')
    ? { status: 422, message }
    : { success: false, status: 422, message };
  if (app.variant) body.field = 'target';
  throw new HttpError(422, body);
}

function subscriptionOut(app: App, s: Subscription, from: 'create' | 'get'): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: s.id,
    target: s.target,
    type: s.type,
    event: s.event,
    secret: from === 'create' && app.fault('webhook-secret-not-echoed') ? null : s.secret,
    custom_field_computed_values: from === 'get' && app.fault('webhook-get-stale') ? false : s.custom_field_computed_values,
    created_at: app.fault('webhook-created-at-ms') ? s.created_at * 1000 + 123 : s.created_at,
  };
  if (app.variant) out.active = true;
  return out;
}

/** Secret pairs as sent with a notification (the faults alter them). */
function secretOut(app: App, secret: Record<string, unknown> | null): Record<string, unknown> {
  const pairs = { ...(secret ?? {}) };
  if (app.fault('webhook-secret-stringified')) for (const k of Object.keys(pairs)) pairs[k] = JSON.stringify(pairs[k]);
  if (app.fault('webhook-secret-key-dropped')) {
    const keys = Object.keys(pairs);
    if (keys.length > 1) delete pairs[keys[keys.length - 1]];
  }
  return pairs;
}

/** Synchronous delivery inside the API call (only the fault `webhook-delivery-blocking`). */
function deliverBlocking(job: Job): void {
  const script = `let b='';process.stdin.on('data',d=>b+=d).on('end',async()=>{try{const r=await fetch(process.argv[1],{method:'POST',headers:{'content-type':'application/json'},body:b,signal:AbortSignal.timeout(${DELIVERY_TIMEOUT_MS})});await r.arrayBuffer()}catch{}})`;
  spawnSync(process.execPath, ['-e', script, job.target], { input: job.body, timeout: DELIVERY_TIMEOUT_MS, stdio: ['pipe', 'ignore', 'ignore'] });
}

export const webhooks: AreaModule = {
  name: 'webhooks',
  faults: [
    { name: 'webhook-target-unchecked', rules: ['HOOK-3'], description: 'an invalid target URL is accepted' },
    { name: 'webhook-422-without-success', rules: ['HOOK-3'], description: 'the 422 body of an invalid target lacks success: false' },
    { name: 'webhook-required-unchecked', rules: ['HOOK-4'], description: 'a subscription without target, type or event is created with defaults' },
    { name: 'webhook-type-unchecked', rules: ['HOOK-5'], description: 'a type outside the six entity types is accepted' },
    { name: 'webhook-event-unchecked', rules: ['HOOK-6'], description: 'an event outside new, update, delete is accepted' },
    { name: 'webhook-secret-not-echoed', rules: ['HOOK-2'], description: 'POST /webhooks answers secret: null whatever was sent' },
    { name: 'webhook-created-at-ms', rules: ['HOOK-1'], description: 'created_at is in milliseconds' },
    { name: 'webhook-get-stale', rules: ['HOOK-7'], description: 'GET /webhooks/{id} answers custom_field_computed_values false whatever was sent' },
    { name: 'webhook-delete-without-id', rules: ['HOOK-8'], description: 'DELETE /webhooks/{id} answers { deleted: true } without the id' },
    { name: 'webhook-get-after-delete', rules: ['HOOK-9'], description: 'a deleted subscription is only flagged: GET still answers it' },
    { name: 'webhook-secret-stringified', rules: ['EVENT-4'], description: 'notifications carry the secret values JSON-encoded a second time' },
    { name: 'webhook-secret-key-dropped', rules: ['EVENT-4'], description: 'notifications carry the secret without its last key' },
    { name: 'webhook-computed-values-ignored', rules: ['EVENT-5'], description: 'notifications carry option ids even with custom_field_computed_values true' },
    { name: 'webhook-type-ignored', rules: ['EVENT-6'], description: 'a notification goes to every subscription of its event kind, whatever the type' },
    { name: 'webhook-event-ignored', rules: ['EVENT-6'], description: 'a notification goes to every subscription of its type, whatever the event kind' },
    { name: 'webhook-notify-after-delete', rules: ['EVENT-7'], description: 'the delivery index is not updated by DELETE: notifications continue' },
    { name: 'webhook-update-not-sent', rules: ['EVENT-2'], description: 'update events are not delivered' },
    { name: 'webhook-new-not-sent', rules: ['EVENT-1'], description: 'new events of people are not delivered' },
    { name: 'webhook-convert-no-delete', rules: ['EVENT-8'], description: 'a converted Lead sends no delete notification' },
    { name: 'webhook-delivery-blocking', rules: ['EVENT-9'], description: 'notifications are delivered inside the API call, which waits for the receiver' },
    // Credential faults: checked by reference/server.ts (credentialsOk), declared here with the credentials table of this delivery.
    { name: 'credentials-not-checked', rules: ['AUTH-3', 'AUTH-4', 'AUTH-6', 'AUTH-7'], description: 'API requests are served whatever their credentials' },
    { name: 'user-email-not-checked', rules: ['AUTH-5'], description: 'X-SVC-UserEmail is not compared with the owner of the access token' },
  ],
  api(router, app) {
    const subs = app.store.collection<Subscription>(C.webhooks);
    /** Delivery index by `type event` (kept up to date by create and delete). */
    const index = new Map<string, Map<number, Subscription>>();
    const key = (type: string, event: string) => `${type} ${event}`;

    router.add('POST', '/webhooks', (ctx) => {
      const b = asObject(ctx.body);
      const lax = app.fault('webhook-required-unchecked');
      let { target, type, event } = b;
      if (lax) {
        target ??= 'https://example.invalid/';
        type ??= 'lead';
        event ??= 'new';
      }
      if (target === undefined || target === null) invalid(app, 'target is required', 'target');
      if (type === undefined || type === null) invalid(app, 'type is required', 'type');
      if (event === undefined || event === null) invalid(app, 'event is required', 'event');
      if (!validTarget(target) && !app.fault('webhook-target-unchecked')) present422(app, 'target must be a valid URL');
      if (!(WEBHOOK_TYPES as readonly unknown[]).includes(type) && !app.fault('webhook-type-unchecked')) {
        invalid(app, `type must be one of ${WEBHOOK_TYPES.join(', ')}`, 'type');
      }
      if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(event) && !app.fault('webhook-event-unchecked')) {
        invalid(app, `event must be one of ${WEBHOOK_EVENTS.join(', ')}`, 'event');
      }
      const secret = b.secret;
      if (secret !== undefined && secret !== null && (typeof secret !== 'object' || Array.isArray(secret))) invalid(app, 'secret must be a JSON object', 'secret');
      const computed = b.custom_field_computed_values;
      if (computed !== undefined && computed !== null && typeof computed !== 'boolean') invalid(app, 'custom_field_computed_values must be a boolean', 'custom_field_computed_values');
      const s = subs.insert({
        target: String(target), type: String(type), event: String(event),
        secret: secret ? structuredClone(secret as Record<string, unknown>) : app.variant ? {} : null,
        custom_field_computed_values: computed === true,
        created_at: app.now(),
      });
      const k = key(s.type, s.event);
      if (!index.has(k)) index.set(k, new Map());
      index.get(k)!.set(s.id, s);
      return { status: app.variant ? 201 : 200, body: subscriptionOut(app, s, 'create') };
    });

    const live = (id: number): Subscription => {
      const s = subs.get(id);
      if (!s || (s._deleted && !app.fault('webhook-get-after-delete'))) notFound('webhook subscription');
      return s;
    };

    router.add('GET', '/webhooks/{webhook_id}', (ctx) => subscriptionOut(app, live(idParam(ctx.params.webhook_id, 'webhook_id')), 'get'));

    router.add('DELETE', '/webhooks/{webhook_id}', (ctx) => {
      const s = live(idParam(ctx.params.webhook_id, 'webhook_id'));
      if (s._deleted) notFound('webhook subscription');
      if (app.fault('webhook-get-after-delete')) subs.update(s.id, { _deleted: true });
      else subs.delete(s.id);
      if (!app.fault('webhook-notify-after-delete')) index.get(key(s.type, s.event))?.delete(s.id);
      if (app.fault('webhook-delete-without-id')) return { deleted: true };
      return app.variant ? { id: s.id, deleted: true } : { id: s.id };
    });

    // Delivery.
    const queue: Job[] = [];
    let active = 0;
    const pump = () => {
      while (active < MAX_CONCURRENT && queue.length) {
        const job = queue.shift()!;
        active++;
        void deliver(job).finally(() => { active--; pump(); });
      }
    };
    const deliver = async (job: Job) => {
      try {
        const res = await fetch(job.target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': app.variant ? 'reference-hooks/2' : 'reference-hooks/1' },
          body: job.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        await res.arrayBuffer();
      } catch {
        /* retries: not shown; a failed delivery is dropped */
      }
    };
    const enqueue = (job: Job) => {
      if (app.fault('webhook-delivery-blocking')) return deliverBlocking(job);
      if (queue.length >= MAX_QUEUED) queue.shift();
      queue.push(job);
      pump();
    };

    const matching = (type: string, event: string): Subscription[] => {
      const at = (t: string, e: string) => [...(index.get(key(t, e))?.values() ?? [])];
      let found: Subscription[];
      if (app.fault('webhook-type-ignored')) found = WEBHOOK_TYPES.flatMap((t) => at(t, event));
      else if (app.fault('webhook-event-ignored')) found = WEBHOOK_EVENTS.flatMap((e) => at(type, e));
      else found = at(type, event);
      return found.sort((a, b) => a.id - b.id);
    };

    app.events.on('record', (ev: RecordEvent) => {
      if (ev.event === 'update' && app.fault('webhook-update-not-sent')) return;
      if (ev.event === 'new' && ev.type === 'person' && app.fault('webhook-new-not-sent')) return;
      if (ev.event === 'delete' && ev.type === 'lead' && app.fault('webhook-convert-no-delete')) return;
      const targets = matching(ev.type, ev.event);
      if (!targets.length) return;
      // The record as stored now (raw option ids), so that computed values are applied per subscription.
      const stored = ev.event !== 'delete' && COLLECTION[ev.type] ? app.store.collection<Rec>(COLLECTION[ev.type]).get(Number(ev.record.id)) : undefined;
      for (const s of targets) {
        const computed = s.custom_field_computed_values && !app.fault('webhook-computed-values-ignored');
        const record = stored ? present(app, structuredClone(stored), { computed }) : structuredClone(ev.record);
        const secret = secretOut(app, s.secret);
        const notice = { subscription_id: s.id, event: ev.event, type: ev.type, ids: [ev.record.id], record };
        const payload = app.variant
          ? { webhook_id: s.id, notification: { kind: `${ev.type}.${ev.event}`, records: [record] }, ...secret }
          : { ...notice, secret };
        enqueue({ target: s.target, body: JSON.stringify(payload) });
      }
    });
  },
};
