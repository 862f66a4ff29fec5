/**
 * Activities (spec § Activities): `GET /activities/{activity_id}`, `PUT /activities/{activity_id}`.
 *
 * The spec gives no way to create an Activity, so they are seeded: company 401 (the profile's
 * `company_with_activities`) has several user activities of types 1 and 2, one of type 3 and a
 * system activity; company 402 has a few more. Seeded ids stay below 1000 (the store's first id).
 *
 * An ill-typed member is refused with a 4xx. Open choices (rules/choices.json): whether
 * `PUT` requires both `activity_date` and `details` (`activities.update-members`), and whether
 * empty details are answered as null (`activities.empty-details`), the status for an unknown
 * activity (`records.missing-status`).
 * Faults: reference/faults/activities.ts.
 */
import type { App, AreaModule } from '../app.js';
import { C, present, type Rec } from '../model.js';
import { idParam, invalid, lenient, missing } from './common.js';
import { FIXTURES } from '../profile.js';
import { nowSeconds } from '../store.js';

/** A second seeded company, with activities of its own (not in the profile). */
export const NEIGHBOUR_COMPANY_ID = 402;

const [first, second] = FIXTURES.company_with_activities.activity_types;

/** Activity types: the two of the profile's company with activities, and two more. */
export const ACTIVITY_TYPES = {
  note: { id: first.id, category: first.category },
  call: { id: second.id, category: second.category },
  meeting: { id: 3, category: 'user' },
  status_change: { id: 5, category: 'system' },
} as const;

const DAY = 86_400;

/** Seeds the activities of the profile's company with activities (401) and of its neighbour (402). */
export function seedActivities(app: App): void {
  const c = app.store.collection<Rec>(C.activities);
  const [me, colleague] = FIXTURES.users.map((u) => u.id);
  const company = FIXTURES.company_with_activities.company_id;
  const add = (
    id: number,
    parent: number,
    type: { id: number; category: string },
    daysAgo: number,
    details: string,
    user = me,
    values: [unknown, unknown] = [null, null],
  ) => {
    // Stryker disable next-line ArithmeticOperator: seed data (when a seeded activity happened is the account's; no rule fixes it)
    const when = app.at('clock.now', nowSeconds() - daysAgo * DAY, undefined); // a past moment of the server's clock
    c.insert({
      id,
      parent: { id: parent, type: 'company' },
      type: { ...type },
      user_id: user,
      details,
      activity_date: when,
      old_value: values[0],
      new_value: values[1],
      date_created: when,
      date_modified: when,
    });
  };
  // Stryker disable StringLiteral,ArrayDeclaration,CallExpression: seed data (an account's activities, their details and values, are its own)
  add(411, company, ACTIVITY_TYPES.note, 30, 'Kick-off notes');
  add(412, company, ACTIVITY_TYPES.note, 21, 'Follow-up notes', colleague);
  add(413, company, ACTIVITY_TYPES.note, 7, 'Pricing remarks');
  add(414, company, ACTIVITY_TYPES.call, 28, 'Intro call');
  add(415, company, ACTIVITY_TYPES.call, 14, 'Call with procurement', colleague);
  add(416, company, ACTIVITY_TYPES.call, 3, 'Renewal call');
  add(417, company, ACTIVITY_TYPES.meeting, 10, 'On-site meeting');
  add(418, company, ACTIVITY_TYPES.status_change, 2, 'Status changed', me, ['Prospect', 'Customer']);
  add(421, NEIGHBOUR_COMPANY_ID, ACTIVITY_TYPES.note, 5, 'Other company notes');
  add(422, NEIGHBOUR_COMPANY_ID, ACTIVITY_TYPES.call, 4, 'Other company call');
}

// Stryker restore StringLiteral,ArrayDeclaration,CallExpression
/**
 * An Activity as sent (§ Activity lists date_created and date_modified);
 * details "" as null under `activities.empty-details` = null.
 */
export function presentActivity(app: App, rec: Rec): Record<string, unknown> {
  const out = present(app, rec);
  // Stryker disable next-line all: the test of open choice activities.empty-details (kept or null; either way conformant)
  if (out.details === '' && app.choice('activities.empty-details') === 'null') out.details = null;
  return out;
}

export const activities: AreaModule = {
  name: 'activities',
  seed: seedActivities,
  api(router, app) {
    const c = app.store.collection<Rec>(C.activities);
    router.add('GET', '/activities/{activity_id}', (ctx) => {
      const rec = c.get(idParam(ctx.params.activity_id, 'activity_id')) ?? missing(app, 'activity');
      return presentActivity(app, rec);
    });
    router.add('PUT', '/activities/{activity_id}', async (ctx) => {
      const rec = c.get(idParam(ctx.params.activity_id, 'activity_id')) ?? missing(app, 'activity');
      const b = ctx.body;
      // A body that is no object: refused (WIRE-5). A primitive has no members and would be refused below anyway.
      if (!b || Array.isArray(b)) return invalid(app, 'the body must be a JSON object');
      let { activity_date: date, details } = b as Record<string, unknown>;
      // Stryker disable next-line all: the lenient alternative of errors.ill-typed-input (its coercions: under the default nothing is coerced)
      if (lenient(app) && typeof date === 'number' && Number.isFinite(date)) date = Math.floor(date);
      // Stryker disable next-line all: the same; made true, an absent details reads "undefined", which takes a PUT the default would
      // refuse: activities.update-members' other alternative, with details the spec does not fix for a PUT without them
      if (lenient(app) && typeof details === 'number') details = String(details);
      // The `!== undefined` terms made true are equivalent under the default both-required (both members are always sent; the
      // other alternative tells). Made false as a whole, an ill-typed member is stored, which WIRE-5 catches at standard (checked
      // by StrykerJS's standard pass): StrykerJS disables both or neither.
      // Stryker disable next-line ConditionalExpression: a `!== undefined` term made true (above)
      if (date !== undefined && !(typeof date === 'number' && Number.isInteger(date)))
        invalid(app, 'activity_date must be a Unix timestamp in seconds', 'activity_date');
      // Stryker disable next-line ConditionalExpression: the same
      if (details !== undefined && typeof details !== 'string') invalid(app, 'details must be a string', 'details');
      // Stryker disable next-line BlockStatement: loosened, a PUT with one member is taken: the other alternative of activities.update-members
      if (app.choice('activities.update-members') === 'both-required') {
        // Stryker disable next-line all: the same (both required, or either)
        if (date === undefined || details === undefined) invalid(app, 'activity_date and details are required');
      } else if (date === undefined && details === undefined) invalid(app, 'activity_date or details is required');
      // Stryker disable next-line ObjectLiteral: what an update does to date_modified is not stated (§ Activity: a timestamp only; no rule judges it)
      const patch: Partial<Rec> = { date_modified: app.now() };
      // Stryker disable next-line ConditionalExpression: under the default both-required both members are there (the other alternative sends one)
      if (date !== undefined) patch.activity_date = date;
      // Stryker disable next-line ConditionalExpression: the same
      if (details !== undefined) patch.details = details;
      const change = app.at('activities.update.patch', patch, { rec });
      // Stryker disable next-line ObjectLiteral: the same
      const updated = await app.seam('activities.update', { rec, patch: change }, () => c.update(rec.id, change)!);
      return presentActivity(app, updated);
    });
  },
};
