/**
 * spec § Errors (WIRE-5) for `PUT /leads/upsert`: a JSON null body, a body whose `properties` or
 * `match` is null, and properties with ill-typed entries, are never answered with a 5xx or a
 * dropped connection. The status of a refusal is not shown: any 4xx. A server that takes the input
 * leniently (open choice `errors.ill-typed-input`) answers a Lead (UPSERT-11): valid entries, an
 * identifier sent as "" null or an identifier (an empty field is returned as null, never as "").
 * The match is on a name unique to the test, so that a body taken matches no other test's Lead.
 */
import { Lead } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';

/** A case: the body sent as JSON text, made from a name unique to the test. */
const cases: { label: string; raw: (name: string) => string }[] = [
  { label: 'a JSON null body', raw: () => 'null' },
  { label: 'properties that is null', raw: (name) => JSON.stringify({ properties: null, match: { field_name: 'name', field_value: name } }) },
  { label: 'match that is null', raw: (name) => JSON.stringify({ properties: { name }, match: null }) },
  // Entries that are null, text or without their number, an entry without its category, an identifier sent as "" (an empty
  // field: "absent or empty are returned as null") and no e-mail (null): taken, the Lead answered is still a Lead.
  {
    label: 'properties whose entries are null, text or lack their number or category, an assignee_id "" and email null',
    raw: (name) =>
      JSON.stringify({
        properties: { name, email: null, assignee_id: '', phone_numbers: [null, 'x', { category: 'work' }], socials: [{ url: 'https://example.com/' }] },
        match: { field_name: 'name', field_value: name },
      }),
  },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `PUT /leads/upsert with ${c.label} is refused with a 4xx, or taken as a valid upsert`, async ({ api, ns }) => {
      const res = await api.send({
        method: 'PUT',
        path: '/leads/upsert',
        rawBody: c.raw(ns.name('bad-input')),
        headers: { 'Content-Type': 'application/json' },
      });
      await expectRefusedOrTaken(res, (taken) => expect(taken, `the answer to ${c.label} that was taken${breaks(['UPSERT-11'])}`).toMatchContract(Lead));
    }),
  );
}
