/**
 * Shared create helpers for People and Companies (spec § People, § Companies). Every record
 * carries the test's namespace tags (`ns.tags`) and a name from `ns.name(…)`, so records of
 * parallel tests and runs never collide and can be found again.
 *
 *     const person = await createPerson(api, ns, { emails: [{ email: 'a@example.com', category: 'work' }] });
 *     const res = await postCompany(api, ns, { email_domain: 'example.com' });   // the raw answer, for tests that judge it
 */
import type { Activity, Company, Person } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { expect, isAccepted, type Namespace } from './fixtures/test.js';

type Body = Record<string, unknown>;

/** `base` with the namespace's name and tags; `overrides.tags` are added to `ns.tags`. */
export function recordBody(ns: Namespace, label: string, overrides: Body = {}): Body {
  const extraTags = Array.isArray(overrides.tags) ? (overrides.tags as unknown[]) : [];
  return { name: ns.name(label), ...overrides, tags: [...ns.tags, ...extraTags.filter((t) => !ns.tags.includes(t as string))] };
}

/** The body of a Person create: a namespaced name, `ns.tags`, and the overrides. */
export const personBody = (ns: Namespace, overrides: Body = {}): Body => recordBody(ns, 'person', overrides);
/** The body of a Company create: a namespaced name, `ns.tags`, and the overrides. */
export const companyBody = (ns: Namespace, overrides: Body = {}): Body => recordBody(ns, 'company', overrides);

/** `POST /people` with {@link personBody}; the answer as is. */
export function postPerson(api: ApiClient, ns: Namespace, overrides: Body = {}): Promise<ApiResponse<Person>> {
  return api.post<Person>('/people', personBody(ns, overrides));
}

/** `POST /companies` with {@link companyBody}; the answer as is. */
export function postCompany(api: ApiClient, ns: Namespace, overrides: Body = {}): Promise<ApiResponse<Company>> {
  return api.post<Company>('/companies', companyBody(ns, overrides));
}

/** Checks a create was accepted (the spec shows no status: any 2xx) and answered an object with an id. */
export function expectCreated(res: ApiResponse, what: string): void {
  const body = res.body as { id?: unknown } | undefined;
  const hasId = body !== null && typeof body === 'object' && body.id !== undefined && body.id !== null;
  if (isAccepted(res) && hasId) return;
  expect(res, `${what} is created (2xx)`).not.toBeRefused();
  expect(hasId, `the answer to the ${what} create carries an id`).toBe(true);
}

/** Creates a Person (name from `ns`, `ns.tags`) and returns it; fails the test when the create is refused. */
export async function createPerson(api: ApiClient, ns: Namespace, overrides: Body = {}): Promise<Person> {
  const res = await postPerson(api, ns, overrides);
  expectCreated(res, 'Person');
  return res.body;
}

/** Creates a Company (name from `ns`, `ns.tags`) and returns it; fails the test when the create is refused. */
export async function createCompany(api: ApiClient, ns: Namespace, overrides: Body = {}): Promise<Company> {
  const res = await postCompany(api, ns, overrides);
  expectCreated(res, 'Company');
  return res.body;
}

/** Same identifier, whatever its JSON type (the spec does not fix the id format). */
export const sameId = (a: unknown, b: unknown): boolean => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

/** `POST /companies/{id}/activities` filtered by `activity_types` (spec § Companies). */
export function postCompanyActivities(api: ApiClient, companyId: unknown, activityTypes: { id: unknown; category: string }[]): Promise<ApiResponse<Activity[]>> {
  return api.post<Activity[]>(`/companies/${encodeURIComponent(String(companyId))}/activities`, { activity_types: activityTypes });
}

/**
 * The activities of the profile's `company_with_activities` (every listed type), sorted by id so
 * that tests can pick distinct ones (parallel tests updating different activities never collide).
 * Fails the test when the listing is refused or empty.
 */
export async function fixtureActivities(api: ApiClient, fixture: { company_id: unknown; activity_types: { id: unknown; category: string }[] }): Promise<Activity[]> {
  const res = await postCompanyActivities(api, fixture.company_id, fixture.activity_types);
  expect(res, 'the activities of the fixture company are listed').not.toBeRefused();
  expect(Array.isArray(res.body) && res.body.length > 0, `the fixture company ${String(fixture.company_id)} has activities of the profile's types`).toBe(true);
  return [...res.body].sort((a, b) => String(a.id).localeCompare(String(b.id), 'en', { numeric: true }));
}
