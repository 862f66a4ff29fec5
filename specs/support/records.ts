/**
 * Helpers of the activity specs (spec § Companies → activities, § Activities): the listing of a
 * company's activities, and the activities of the profile's `company_with_activities`.
 */
import type { Activity } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { expect } from './fixtures/matchers.js';

/** `POST /companies/{id}/activities` filtered by `activity_types` (spec § Companies). */
export function postCompanyActivities(
  api: ApiClient,
  companyId: unknown,
  activityTypes: { id: unknown; category: string }[],
): Promise<ApiResponse<Activity[]>> {
  return api.post<Activity[]>(`/companies/${encodeURIComponent(String(companyId))}/activities`, { activity_types: activityTypes });
}

/**
 * The activities of the profile's `company_with_activities` (every listed type), sorted by id so
 * that tests can pick distinct ones (parallel tests updating different activities never collide).
 * Fails the test when the listing is refused or empty.
 */
export async function fixtureActivities(
  api: ApiClient,
  fixture: { company_id: unknown; activity_types: { id: unknown; category: string }[] },
): Promise<Activity[]> {
  const res = await postCompanyActivities(api, fixture.company_id, fixture.activity_types);
  expect(res, 'the activities of the fixture company are listed').not.toBeRefused();
  expect(Array.isArray(res.body) && res.body.length > 0, `the fixture company ${String(fixture.company_id)} has activities of the profile's types`).toBe(true);
  return [...res.body].sort((a, b) => String(a.id).localeCompare(String(b.id), 'en', { numeric: true }));
}

/**
 * An id of the same form as `id` that no record has (WIRE-6): a number far above it (a numeric
 * string stays a numeric string: "`entity_id` and `file_id` are numbers"), another string with a
 * suffix of the test's own. Ids are opaque: nothing says a neighbour of an id is free, a far one is.
 */
export function absentId(id: unknown, salt: string): number | string {
  const far = 1_000_000_000_000;
  if (typeof id === 'number') return id + far;
  const text = String(id);
  if (/^\d+$/.test(text)) return String(BigInt(text) + BigInt(far));
  return `${text}-absent-${salt}`;
}
