/**
 * spec § Errors (WIRE-5) for `POST /people`: malformed JSON and ill-typed members are never answered
 * with a 5xx or a dropped connection. The status of a refusal is not shown: any 4xx. A server may
 * also take the input leniently (open choice `errors.ill-typed-input`): then its answer must be a
 * Person (PEOPLE-1), whatever it made of the ill-typed member. The same for a `company_id` that
 * names no Company ("Status codes for missing records … not shown": any 4xx, or a Person).
 */
import { Person } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';
import { absentId, postIllTyped, type IllTyped } from '../support/records.js';

const cases: IllTyped[] = [
  { label: 'a malformed JSON body', raw: '{"name": "unterminated",' },
  { label: 'a JSON array as body', body: ({ tags }) => [{ name: 'array body', tags }] },
  { label: 'a number as name', body: ({ tags }) => ({ name: 42, tags }) },
  { label: 'emails that is a string, not a list', body: ({ tags }) => ({ name: 'bad emails', emails: 'someone@example.com', tags }) },
  { label: 'an email entry whose email is a number', body: ({ tags }) => ({ name: 'bad email entry', emails: [{ email: 5, category: 'work' }], tags }) },
  { label: 'an address that is a string', body: ({ tags }) => ({ name: 'bad address', address: '1 Main Street', tags }) },
  { label: 'phone_numbers that is an object', body: ({ tags }) => ({ name: 'bad phones', phone_numbers: { number: '+14155550123' }, tags }) },
  { label: 'tags that is a string', body: ({ tags }) => ({ name: 'bad tags', tags: tags[0] }) },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `POST /people with ${c.label} is refused with a 4xx, or taken as a valid Person`, async ({ api, ns }) => {
      const res = await postIllTyped(api, '/people', c, ns);
      await expectRefusedOrTaken(res, (taken) => expect(taken, `the answer to ${c.label} that was taken${breaks(['PEOPLE-1'])}`).toMatchContract(Person));
    }),
  );
}

test(
  ...rule('WIRE-5', 'POST /people with a company_id that names no Company is refused with a 4xx, or taken as a valid Person', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const companyId = absentId(company.id, ns.id);
    const res = await api.post('/people', { name: 'no such company', company_id: companyId, tags: ns.tags });
    await expectRefusedOrTaken(res, (taken) =>
      expect(taken, `the answer to a company_id no Company has (${String(companyId)}) that was taken${breaks(['PEOPLE-1'])}`).toMatchContract(Person),
    );
  }),
);
