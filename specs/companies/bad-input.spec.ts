/**
 * spec § Errors (WIRE-5) for `POST /companies` and `POST /companies/{id}/activities`: malformed
 * JSON and ill-typed members are never answered with a 5xx or a dropped connection. The status of a
 * refusal is not shown: any 4xx. A server may also take the input leniently (open choice
 * `errors.ill-typed-input`): then its answer must be a Company (COMPANY-1), or a list of Activity
 * (COMPANY-4).
 */
import { ActivityList, Company } from '../../contracts/index.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';
import { postIllTyped, type IllTyped } from '../support/records.js';
import { make } from '../support/make.js';

const creates: IllTyped[] = [
  { label: 'a malformed JSON body', raw: '{"name": "unterminated",' },
  { label: 'a number as name', body: ({ tags }) => ({ name: 42, tags }) },
  { label: 'phone_numbers that is a string', body: ({ tags }) => ({ name: 'bad phones', phone_numbers: '+441179000001', tags }) },
  { label: 'an address that is a number', body: ({ tags }) => ({ name: 'bad address', address: 5, tags }) },
  { label: 'a primary_contact_id that is an object', body: ({ tags }) => ({ name: 'bad contact', primary_contact_id: { id: 1 }, tags }) },
];

for (const c of creates) {
  test(
    ...rule('WIRE-5', `POST /companies with ${c.label} is refused with a 4xx, or taken as a valid Company`, async ({ api, ns }) => {
      const res = await postIllTyped(api, '/companies', c, ns);
      await expectRefusedOrTaken(res, (taken) => expect(taken, `the answer to ${c.label} that was taken${breaks(['COMPANY-1'])}`).toMatchContract(Company));
    }),
  );
}

const filters: { label: string; body?: unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"activity_types": [' },
  { label: 'activity_types that is a string', body: { activity_types: 'user' } },
  { label: 'an activity type that is a number', body: { activity_types: [5] } },
  { label: 'an activity type whose category is a number', body: { activity_types: [{ id: 1, category: 7 }] } },
  { label: 'activity_types that is a number', body: { activity_types: 5 } },
  { label: 'an activity type that is null', body: { activity_types: [null] } },
];

for (const c of filters) {
  test(
    ...rule('WIRE-5', `POST /companies/{id}/activities with ${c.label} is refused with a 4xx, or taken as a valid filter`, async ({ api, ns }) => {
      const company = await make.company({ api, ns });
      const path = `/companies/${encodeURIComponent(String(company.id))}/activities`;
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'POST', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.post(path, c.body);
      await expectRefusedOrTaken(res, (taken) =>
        expect(taken, `the answer to ${c.label} that was taken${breaks(['COMPANY-4'])}`).toMatchContract(ActivityList),
      );
    }),
  );
}

test(
  ...rule(
    'WIRE-5',
    'POST /companies/{id}/activities with a null activity type, for a company with activities, is refused with a 4xx, or taken',
    async ({ api, profile }) => {
      // A filter is compared with each activity of the company: a company without activities never reaches that comparison.
      const fixture = profile.fixtures.company_with_activities;
      test.skip(!fixture, 'the profile names no company_with_activities (fixtures.company_with_activities)');
      const res = await api.post(`/companies/${encodeURIComponent(String(fixture!.company_id))}/activities`, { activity_types: [null] });
      await expectRefusedOrTaken(res, (taken) =>
        expect(taken, `the answer to a null activity type that was taken${breaks(['COMPANY-4'])}`).toMatchContract(ActivityList),
      );
    },
  ),
);
