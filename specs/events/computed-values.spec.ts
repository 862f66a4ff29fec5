/**
 * spec § Events, rule 3, and § Webhook subscriptions (custom_field_computed_values): with the
 * flag true, notifications carry option names instead of option ids for dropdown (and, per the
 * create parameters, multi-select) custom fields. Definitions come from the profile's
 * custom_fields fixtures. Where the values sit in the payload is "not shown": each option name
 * must appear in it, and no custom field value entry of those definitions may carry option ids.
 */
import type { CustomFieldFixture } from '../../contracts/index.js';
import { MAKERS, type EntityType } from './records.js';
import { customFieldValues, mentions } from '../support/resources/webhook-receiver.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const PREFERRED: EntityType[] = ['project', 'person', 'lead', 'company', 'opportunity', 'task'];

test(...rule('EVENT-5', 'with custom_field_computed_values true, a new notification carries dropdown and multi-select option names', async ({ api, ns, profile, hooks }) => {
  test.skip(!profile.capabilities.webhook_delivery, 'the profile says notifications cannot reach the suite (capabilities.webhook_delivery)');
  const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
  test.skip(!dropdown || dropdown.options.length === 0, 'the profile has no dropdown custom field fixture with options');
  const fields = [dropdown!, ...(multi && multi.options.length >= 2 ? [multi] : [])];
  const availableOn = (f: CustomFieldFixture, t: EntityType) => f.available_on.length === 0 || f.available_on.includes(t);
  const type = PREFERRED.find((t) => !MAKERS[t].unavailable?.(profile) && fields.every((f) => availableOn(f, t)));
  test.skip(!type, 'no creatable entity type has the custom field fixtures available');

  const chosen = dropdown!.options[dropdown!.options.length - 1];
  const picks = multi && fields.includes(multi) ? [multi.options[0], multi.options[multi.options.length - 1]] : [];
  const custom_fields = [
    { custom_field_definition_id: dropdown!.id, value: chosen.id },
    ...(picks.length ? [{ custom_field_definition_id: multi!.id, value: picks.map((o) => o.id) }] : []),
  ];

  const ch = hooks.channel(`${type}-computed`);
  await hooks.subscribe(ch, { type: type!, event: 'new', custom_field_computed_values: true, secret: { conformance_key: `k-${ns.id}` } });
  const rec = await MAKERS[type!].create({ api, ns, profile }, { custom_fields });
  expect(customFieldValues(rec.res.body, dropdown!.id).length, `${MAKERS[type!].how} kept the dropdown custom field (precondition)`).toBeGreaterThan(0);
  const got = await ch.waitFor(`naming the new ${type} ${String(rec.id)}`, (r) => mentions(r.body, rec.id, rec.name));

  const names = [chosen.name, ...picks.map((o) => o.name)];
  for (const name of names) expect(mentions(got.body, name), `the option name ${JSON.stringify(name)} appears in the notification\n  payload: ${got.text.slice(0, 800)}`).toBe(true);
  for (const value of customFieldValues(got.body, dropdown!.id)) {
    expect(value, `the dropdown ${String(dropdown!.id)} carries the option name, not the id`).toBe(chosen.name);
  }
  if (picks.length) {
    for (const value of customFieldValues(got.body, multi!.id)) {
      const sorted = Array.isArray(value) ? value.map(String).sort() : value;
      expect(sorted, `the multi-select ${String(multi!.id)} carries the option names, not the ids (in any order)`).toEqual(picks.map((o) => o.name).sort());
    }
  }
}, { timeout: 60_000 }));
