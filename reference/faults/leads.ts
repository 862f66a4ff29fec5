/**
 * Faults of Lead upsert and Lead conversion (reference/routes/leads.ts). How they hook in:
 * reference/faults/types.ts.
 */
import { C, LEAD_STATUSES, firstStage, makeCompany, makeLead, type Rec } from '../model.js';
import type { PipelineRecord } from '../routes/pipelines.js';
import { UPSERT_MAX_IDS, leadPatch, type CompanyPlan, type OpportunityPlan } from '../routes/leads.js';
import { tick, type Fault, type Presented } from './types.js';
import { mapStrings, mojibake } from './reshape.js';
import type { App } from '../app.js';

declare module './types.js' {
  interface HookPoints {
    /** The Leads an upsert matched. */
    'upsert.matches': { value: Rec[]; ctx: { fieldName: string; fieldValue: unknown; properties: Record<string, unknown> } };
    /** The ids an ambiguous upsert answers (undefined over 30 matches). */
    'upsert.ambiguous-ids': { value: number[] | undefined; ctx: { matches: Rec[]; properties: Record<string, unknown> } };
    /** A Lead about to be created by upsert. */
    'upsert.new-lead': { value: Omit<Rec, 'id'>; ctx: undefined };
    /** The patch an upsert applies to the Lead it matched. */
    'upsert.patch': { value: Partial<Rec>; ctx: { existing: Rec; properties: Record<string, unknown> } };
    /** What a conversion does with the Company it was given. */
    'convert.company-plan': { value: CompanyPlan; ctx: { company: Record<string, unknown>; existing: Rec | undefined } };
    /** Where a conversion puts its Opportunity. */
    'convert.opportunity-plan': { value: OpportunityPlan; ctx: { opportunity: Record<string, unknown> | undefined; pipelines: PipelineRecord[] } };
    /** The Lead being converted (undefined: no such Lead). */
    'convert.lead': { value: Rec | undefined; ctx: { id: number; person: Record<string, unknown> } };
    /** The Company the new Person joins; ctx.requested: details.company was given. */
    'convert.joined-company': { value: Rec | undefined; ctx: { created: boolean; lead: Rec; requested: boolean } };
    /** Whether a conversion announces the records it creates (new events of their types). */
    'convert.announce-new': { value: boolean; ctx: undefined };
    /** The name of the new Person. */
    'convert.person-name': { value: unknown; ctx: { lead: Rec } };
    /** The Opportunity a conversion is about to create. */
    'convert.new-opportunity': { value: Omit<Rec, 'id'>; ctx: undefined };
  }
  interface SeamPoints {
    /** An upsert that matched nothing creates its Lead. */
    'upsert.create': { properties: Record<string, unknown> };
    /** An upsert that matched one Lead writes its patch. */
    'upsert.update': { lead: Rec; patch: Partial<Rec> };
  }
}

const ok = (res: Presented) => res.status >= 200 && res.status < 300;
const leadsOf = (app: App) => app.store.collection<Rec>(C.leads);

/** Puts the stored (raw option ids) custom field values back into presented records. */
function rawCustomFields(app: App, shown: unknown, collection: string): unknown {
  if (!shown || typeof shown !== 'object') return shown;
  const stored = app.store.collection<Rec>(collection).get(Number((shown as Rec).id));
  return stored ? { ...shown, custom_fields: stored.custom_fields } : shown;
}

