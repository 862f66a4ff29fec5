/**
 * spec § Errors (WIRE-5) for `PUT /leads/upsert`: a JSON null body, and a body whose `properties`
 * or `match` is null, are never answered with a 5xx or a dropped connection. The status of a
 * refusal is not shown: any 4xx. A server that takes the input leniently (open choice
 * `errors.ill-typed-input`) answers a Lead (UPSERT-11). The match is on a name unique to the test,
 * so that a body taken matches no other test's Lead.
 */
import { Lead } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';

/** A case: the body sent as JSON text, made from a name unique to the test. */
const cases: { label: string; raw: (name: string) => string }[] = [
  { label: 'a JSON null body', raw: () => 'null' },
  { label: 'properties that is null', raw: (name) => JSON.stringify({ properties: null, match: { field_name: 'name', field_value: name } }) },
  { label: 'match that is null', raw: (name) => JSON.stringify({ properties: { name }, match: null }) },
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
