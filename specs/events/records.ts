/**
 * The API calls that make events happen (spec § Events), one per entity type the suite can
 * create through the spec's endpoints (tasks only through the profile's documented extension).
 * Every record carries the test's namespace tags and a unique name.
 */
import type { Identifier, Pipeline, TargetProfile, WebhookType } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import { expectCreated, postCompany, postPerson } from '../support/records.js';
import { bulkCreate } from '../support/core/rate-limit.js';
import { expect, type Namespace } from '../support/fixtures/test.js';

export type EntityType = (typeof WebhookType)['options'][number];

export interface Created {
  type: EntityType;
  id: Identifier;
  name: string;
  res: ApiResponse;
}

export interface Ctx {
  api: ApiClient;
  ns: Namespace;
  profile: TargetProfile;
}

/** Extra members for the create body (e.g. custom_fields). */
export type Extra = Record<string, unknown>;

/** The created record of an accepted create (any 2xx: the spec shows no status). */
function createdOk(res: ApiResponse, what: string): Record<string, unknown> {
  expectCreated(res, what);
  return res.body as Record<string, unknown>;
}

/** "METHOD /path" of a documented extension. */
export function extension(spec: string | undefined): { method: string; path: string } | undefined {
  const m = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)$/.exec(spec?.trim() ?? '');
  return m ? { method: m[1], path: m[2] } : undefined;
}

async function opportunityPipeline(api: ApiClient): Promise<Identifier | undefined> {
  const res = await api.get<Pipeline[]>('/pipelines');
  return Array.isArray(res.body) ? res.body.find((p) => p.type === 'opportunity')?.id : undefined;
}

interface Maker {
  /** The call, for titles. */
  how: string;
  /** Why this target cannot create the type, if it cannot. */
  unavailable?(profile: TargetProfile): string | undefined;
  create(ctx: Ctx, extra?: Extra): Promise<Created>;
}

export const MAKERS: Record<EntityType, Maker> = {
  person: {
    how: 'POST /people',
    async create({ api, ns }, extra = {}) {
      const name = ns.name('person');
      const res = await postPerson(api, ns, { name, emails: [{ email: `${ns.id}.${Date.now()}@conformance.invalid`, category: 'work' }], ...extra });
      const body = createdOk(res, 'POST /people');
      return { type: 'person', id: body.id as Identifier, name, res };
    },
  },
  company: {
    how: 'POST /companies',
    async create({ api, ns }, extra = {}) {
      const name = ns.name('company');
      const res = await postCompany(api, ns, { name, details: 'created by the conformance suite', ...extra });
      const body = createdOk(res, 'POST /companies');
      return { type: 'company', id: body.id as Identifier, name, res };
    },
  },
  lead: {
    how: 'PUT /leads/upsert (no match)',
    async create({ api, ns }, extra = {}) {
      const name = ns.name('lead');
      const res = await api.put('/leads/upsert', { properties: { name, tags: ns.tags, ...extra }, match: { field_name: 'name', field_value: name } });
      const body = createdOk(res, 'PUT /leads/upsert');
      return { type: 'lead', id: body.id as Identifier, name, res };
    },
  },
  opportunity: {
    how: 'POST /opportunities/bulk_create',
    async create({ api, ns }, extra = {}) {
      const name = ns.name('opportunity');
      const pipeline_id = await opportunityPipeline(api);
      const res = await bulkCreate<unknown[]>(api, { opportunities: [{ name, tags: ns.tags, ...(pipeline_id !== undefined ? { pipeline_id } : {}), ...extra }] });
      expect(res).toHaveStatus(200);
      const entry = Array.isArray(res.body) ? (res.body[0] as Record<string, unknown> | undefined) : undefined;
      expect(entry && entry.id !== undefined && entry.success !== false, `the bulk create entry was created\n${JSON.stringify(res.body).slice(0, 500)}`).toBe(true);
      return { type: 'opportunity', id: entry!.id as Identifier, name, res };
    },
  },
  project: {
    how: 'POST /projects',
    async create({ api, ns }, extra = {}) {
      const name = ns.name('project');
      const res = await api.post('/projects', { name, tags: ns.tags, ...extra });
      const body = createdOk(res, 'POST /projects');
      return { type: 'project', id: body.id as Identifier, name, res };
    },
  },
  task: {
    how: 'the create_task extension of the profile',
    unavailable: (profile) => (extension(profile.capabilities.extensions.create_task) ? undefined : 'the spec gives no way to create a Task and the profile documents no create_task extension'),
    async create({ api, ns, profile }, extra = {}) {
      const ext = extension(profile.capabilities.extensions.create_task)!;
      const name = ns.name('task');
      const res = await api.send({ method: ext.method, path: ext.path, body: { name, tags: ns.tags, ...extra } });
      const body = createdOk(res, `${ext.method} ${ext.path}`);
      return { type: 'task', id: body.id as Identifier, name, res };
    },
  },
};

/** Updates a Lead through `PUT /leads/upsert` matching its unique name (an `update` event). */
export async function updateLead({ api }: Ctx, lead: Created, properties: Record<string, unknown>): Promise<ApiResponse> {
  const res = await api.put('/leads/upsert', { properties, match: { field_name: 'name', field_value: lead.name } });
  expect(res, 'the upsert is accepted (2xx: the spec shows no status)').not.toBeRefused();
  expect(String((res.body as { id?: unknown }).id), 'the upsert matching the Lead by its unique name updated that Lead').toBe(String(lead.id));
  return res;
}

/** Converts a Lead (`POST /leads/{id}/convert`): afterwards it "no longer exists". */
export async function convertLead({ api, ns }: Ctx, lead: Created): Promise<ApiResponse> {
  const res = await api.post(`/leads/${encodeURIComponent(String(lead.id))}/convert`, { details: { person: { name: ns.name('converted person') } } });
  expect(res, 'the upsert is accepted (2xx: the spec shows no status)').not.toBeRefused();
  return res;
}
