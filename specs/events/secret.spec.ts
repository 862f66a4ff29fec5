/**
 * spec § Events, rule 2: "The `secret` object of the subscription is sent unchanged with every
 * notification". Where the pairs sit is "not shown": each key/value pair must appear unchanged in
 * the notification, nested anywhere in its body or at the top level, or in a header holding the
 * object as JSON. The notifications judged are those about the test's record: what else a
 * server may send to the endpoint (a verification request, say) is not shown. A notification
 * that does not come is EVENT-1's or EVENT-2's failure: this rule is then not judged.
 */
import { MAKERS, updateLead } from './records.js';
import { expect, rule, test } from '../support/fixtures/test.js';
import { concerns, missingSecretPairsIn, type ReceivedRequest } from '../support/resources/webhook-receiver.js';

function expectSecret(all: ReceivedRequest[], rec: { id: unknown; name: string; type: string }, secret: Record<string, unknown>): void {
  for (const r of all.filter((x) => concerns(x.body, rec, rec.type))) {
    const missing = missingSecretPairsIn(r, secret);
    expect(
      missing,
      `notification #${r.seq} at ${r.path} carries every secret pair unchanged; missing or altered: ${missing.join(', ')}\n  payload: ${r.text.slice(0, 800)}`,
    ).toEqual([]);
  }
}

test(
  ...rule(
    'EVENT-4',
    'a new notification carries every secret key/value pair unchanged',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const secret = {
        conformance_key: `k-${ns.id}`,
        second_key: `v2-${ns.id}`,
        'Key With Spaces': 'a value with "quotes", ünïcödé and trailing space ',
        third_key: 'the last pair',
      };
      const ch = hooks.channel('project-new');
      await hooks.subscribe(ch, { type: 'project', event: 'new', secret });
      const rec = await MAKERS.project.create({ api, ns, profile });
      await hooks.needed(ch, `naming the new project ${String(rec.id)}`, (r) => concerns(r.body, rec, 'project'));
      expectSecret(await ch.all(), rec, secret);
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'EVENT-4',
    'an update notification carries every secret key/value pair unchanged',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const secret = { conformance_key: `k-${ns.id}`, origin: 'crm-conformance', last_key: `last-${ns.id}` };
      const lead = await MAKERS.lead.create({ api, ns, profile });
      const ch = hooks.channel('lead-update');
      await hooks.subscribe(ch, { type: 'lead', event: 'update', secret });
      await updateLead({ api, ns, profile }, lead, { details: `updated by ${ns.id}` });
      await hooks.needed(ch, `naming the updated lead ${String(lead.id)}`, (r) => concerns(r.body, lead, 'lead'));
      expectSecret(await ch.all(), lead, secret);
    },
    { timeout: 60_000 },
  ),
);