export const LEADS_FAULTS: Fault[] = [
  {
    name: 'upsert-duplicate-on-match',
    rules: ['UPSERT-3'],
    description: 'an upsert matching exactly one Lead creates a new Lead instead of updating it',
    at: { 'upsert.matches': (m) => (m.length === 1 ? [] : m) },
  },
  {
    name: 'upsert-update-first-of-many',
    rules: ['UPSERT-4'],
    description: 'an upsert matching 2..30 Leads updates the first of them instead of answering 422',
    at: { 'upsert.matches': (m) => (m.length > 1 && m.length <= UPSERT_MAX_IDS ? [m[0]] : m) },
  },
  {
    name: 'upsert-422-without-ids',
    rules: ['UPSERT-4'],
    description: 'an upsert matching 2..30 Leads answers 422 without the ids of the matches',
    at: { 'upsert.ambiguous-ids': (ids, { matches }) => (matches.length <= UPSERT_MAX_IDS ? undefined : ids) },
  },
  {
    name: 'upsert-ids-over-30',
    rules: ['UPSERT-5'],
    description: 'an upsert matching more than 30 Leads answers 422 listing all their ids',
    at: { 'upsert.ambiguous-ids': (ids, { matches }) => (matches.length > UPSERT_MAX_IDS ? matches.map((l) => l.id) : ids) },
  },
  {
    name: 'upsert-no-ids-at-30',
    rules: ['UPSERT-4'],
    description: 'off by one: 30 matches already answer 422 without ids',
    at: { 'upsert.ambiguous-ids': (ids, { matches }) => (matches.length === UPSERT_MAX_IDS ? undefined : ids) },
  },
  {
    name: 'upsert-not-atomic',
    rules: ['UPSERT-1'],
    description: 'an await (simulated storage round trip) between the match check and the create: concurrent upserts create duplicates',
    seam: { 'upsert.create': (_ctx, next) => tick(40).then(next) },
  },
  {
    name: 'upsert-update-not-atomic',
    rules: ['UPSERT-1'],
    description: 'an update reads the Lead, awaits, then writes the stale copy back with its properties: concurrent updates are lost',
    seam: {
      'upsert.update': ({ lead, patch }, next, app) => {
        const snapshot = { ...lead };
        return tick(40).then(() => {
          leadsOf(app).insert({ ...snapshot, ...patch, id: snapshot.id });
          return next();
        });
      },
    },
  },
  {
    name: 'upsert-status-not-new',
    rules: ['UPSERT-6'],
    description: 'a Lead created by upsert gets status Contacted',
    at: { 'upsert.new-lead': (lead) => ({ ...lead, status: LEAD_STATUSES[1].name, status_id: LEAD_STATUSES[1].id }) },
  },
  {
    name: 'upsert-update-clears-unsent',
    rules: ['UPSERT-12'],
    description: 'an update rebuilds the Lead from properties: fields not sent become null',
    at: {
      'upsert.patch': (_patch, { properties }, app) => {
        const { date_created: _created, status: _s, status_id: _sid, ...rest } = makeLead(app, properties) as Rec;
        return rest as Partial<Rec>;
      },
    },
  },
  {
    name: 'upsert-email-match-ignored',
    rules: ['UPSERT-8'],
    description: 'match on email never finds a Lead (always creates)',
    at: { 'upsert.matches': (m, { fieldName }) => (fieldName === 'email' ? [] : m) },
  },
  {
    name: 'upsert-custom-field-match-ignored',
    rules: ['UPSERT-9'],
    description: 'match on a custom field never finds a Lead (always creates)',
    at: { 'upsert.matches': (m, { fieldName }) => (fieldName.startsWith('custom_field_') ? [] : m) },
  },
  {
    name: 'upsert-computed-values-off',
    rules: ['UPSERT-10'],
    description: 'the upsert answer carries option ids instead of option names',
    routes: [{ route: 'PUT /leads/upsert', respond: (res, _ctx, app) => (ok(res) ? { ...res, body: rawCustomFields(app, res.body, C.leads) } : res) }],
  },
  {
    name: 'upsert-update-answers-id',
    rules: ['UPSERT-11'],
    description: 'an update by upsert answers only { id } instead of the Lead',
    routes: [
      {
        route: 'PUT /leads/upsert',
        around: async (_ctx, next, app) => {
          const before = leadsOf(app).size;
          const res = await next();
          return ok(res) && leadsOf(app).size === before ? { ...res, body: { id: (res.body as Rec).id } } : res;
        },
      },
    ],
  },
  {
    name: 'upsert-422-still-writes',
    rules: ['UPSERT-13'],
    description: 'an ambiguous upsert answers 422 but updates the first match anyway',
    at: {
      'upsert.ambiguous-ids': (ids, { matches, properties }, app) => {
        if (matches.length <= UPSERT_MAX_IDS) leadsOf(app).update(matches[0].id, leadPatch(app, matches[0], properties));
        return ids;
      },
    },
  },
  {
    name: 'convert-lead-left-behind',
    rules: ['CONVERT-2', 'CONVERT-14'],
    description: 'the converted Lead is not deleted (converting it again succeeds)',
    routes: [
      {
        route: 'POST /leads/{lead_id}/convert',
        around: async (ctx, next, app) => {
          const kept = leadsOf(app).get(Number(ctx.params.lead_id));
          const res = await next();
          if (ok(res) && kept && !leadsOf(app).get(kept.id)) leadsOf(app).insert(kept);
          return res;
        },
      },
    ],
  },
  {
    name: 'convert-missing-lead-ok',
    rules: ['CONVERT-14'],
    description: 'converting a Lead id that does not exist answers 200 with a new Person',
    at: {
      'convert.lead': (lead, { id, person }, app) =>
        lead ?? ({ id, ...makeLead(app, { name: typeof person.name === 'string' ? person.name : 'Unknown' }) } as Rec),
    },
  },
  {
    name: 'convert-person-name-ignored',
    rules: ['CONVERT-3'],
    description: 'details.person.name is ignored: the Person takes the Lead name',
    at: { 'convert.person-name': (_name, { lead }) => lead.name },
  },
  {
    name: 'convert-company-id-ignored',
    rules: ['CONVERT-4'],
    description: 'details.company.id is ignored: the Person joins no Company',
    at: { 'convert.company-plan': (plan, { company }) => (company.id !== undefined && company.id !== null ? {} : plan) },
  },
  {
    name: 'convert-second-company-for-name',
    rules: ['CONVERT-5'],
    description: 'the name of an existing Company creates a second Company of that name',
    at: { 'convert.company-plan': (plan, { company, existing }) => (existing && typeof company.name === 'string' ? { newName: company.name } : plan) },
  },
  {
    name: 'convert-new-company-not-joined',
    rules: ['CONVERT-6'],
    description: 'a new Company is created but the Person does not join it',
    at: { 'convert.joined-company': (joined, { created }) => (created ? undefined : joined) },
  },
  {
    name: 'convert-empty-name-creates-company',
    rules: ['CONVERT-7'],
    description: 'an empty company name creates a Company with an empty name',
    at: { 'convert.company-plan': (plan, { company }) => (company.name === '' ? { newName: '' } : plan) },
  },
  {
    name: 'convert-opportunity-when-omitted',
    rules: ['CONVERT-10', 'CONVERT-1'],
    description: 'an Opportunity is created although details.opportunity is omitted',
    at: {
      'convert.opportunity-plan': (plan, { opportunity, pipelines }) =>
        opportunity ? plan : { pipelineId: pipelines[0].id, stageId: firstStage(pipelines[0].id) ?? undefined },
    },
  },
  {
    name: 'convert-stage-not-first',
    rules: ['CONVERT-11'],
    description: 'without pipeline_stage_id the Opportunity lands in the last stage of the pipeline',
    at: {
      'convert.opportunity-plan': (plan, { opportunity, pipelines }) => {
        if (!opportunity || (opportunity.pipeline_stage_id !== undefined && opportunity.pipeline_stage_id !== null)) return plan;
        const stages = pipelines.find((p) => p.id === plan.pipelineId)?.stages ?? [];
        return { ...plan, stageId: stages[stages.length - 1]?.id };
      },
    },
  },
  {
    name: 'convert-opportunity-value-dropped',
    rules: ['CONVERT-12'],
    description: 'monetary_value of details.opportunity is not stored',
    at: { 'convert.new-opportunity': (o) => ({ ...o, monetary_value: null }) },
  },
  {
    name: 'convert-computed-values-off',
    rules: ['CONVERT-13'],
    description: 'the convert answer carries option ids instead of option names',
    routes: [
      {
        route: 'POST /leads/{lead_id}/convert',
        respond: (res, _ctx, app) => {
          if (!ok(res)) return res;
          const b = res.body as Record<string, unknown>;
          return {
            ...res,
            body: {
              ...b,
              person: rawCustomFields(app, b.person, C.people),
              ...(b.company ? { company: rawCustomFields(app, b.company, C.companies) } : {}),
              ...(b.opportunity ? { opportunity: rawCustomFields(app, b.opportunity, C.opportunities) } : {}),
            },
          };
        },
      },
    ],
  },
  {
    name: 'upsert-create-latin1',
    rules: ['UPSERT-2'],
    description:
      'an upsert that creates decodes the free text of properties (details, title, company_name, address) as Latin-1: "Zoë" is stored and answered as "ZoÃ«"',
    at: {
      'upsert.new-lead': (lead) => {
        const text = { details: lead.details, title: lead.title, company_name: lead.company_name, address: lead.address };
        return { ...lead, ...(mapStrings(text, mojibake) as Record<string, unknown>) };
      },
    },
  },
  {
    name: 'upsert-name-match-latin1',
    rules: ['UPSERT-7', 'UPSERT-3'],
    description: 'a name match reads its value as Latin-1: a name outside ASCII matches no Lead, not even its own (every upsert on it creates one more)',
    at: {
      'upsert.matches': (m, { fieldName, fieldValue }) => (fieldName === 'name' && typeof fieldValue === 'string' && /[^\x00-\x7f]/.test(fieldValue) ? [] : m),
    },
  },
  {
    name: 'upsert-create-address-not-stored',
    rules: ['UPSERT-14'],
    description: 'an upsert that creates answers the address sent but stores none (the address row is written by the update path only)',
    routes: [
      {
        route: 'PUT /leads/upsert',
        around: async (_ctx, next, app) => {
          const before = leadsOf(app).size;
          const res = await next();
          const id = (res.body as { id?: unknown } | undefined)?.id;
          if (ok(res) && leadsOf(app).size > before && typeof id === 'number') leadsOf(app).update(id, { address: null } as Partial<Rec>);
          return res;
        },
      },
    ],
  },
  {
    name: 'convert-company-from-lead',
    rules: ['CONVERT-4', 'CONVERT-5', 'CONVERT-6', 'CONVERT-7'],
    description:
      "a Lead's own company_name wins over details.company: the new Person joins the Company of that name (created when none has it), whatever the request named",
    at: {
      'convert.joined-company': (joined, { lead, requested }, app) => {
        const name = lead.company_name;
        if (!requested || typeof name !== 'string' || name === '') return joined;
        const companies = app.store.collection<Rec>(C.companies);
        return companies.all().find((c) => c.name === name) ?? companies.insert(makeCompany(app, { name }));
      },
    },
  },
  {
    name: 'convert-new-records-not-announced',
    rules: ['EVENT-1'],
    description:
      'a conversion writes the new Person, Company and Opportunity without announcing them: no new notification goes to person, company or opportunity subscriptions',
    at: { 'convert.announce-new': () => false },
  },
];
