/**
 * spec § Events, rule 1: a subscription to `new` events of a type gets a notification when a
 * record of that type is created, for every type the spec lets the suite create (tasks only
 * through the profile's create_task extension). The payload shape is "not shown": the
 * notification is recognised by the record's id or unique name anywhere in it, and attached.
 */
import { MAKERS, type EntityType } from './records.js';
import { concerns } from '../support/resources/webhook-receiver.js';
import { rule, test } from '../support/fixtures/test.js';

for (const type of Object.keys(MAKERS) as EntityType[]) {
  const maker = MAKERS[type];
  test(
    ...rule(
      'EVENT-1',
      `${maker.how} sends a notification to a ${type}/new subscription`,
      async ({ api, ns, profile, hooks }) => {
        test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
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
