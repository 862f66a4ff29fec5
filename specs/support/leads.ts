/**
 * Helpers of the lead upsert and lead conversion specs (spec § Lead upsert, § Lead conversion):
 * upsert and convert calls, match criteria, checks of ambiguous answers and computed custom field
 * values, and truly concurrent requests (undici). Leads are created by make.lead (make.ts).
 */
import { Pool } from 'undici';
import { Lead, idsInBody, leakedIds, namesId } from '../../contracts/index.js';
import type { CustomFieldFixture, TargetProfile } from '../../contracts/profile.js';
import { retryAfterMs, type ApiClient, type ApiResponse } from './core/http.js';
import { inPool } from './core/pool.js';
import { breaks } from './core/attribution.js';
import { answerOf, describeExchange, noteBodyCheck } from './core/recorder.js';
import { conforms, expect, isAccepted } from './fixtures/matchers.js';
import type { Namespace } from './fixtures/namespace.js';
import { make, sameId } from './make.js';

export const UPSERT_PATH = '/leads/upsert';
export const convertPath = (leadId: unknown) => `/leads/${encodeURIComponent(String(leadId))}/convert`;

export type Match = { field_name: string; field_value: unknown };
type Body = Record<string, unknown>;

export const byName = (name: string): Match => ({ field_name: 'name', field_value: name });
export const byEmail = (email: string): Match => ({ field_name: 'email', field_value: email });

/** The rule that makes a match criterion of `match`: name UPSERT-7, e-mail UPSERT-8, a custom field UPSERT-9. */
export const criterionRule = (match: Match): string => (match.field_name === 'name' ? 'UPSERT-7' : match.field_name === 'email' ? 'UPSERT-8' : 'UPSERT-9');

/**
 * The rules an upsert matching one Lead rests on: one match updates that Lead (UPSERT-3), and its
 * criterion matches (UPSERT-7/8/9). A test of another rule that needs such an update names them
 * when it does not happen ([breaks …]): it is then blocked by them (reporting/blame.ts).
 */
export const updateRules = (match: Match): string[] => ['UPSERT-3', criterionRule(match)];

/**
 * Creates `count` Leads sharing `name` (each matched on its own unique e-mail so that it is
 * created), 8 at a time: their order does not matter, and one after the other a target slow to
 * create (upsert-not-atomic) made the crowd a long wait.
 */
export const leadsNamed = (api: ApiClient, ns: Namespace, name: string, count: number, label = 'same'): Promise<Lead[]> =>
  inPool(
    Array.from({ length: count }, (_, i) => `${label}-${i}`),
    8,
    (l) => make.lead({ api, ns }, { name }, l),
  );

/** The profile's Lead custom field usable for matching, or undefined. */
export function leadMatchField(profile: TargetProfile): { definitionId: string | number; fieldName: string } | undefined {
  const f = profile.fixtures.lead_match_field;
  return f ? { definitionId: f.definition_id, fieldName: f.match_field_name } : undefined;
}

/** A profile custom field fixture available on `entity` (an empty `available_on` counts as unknown). */
export function customFieldOn(fixture: CustomFieldFixture | undefined, entity: string): CustomFieldFixture | undefined {
  return fixture && fixture.available_on.includes(entity) && fixture.options.length > 0 ? fixture : undefined;
}

export function upsert(api: ApiClient, properties: Body, match: Match): Promise<ApiResponse<Lead>> {
  return api.put<Lead>(UPSERT_PATH, { properties, match });
}

/**
 * Checks a successful upsert: 2xx (the spec shows no status) and a Lead. `rules`: the rules the
 * step rests on when it is a step of another rule's test (a create: UPSERT-2; an update:
 * {@link updateRules}), named by its failure.
 */
export function expectLead(res: ApiResponse, what: string, rules: string[] = []): Lead {
  // Quick checks first (see conforms in fixtures/matchers.ts): tests create dozens of Leads.
  if (!isAccepted(res) || !conforms(res, Lead)) {
    expect(res, `${what}: the upsert succeeds${breaks(rules)}`).not.toBeRefused();
    // What a successful upsert answers is UPSERT-11's, whatever the step rests on.
    expect(res, `${what}: the upsert answers a Lead${breaks(['UPSERT-11', ...rules])}`).toMatchContract(Lead);
  }
  return res.body as Lead;
}

/** Checks that an upsert matching one Lead answered that Lead (a step resting on {@link updateRules}). */
export function expectSameLead(got: Lead, expected: unknown, match: Match, what: string, also: string[] = []): void {
  // For the replay script: which Lead the answer should have been.
  const answer = answerOf(got);
  if (answer?.whole && !sameId(got.id, expected))
    noteBodyCheck({ exchanges: answer.exchanges, expect: { kind: 'id', equals: String(expected) }, label: `the upsert answers Lead ${String(expected)}` });
  expect(
    sameId(got.id, expected),
    `${what}: the upsert matching ${match.field_name} = ${JSON.stringify(match.field_value)} answers Lead ${String(expected)}, got ${String(got.id)}${breaks([...also, ...updateRules(match)])}`,
  ).toBe(true);
}

/**
 * Reads a Lead through the spec's endpoints: an upsert with empty properties that matches it. With
 * `expected`, checks it is that Lead; a failure names the rules the read rests on ({@link updateRules}).
 */
