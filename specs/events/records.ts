/**
 * The API calls that make events happen (spec § Events), one per entity type the suite can
 * create through the spec's endpoints (tasks only through the profile's documented extension).
 * Every record carries the test's namespace tags and a unique name.
 */
import type { Identifier, TargetProfile, WebhookType } from '../../contracts/index.js';
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import { breaks, expect, type Namespace } from '../support/fixtures/test.js';
import { extension, made, NO_TASK_CREATE, opportunityPipeline, realName, type Made } from '../support/make.js';

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

interface Maker {
  /** The call, for titles. */
  how: string;
  /** Why this target cannot create the type, if it cannot. */
  unavailable?(profile: TargetProfile): string | undefined;
  create(ctx: Ctx, extra?: Extra): Promise<Created>;
}

const created = (type: EntityType, m: Made<{ id: unknown }>): Created => ({ type, id: m.record.id as Identifier, name: m.name, res: m.res });

/** One maker per entity type, each through the one record factory (make.ts). */
export const MAKERS: Record<EntityType, Maker> = {
  person: {
    how: 'POST /people',
    create: async (ctx, extra = {}) =>
      created('person', await made.person(ctx, { emails: [{ email: `${ctx.ns.id}.${Date.now()}@conformance.invalid`, category: 'work' }], ...extra })),
  },
  company: {
    how: 'POST /companies',
    create: async (ctx, extra = {}) => created('company', await made.company(ctx, { details: 'created by the conformance suite', ...extra })),
  },
  lead: {
    how: 'PUT /leads/upsert (no match)',
    create: async (ctx, extra = {}) => created('lead', await made.lead(ctx, extra)),
  },
  opportunity: {
    how: 'POST /opportunities/bulk_create',
    create: async (ctx, extra = {}) => created('opportunity', await made.opportunity(ctx, extra)),
  },
  project: {
    how: 'POST /projects',
    create: async (ctx, extra = {}) => created('project', await made.project(ctx, extra)),
  },
  task: {
    how: 'the create_task extension of the profile',
    unavailable: (profile) => (extension(profile, 'create_task') ? undefined : NO_TASK_CREATE),
    create: async (ctx, extra = {}) => created('task', await made.task(ctx, extra)),
  },
};

/** Updates a Lead through `PUT /leads/upsert` matching its unique name (an `update` event). */
export async function updateLead({ api }: Ctx, lead: Created, properties: Record<string, unknown>): Promise<ApiResponse> {
  const res = await api.put('/leads/upsert', { properties, match: { field_name: 'name', field_value: lead.name } });
  // A step of the upsert's rules (one match updates that Lead, matched by name): a test of an event
  // that needs the update is blocked by them when it fails (reporting/blame.ts).
  const step = breaks(['UPSERT-3', 'UPSERT-7']);
  expect(res, `the upsert is accepted (2xx: the spec shows no status)${step}`).not.toBeRefused();
  expect(String((res.body as { id?: unknown }).id), `the upsert matching the Lead by its unique name updated that Lead${step}`).toBe(String(lead.id));
  return res;
}

/** Converts a Lead (`POST /leads/{id}/convert`): afterwards it "no longer exists". */
export async function convertLead({ api, ns }: Ctx, lead: Created): Promise<ApiResponse> {
  const res = await api.post(`/leads/${encodeURIComponent(String(lead.id))}/convert`, { details: { person: { name: ns.name('converted person') } } });
  expect(res, `the conversion is accepted (2xx: the spec shows no status)${breaks(['CONVERT-1'])}`).not.toBeRefused();
  return res;
}

/** What a conversion with every part creates, as its answer names them: the Person, and the Company and Opportunity asked for. */
export type ConvertedRecords = Partial<Record<'person' | 'company' | 'opportunity', { id: Identifier; name: string }>>;

/**
 * Converts a Lead into a Person, a new Company and (when GET /pipelines lists an opportunity
 * pipeline) an Opportunity, each with a name of its own; answers the records the answer names
 * (listed in created-records.json: the answer has no top-level id). A refused conversion fails
 * the step, CONVERT-1's.
 */
export async function convertLeadFully({ api, ns }: Ctx, lead: Created): Promise<ConvertedRecords> {
  const pipeline = await opportunityPipeline(api);
  const names = { person: realName(ns, 'converted person'), company: realName(ns, 'converted company'), opportunity: realName(ns, 'converted opportunity') };
  const details = {
    person: { name: names.person },
    company: { name: names.company, exact_match: true },
    ...(pipeline ? { opportunity: { name: names.opportunity, pipeline_id: pipeline.id } } : {}),
  };
  const path = `/leads/${encodeURIComponent(String(lead.id))}/convert`;
  const res = await api.post(path, { details });
  expect(res, `the conversion is accepted (2xx: the spec shows no status)${breaks(['CONVERT-1'])}`).not.toBeRefused();
  const out: ConvertedRecords = {};
  for (const part of ['person', 'company', 'opportunity'] as const) {
    if (!(part in details)) continue;
    const rec = (res.body as Record<string, { id?: Identifier } | null | undefined> | undefined)?.[part];
    expect(rec?.id !== undefined && rec?.id !== null, `the answer names the ${part} the conversion created${breaks(['CONVERT-1'])}`).toBe(true);
    api.recorder.created.push({ path: `${path} (${part})`, id: rec!.id });
    out[part] = { id: rec!.id!, name: names[part] };
  }
  return out;
}
