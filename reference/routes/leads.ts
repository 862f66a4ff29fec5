/**
 * Leads (spec § Lead upsert, § Lead conversion): `PUT /leads/upsert` and
 * `POST /leads/{lead_id}/convert`.
 *
 * Open choices of the spec and what this server does (default mode / variant mode):
 * - Upsert matching on `name` and `email` (the Lead's `email.email`): exact / case-insensitive.
 *   Custom-field matches use `match.field_name = "custom_field_<definition id>"` (the profile's
 *   `lead_match_field`); the definition must be available on Leads.
 * - The 422 body of an ambiguous upsert (exact shape "not shown"): `{ success, status, message,
 *   ids: [...] }` / `{ errors: [{ code, detail }] }` with the ids inside the detail text.
 *   More than 30 matches: the same shapes without ids.
 * - Ill-formed upsert or convert bodies, unknown companies or pipelines: 422 / 400 (`invalid`).
 * - Converting a Lead that does not exist: 404 / 422 with another body.
 * - Convert `company` with both `id` and `name`: 422 / 400 with another body.
 * - Convert without `company`: no Company; the answer has `company: null` / no `company` member.
 *   Without `opportunity`: no `opportunity` member / `opportunity: null`.
 * - Fuzzy company matching ("without `exact_match`, fuzzy matching returns a list of candidate
 *   companies"): the conversion proceeds exactly as with `exact_match: true` (an existing Company
 *   of exactly that name is joined, otherwise one is created) and the answer also carries the
 *   other Companies whose names resemble the given one (case-insensitive containment either way):
 *   `company_candidates: [Company, …]` / `fuzzy_company_matches: [{ id, name }, …]`.
 *   With `exact_match: true` no candidates are listed. Joining an existing name is exact /
 *   case-insensitive.
 * - The new Person takes `name`, `contact_type_id` (one of CONTACT_TYPES), `assignee_id` from `details.person`, and
 *   everything else (and those when not given) from the Lead: name parts, address, details,
 *   e-mail, phones, socials, websites, tags and the custom fields available on people.
 * - The new Opportunity: `name` defaults to the Lead's name, `pipeline_id` to the first
 *   opportunity pipeline, `pipeline_stage_id` to the pipeline's first stage, `monetary_value` to
 *   the Lead's; `primary_contact_id` is the new Person, company members the joined Company.
 *
 * The check and the write of an upsert (and the whole conversion) run without an `await`:
 * atomic on Node's single thread.
 */
import type { App, AreaModule } from '../app.js';
import { HttpError } from '../http.js';
import { definition, normalizeCustomFields, type CustomFieldValue } from '../custom-fields.js';
import { C, LEAD_STATUSES, firstStage, makeCompany, makeLead, makeOpportunity, makePerson, present, type Rec } from '../model.js';
import type { PipelineRecord } from './pipelines.js';
import { idParam, invalid } from './common.js';

/** Contact types of the reference account (reference/profile.json `fixtures.contact_types`). */
export const CONTACT_TYPES = [{ id: 701, name: 'Potential Customer' }, { id: 702, name: 'Current Customer' }];

/** More matches than this: 422 without ids. */
export const UPSERT_MAX_IDS = 30;

