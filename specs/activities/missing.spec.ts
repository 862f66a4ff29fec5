/**
 * spec § Errors (WIRE-6) for `GET /activities/{activity_id}`: "Status codes for missing records …
 * not shown." The status is open, but a 2xx says the record is there (RFC 9110 §15.3): a fetch of
 * an id no Activity has is refused (any 4xx; a 5xx or no answer is no refusal).
 *
 * The spec gives no way to create or delete an Activity: the id is one of the form of the profile
 * company's first activity, far from it (specs/support/records.ts, `absentId`).
 */
import { expect, rule, test } from '../support/fixtures/test.js';
import { absentId, fixtureActivities } from '../support/records.js';

test(
  ...rule('WIRE-6', 'GET /activities/{id} of an id no Activity has is refused, not answered 2xx', async ({ api, ns, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, 'the profile names no company_with_activities (fixtures.company_with_activities)');
    const known = (await fixtureActivities(api, fixture!))[0];
    const id = absentId(known.id, ns.id);
    const res = await api.get(`/activities/${encodeURIComponent(String(id))}`);
    expect(res, `no Activity has id ${String(id)} (a listed one has ${String(known.id)}): a 2xx would say it exists`).toBeRefused();
  }),
);
