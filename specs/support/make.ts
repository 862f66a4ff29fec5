/**
 * The one record factory: `make.person|company|lead|project|task|opportunity(ctx, overrides)`.
 * Every record carries the test's namespace tags (`ns.tags`, plus `overrides.tags`) and a name
 * from `ns.name(…)`, so records of parallel tests and runs never collide and can be found again.
 * A default name goes on as real users write names (generators/real-text.ts: outside ASCII,
 * combining marks, beyond the BMP, spaces), one after the other: the namespaced part before it
 * keeps it out of any order, and what a server does to such names is seen wherever a record is made.
 * Each fails the test when the create is refused or answers no record (any 2xx with an id: the
 * spec shows no status for a create); `post.*` gives the raw answer, for tests that judge it.
 *
 *     const person = await make.person({ api, ns }, { emails: [{ email: 'a@example.com', category: 'work' }] });
 *     const res = await post.company({ api, ns }, { email_domain: 'example.com' });
 *
 * Projects are created through the spec's POST /projects, Leads by an upsert that matches
 * nothing (their own unique e-mail), Opportunities by the spec's bulk create (within the run-wide
 * bulk limit), Tasks through the profile's documented extension (the spec gives no way).
 */
import type { Company, Identifier, Lead, Person, Pipeline, TargetProfile } from '../../contracts/index.js';
import { Lead as LeadContract, Project, Task } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from './core/http.js';
import { bulkCreate } from './core/rate-limit.js';
import { breaks, NotJudgedError } from './core/attribution.js';
import { conforms, expect, isAccepted, wireRulesOf } from './fixtures/matchers.js';
import type { Namespace } from './fixtures/namespace.js';
import { REAL_NAMES } from '../../generators/real-text.js';

/** The raw bulk create (on the bulk schedule of core/rate-limit.ts), for specs that judge its answer. */
export { bulkCreate };

/** What a helper needs of a test: its client and namespace, and (for tasks, fixtures) the profile. */
export interface Ctx {
  api: ApiClient;
  ns: Namespace;
  profile?: TargetProfile;
}
type WithProfile = Ctx & { profile: TargetProfile };
type Body = Record<string, unknown>;

/** A project or task as the search specs read it. */
export type Rec = Record<string, unknown> & { id: string | number; name: string; date_created: number; date_modified: number; tags: string[] };
export type Opportunity = Record<string, unknown> & { id: Identifier; name: string };

/** Same identifier, whatever its JSON type (the spec does not fix the id format). */
export const sameId = (a: unknown, b: unknown): boolean => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

let realSerial = 0;
/** A namespaced name followed by a name as real users write it (the next of REAL_NAMES): `cc…t3ab12 person 1 Zoë Łukasiewicz`. */
export const realName = (ns: Namespace, label: string): string => `${ns.name(label)} ${REAL_NAMES[realSerial++ % REAL_NAMES.length]}`;

/** A create body: a namespaced name (real users' letters after it), the overrides, and `ns.tags` plus `overrides.tags`. */
export function recordBody(ns: Namespace, label: string, overrides: Body = {}): Body {
  const extraTags = Array.isArray(overrides.tags) ? (overrides.tags as unknown[]) : [];
  const name = 'name' in overrides ? undefined : realName(ns, label);
  return { name, ...overrides, tags: [...ns.tags, ...extraTags.filter((t) => !ns.tags.includes(t as string))] };
}

/**
 * Checks a create was accepted (the spec shows no status: any 2xx) and answered an object with an
 * id. `rule`: the rule of the create (a failure names it: `[breaks PEOPLE-1]`), so that a test that
 * only needs the record is blocked by that rule rather than failing its own (reporting/blame.ts).
 */
export function expectCreated(res: ApiResponse, what: string, rule?: string): void {
  const body = res.body as { id?: unknown } | undefined;
  const hasId = body !== null && typeof body === 'object' && body.id !== undefined && body.id !== null;
  if (isAccepted(res) && hasId) return;
  const names = breaks(rule ? [rule] : []);
  expect(res, `${what} is created (2xx)${names}`).not.toBeRefused();
  expect(hasId, `the answer to the ${what} create carries an id${names}`).toBe(true);
}

/**
 * Checks a create was accepted and answered the contract (quietly first: record sets make dozens).
 * A record that was created but breaks only wire conventions (a list as null, a timestamp in
 * milliseconds) or a field's own rule (fixtures/matchers.ts wireRulesOf) names those rules alone
 * (the contract check's own marker): the create's rule held.
 */
function expectRecord(res: ApiResponse, what: string, contract: Parameters<typeof conforms>[1], rule?: string): void {
  if (isAccepted(res) && conforms(res, contract)) return;
  const parsed = contract.safeParse(res.body);
  const wireOnly = isAccepted(res) && !parsed.success && wireRulesOf(contract, parsed.error.issues, res.body).length > 0;
  const names = breaks(rule && !wireOnly ? [rule] : []);
  expect(res, `${what} is created (2xx)${names}`).not.toBeRefused();
  expect(res, `${what} is created as the spec's record${names}`).toMatchContract(contract);
}

