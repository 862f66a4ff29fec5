/**
 * spec § Endpoints → Activities: `GET /activities/{activity_id}` answers an Activity;
 * `PUT /activities/{activity_id}` with `{ activity_date, details }` answers the updated Activity.
 *
 * The spec gives no way to create an Activity: the tests use the activities of the profile's
 * `company_with_activities`. Each updating test updates its own activity (by position in the
 * id-sorted list), and a PUT only sets values, so parallel tests and repeated runs never collide;
 * the old values are not restored.
 */
import { Activity } from '../../contracts/index.js';
import { REAL_TEXTS } from '../../generators/real-text.js';
import { fixtureActivities } from '../support/records.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { sameId } from '../support/make.js';

const NO_FIXTURE = 'the profile names no company_with_activities (fixtures.company_with_activities)';

/** A new activity_date: a whole number of seconds within the last day, different on each call. */
const newDate = () => Math.floor(Date.now() / 1000) - 3600 - Math.floor(Math.random() * 82_800);

test(
  ...rule('ACT-1', 'GET /activities/{id} answers the Activity listed for the company', async ({ api, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, NO_FIXTURE);
    const listed = (await fixtureActivities(api, fixture!))[0];
    const res = await api.get<Activity>(`/activities/${encodeURIComponent(String(listed.id))}`);
    expect(res).toHaveStatus(200);
    expectJson(res);
    expect(res).toMatchContract(Activity);
    expect(sameId(res.body.id, listed.id), `id ${String(listed.id)}`).toBe(true);
    expect(sameId(res.body.parent.id, listed.parent.id) && res.body.parent.type === listed.parent.type, 'the parent agrees with the company listing').toBe(
      true,
    );
    expect(sameId(res.body.type.id, listed.type.id) && res.body.type.category === listed.type.category, 'the type agrees with the company listing').toBe(true);
  }),
);

test(
  ...rule('ACT-2', 'PUT /activities/{id} with activity_date and details answers the Activity with those values', async ({ api, ns, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, NO_FIXTURE);
    const target = (await fixtureActivities(api, fixture!))[0];
    const sent = { activity_date: newDate(), details: ns.name('activity details (ACT-2)') };
    const res = await api.put<Activity>(`/activities/${encodeURIComponent(String(target.id))}`, sent);
    expect(res).not.toBeRefused();
    expectJson(res);
    expect(res).toMatchContract(Activity);
    expect(sameId(res.body.id, target.id), `the answer is activity ${String(target.id)}`).toBe(true);
    expect(res.body.activity_date, 'activity_date of the answer').toBe(sent.activity_date);
    expect(res.body.details, 'details of the answer').toBe(sent.details);
  }),
);

test(
  ...rule('ACT-3', 'an activity update, details outside ASCII included, is visible on a later GET /activities/{id}', async ({ api, ns, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, NO_FIXTURE);
    const list = await fixtureActivities(api, fixture!);
    const target = list[1 % list.length];
    // Details as real users write them (letters outside ASCII, a character beyond the BMP): stored as sent.
    const sent = { activity_date: newDate(), details: `${ns.name('activity details (ACT-3)')} ${REAL_TEXTS.join(' / ')}` };
    const put = await api.put<Activity>(`/activities/${encodeURIComponent(String(target.id))}`, sent);
    expect(put).not.toBeRefused();
    const res = await api.get<Activity>(`/activities/${encodeURIComponent(String(target.id))}`);
    expect(res).toHaveStatus(200);
    expect(res).toMatchContract(Activity);
    expect(res.body.activity_date, 'activity_date after the update').toBe(sent.activity_date);
    expect(res.body.details, 'details after the update').toBe(sent.details);
  }),
);
