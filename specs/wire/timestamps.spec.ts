/**
 * spec § What the service does: "Timestamps are Unix time in seconds (integers)."
 *
 * A timestamp the server stamps now (date_created, date_modified of a new record) must be an
 * integer close to the client's clock in seconds; a day of clock skew is tolerated, which still
 * tells seconds (≈1.7e9) from milliseconds (≈1.7e12). Stored timestamps (activities, file
 * metadata) must be integers of a plausible size in seconds.
 */
import { fixtureActivities } from '../support/records.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { make } from '../support/make.js';

const DAY = 86_400;
const MAX_SECONDS = 9_999_999_999;

function expectNow(value: unknown, what: string): void {
  const now = Math.floor(Date.now() / 1000);
  expect(Number.isInteger(value), `${what} is an integer: ${JSON.stringify(value)}`).toBe(true);
  expect(
    Math.abs((value as number) - now),
    `${what} = ${JSON.stringify(value)} is Unix time in seconds near now (${now}); milliseconds would be ~1000× larger`,
  ).toBeLessThanOrEqual(DAY);
}

function expectSeconds(value: unknown, what: string): void {
  expect(Number.isInteger(value), `${what} is an integer: ${JSON.stringify(value)}`).toBe(true);
  expect(value as number, `${what} = ${JSON.stringify(value)} is Unix time in seconds, not milliseconds`).toBeLessThanOrEqual(MAX_SECONDS);
  expect(value as number, `${what} = ${JSON.stringify(value)} is after 1970`).toBeGreaterThan(0);
}

test(
  ...rule('WIRE-2', 'date_created and date_modified of a new Person and a new Company are integer seconds near now', async ({ api, ns }) => {
    const person = await make.person({ api, ns });
    expectNow(person.date_created, 'Person.date_created');
    expectNow(person.date_modified, 'Person.date_modified');
    const company = await make.company({ api, ns });
    expectNow(company.date_created, 'Company.date_created');
    expectNow(company.date_modified, 'Company.date_modified');
  }),
);

test(
  ...rule('WIRE-2', 'the created_at of a new webhook subscription is integer seconds near now', async ({ hooks, ns }) => {
    const created = await hooks.subscribe(hooks.channel('created-at'), { type: 'project', event: 'new', secret: { conformance_key: `k-${ns.id}` } });
    // An absent created_at is the subscription's own rule's (HOOK-1); a present one is judged here.
    expect(created.created_at !== undefined, `the subscription carries a created_at${breaks(['HOOK-1'])}`).toBe(true);
    expectNow(created.created_at, 'WebhookSubscription.created_at');
  }),
);

test(
  ...rule('WIRE-2', "the timestamps of the profile company's activities are integer seconds", async ({ api, profile }) => {
    const fixture = profile.fixtures.company_with_activities;
    test.skip(!fixture, 'the profile names no company_with_activities');
    for (const a of await fixtureActivities(api, fixture!)) {
      for (const field of ['activity_date', 'date_created', 'date_modified'] as const) expectSeconds(a[field], `activity ${String(a.id)}: ${field}`);
    }
  }),
);

test(
  ...rule('WIRE-2', "the timestamps of the profile's attached file metadata are integer seconds", async ({ api, profile }) => {
    const file = profile.fixtures.attached_file;
    test.skip(!file, 'the profile names no attached_file');
    const res = await api.get<Record<string, unknown>>(`/${file!.entity_type}/${file!.entity_id}/files/${file!.file_id}`);
    expect(res).toHaveStatus(200);
    for (const field of ['date_created', 'date_modified']) expectSeconds(res.body[field], `file ${file!.file_id}: ${field}`);
  }),
);