/* ---------------- extensions of the profile ---------------- */

export interface Extension {
  method: string;
  path: string;
}

/** The profile's documented extension ("METHOD /path" of `capabilities.extensions`), or undefined. */
export function extension(profile: TargetProfile, name: 'create_task' | 'follow'): Extension | undefined {
  const raw = profile.capabilities.extensions[name];
  if (!raw) return undefined;
  const m = /^\s*([A-Z]+)\s+(\/\S*)\s*$/.exec(raw);
  if (!m) throw new Error(`profile capabilities.extensions.${name} = "${raw}": expected "METHOD /path"`);
  return { method: m[1], path: m[2] };
}

export const NO_TASK_CREATE = 'the target profile names no task-create extension (capabilities.extensions.create_task): the spec gives no way to create a Task';
export const NO_FOLLOW = 'the target profile names no follow extension (capabilities.extensions.follow): the spec gives no way to follow a record';

/* ---------------- lookups ---------------- */

/** The one pipeline lookup: the first opportunity pipeline of GET /pipelines, or undefined. */
export async function opportunityPipeline(api: ApiClient): Promise<Pipeline | undefined> {
  const res = await api.get<Pipeline[]>('/pipelines');
  expect(res, `GET /pipelines (to create an Opportunity in a pipeline)${breaks(['PIPE-1'])}`).toHaveStatus(200);
  return Array.isArray(res.body) ? res.body.find((p) => p.type === 'opportunity') : undefined;
}

/* ---------------- leads ---------------- */

let leadSerial = 0;
/** A lower-case e-mail address unique to the test (values differ in more than case). */
export const leadEmail = (ns: Namespace, label: string) => `${ns.id}.${label}`.toLowerCase().replace(/[^a-z0-9.]+/g, '-') + '@example.com';

/** Lead properties with a namespaced name (real users' letters after it), a unique e-mail and the namespace's tags. */
export function leadProperties(ns: Namespace, label: string, overrides: Body = {}): Body {
  const name = 'name' in overrides ? undefined : realName(ns, label);
  return { name, email: { email: leadEmail(ns, `${label}-${++leadSerial}`), category: 'work' }, tags: ns.tags, ...overrides };
}

/* ---------------- raw creates ---------------- */

/** The create request of each kind (except the bulk-created Opportunity): what is sent, and how. */
const request = {
  person: (ns: Namespace, o: Body) => ({ method: 'POST', path: '/people', body: recordBody(ns, 'person', o) }),
  company: (ns: Namespace, o: Body) => ({ method: 'POST', path: '/companies', body: recordBody(ns, 'company', o) }),
  project: (ns: Namespace, o: Body) => ({ method: 'POST', path: '/projects', body: recordBody(ns, 'project', o) }),
  task(ns: Namespace, o: Body, profile: TargetProfile) {
    const ext = extension(profile, 'create_task');
    if (!ext) throw new Error(NO_TASK_CREATE);
    return { method: ext.method, path: ext.path, body: recordBody(ns, 'task', o) };
  },
  /** An upsert matching the Lead's own (unique) e-mail, so it creates. */
  lead(ns: Namespace, o: Body, label: string) {
    const properties = leadProperties(ns, label, o);
    const email = (properties.email as { email?: string } | null)?.email ?? leadEmail(ns, `${label}-fresh-${++leadSerial}`);
    return { method: 'PUT', path: '/leads/upsert', body: { properties, match: { field_name: 'email', field_value: email } }, name: properties.name };
  },
};

/** The raw creates: the answer as is, for the tests that judge it. */
export const post = {
  person: ({ api, ns }: Ctx, overrides: Body = {}) => api.send<Person>(request.person(ns, overrides)),
  company: ({ api, ns }: Ctx, overrides: Body = {}) => api.send<Company>(request.company(ns, overrides)),
  project: ({ api, ns }: Ctx, overrides: Body = {}) => api.send<Rec>(request.project(ns, overrides)),
  task: ({ api, ns, profile }: WithProfile, overrides: Body = {}) => api.send<Rec>(request.task(ns, overrides, profile)),
  lead: ({ api, ns }: Ctx, overrides: Body = {}, label = 'lead') => api.send<Lead>(request.lead(ns, overrides, label)),
};

/* ---------------- the factory ---------------- */

/** A created record, the answer that created it, and the name sent. */
export interface Made<T> {
  record: T;
  res: ApiResponse;
  name: string;
}

/**
 * Sends a create and checks its answer. `rule`: the spec's rule of that create, named by a failure;
 * none for the profile's extension (the task create), whose failure is no verdict on the server:
 * the test is not judged.
 */
