/**
 * spec § Webhook subscriptions (POST, GET, DELETE /webhooks) and § States and transitions
 * (a subscription exists after POST, is removed by DELETE: that one, not the others of its type
 * and event). Targets are this test's receiver paths; every subscription is removed at the end of
 * its test. GET answers a subscription as POST answered it: every member, the secret's pairs as
 * sent (keys as written, values outside ASCII).
 */
import { WebhookDeleted, WebhookSubscription, WebhookEvent, WebhookType } from '../../contracts/index.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { storedDifferences } from '../support/records.js';

/** A secret as an integration writes one: keys in mixed case with a dash or a space, values outside ASCII. */
const realSecret = (id: string) => ({ 'X-Api-Key': `k-${id}`, 'Tenant Name': 'Zoë Łukasiewicz 山田 Ọ̀ṣun', conformance_key: `k-${id}` });

test(
  ...rule('HOOK-1', 'POST /webhooks with only target, type and event answers a subscription with id and created_at', async ({ api, hooks }) => {
    const ch = hooks.channel('minimal');
    const before = Math.floor(Date.now() / 1000);
    const res = await api.post<WebhookSubscription>('/webhooks', { target: ch.url, type: 'project', event: 'new' });
    expect(res, 'accepted (any 2xx: the spec shows no status)').not.toBeRefused();
    expect(res).toMatchContract(WebhookSubscription);
    hooks.track(res.body);
    expect(res.body.id, 'the subscription has an id').not.toBeNull();
    // Loose bound (a day) against clock skew: created_at is a creation time in seconds, not milliseconds.
    expect(Math.abs(res.body.created_at - before), `created_at ${res.body.created_at} is close to now (${before})`).toBeLessThan(86_400);
  }),
);

test(
  ...rule('HOOK-1', 'POST /webhooks with an https target is accepted', async ({ api, hooks }) => {
    // The receiver's own address with the https scheme: a valid URL of a receiving endpoint (the
    // spec's applications have HTTPS endpoints, § Authentication). What is delivered there is not judged.
    const target = hooks.channel('https').url.replace(/^http:/, 'https:');
    const res = await api.post<WebhookSubscription>('/webhooks', { target, type: 'project', event: 'delete' });
    if (res.status >= 200 && res.status < 300) hooks.track(res.body);
    expect(res, `${target} accepted (any 2xx: the spec shows no status)`).not.toBeRefused();
    expect(res).toMatchContract(WebhookSubscription);
  }),
);

test(
  ...rule('HOOK-1', 'every allowed type and event kind is accepted by POST /webhooks', async ({ hooks }) => {
    const ch = hooks.channel('all-kinds');
    const kinds = WebhookType.options.flatMap((type) => WebhookEvent.options.map((event) => ({ type, event })));
    // Independent subscriptions, sent together: a far target answers them in one round trip. All
    // are awaited before any failure is thrown, so that every subscription made is removed at the end.
    const settled = await Promise.allSettled(kinds.map(async (kind) => ({ ...kind, sub: await hooks.subscribe(ch, kind) })));
    for (const r of settled) if (r.status === 'rejected') throw r.reason;
    for (const { type, event, sub } of settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))) {
      expect(sub, `the ${type}/${event} subscription`).toMatchContract(WebhookSubscription);
      expect(sub.type, `type of the ${type}/${event} subscription`).toBe(type);
      expect(sub.event, `event of the ${type}/${event} subscription`).toBe(event);
    }
  }),
);

test(
  ...rule('HOOK-2', 'the subscription carries the target, type, event, secret and custom_field_computed_values sent', async ({ hooks, ns }) => {
    const ch = hooks.channel('echo');
    const secret = { conformance_key: `k-${ns.id}`, purpose: 'echo check', 'mixed Case key': 'Ünïcödé "quoted" value' };
    const sub = await hooks.subscribe(ch, { type: 'company', event: 'update', secret, custom_field_computed_values: true });
    expect(sub.target, 'target').toBe(ch.url);
    expect(sub.type, 'type').toBe('company');
    expect(sub.event, 'event').toBe('update');
    expect(sub.secret, 'secret, unchanged').toEqual(secret);
    expect(sub.custom_field_computed_values, 'custom_field_computed_values').toBe(true);
  }),
);

