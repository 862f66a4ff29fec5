/**
 * spec § Events, rule 3, and § Webhook subscriptions (custom_field_computed_values): with the
 * flag true, notifications carry option names instead of option ids for dropdown (and, per the
 * create parameters, multi-select) custom fields. Definitions come from the profile's
 * custom_fields fixtures.
 *
 * The payload is "not shown": a conformant server may send only ids, and carry custom field
 * values only where it carries record attributes at all (say, the changed attributes of an
 * update). So the values are looked for in the event kinds the API causes for the record: for a
 * Lead, `new` (an upsert matching nothing) and `update` (an upsert that changes its dropdown and
 * multi-select); for the other types, `new` (no endpoint updates them). Every value carried must
 * be option names (specs/events/computed.ts); when no notification carries any, the test skips
 * with that reason: never a failure.
 */
import type { CustomFieldFixture, WebhookEvent } from '../../contracts/index.js';
import { judgeComputedValues, type OptionField, type ReceivedNotification } from './computed.js';
import { MAKERS, convertLead, updateLead, type EntityType } from './records.js';
import { customFieldValues, mentions } from '../support/resources/webhook-receiver.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const PREFERRED: EntityType[] = ['lead', 'project', 'person', 'company', 'opportunity', 'task'];

/**
 * The event kinds judged on a Lead: rule 3 covers every notification, so also `delete` (a
 * conversion; whether it is announced as a delete is EVENT-8, a SHOULD: when none comes, it
 * carries nothing to judge here).
 */
type Kind = (typeof WebhookEvent)['options'][number];
const LEAD_KINDS: readonly Kind[] = ['new', 'update', 'delete'];

test(...rule('EVENT-5', 'with custom_field_computed_values true, every dropdown and multi-select value a notification carries is option names (new, and update and delete where the API causes them)', async ({ api, ns, profile, hooks }, testInfo) => {
  test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
  const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
  test.skip(!dropdown || dropdown.options.length === 0, 'the profile has no dropdown custom field fixture with options');
  const fields = [dropdown!, ...(multi && multi.options.length >= 2 ? [multi] : [])];
  const availableOn = (f: CustomFieldFixture, t: EntityType) => f.available_on.length === 0 || f.available_on.includes(t);
  const type = PREFERRED.find((t) => !MAKERS[t].unavailable?.(profile) && fields.every((f) => availableOn(f, t)));
  test.skip(!type, 'no creatable entity type has the custom field fixtures available');
  const ctx = { api, ns, profile };
  const hasMulti = fields.includes(multi!);

  // What the record holds: first at creation, then after the update (Leads only).
  const created = { dropdown: dropdown!.options[dropdown!.options.length - 1], picks: hasMulti ? [multi!.options[0], multi!.options[multi!.options.length - 1]] : [] };
  const updated = { dropdown: dropdown!.options[0], picks: hasMulti ? [multi!.options[1]] : [] };
  const values = (v: typeof created) => [
    { custom_field_definition_id: dropdown!.id, value: v.dropdown.id },
    ...(hasMulti ? [{ custom_field_definition_id: multi!.id, value: v.picks.map((o) => o.id) }] : []),
  ];
  const changes = dropdown!.options.length >= 2 || hasMulti;
  const kinds: Kind[] = type === 'lead' ? LEAD_KINDS.filter((k) => k !== 'update' || changes) : ['new'];
  const channels = Object.fromEntries(kinds.map((k) => [k, hooks.channel(`${type}-computed-${k}`)]));
  for (const k of kinds) await hooks.subscribe(channels[k], { type: type!, event: k, custom_field_computed_values: true, secret: { conformance_key: `k-${ns.id}` } });

  const rec = await MAKERS[type!].create(ctx, { custom_fields: values(created) });
  expect(customFieldValues(rec.res.body, dropdown!.id).length, `${MAKERS[type!].how} kept the dropdown custom field (precondition)`).toBeGreaterThan(0);
  const about = (r: { body: unknown }) => mentions(r.body, rec.id, rec.name);
  const received: ReceivedNotification[] = [{ event: 'new', body: (await hooks.needed(channels.new, `naming the new ${type} ${String(rec.id)}`, about)).body }];

  if (kinds.includes('update')) await updateLead(ctx, rec, { custom_fields: values(updated) });
  if (kinds.includes('delete')) await convertLead(ctx, rec);
  // A missing update or delete notification is judged by its own rule (EVENT-2, EVENT-8): here it carries nothing.
  const later = kinds.filter((k) => k !== 'new');
  const arrived = await Promise.allSettled(later.map((k) => channels[k].waitFor(`naming the lead ${String(rec.id)} (${k})`, about, { optional: true })));
  arrived.forEach((r, i) => {
    if (r.status === 'fulfilled') received.push({ event: later[i], body: r.value.body });
    else testInfo.annotations.push({ type: 'note', description: `EVENT-5: no ${later[i]} notification to judge: ${String((r.reason as Error).message).split('\n')[0]}` });
  });

  const held = [created.dropdown, ...created.picks, updated.dropdown, ...updated.picks].map((o) => o.name);
  const judged: OptionField[] = fields.map((f) => ({ id: f.id, multi: f === multi, options: f.options }));
  const verdict = judgeComputedValues(received, judged, held);
  if (verdict.verdict === 'fail') {
    const payloads = received.map((n) => `  ${n.event}: ${JSON.stringify(n.body).slice(0, 600)}`).join('\n');
    expect(verdict.problems, `with custom_field_computed_values true, notifications carry option names instead of option ids\n${payloads}`).toEqual([]);
  }
  test.skip(verdict.verdict === 'skip', verdict.verdict === 'skip' ? verdict.reason : '');
  if (verdict.verdict === 'pass') testInfo.annotations.push({ type: 'note', description: `EVENT-5: ${verdict.note}` });
}, { timeout: 90_000 }));
