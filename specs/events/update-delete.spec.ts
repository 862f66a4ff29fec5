/**
 * spec § Events, rule 1 for the `update` and `delete` kinds, where the API can cause them: a
 * Lead is updated by `PUT /leads/upsert` matching it (Lead upsert, rule 3), and a converted
 * Lead "no longer exists" (§ States and transitions); whether conversion counts as a delete
 * event is not stated, so a server may announce it or not (EVENT-8, a MAY recorded in
 * convert-delete.optional.spec.ts). No endpoint deletes a record outright (EVENT-3 is untestable).
 */
import { MAKERS, convertLead, updateLead } from './records.js';
import { concerns } from '../support/resources/webhook-receiver.js';
import { rule, test } from '../support/fixtures/test.js';

test(
  ...rule(
    'EVENT-2',
    'a Lead updated by PUT /leads/upsert sends a notification to a lead/update subscription',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      // Created before the subscription exists, so that only the update can reach it.
      const lead = await MAKERS.lead.create(ctx);
      const ch = hooks.channel('lead-update');
      await hooks.subscribe(ch, { type: 'lead', event: 'update', secret: { conformance_key: `k-${ns.id}` } });
      await updateLead(ctx, lead, { details: `updated by ${ns.id}` });
      await ch.waitFor(`naming the updated lead ${String(lead.id)}`, (r) => concerns(r.body, lead, 'lead'));
    },
    { timeout: 60_000 },
  ),
);
