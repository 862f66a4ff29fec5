/**
 * spec § States and transitions: a converted Lead "no longer exists"; whether conversion is a delete
 * event for lead subscriptions is not stated, so a server may announce it or not (EVENT-8, a MAY;
 * open choice webhook.convert-delete). What arrives is recorded, never judged.
 */
import { MAKERS, convertLead } from './records.js';
import { concerns } from '../support/resources/webhook-receiver.js';
import { rule, test } from '../support/fixtures/test.js';

test(
  ...rule(
    'EVENT-8',
    'whether converting a Lead sends a notification to a lead/delete subscription (recorded, not judged)',
    async ({ api, ns, profile, hooks }, testInfo) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      const lead = await MAKERS.lead.create(ctx);
      const ch = hooks.channel('lead-delete');
      await hooks.subscribe(ch, { type: 'lead', event: 'delete', secret: { conformance_key: `k-${ns.id}` } });
      await convertLead(ctx, lead);
      const got = await ch
        .waitFor(`naming the converted lead ${String(lead.id)}`, (r) => concerns(r.body, lead, 'lead'), { optional: true })
        .then(
          () => 'announced',
          (err: Error) => `not announced (${err.message.split('\n')[0]})`,
        );
      testInfo.annotations.push({ type: 'note', description: `EVENT-8: a conversion to a lead/delete subscription: ${got}` });
    },
    { timeout: 60_000 },
  ),
);
