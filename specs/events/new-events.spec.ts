/**
 * spec § Events, rule 1: a subscription to `new` events of a type gets a notification when a
 * record of that type is created, for every type the spec lets the suite create (tasks only
 * through the profile's create_task extension), for the records a conversion creates too ("A
 * Person is created; a Company is created or joined …; an Opportunity is created only when
 * `opportunity` is supplied": § States and transitions), and for as long as the subscription
 * exists: after another subscription of its type and event was deleted too. The payload shape is
 * "not shown": the notification is recognised by the record's id or unique name anywhere in it,
 * and attached. Whether the converted Lead's removal is a delete event is EVENT-8's (a MAY).
 * Every record of one bulk create is a new record: each is announced, also while the receiver
 * still holds the first notifications (retries and time-outs are "not shown"; a notification
 * left out is not).
 */
import { MAKERS, convertLeadFully, type EntityType } from './records.js';
import { concerns } from '../support/resources/webhook-receiver.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';
import { fullRequest } from '../opportunities/bulk.js';

/** The first line of each wait that failed: waits awaited together, so that one missing notification does not hide another. */
const missedOf = (waits: PromiseSettledResult<unknown>[]) =>
  waits.flatMap((w) => (w.status === 'rejected' ? [(w.reason as Error).message.split('\n')[0]] : []));

const NO_DELIVERY = 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)';

for (const type of Object.keys(MAKERS) as EntityType[]) {
  const maker = MAKERS[type];
  test(
    ...rule(
      'EVENT-1',
      `${maker.how} sends a notification to a ${type}/new subscription`,
      async ({ api, ns, profile, hooks }) => {
        test.skip(!profile.capabilities.webhook_delivery, NO_DELIVERY);
        const why = maker.unavailable?.(profile);
        test.skip(!!why, why ?? '');
        const ch = hooks.channel(`${type}-new`);
        await hooks.subscribe(ch, { type, event: 'new', secret: { conformance_key: `k-${ns.id}` } });
        const rec = await maker.create({ api, ns, profile });
        await ch.waitFor(`naming the new ${type} ${String(rec.id)}`, (r) => concerns(r.body, rec, type));
      },
      { timeout: 60_000 },
    ),
  );
}

test(
  ...rule(
    'EVENT-1',
    'converting a Lead sends its new Person, Company and Opportunity to person/new, company/new and opportunity/new subscriptions',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, NO_DELIVERY);
      const ctx = { api, ns, profile };
      const lead = await MAKERS.lead.create(ctx);
      const kinds = ['person', 'company', 'opportunity'] as const;
      const channels = await Promise.all(
        kinds.map(async (type) => {
          const ch = hooks.channel(`converted-${type}`);
          await hooks.subscribe(ch, { type, event: 'new', secret: { conformance_key: `k-${ns.id}` } });
          return ch;
        }),
      );
      const out = await convertLeadFully(ctx, lead);
      // Each awaited at once: one that does not come fails the test once every wait has ended.
      const waits = await Promise.allSettled(
        kinds.map((type, i) => {
          const rec = out[type];
          return rec ? channels[i].waitFor(`naming the ${type} ${String(rec.id)} the conversion created`, (r) => concerns(r.body, rec, type)) : undefined;
        }),
      );
      const missed = missedOf(waits);
      expect(missed, 'every record the conversion created is a new record of its type: each subscription got its notification').toEqual([]);
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'EVENT-1',
    'a project/new subscription is still notified after another project/new subscription was deleted',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, NO_DELIVERY);
      const kept = hooks.channel('kept');
      await hooks.subscribe(kept, { type: 'project', event: 'new', secret: { conformance_key: `k-${ns.id}` } });
      const other = await hooks.subscribe(hooks.channel('deleted'), { type: 'project', event: 'new', secret: { conformance_key: `other-${ns.id}` } });
      const del = await hooks.unsubscribe(other.id);
      expect(del, `DELETE of the other subscription is accepted (any 2xx)${breaks(['HOOK-8'])}`).not.toBeRefused();
      const rec = await MAKERS.project.create({ api, ns, profile });
      await kept.waitFor(`naming the new project ${String(rec.id)} (another project/new subscription was deleted before)`, (r) =>
        concerns(r.body, rec, 'project'),
      );
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'EVENT-1',
    'every Opportunity of one bulk create is announced to an opportunity/new subscription, also while its receiver holds the first notifications',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, NO_DELIVERY);
      const ch = hooks.channel('held-burst', { hold: true });
      await hooks.subscribe(ch, { type: 'opportunity', event: 'new', secret: { conformance_key: `k-${ns.id}` } });
      // The receiver holds what arrives until the first notification after the subscription is there,
      // then answers everything, while the bulk create may still be pending (a service that delivers
      // inside the call is not held up for long: EVENT-9's to judge).
      const started = Date.now();
      const firstThenRelease = async () => {
        await ch.waitFor('after the bulk create was sent', (r) => r.receivedAt >= started);
        await ch.release();
      };
      const [recs] = await Promise.all([make.opportunities({ api, ns, profile }, fullRequest(profile)), firstThenRelease()]);
      const waits = await Promise.allSettled(
        recs.map((rec) => ch.waitFor(`naming the new opportunity ${String(rec.id)}`, (r) => concerns(r.body, rec, 'opportunity'))),
      );
      const missed = missedOf(waits);
      expect(missed, `each of the ${recs.length} Opportunities of the bulk create is a new record: each was announced`).toEqual([]);
    },
    { timeout: 90_000 },
  ),
);