async function create<T>(
  api: ApiClient,
  r: { method: string; path: string; body: Body; name?: unknown },
  what: string,
  o: { contract?: Parameters<typeof conforms>[1]; rule?: string } = {},
): Promise<Made<T>> {
  const res = await api.send<T>(r);
  if (!o.rule && !isAccepted(res)) {
    throw new NotJudgedError(
      `${what}: ${r.method} ${r.path} answered ${res.status || 'nothing'}, so the test has no record to judge with; the extension is the profile's, not the spec's: check capabilities.extensions`,
    );
  }
  if (o.contract) expectRecord(res, what, o.contract, o.rule);
  else expectCreated(res, what, o.rule);
  return { record: res.body, res, name: String(r.name ?? r.body.name) };
}

const person = ({ api, ns }: Ctx, o: Body = {}) => create<Person>(api, request.person(ns, o), 'Person', { rule: 'PEOPLE-1' });
const company = ({ api, ns }: Ctx, o: Body = {}) => create<Company>(api, request.company(ns, o), 'Company', { rule: 'COMPANY-1' });
const project = ({ api, ns }: Ctx, o: Body = {}) => create<Rec>(api, request.project(ns, o), 'Project', { contract: Project, rule: 'PROJ-1' });
const task = ({ api, ns, profile }: WithProfile, o: Body = {}) =>
  create<Rec>(api, request.task(ns, o, profile), 'Task (through the task-create extension of the profile)', { contract: Task });
const lead = ({ api, ns }: Ctx, o: Body = {}, label = 'lead') =>
  create<Lead>(api, request.lead(ns, o, label), 'Lead (an upsert matching nothing)', { contract: LeadContract, rule: 'UPSERT-2' });

/**
 * `count` Opportunities (at most 10) in one bulk create, within the run-wide bulk limit, in the
 * first opportunity pipeline; fails the test unless every entry was created.
 */
async function opportunities(ctx: Ctx, count: number, overrides: Body = {}): Promise<Made<Opportunity[]>> {
  const { api, ns } = ctx;
  const pipeline = await opportunityPipeline(api);
  const entries = Array.from({ length: count }, () => recordBody(ns, 'opportunity', { ...(pipeline ? { pipeline_id: pipeline.id } : {}), ...overrides }));
  const res = await bulkCreate<unknown[]>(api, { opportunities: entries });
  const body = Array.isArray(res.body) ? res.body : [];
  const created = (e: unknown): e is Opportunity =>
    !!e && typeof e === 'object' && (e as Body).id !== undefined && (e as Body).id !== null && (e as Body).success !== false;
  if (res.status !== 200 || body.length !== count || !body.every(created)) {
    expect(res, `a bulk create of ${count} Opportunit${count === 1 ? 'y' : 'ies'}${breaks(['BULK-3'])}`).toHaveStatus(200);
    expect(body.map(created), `every entry is created${breaks(['BULK-4'])}\n${JSON.stringify(res.body).slice(0, 500)}`).toEqual(entries.map(() => true));
  }
  return { record: body as Opportunity[], res, name: String(entries[0]?.name) };
}

async function opportunity(ctx: Ctx, overrides: Body = {}): Promise<Made<Opportunity>> {
  const made = await opportunities(ctx, 1, overrides);
  return { record: made.record[0], res: made.res, name: made.name };
}

/** The factory with the answer: `{ record, res, name }` (name: the one sent). */
export const made = { person, company, lead, project, task, opportunity, opportunities };

/** The one record factory: the created record; fails the test when the create is refused. */
export const make = {
  person: async (ctx: Ctx, overrides?: Body) => (await person(ctx, overrides)).record,
  company: async (ctx: Ctx, overrides?: Body) => (await company(ctx, overrides)).record,
  /** A Lead created by an upsert matching its own unique e-mail; `label` names it. */
  lead: async (ctx: Ctx, overrides?: Body, label?: string) => (await lead(ctx, overrides, label)).record,
  project: async (ctx: Ctx, overrides?: Body) => (await project(ctx, overrides)).record,
  /** Needs the profile's task-create extension (skip first: `needTaskCreate`). */
  task: async (ctx: WithProfile, overrides?: Body) => (await task(ctx, overrides)).record,
  opportunity: async (ctx: Ctx, overrides?: Body) => (await opportunity(ctx, overrides)).record,
  opportunities: async (ctx: Ctx, count: number, overrides?: Body) => (await opportunities(ctx, count, overrides)).record,
};

/**
 * `count` Opportunities to relate records to: the profile's fixture opportunities when it lists
 * enough (relating a namespaced record to a shared opportunity changes nothing another test
 * reads), else new ones from one bulk call.
 */
export async function opportunitiesToRelate(ctx: WithProfile, count: number): Promise<{ id: Identifier }[]> {
  const fixtures = ctx.profile.fixtures.opportunities;
  if (fixtures.length >= count) return fixtures.slice(0, count);
  return make.opportunities(ctx, count);
}
