/**
 * spec § Errors (WIRE-5) for `PUT /activities/{id}`: malformed JSON and ill-typed members are never
 * answered with a 5xx or a dropped connection. The status of a refusal is not shown: any 4xx. A
 * server may also take the input leniently (open choice `errors.ill-typed-input`: a fractional
 * date as whole seconds, a number as its text): then the answer and the stored activity must be
 * valid Activities (ACT-2, ACT-1: an integer activity_date, a string details). Uses the last
 * activity of the profile's company (the updating tests use the first two).
 */
import { Activity } from '../../contracts/index.js';
import { fixtureActivities } from '../support/records.js';
import { breaks, expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';

const cases: { label: string; body?: unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"details": "unterminated",' },
  { label: 'an activity_date that is text', body: { activity_date: 'yesterday', details: 'ill-typed date' } },
  { label: 'an activity_date that is not a whole number of seconds', body: { activity_date: 1700000000.5, details: 'fractional date' } },
  { label: 'details that is a number', body: { activity_date: 1700000000, details: 42 } },
  { label: 'no body', raw: '' },
  { label: 'a JSON null body', raw: 'null' },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `PUT /activities/{id} with ${c.label} is refused with a 4xx, or taken as a valid Activity`, async ({ api, profile }) => {
      const fixture = profile.fixtures.company_with_activities;
      test.skip(!fixture, 'the profile names no company_with_activities');
      const list = await fixtureActivities(api, fixture!);
      const path = `/activities/${encodeURIComponent(String(list[list.length - 1].id))}`;
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'PUT', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.put(path, c.body);
      await expectRefusedOrTaken(res, async (taken) => {
        expect(taken, `the answer to ${c.label} that was taken${breaks(['ACT-2'])}`).toMatchContract(Activity);
        const stored = await api.get(path);
        expect(stored, `the activity stored from ${c.label}${breaks(['ACT-1'])}`).toMatchContract(Activity);
      });
    }),
  );
}
