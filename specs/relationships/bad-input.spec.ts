/**
 * spec § Errors (WIRE-5) for `DELETE /people/{id}/related`: malformed JSON, no body (or a JSON null),
 * a body without `resource` and an ill-typed `resource` (its id or its type) are never answered with
 * a 5xx or a dropped connection. The status of a refusal is not shown: any 4xx. A server that takes
 * the input leniently (open choice `errors.ill-typed-input`) answers the removal's shape (REL-1),
 * whose `resource.id` is an identifier (an ill-typed id is not echoed). A body may name the Person's
 * own id, so that only the member judged is wrong.
 */
import { RelationshipRemoved } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';

/** A case: its body as is (`body`), made from the Person's id (`of`), or raw text sent as JSON (`raw`). */
const cases: { label: string; body?: unknown; of?: (personId: unknown) => unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"resource": {"id": 1,' },
  { label: 'no body', raw: '' },
  { label: 'a JSON null body', raw: 'null' },
  { label: 'a body without resource', body: {} },
  { label: 'resource that is null', body: { resource: null } },
  { label: 'resource that is a string', body: { resource: 'company' } },
  { label: 'a resource whose id is an object and type a number', body: { resource: { id: { value: 1 }, type: 5 } } },
  { label: 'a resource whose type is a number', of: (id) => ({ resource: { id, type: 5 } }) },
  { label: 'a resource whose type is no record type', of: (id) => ({ resource: { id, type: 'widget' } }) },
  { label: 'a resource whose id is an object', body: { resource: { id: { value: 1 }, type: 'company' } } },
  { label: 'a resource whose id is a list', of: (id) => ({ resource: { id: [id], type: 'company' } }) },
  { label: 'a resource whose id is an empty string', body: { resource: { id: '', type: 'company' } } },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `DELETE /people/{id}/related with ${c.label} is refused with a 4xx, or answered as a removal`, async ({ api, ns }) => {
      const person = await make.person({ api, ns });
      const path = `/people/${encodeURIComponent(String(person.id))}/related`;
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'DELETE', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.delete(path, c.of ? c.of(person.id) : c.body);
      await expectRefusedOrTaken(res, (taken) =>
        expect(taken, `the answer to ${c.label} that was taken${breaks(['REL-1'])}`).toMatchContract(RelationshipRemoved),
      );
    }),
  );
}
