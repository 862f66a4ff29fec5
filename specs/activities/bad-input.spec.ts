/**
 * spec § Errors (WIRE-5) for `PUT /activities/{id}`: malformed JSON and ill-typed members are
 * refused with a 4xx, never a 5xx. The status is not shown. Uses the last activity of the
 * profile's company (the updating tests use the first two); a conformant target changes nothing.
 */
import { fixtureActivities } from '../support/records.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const cases: { label: string; body?: unknown; raw?: string }[] = [
  { label: 'a malformed JSON body', raw: '{"details": "unterminated",' },
  { label: 'an activity_date that is text', body: { activity_date: 'yesterday', details: 'ill-typed date' } },
  { label: 'an activity_date that is not a whole number of seconds', body: { activity_date: 1700000000.5, details: 'fractional date' } },
  { label: 'details that is a number', body: { activity_date: 1700000000, details: 42 } },
];

for (const c of cases) {
  test(
    ...rule('WIRE-5', `PUT /activities/{id} with ${c.label} is refused with a 4xx`, async ({ api, profile }) => {
      const fixture = profile.fixtures.company_with_activities;
      test.skip(!fixture, 'the profile names no company_with_activities');
      const list = await fixtureActivities(api, fixture!);
      const path = `/activities/${encodeURIComponent(String(list[list.length - 1].id))}`;
      const res =
        c.raw !== undefined
          ? await api.send({ method: 'PUT', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
          : await api.put(path, c.body);
      expect(res).toBeClientError();
    }),
  );
}