test(
  ...rule('HOOK-2', 'a subscription with custom_field_computed_values false carries it false', async ({ hooks }) => {
    const sub = await hooks.subscribe(hooks.channel('raw values'), { type: 'person', event: 'new', custom_field_computed_values: false });
    expect(sub.custom_field_computed_values, 'custom_field_computed_values').toBe(false);
  }),
);

test(
  ...rule('HOOK-7', 'GET /webhooks/{id} answers the subscription as created: every member, the secret as sent', async ({ api, hooks, ns }) => {
    const ch = hooks.channel('get');
    const secret = realSecret(ns.id);
    const sub = await hooks.subscribe(ch, { type: 'lead', event: 'delete', secret, custom_field_computed_values: true });
    // The comparison rests on the created subscription's own members (HOOK-1, HOOK-2).
    expect(sub, `the created subscription${breaks(['HOOK-1'])}`).toMatchContract(WebhookSubscription);
    expect(sub.secret, `the created subscription carries the secret sent${breaks(['HOOK-2'])}`).toEqual(secret);
    const res = await api.get<WebhookSubscription>(`/webhooks/${encodeURIComponent(String(sub.id))}`);
    expect(res).toHaveStatus(200);
    expect(res).toMatchContract(WebhookSubscription);
    expect(String(res.body.id), 'the fetched subscription is the one asked for').toBe(String(sub.id));
    expect(storedDifferences(sub, res.body), 'the fetched subscription is the created one, member by member').toEqual([]);
  }),
);

test(
  ...rule('HOOK-7', 'GET /webhooks/{id} still answers a subscription after another of its type and event was deleted', async ({ api, hooks, ns }) => {
    const secret = realSecret(ns.id);
    const kept = await hooks.subscribe(hooks.channel('kept'), { type: 'company', event: 'update', secret });
    expect(kept.secret, `the created subscription carries the secret sent${breaks(['HOOK-2'])}`).toEqual(secret);
    const other = await hooks.subscribe(hooks.channel('deleted'), { type: 'company', event: 'update', secret: { conformance_key: `other-${ns.id}` } });
    const del = await hooks.unsubscribe(other.id);
    expect(del, `DELETE of the other subscription is accepted (any 2xx)${breaks(['HOOK-8'])}`).not.toBeRefused();
    const res = await api.get<WebhookSubscription>(`/webhooks/${encodeURIComponent(String(kept.id))}`);
    expect(res, 'DELETE removed the subscription it named, not this one: it still exists').toHaveStatus(200);
    expect(res).toMatchContract(WebhookSubscription);
    expect(storedDifferences(kept, res.body), 'the subscription not deleted is answered as created').toEqual([]);
  }),
);

test(
  ...rule('HOOK-8', 'DELETE /webhooks/{id} answers { id } naming the removed subscription', async ({ hooks }) => {
    const ch = hooks.channel('delete');
    const sub = await hooks.subscribe(ch, { type: 'person', event: 'new' });
    const res = await hooks.unsubscribe(sub.id);
    expect(res, 'accepted (any 2xx: the spec shows no status)').not.toBeRefused();
    expect(res).toMatchContract(WebhookDeleted);
    expect(String((res.body as { id: unknown }).id), 'the answer names the removed subscription').toBe(String(sub.id));
  }),
);

test(
  ...rule('HOOK-9', 'after DELETE /webhooks/{id}, GET /webhooks/{id} no longer answers the subscription', async ({ api, hooks }) => {
    const ch = hooks.channel('gone');
    const sub = await hooks.subscribe(ch, { type: 'opportunity', event: 'new' });
    const path = `/webhooks/${encodeURIComponent(String(sub.id))}`;
    expect(await api.get(path), 'the subscription exists before DELETE').toHaveStatus(200);
    const del = await hooks.unsubscribe(sub.id);
    expect(del, 'accepted (any 2xx: the spec shows no status)').not.toBeRefused();
    const res = await api.get(path);
    expect(res).toBeRefused();
  }),
);
