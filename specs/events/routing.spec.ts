/**
 * spec § Events, rule 1 ("A subscription names one entity type and one event kind"), and
 * § Webhook subscriptions / § States and transitions (DELETE removes the subscription).
 *
 * Showing that something is *not* sent needs a bounded wait without a fixed sleep: each test
 * makes the unwanted event happen first and then a later event that the same (or a control)
 * subscription must receive; once that later notification has arrived, a notification for the
 * earlier event would have been sent too. Without that later notification nothing can be said
 * of what was not sent: the test is then not judged (`hooks.needed`).
 */
import { MAKERS, updateLead } from './records.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { concerns, identifies, identityPaths, mentions, type ReceivedRequest } from '../support/resources/webhook-receiver.js';

type Rec = { id: unknown; name: string };

/**
 * The notifications about any of `recs` (of `kind`). How a payload names a record is learned from
 * the channel's own bounding notification: when it carries its record's unique name, by name
 * alone; else by id, as an identifier standing where the bound's record's id stands in it, at any
 * depth (`identityPaths`, `identifies`): not the envelope's own ids (a subscription, delivery or
 * event id), nor another record's, nor any other number, which may all equal a record's id. A
 * payload naming no kind whose identifier is also that of the channel's own record (`bound.kind`:
 * ids of two kinds may be equal) is that record's. What the suite cannot attribute (a verification
 * request) is no notification about them.
 */
function about(all: ReceivedRequest[], bound: { r: ReceivedRequest; rec: Rec; kind: string }, kind: string, ...recs: Rec[]): string[] {
  const byName = mentions(bound.r.body, bound.rec.name);
  const at = identityPaths(bound.r.body, bound.rec.id, bound.kind);
  const own = (r: ReceivedRequest) => identifies(r.body, bound.rec.id, bound.kind, at);
  const hit = (r: ReceivedRequest) => recs.some((rec) => (byName ? mentions(r.body, rec.name) : identifies(r.body, rec.id, kind, at) && !own(r)));
  return all.filter(hit).map((r) => `#${r.seq} ${r.text.slice(0, 400)}`);
}

test(
  ...rule(
    'EVENT-6',
    'a company/new subscription gets no notification for a new project',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      const ch = hooks.channel('company-new');
      await hooks.subscribe(ch, { type: 'company', event: 'new' });
      const project = await MAKERS.project.create(ctx);
      const company = await MAKERS.company.create(ctx);
      // Bound: the subscription's own, later notification has arrived.
      const bound = await hooks.needed(ch, `naming the new company ${String(company.id)}`, (r) => concerns(r.body, company, 'company'));
      expect(
        about(await ch.all(), { r: bound, rec: company, kind: 'company' }, 'project', project),
        `no notification about project ${String(project.id)} reached the company/new subscription`,
      ).toEqual([]);
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'EVENT-6',
    'a lead/update subscription gets no notification for a new lead',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      const ch = hooks.channel('lead-update');
      await hooks.subscribe(ch, { type: 'lead', event: 'update' });
      const created = await MAKERS.lead.create(ctx);
      const updated = await MAKERS.lead.create(ctx);
      await updateLead(ctx, updated, { details: `updated by ${ns.id}` });
      // Bound: the subscription's own, later notification (the update) has arrived.
      const bound = await hooks.needed(ch, `naming the updated lead ${String(updated.id)}`, (r) => concerns(r.body, updated, 'lead'));
      expect(
        about(await ch.all(), { r: bound, rec: updated, kind: 'lead' }, 'lead', created),
        `no notification about the new (never updated) lead ${String(created.id)} reached the lead/update subscription`,
      ).toEqual([]);
    },
    { timeout: 60_000 },
  ),
);

// "A Company is created or joined per the `company` rules" (§ States and transitions): a Company a
// conversion joins existed before, so no company/new event occurs for it (the Person joining it
// may be an update of it: that is not judged here).
test(
  ...rule(
    'EVENT-6',
    'a company/new subscription gets no notification for an existing Company that a conversion joins',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      // Created before the subscription: no notification about it is due to the subscription.
      const joined = await MAKERS.company.create(ctx);
      const ch = hooks.channel('company-new');
      await hooks.subscribe(ch, { type: 'company', event: 'new' });
      const lead = await MAKERS.lead.create(ctx);
      const res = await api.post(`/leads/${encodeURIComponent(String(lead.id))}/convert`, {
        details: { person: { name: ns.name('joining person') }, company: { id: joined.id } },
      });
      expect(res, `the conversion joining company ${String(joined.id)} is accepted (2xx: the spec shows no status)${breaks(['CONVERT-4'])}`).not.toBeRefused();
      const later = await MAKERS.company.create(ctx);
      // Bound: the subscription's own, later notification has arrived.
      const bound = await hooks.needed(ch, `naming the new company ${String(later.id)}`, (r) => concerns(r.body, later, 'company'));
      expect(
        about(await ch.all(), { r: bound, rec: later, kind: 'company' }, 'company', joined),
        `no notification about company ${String(joined.id)}, which existed before the conversion joined it, reached the company/new subscription`,
      ).toEqual([]);
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'EVENT-7',
    'after DELETE /webhooks/{id} the removed subscription gets no further notification',
    async ({ api, ns, profile, hooks }) => {
      test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
      const ctx = { api, ns, profile };
      const removed = hooks.channel('removed');
      const control = hooks.channel('control');
      const sub = await hooks.subscribe(removed, { type: 'project', event: 'new' });
      await hooks.subscribe(control, { type: 'project', event: 'new' });

      const before = await MAKERS.project.create(ctx);
      const naming = (rec: Rec) => (r: ReceivedRequest) => concerns(r.body, rec, 'project');
      const bound = await hooks.needed(removed, `naming project ${String(before.id)} (before DELETE: the subscription works)`, naming(before));
      await hooks.needed(control, `naming project ${String(before.id)} (control)`, naming(before));

      const del = await hooks.unsubscribe(sub.id);
      expect(del, 'accepted (any 2xx: the spec shows no status)').not.toBeRefused();

      const after = await MAKERS.project.create(ctx);
      const later = await MAKERS.project.create(ctx);
      // Bound: the control subscription has received both later notifications.
      await hooks.needed(control, `naming project ${String(after.id)} (control)`, naming(after));
      await hooks.needed(control, `naming project ${String(later.id)} (control)`, naming(later));
      expect(
        about(await removed.all(), { r: bound, rec: before, kind: 'project' }, 'project', after, later),
        'no notification reached the removed subscription after DELETE',
      ).toEqual([]);
    },
    { timeout: 60_000 },
  ),
);
