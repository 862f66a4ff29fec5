/**
 * spec § Errors (WIRE-5) for `DELETE /people/{id}/related`: malformed JSON and an ill-typed
 * `resource` are never answered with a 5xx or a dropped connection. The status of a refusal is not
 * shown: any 4xx. A server that takes the input leniently (open choice `errors.ill-typed-input`)
 * answers the removal's shape (REL-1).
 */
import { RelationshipRemoved } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';

const cases: { label: string; body?: unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"resource": {"id": 1,' },
  { label: 'resource that is a string', body: { resource: 'company' } },
  { label: 'a resource whose id is an object and type a number', body: { resource: { id: { value: 1 }, type: 5 } } },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `DELETE /people/{id}/related with ${c.label} is refused with a 4xx, or answered as a removal`, async ({ api, ns }) => {
      const person = await make.person({ api, ns });
      const path = `/people/${encodeURIComponent(String(person.id))}/related`;
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'DELETE', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.delete(path, c.body);
      await expectRefusedOrTaken(res, (taken) =>
        expect(taken, `the answer to ${c.label} that was taken${breaks(['REL-1'])}`).toMatchContract(RelationshipRemoved),
      );
    }),
  );
}