export async function readLead(api: ApiClient, match: Match, expected?: unknown, also: string[] = []): Promise<Lead> {
  const what = `reading the Lead matching ${match.field_name} = ${JSON.stringify(match.field_value)} (upsert with empty properties)`;
  // A read by an empty upsert rests on it leaving the Lead as it was (UPSERT-12).
  const rests = [...also, 'UPSERT-12'];
  const lead = expectLead(await upsert(api, {}, match), what, [...rests, ...updateRules(match)]);
  if (expected !== undefined) expectSameLead(lead, expected, match, what, rests);
  return lead;
}

/**
 * 422 naming every id of `ids` (anywhere in the body: its shape is not shown). `rules`: named by a
 * failure when the 422 is a step of another rule's test (UPSERT-4 and the criterion's rule).
 */
export function expectAmbiguous(res: ApiResponse, ids: unknown[], rules: string[] = []): void {
  expect(res, `${ids.length} matching Leads answer 422${breaks(rules)}`).toHaveStatus(422);
  const found = idsInBody(res.body);
  const missing = ids.map(String).filter((id) => !namesId(res.body, id, found));
  expect(missing, `the 422 carries the ids of all ${ids.length} matching Leads${breaks(rules)}\n${describeExchange(res.exchange)}`).toEqual([]);
}

/** 422 naming none of `ids`. `rules`: named by a failure when the test judges other rules too. */
export function expectWithoutIds(res: ApiResponse, ids: unknown[], rules: string[] = []): void {
  expect(res, `${ids.length} matching Leads answer 422${breaks(rules)}`).toHaveStatus(422);
  const leaked = leakedIds(res.body, ids, res.status);
  expect(leaked, `the 422 carries none of the ids of the ${ids.length} matching Leads${breaks(rules)}\n${describeExchange(res.exchange)}`).toEqual([]);
}

type CfValue = { custom_field_definition_id?: unknown; value?: unknown };

/**
 * Problems of computed custom field values: every value of the profile's dropdown and
 * multi-select definitions must be option names (or null/[]), never option ids.
 */
export function computedValueProblems(fields: unknown, profile: TargetProfile, where: string): { problems: string[]; seen: number } {
  const problems: string[] = [];
  let seen = 0;
  const list = Array.isArray(fields) ? (fields as CfValue[]) : [];
  const { dropdown, multi_select: multi } = profile.fixtures.custom_fields;
  for (const f of list) {
    if (dropdown && sameId(f.custom_field_definition_id, dropdown.id)) {
      if (f.value === null || f.value === undefined) continue;
      seen++;
      const names = dropdown.options.map((o) => o.name);
      if (typeof f.value !== 'string' || !names.includes(f.value))
        problems.push(`${where}: dropdown ${String(dropdown.id)} has ${JSON.stringify(f.value)}, expected one of the option names ${JSON.stringify(names)}`);
    }
    if (multi && sameId(f.custom_field_definition_id, multi.id)) {
      if (f.value === null || f.value === undefined || (Array.isArray(f.value) && f.value.length === 0)) continue;
      seen++;
      const names = multi.options.map((o) => o.name);
      if (!Array.isArray(f.value) || f.value.some((v) => typeof v !== 'string' || !names.includes(v)))
        problems.push(`${where}: multi-select ${String(multi.id)} has ${JSON.stringify(f.value)}, expected option names from ${JSON.stringify(names)}`);
    }
  }
  return { problems, seen };
}

/** The value of one custom field in a record's custom_fields. */
export function customValue(record: unknown, definitionId: unknown): unknown {
  const list = (record as { custom_fields?: CfValue[] } | null)?.custom_fields;
  return Array.isArray(list) ? list.find((c) => sameId(c.custom_field_definition_id, definitionId))?.value : undefined;
}

export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * Sends `requests` truly concurrently: one undici Pool with a connection per request, every
 * connection opened (and proven usable by a GET /account) before the race, then all requests
 * dispatched in the same tick through the API client (so content codings are decoded and the
 * exchanges recorded like every other), all in flight at once.
 */
export async function concurrently(api: ApiClient, requests: RawRequest[]): Promise<ApiResponse[]> {
  const pool = new Pool(new URL(api.cfg.apiUrl).origin, { connections: requests.length, pipelining: 1, connect: { rejectUnauthorized: false } });
  try {
    // A race refused whole by a rate limit (every answer 429: nothing happened) is run again once
    // Retry-After has passed, a few times at most; a race partly refused is judged as it is.
    for (let attempt = 0; ; attempt++) {
      // The warm-up honours 429 (the client's gate waits); the race itself must not be spread out.
      await Promise.all(requests.map(() => api.send({ method: 'GET', path: '/account', dispatcher: pool, unrecorded: true })));
      const answers = await Promise.all(requests.map((r) => api.send({ method: r.method, path: r.path, body: r.body, dispatcher: pool, honour429: false })));
      if (attempt >= 3 || !answers.every((a) => a.status === 429)) return answers;
      const wait = Math.max(...answers.map((a) => retryAfterMs(a.headers['retry-after']) ?? 1000));
      await new Promise((r) => setTimeout(r, Math.min(Math.max(wait, 100), 10_000)));
    }
  } finally {
    await pool.close();
  }
}