/** Lead members an upsert may set (besides custom_fields and status). */
const LEAD_KEYS = [
  'name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'title', 'address', 'assignee_id', 'company_name',
  'customer_source_id', 'details', 'email', 'phone_numbers', 'socials', 'websites', 'monetary_unit', 'monetary_value', 'tags',
] as const;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const tick = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function sameText(app: App, a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return app.variant ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** `match.field_name` → how a Lead's value is read; undefined when the criterion is not supported. */
function matcher(app: App, fieldName: string): ((lead: Rec) => unknown) | undefined {
  if (fieldName === 'name') return (l) => l.name;
  if (fieldName === 'email') {
    if (app.fault('upsert-email-match-ignored')) return () => undefined;
    return (l) => (l.email as { email?: string } | null)?.email;
  }
  const m = /^custom_field_(\d+)$/.exec(fieldName);
  if (!m) return undefined;
  const def = definition(m[1]);
  if (!def || !def.available_on.includes('lead')) return undefined;
  if (app.fault('upsert-custom-field-match-ignored')) return () => undefined;
  return (l) => (l.custom_fields as CustomFieldValue[]).find((c) => Number(c.custom_field_definition_id) === def.id)?.value;
}

function valueMatches(app: App, leadValue: unknown, wanted: unknown): boolean {
  if (leadValue === undefined || leadValue === null) return false;
  if (typeof wanted === 'string') return sameText(app, leadValue, wanted);
  if (typeof wanted === 'number') return Number(leadValue) === wanted;
  return leadValue === wanted;
}

/** Checks an upsert body; answers the properties and the match. */
function checkUpsert(app: App, body: unknown): { properties: Record<string, unknown>; fieldName: string; fieldValue: unknown } {
  if (!isObj(body)) invalid(app, 'the body must be a JSON object { properties, match }');
  const b = body as Record<string, unknown>;
  if (!isObj(b.properties)) invalid(app, 'properties must be an object of Lead fields', 'properties');
  if (!isObj(b.match)) invalid(app, 'match must be an object { field_name, field_value }', 'match');
  const match = b.match as Record<string, unknown>;
  if (typeof match.field_name !== 'string') invalid(app, 'match.field_name must be a string', 'match.field_name');
  const fv = match.field_value;
  if (typeof fv !== 'string' && typeof fv !== 'number' && typeof fv !== 'boolean') invalid(app, 'match.field_value must be a string, a number or a boolean', 'match.field_value');
  const p = b.properties as Record<string, unknown>;
  for (const k of ['name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'title', 'company_name', 'details', 'monetary_unit']) {
    if (p[k] !== undefined && p[k] !== null && typeof p[k] !== 'string') invalid(app, `properties.${k} must be a string`, k);
  }
  if (p.email !== undefined && p.email !== null && (!isObj(p.email) || typeof p.email.email !== 'string')) invalid(app, 'properties.email must be { email, category }', 'email');
  if (p.monetary_value !== undefined && p.monetary_value !== null && typeof p.monetary_value !== 'number') invalid(app, 'properties.monetary_value must be a number', 'monetary_value');
  if (p.tags !== undefined && p.tags !== null && (!Array.isArray(p.tags) || p.tags.some((t) => typeof t !== 'string'))) invalid(app, 'properties.tags must be a list of strings', 'tags');
  if (p.custom_fields !== undefined && p.custom_fields !== null && (!Array.isArray(p.custom_fields) || p.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))) {
    invalid(app, 'properties.custom_fields must be a list of { custom_field_definition_id, value }', 'custom_fields');
  }
  return { properties: p, fieldName: match.field_name as string, fieldValue: fv };
}

/** The patch an upsert applies to an existing Lead: only the members sent. */
function leadPatch(app: App, existing: Rec, properties: Record<string, unknown>): Partial<Rec> {
  const built = makeLead(app, properties) as Record<string, unknown>;
  if (app.fault('upsert-update-clears-unsent')) {
    // Bug: the update rebuilds the whole Lead from the properties.
    const { date_created: _created, status: _s, status_id: _sid, ...rest } = built;
    return rest as Partial<Rec>;
  }
  const patch: Record<string, unknown> = {};
  for (const k of LEAD_KEYS) if (k in properties) patch[k] = built[k];
  if ('custom_fields' in properties) patch.custom_fields = normalizeCustomFields(properties.custom_fields, existing.custom_fields as CustomFieldValue[]);
  const status = LEAD_STATUSES.find((s) => s.name === properties.status || s.id === Number(properties.status_id));
  if (status && (properties.status !== undefined || properties.status_id !== undefined)) Object.assign(patch, { status: status.name, status_id: status.id });
  patch.date_modified = app.now();
  return patch as Partial<Rec>;
}

function ambiguous(app: App, ids: number[] | undefined, count: number): never {
  const what = ids ? `${count} leads match` : `more than ${UPSERT_MAX_IDS} leads match`;
  if (app.variant) {
    throw new HttpError(422, { errors: [{ code: ids ? 'ambiguous_match' : 'too_many_matches', detail: ids ? `${what}: ${ids.join(', ')}` : `${what}; refine the match` }] });
  }
  throw new HttpError(422, { success: false, status: 422, message: `${what}; refine the match`, ...(ids ? { ids } : {}) });
}

function notFoundLead(app: App, id: number): never {
  if (app.variant) throw new HttpError(422, { errors: [{ code: 'lead_unknown', detail: `no lead ${id}` }] });
  throw new HttpError(404, { success: false, status: 404, message: `lead ${id} not found` });
}

const opportunityPipelines = (app: App) => app.store.collection<PipelineRecord>('pipelines').filter((p) => p.type === 'opportunity');

export const leads: AreaModule = {
  name: 'leads',
  faults: [
    { name: 'upsert-duplicate-on-match', rules: ['UPSERT-3'], description: 'an upsert matching exactly one Lead creates a new Lead instead of updating it' },
    { name: 'upsert-update-first-of-many', rules: ['UPSERT-4'], description: 'an upsert matching 2..30 Leads updates the first of them instead of answering 422' },
    { name: 'upsert-422-without-ids', rules: ['UPSERT-4'], description: 'an upsert matching 2..30 Leads answers 422 without the ids of the matches' },
    { name: 'upsert-ids-over-30', rules: ['UPSERT-5'], description: 'an upsert matching more than 30 Leads answers 422 listing all their ids' },
    { name: 'upsert-no-ids-at-30', rules: ['UPSERT-4'], description: 'off by one: 30 matches already answer 422 without ids' },
    { name: 'upsert-not-atomic', rules: ['UPSERT-1'], description: 'an await (simulated storage round trip) between the match check and the create: concurrent upserts create duplicates' },
    { name: 'upsert-update-not-atomic', rules: ['UPSERT-1'], description: 'an update reads the Lead, awaits, then writes the stale copy back with its properties: concurrent updates are lost' },
    { name: 'upsert-status-not-new', rules: ['UPSERT-6'], description: 'a Lead created by upsert gets status Contacted' },
    { name: 'upsert-update-clears-unsent', rules: ['UPSERT-12'], description: 'an update rebuilds the Lead from properties: fields not sent become null' },
    { name: 'upsert-email-match-ignored', rules: ['UPSERT-8'], description: 'match on email never finds a Lead (always creates)' },
    { name: 'upsert-custom-field-match-ignored', rules: ['UPSERT-9'], description: 'match on a custom field never finds a Lead (always creates)' },
    { name: 'upsert-computed-values-off', rules: ['UPSERT-10'], description: 'the upsert answer carries option ids instead of option names' },
    { name: 'upsert-update-answers-id', rules: ['UPSERT-11'], description: 'an update by upsert answers only { id } instead of the Lead' },
    { name: 'upsert-422-still-writes', rules: ['UPSERT-13'], description: 'an ambiguous upsert answers 422 but updates the first match anyway' },
    { name: 'convert-lead-left-behind', rules: ['CONVERT-2', 'CONVERT-14'], description: 'the converted Lead is not deleted (converting it again succeeds)' },
    { name: 'convert-missing-lead-ok', rules: ['CONVERT-14'], description: 'converting a Lead id that does not exist answers 200 with a new Person' },
    { name: 'convert-person-name-ignored', rules: ['CONVERT-3'], description: 'details.person.name is ignored: the Person takes the Lead name' },
    { name: 'convert-company-id-ignored', rules: ['CONVERT-4'], description: 'details.company.id is ignored: the Person joins no Company' },
    { name: 'convert-second-company-for-name', rules: ['CONVERT-5'], description: 'the name of an existing Company creates a second Company of that name' },
    { name: 'convert-new-company-not-joined', rules: ['CONVERT-6'], description: 'a new Company is created but the Person does not join it' },
    { name: 'convert-empty-name-creates-company', rules: ['CONVERT-7'], description: 'an empty company name creates a Company with an empty name' },
    { name: 'convert-opportunity-when-omitted', rules: ['CONVERT-10', 'CONVERT-1'], description: 'an Opportunity is created although details.opportunity is omitted' },
    { name: 'convert-stage-not-first', rules: ['CONVERT-11'], description: 'without pipeline_stage_id the Opportunity lands in the last stage of the pipeline' },
    { name: 'convert-opportunity-value-dropped', rules: ['CONVERT-12'], description: 'monetary_value of details.opportunity is not stored' },
    { name: 'convert-computed-values-off', rules: ['CONVERT-13'], description: 'the convert answer carries option ids instead of option names' },
  ],
  api(router, app) {
    const leadsC = app.store.collection<Rec>(C.leads);
    const people = app.store.collection<Rec>(C.people);
    const companies = app.store.collection<Rec>(C.companies);
    const opportunities = app.store.collection<Rec>(C.opportunities);
    const out = (rec: Rec, computed = true) => present(app, rec, { computed });

    router.add('PUT', '/leads/upsert', async (ctx) => {
      const { properties, fieldName, fieldValue } = checkUpsert(app, ctx.body);
      const read = matcher(app, fieldName);
      if (!read) invalid(app, `match.field_name "${fieldName}" is not a supported criterion (name, email, custom_field_<id> of a Lead custom field)`, 'match.field_name');
      const computed = !app.fault('upsert-computed-values-off');
      // ---- check ----
      const matches = leadsC.filter((l) => valueMatches(app, read!(l), fieldValue));
      if (matches.length > UPSERT_MAX_IDS || (app.fault('upsert-no-ids-at-30') && matches.length === UPSERT_MAX_IDS)) {
        ambiguous(app, app.fault('upsert-ids-over-30') ? matches.map((l) => l.id) : undefined, matches.length);
      }
      if (matches.length > 1 && !app.fault('upsert-update-first-of-many')) {
        if (app.fault('upsert-422-still-writes')) leadsC.update(matches[0].id, leadPatch(app, matches[0], properties));
        ambiguous(app, app.fault('upsert-422-without-ids') ? undefined : matches.map((l) => l.id), matches.length);
      }
      if (matches.length === 0 || app.fault('upsert-duplicate-on-match')) {
        if (app.fault('upsert-not-atomic')) await tick(15); // bug: a storage round trip between check and write
        // ---- write (create) ----
        const rec = leadsC.insert(makeLead(app, properties));
        if (app.fault('upsert-status-not-new')) Object.assign(rec, { status: LEAD_STATUSES[1].name, status_id: LEAD_STATUSES[1].id });
        app.emit('lead', 'new', out(rec, false));
        return out(rec, computed);
      }
      // ---- write (update) ----
      const target = matches[0];
      let rec: Rec;
      if (app.fault('upsert-update-not-atomic')) {
        const snapshot = { ...target };
        await tick(15); // bug: read, await, write the stale copy back
        rec = leadsC.insert({ ...snapshot, ...leadPatch(app, snapshot, properties), id: target.id });
      } else {
        rec = leadsC.update(target.id, leadPatch(app, target, properties))!;
      }
      app.emit('lead', 'update', out(rec, false));
      if (app.fault('upsert-update-answers-id')) return { id: rec.id };
      return out(rec, computed);
    });

    router.add('POST', '/leads/{lead_id}/convert', (ctx) => {
      const leadId = idParam(ctx.params.lead_id, 'lead_id');
      // ---- checks: nothing is written before all of them pass ----
      const body = ctx.body === undefined ? {} : ctx.body;
      if (!isObj(body)) invalid(app, 'the body must be a JSON object { details }');
      const details = (body as Record<string, unknown>).details ?? {};
      if (!isObj(details)) invalid(app, 'details must be an object { person?, company?, opportunity? }', 'details');
      const d = details as Record<string, unknown>;
      for (const k of ['person', 'company', 'opportunity']) if (d[k] !== undefined && d[k] !== null && !isObj(d[k])) invalid(app, `details.${k} must be an object`, k);
      const person = (d.person ?? {}) as Record<string, unknown>;
      const company = d.company as Record<string, unknown> | undefined | null;
      const opp = d.opportunity as Record<string, unknown> | undefined | null;

      if (person.name !== undefined && person.name !== null && typeof person.name !== 'string') invalid(app, 'details.person.name must be a string', 'person.name');
      for (const k of ['contact_type_id', 'assignee_id']) if (person[k] !== undefined && person[k] !== null && !isId(person[k])) invalid(app, `details.person.${k} must be an identifier`, `person.${k}`);
      if (person.contact_type_id !== undefined && person.contact_type_id !== null && !CONTACT_TYPES.some((c) => c.id === Number(person.contact_type_id))) invalid(app, `contact type ${String(person.contact_type_id)} does not exist`, 'person.contact_type_id');

      let joinId: number | undefined;
      let newCompanyName: string | undefined;
      let candidates: Rec[] = [];
      if (company) {
        const hasId = company.id !== undefined && company.id !== null;
        const hasName = company.name !== undefined && company.name !== null;
        if (hasId && hasName) {
          if (app.variant) throw new HttpError(400, { errors: [{ code: 'company_ambiguous', detail: 'give details.company.id or details.company.name' }] });
          throw new HttpError(422, { success: false, status: 422, message: 'details.company takes id or name, not both' });
        }
        if (company.exact_match !== undefined && typeof company.exact_match !== 'boolean') invalid(app, 'details.company.exact_match must be a boolean', 'company.exact_match');
        if (hasId) {
          if (!isId(company.id) || !companies.get(company.id as number)) invalid(app, `company ${String(company.id)} does not exist`, 'company.id');
          if (!app.fault('convert-company-id-ignored')) joinId = Number(company.id);
        } else if (hasName) {
          if (typeof company.name !== 'string') invalid(app, 'details.company.name must be a string', 'company.name');
          const name = company.name as string;
          if (name !== '' || app.fault('convert-empty-name-creates-company')) {
            const existing = name === '' ? undefined : companies.all().find((c) => sameText(app, c.name, name));
            if (existing && !app.fault('convert-second-company-for-name')) joinId = existing.id;
            else newCompanyName = name;
            if (company.exact_match !== true && name !== '') {
              const lower = name.toLowerCase();
              candidates = companies.filter((c) => c.id !== existing?.id && typeof c.name === 'string' && c.name !== ''
                && (c.name.toLowerCase().includes(lower) || lower.includes(c.name.toLowerCase())));
            }
          }
        }
      }

      let pipelineId: number | undefined;
      let stageId: number | undefined;
      if (opp) {
        const pipelines = opportunityPipelines(app);
        if (opp.name !== undefined && opp.name !== null && typeof opp.name !== 'string') invalid(app, 'details.opportunity.name must be a string', 'opportunity.name');
        if (opp.monetary_value !== undefined && opp.monetary_value !== null && typeof opp.monetary_value !== 'number') invalid(app, 'details.opportunity.monetary_value must be a number', 'opportunity.monetary_value');
        if (opp.assignee_id !== undefined && opp.assignee_id !== null && !isId(opp.assignee_id)) invalid(app, 'details.opportunity.assignee_id must be an identifier', 'opportunity.assignee_id');
        const pipeline = opp.pipeline_id === undefined || opp.pipeline_id === null ? pipelines[0] : pipelines.find((p) => p.id === Number(opp.pipeline_id));
        if (!pipeline) invalid(app, `pipeline ${String(opp.pipeline_id)} is not an opportunity pipeline`, 'opportunity.pipeline_id');
        pipelineId = pipeline!.id;
        if (opp.pipeline_stage_id !== undefined && opp.pipeline_stage_id !== null) {
          const stage = pipeline!.stages.find((s) => s.id === Number(opp.pipeline_stage_id));
          if (!stage) invalid(app, `stage ${String(opp.pipeline_stage_id)} is not a stage of pipeline ${pipelineId}`, 'opportunity.pipeline_stage_id');
          stageId = stage!.id;
        } else {
          stageId = app.fault('convert-stage-not-first') ? pipeline!.stages[pipeline!.stages.length - 1]?.id : firstStage(pipelineId) ?? pipeline!.stages[0]?.id;
        }
      } else if (app.fault('convert-opportunity-when-omitted')) {
        pipelineId = opportunityPipelines(app)[0].id;
        stageId = firstStage(pipelineId) ?? undefined;
      }

      let lead = leadsC.get(leadId);
      if (!lead) {
        if (!app.fault('convert-missing-lead-ok')) notFoundLead(app, leadId);
        lead = { id: leadId, ...makeLead(app, { name: typeof person.name === 'string' ? person.name : 'Unknown' }) } as Rec;
      }

      // ---- writes ----
      let companyRec: Rec | undefined;
      let createdCompany = false;
      if (joinId !== undefined) companyRec = companies.get(joinId);
      else if (newCompanyName !== undefined) {
        companyRec = companies.insert(makeCompany(app, { name: newCompanyName, assignee_id: lead.assignee_id, address: lead.address }));
        createdCompany = true;
      }
      const joined = companyRec && !(createdCompany && app.fault('convert-new-company-not-joined')) ? companyRec : undefined;
      const personCustom = (lead.custom_fields as CustomFieldValue[]).filter((c) => definition(c.custom_field_definition_id)?.available_on.includes('person'));
      const personName = typeof person.name === 'string' && person.name !== '' && !app.fault('convert-person-name-ignored') ? person.name : lead.name;
      const personRec = people.insert(makePerson(app, {
        ...lead,
        name: personName,
        contact_type_id: person.contact_type_id ?? null,
        assignee_id: person.assignee_id ?? lead.assignee_id,
        company_id: joined?.id ?? null,
        company_name: joined?.name ?? null,
        emails: lead.email ? [lead.email] : [],
        custom_fields: personCustom,
      }));
      if (createdCompany && companyRec) companyRec = companies.update(companyRec.id, { primary_contact_id: personRec.id } as Partial<Rec>);
      let oppRec: Rec | undefined;
      if (pipelineId !== undefined) {
        const o = opp ?? {};
        oppRec = opportunities.insert(makeOpportunity(app, {
          name: typeof o.name === 'string' && o.name !== '' ? o.name : lead.name,
          pipeline_id: pipelineId,
          pipeline_stage_id: stageId,
          monetary_value: app.fault('convert-opportunity-value-dropped') ? null : o.monetary_value ?? lead.monetary_value,
          assignee_id: o.assignee_id ?? person.assignee_id ?? lead.assignee_id,
          primary_contact_id: personRec.id,
          company_id: joined?.id ?? null,
          company_name: joined?.name ?? null,
          customer_source_id: lead.customer_source_id,
          tags: lead.tags,
        }));
      }
      if (!app.fault('convert-lead-left-behind')) leadsC.delete(lead.id);

      app.emit('lead', 'delete', out(lead, false));
      app.emit('person', 'new', out(personRec, false));
      if (createdCompany && companyRec) app.emit('company', 'new', out(companyRec, false));
      if (oppRec) app.emit('opportunity', 'new', out(oppRec, false));

      const computed = !app.fault('convert-computed-values-off');
      const answer: Record<string, unknown> = { person: out(personRec, computed) };
      if (companyRec) answer.company = out(companyRec, computed);
      else if (!app.variant) answer.company = null;
      if (oppRec) answer.opportunity = out(oppRec, computed);
      else if (app.variant) answer.opportunity = null;
      if (candidates.length) {
        if (app.variant) answer.fuzzy_company_matches = candidates.map((c) => ({ id: c.id, name: c.name }));
        else answer.company_candidates = candidates.map((c) => out(c, computed));
      }
      return answer;
    });
  },
};

