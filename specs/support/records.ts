/**
 * Helpers of the activity specs (spec § Companies → activities, § Activities): the listing of a
 * company's activities, and the activities of the profile's `company_with_activities`; and the
 * comparison of a record as a create answered it with the same record as a later read answers it
 * (stored as answered: PROJ-6, UPSERT-14, COMPANY-2, HOOK-7, TSEARCH-8); an ill-typed create
 * (WIRE-5), and an address sent without a country (PEOPLE-2, COMPANY-1).
 */
import type { Activity, TargetProfile } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { expect } from './fixtures/matchers.js';
import type { Namespace } from './fixtures/namespace.js';

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

/* ---------------- stored as answered ---------------- */

/**
 * Custom field values of every kind the profile names and records of `kind` take (an empty
 * `available_on` counts as all): a text (free text outside ASCII), a dropdown option, two
 * multi-select options (in the order opposite to the options').
 */
export function customFieldValues(profile: TargetProfile, kind: string, text: string): { custom_field_definition_id: unknown; value: unknown }[] {
  const { text: textField, dropdown, multi_select: multi } = profile.fixtures.custom_fields;
  const usable = (d: { available_on: string[] } | undefined) => !!d && (d.available_on.length === 0 || d.available_on.includes(kind));
  return [
    ...(usable(textField) ? [{ custom_field_definition_id: textField!.id, value: text }] : []),
    ...(usable(dropdown) && dropdown!.options.length ? [{ custom_field_definition_id: dropdown!.id, value: dropdown!.options[0].id }] : []),
    ...(usable(multi) && multi!.options.length > 1 ? [{ custom_field_definition_id: multi!.id, value: [multi!.options[1].id, multi!.options[0].id] }] : []),
  ];
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown) => (JSON.stringify(v) ?? 'undefined').slice(0, 300);

/**
 * A value where what the spec leaves open does not count: every list in any order (tags, entry
 * lists: the spec fixes no order), an object's keys in any order, identifiers (`id`, `…_id`) whatever
 * their JSON type.
 */
function canonical(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => JSON.stringify(canonical(x))).sort();
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k], k)]),
    );
  if (/(^|_)id$/.test(key) && (typeof v === 'number' || typeof v === 'string')) return String(v);
  return v;
}

/**
 * Custom field values by definition id, in a form where what the spec leaves open does not count:
 * a value without a value (null, []) is absent (a server may list every definition or only those
 * set), the options of a multi-select in any order, and with the profile's dropdown and
 * multi-select definitions option ids as their names (one endpoint computes values, the other need not).
 */
function customValues(list: unknown, profile?: TargetProfile): string {
  const { dropdown, multi_select: multi } = profile?.fixtures.custom_fields ?? {};
  const names = new Map<string, Map<string, string>>();
  for (const d of [dropdown, multi]) if (d) names.set(String(d.id), new Map(d.options.map((o) => [String(o.id), o.name])));
  const out: Record<string, unknown> = {};
  for (const c of Array.isArray(list) ? list : []) {
    if (!isObj(c)) continue;
    const def = String(c.custom_field_definition_id);
    const opts = names.get(def);
    const named = (x: unknown) => (opts && (typeof x === 'number' || typeof x === 'string') ? (opts.get(String(x)) ?? x) : x);
    const value = Array.isArray(c.value) ? c.value.map(named) : named(c.value);
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    out[def] = canonical(value);
  }
  return JSON.stringify(canonical(out));
}

/**
 * What a later read of a record answers otherwise than its create did: every member the create
 * answered must come back with the same value, but for what a read may present otherwise:
 * `date_modified` may be later (never earlier), lists in any order, custom field values as
 * {@link customValues} reads them. Members only the read has are not judged (an open choice may add
 * one: a task's custom_activity_type_id). `skip`: members the caller leaves out. Empty: the same.
 */
export function storedDifferences(answered: unknown, read: unknown, o: { profile?: TargetProfile; skip?: string[] } = {}): string[] {
  if (!isObj(answered)) return [];
  if (!isObj(read)) return [`the read answers ${show(read)}, no record`];
  const out: string[] = [];
  for (const [k, v] of Object.entries(answered)) {
    if (o.skip?.includes(k)) continue;
    if (!(k in read)) {
      out.push(`${k}: the create answered ${show(v)}; the read leaves it out`);
      continue;
    }
    const r = read[k];
    if (k === 'date_modified' && typeof v === 'number' && typeof r === 'number') {
      if (r < v) out.push(`date_modified: the read answers ${r}, earlier than the ${v} the create answered`);
      continue;
    }
    const same =
      k === 'custom_fields' ? customValues(v, o.profile) === customValues(r, o.profile) : JSON.stringify(canonical(v, k)) === JSON.stringify(canonical(r, k));
    if (!same) out.push(`${k}: the create answered ${show(v)}, the read answers ${show(r)}`);
  }
  return out;
}

/** One ill-typed request of the WIRE-5 specs: a raw body sent as JSON, or a body made in the test's namespace. */
export interface IllTyped {
  label: string;
  body?: (ns: Namespace) => unknown;
  raw?: string;
}

/** Sends `c` to `POST path` (spec § Errors, WIRE-5): its raw text as an application/json body, or its body. */
export function postIllTyped(api: ApiClient, path: string, c: IllTyped, ns: Namespace): Promise<ApiResponse> {
  return c.raw !== undefined
    ? api.send({ method: 'POST', path, rawBody: c.raw, headers: { 'Content-Type': 'application/json' } })
    : api.post(path, c.body!(ns));
}

/**
 * The address a create answered for one sent with `country` null or empty ("`country` may be null
 * or empty"): its other members as sent, its country null or empty either way (records.address-country).
 */
export function expectAddressWithoutCountry(answered: unknown, sent: Record<string, unknown>): void {
  const { country: got, ...rest } = (answered ?? {}) as Record<string, unknown>;
  const { country, ...others } = sent;
  expect(rest, `the address sent with country ${JSON.stringify(country)}: its other members`).toMatchObject(others);
  expect([null, ''], 'its country (null or empty either way: records.address-country)').toContain(got ?? null);
}

/** An entry list (emails, phone numbers, socials, websites) as sorted "value (category)" texts, to compare in any order. */
export const entryTexts = (list: unknown, key: 'email' | 'number' | 'url'): string[] =>
  (Array.isArray(list) ? list : []).map((e: Record<string, unknown>) => `${String(e?.[key])} (${String(e?.category)})`).sort();
