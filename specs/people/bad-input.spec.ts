/**
 * spec § Errors (WIRE-5) for `POST /people`: malformed JSON and ill-typed members are refused
 * with a 4xx, never a 5xx. The status of these refusals is not shown: any 4xx.
 */
import { expect, rule, test } from '../support/fixtures/test.js';

const cases: { label: string; body?: (tags: string[]) => unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"name": "unterminated",' },
  { label: 'a JSON array as body', body: (tags) => [{ name: 'array body', tags }] },
  { label: 'a number as name', body: (tags) => ({ name: 42, tags }) },
  { label: 'emails that is a string, not a list', body: (tags) => ({ name: 'bad emails', emails: 'someone@example.com', tags }) },
  { label: 'an email entry whose email is a number', body: (tags) => ({ name: 'bad email entry', emails: [{ email: 5, category: 'work' }], tags }) },
  { label: 'an address that is a string', body: (tags) => ({ name: 'bad address', address: '1 Main Street', tags }) },
  { label: 'phone_numbers that is an object', body: (tags) => ({ name: 'bad phones', phone_numbers: { number: '+14155550123' }, tags }) },
  { label: 'tags that is a string', body: () => ({ name: 'bad tags', tags: 'crm-conformance' }) },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `POST /people with ${c.label} is refused with a 4xx`, async ({ api, ns }) => {
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'POST', path: '/people', rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.post('/people', c.body!(ns.tags));
      expect(res).toBeClientError();
    }),
  );
}
