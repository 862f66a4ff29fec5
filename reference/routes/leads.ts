/**
 * Leads (spec § Lead upsert, § Lead conversion): `PUT /leads/upsert` and
 * `POST /leads/{lead_id}/convert`.
 *
 * Open choices (rules/choices.json), taken from `app.choice`:
 * - `upsert.text-match`: name, email and text custom-field matches exact or ignoring case.
 *   Custom-field matches use `match.field_name = "custom_field_<definition id>"` (the profile's
 *   `lead_match_field`); the definition must be available on Leads.
 * - `upsert.created-lead`: a Lead created by upsert holds `properties` only, or also the match value.
 * - `upsert.ambiguous-body`: the 422 of 2..30 matches carries the ids in the shape taken (more than
 *   30 matches: the same shape without ids).
 * - Ill-formed upsert or convert bodies, unknown companies or pipelines, a company with both id
 *   and name: `invalid` (`errors.validation-status`, `errors.body`).
 * - `convert.missing-lead`: converting a Lead that does not exist answers 404 or 422.
 * - `convert.no-company`, `convert.no-opportunity`: `null` or no member when none.
 * - `convert.company-default`: without `details.company`, no Company or the Lead's company_name.
 * - Fuzzy company matching ("without `exact_match`, fuzzy matching returns a list of candidate
 *   companies"): the conversion proceeds exactly as with `exact_match: true` (an existing Company
 *   of that name, `convert.company-name-match`, is joined, otherwise one is created) and the
 *   answer also carries the other Companies whose names resemble the given one (case-insensitive
 *   containment either way), as `convert.fuzzy-candidates` says. With `exact_match: true` no
 *   candidates are listed.
 * - The new Person takes `name`, `contact_type_id` (one of CONTACT_TYPES), `assignee_id` from
 *   `details.person`, and everything else (and those when not given) from the Lead: name parts,
 *   address, details, e-mail, phones, socials, websites, tags and the custom fields available on
 *   people.
 * - The new Opportunity: `name` defaults to the Lead's name, `pipeline_id` to the first
 *   opportunity pipeline, `pipeline_stage_id` to the pipeline's first stage, `monetary_value` to
 *   the Lead's; `primary_contact_id` is the new Person, company members the joined Company.
 *
 * The check and the write of an upsert (and the whole conversion) run without an `await`:
 * atomic on Node's single thread; the writes go through the seams `upsert.create` and
 * `upsert.update`. Faults: reference/faults/leads.ts (hook points `upsert.*`, `convert.*`).
 */
import type { App, AreaModule } from '../app.js';
import { definition, normalizeCustomFields, type CustomFieldValue } from '../custom-fields.js';
import { C, LEAD_STATUSES, firstStage, makeCompany, makeLead, makeOpportunity, makePerson, NESTED_EXTRA, present, type Rec } from '../model.js';
import type { PipelineRecord } from './pipelines.js';
import { HttpError, type RequestContext } from '../http.js';
import type { Collection } from '../store.js';
import { idParam, invalid, refusal } from './common.js';
import { FIXTURES } from '../profile.js';

/** Contact types of the reference account (reference/profile.json `fixtures.contact_types`). */
export const CONTACT_TYPES: { id: number; name: string }[] = FIXTURES.contact_types;

/** More matches than this: 422 without ids. */
export const UPSERT_MAX_IDS = 30;

/** How long an upsert holds its match under `upsert.contention` = conflict (a storage round trip). */
const CONTENTION_HOLD_MS = 20;

/** Lead members an upsert may set (besides custom_fields and status). */
const LEAD_KEYS = [
  'name',
  'prefix',
  'first_name',
  'middle_name',
  'last_name',
  'suffix',
  'title',
  'address',
  'assignee_id',
  'company_name',
  'customer_source_id',
  'details',
  'email',
  'phone_numbers',
  'socials',
  'websites',
  'monetary_unit',
  'monetary_value',
  'tags',
] as const;

// Stryker disable next-line ConditionalExpression: `typeof v === 'object'` made true, a text is taken as an object: ill-typed input refused or taken
// (WIRE-5); made true or false whole, the WIRE-5 null-body test of specs/leads/bad-input.spec.ts and UPSERT-2 fail
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: an ill-typed id (a fraction, a text, an empty
// text) refused or taken (WIRE-5; ids are numbers); the variants refusing whole-number ids are killed (UPSERT-2, UPSERT-9 fail)
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');

/** Text equality of a match (`upsert.text-match`) or of a company name (`convert.company-name-match`). */
function sameText(ignoreCase: boolean, a: unknown, b: unknown): boolean {
  // A non-text value meets a text only for a number field matched by a text ("The shape of a custom-field match: not shown"), ill-typed input (WIRE-5)
  // or a Company without a name (records.required-on-create = nothing, not the default); made false, exact === is the same; made true, UPSERT-7 fails.
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: above
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: the case-insensitive branch: upsert.text-match, company-name-match
  // = case-insensitive (made always taken: that conformant alternative; made never: the default exact); `a === b` mutated, UPSERT-7 fails
  return ignoreCase ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** `match.field_name` → how a Lead's value is read; undefined when the criterion is not supported. */
function matcher(fieldName: string): ((lead: Rec) => unknown) | undefined {
  if (fieldName === 'name') return (l) => l.name;
  if (fieldName === 'email') return (l) => (l.email as { email?: string } | null)?.email;
  const def = customFieldOf(fieldName);
  // Stryker disable next-line ConditionalExpression: made false, an unsupported criterion is not refused: what it gets is not stated (the spec names the
  // supported criteria only; no rule); made true, UPSERT-9 fails
  if (!def) return undefined;
  return (l) => (l.custom_fields as CustomFieldValue[]).find((c) => Number(c.custom_field_definition_id) === def.id)?.value;
}

/** The Lead custom field a `custom_field_<id>` criterion names. */
function customFieldOf(fieldName: string) {
  // Stryker disable next-line Regex: text before or after custom_field_<id> taken as that criterion: "The shape of a custom-field match: not shown"; the
  // other Regex mutants are killed (UPSERT-9 fails)
  const m = /^custom_field_(\d+)$/.exec(fieldName);
  const def = m ? definition(m[1]) : undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a custom field not available on Leads (or unknown) named as a criterion: what it gets is
  // not stated ("its definition must be available on Leads" binds the client; no rule); made false, UPSERT-9 fails
  return def && def.available_on.includes('lead') ? def : undefined;
}

function valueMatches(ignoreCase: boolean, leadValue: unknown, wanted: unknown): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: only a number field_value 0 tells (Number(null) is 0): a number match value ("The shape
  // of a custom-field match: not shown"; a name or e-mail as a number is ill-typed, WIRE-5); made true, UPSERT-7 fails
  if (leadValue === undefined || leadValue === null) return false;
  // Stryker disable all: match values that are no text (numbers, booleans): "The shape of a custom-field match: not shown" (name and e-mail are text); a
  // text reaching the last line is compared with ===, as sameText does under the default upsert.text-match = exact
  if (typeof wanted === 'string') return sameText(ignoreCase, leadValue, wanted);
  if (typeof wanted === 'number') return Number(leadValue) === wanted;
  return leadValue === wanted;
}

// Stryker restore all
/** Checks an upsert body; answers the properties and the match. */
function checkUpsert(app: App, body: unknown): { properties: Record<string, unknown>; fieldName: string; fieldValue: unknown } {
  if (!isObj(body)) invalid(app, 'the body must be a JSON object { properties, match }');
  const b = body as Record<string, unknown>;
  if (!isObj(b.properties)) invalid(app, 'properties must be an object of Lead fields', 'properties');
  if (!isObj(b.match)) invalid(app, 'match must be an object { field_name, field_value }', 'match');
  const match = b.match as Record<string, unknown>;
  // Stryker disable all: ill-typed upsert bodies and members, refused with a 4xx or taken (WIRE-5, errors.ill-typed-input: the default refuses; a field_name
  // not text is refused below as no supported criterion); the variants refusing valid bodies are killed (UPSERT-2 fails)
  if (typeof match.field_name !== 'string') invalid(app, 'match.field_name must be a string', 'match.field_name');
  const fv = match.field_value;
  if (typeof fv !== 'string' && typeof fv !== 'number' && typeof fv !== 'boolean')
    invalid(app, 'match.field_value must be a string, a number or a boolean', 'match.field_value');
  const p = b.properties as Record<string, unknown>;
  for (const k of ['name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'title', 'company_name', 'details', 'monetary_unit']) {
    if (p[k] !== undefined && p[k] !== null && typeof p[k] !== 'string') invalid(app, `properties.${k} must be a string`, k);
  }
  if (p.email !== undefined && p.email !== null && (!isObj(p.email) || typeof p.email.email !== 'string'))
    invalid(app, 'properties.email must be { email, category }', 'email');
  if (p.monetary_value !== undefined && p.monetary_value !== null && typeof p.monetary_value !== 'number')
    invalid(app, 'properties.monetary_value must be a number', 'monetary_value');
  if (p.tags !== undefined && p.tags !== null && (!Array.isArray(p.tags) || p.tags.some((t) => typeof t !== 'string')))
    invalid(app, 'properties.tags must be a list of strings', 'tags');
  if (
    p.custom_fields !== undefined &&
    p.custom_fields !== null &&
    (!Array.isArray(p.custom_fields) || p.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id)))
  ) {
    invalid(app, 'properties.custom_fields must be a list of { custom_field_definition_id, value }', 'custom_fields');
  }
  // Stryker restore all
  return { properties: p, fieldName: match.field_name as string, fieldValue: fv };
}

/**
 * The properties of a Lead created by upsert: `properties`, and under `upsert.created-lead` =
 * stores-match-value also the match value when `properties` does not set it.
 */
function createdProperties(app: App, properties: Record<string, unknown>, fieldName: string, fieldValue: unknown): Record<string, unknown> {
  if (app.choice('upsert.created-lead') === 'properties-only') return properties;
  // Stryker disable all: code only upsert.created-lead = stores-match-value runs (the default properties-only returns above)
  if (fieldName === 'name') return properties.name == null && typeof fieldValue === 'string' ? { ...properties, name: fieldValue } : properties;
  if (fieldName === 'email')
    return properties.email == null && typeof fieldValue === 'string' ? { ...properties, email: { email: fieldValue, category: 'work' } } : properties;
  const def = customFieldOf(fieldName)!;
  const sent = Array.isArray(properties.custom_fields) ? (properties.custom_fields as Record<string, unknown>[]) : [];
  if (sent.some((c) => Number(c.custom_field_definition_id) === def.id)) return properties;
  return { ...properties, custom_fields: [...sent, { custom_field_definition_id: def.id, value: fieldValue }] };
}

// Stryker restore all
/** The patch an upsert applies to an existing Lead: only the members sent. */
export function leadPatch(app: App, existing: Rec, properties: Record<string, unknown>): Partial<Rec> {
  const built = makeLead(app, properties) as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  for (const k of LEAD_KEYS) if (k in properties) patch[k] = built[k];
  // Stryker disable next-line ConditionalExpression: made true (no custom_fields sent), the Lead's own values come back in definition order, as stored under
  // the default records.custom-field-order (equivalent); made false, UPSERT-3 fails
  if ('custom_fields' in properties) patch.custom_fields = normalizeCustomFields(properties.custom_fields, existing.custom_fields as CustomFieldValue[]);
  // Stryker disable all: an upsert that sets status / status_id: "Transitions of these statuses: not shown" (only `New` on creation by upsert is stated);
  // made to assign whenever status is unset, every update throws (UPSERT-3 fails)
  const status = LEAD_STATUSES.find((s) => s.name === properties.status || s.id === Number(properties.status_id));
  if (status && (properties.status !== undefined || properties.status_id !== undefined)) Object.assign(patch, { status: status.name, status_id: status.id });
  // Stryker restore all
  patch.date_modified = app.now();
  return app.at('upsert.patch', patch as Partial<Rec>, { existing, properties });
}

/** The 422 of an ambiguous upsert (`upsert.ambiguous-body`); `ids` undefined over 30 matches. */
function ambiguous(app: App, ids: number[] | undefined, count: number): never {
  const message = `${ids ? `${count} leads match` : `more than ${UPSERT_MAX_IDS} leads match`}; refine the match`;
  // Stryker disable next-line StringLiteral: app.choice('') is undefined, and the fall-through below is the default shape ids-member (equivalent)
  const shape = app.choice('upsert.ambiguous-body');
  if (shape === 'errors-detail') {
    throw new HttpError(422, { errors: [{ code: ids ? 'ambiguous_match' : 'too_many_matches', detail: ids ? `${message}: ${ids.join(', ')}` : message }] });
  }
  if (shape === 'matches-list') throw new HttpError(422, { error: message, ...(ids ? { matches: ids.map((id) => ({ id })) } : {}) });
  // Stryker disable next-line BooleanLiteral: `success` in the 422 of an ambiguous upsert: "exact body shape: not shown" (the ids are judged, UPSERT-4)
  throw new HttpError(422, { success: false, status: 422, message, ...(ids ? { ids } : {}) });
}

// Stryker disable next-line ConditionalExpression: made true, every pipeline counts: the first seeded is an opportunity pipeline (the same default when
// pipeline_id is omitted), and what a conversion to a project or item pipeline gets is not stated; made false, CONVERT-11 fails
const opportunityPipelines = (app: App) => app.store.collection<PipelineRecord>('pipelines').filter((p) => p.type === 'opportunity');
/** How a conversion treats the Company: join `joinId`, or create `newName`, or neither. */
export interface CompanyPlan {
  joinId?: number;
  newName?: string;
}
/** Where a converted Lead's Opportunity goes (none when `pipelineId` is undefined). */
export interface OpportunityPlan {
  pipelineId?: number;
  stageId?: number;
}

/** What the Lead routes read of the server once: the stores and the open choices of text matching. */
interface LeadArea {
  app: App;
  leads: Collection<Rec>;
  people: Collection<Rec>;
  companies: Collection<Rec>;
  opportunities: Collection<Rec>;
  /** A record as answered (computed custom-field values by default) or as announced (`computed` false). */
  out: (rec: Rec, computed?: boolean) => Record<string, unknown>;
  matchIgnoresCase: boolean;
  companyIgnoresCase: boolean;
}

/** `PUT /leads/upsert`. Under `upsert.contention` = conflict, a match is held for a storage round trip: 409 to another upsert of it. */
function upsertRoute(a: LeadArea) {
  const { app } = a;
  /** Matches with an upsert in progress (`upsert.contention` = conflict). */
  const held = new Set<string>();
  return async (ctx: RequestContext) => {
    const { properties, fieldName, fieldValue } = checkUpsert(app, ctx.body);
    const read =
      matcher(fieldName) ??
      invalid(app, `match.field_name "${fieldName}" is not a supported criterion (name, email, custom_field_<id> of a Lead custom field)`, 'match.field_name');
    if (app.choice('upsert.contention') === 'serialized') return upsertNow(a, properties, fieldName, fieldValue, read);
    // The match is held for a storage round trip; the check and the write after it stay atomic.
    // Stryker disable all: only upsert.contention = conflict runs this (the default, serialized, returns above): an upsert meeting another one in
    // progress on the same match: "not shown" (a 409, or waiting its turn, both conform)
    const key = `${fieldName}\u0000${a.matchIgnoresCase ? JSON.stringify(fieldValue).toLowerCase() : JSON.stringify(fieldValue)}`;
    if (held.has(key)) throw refusal(app, 409, 'another upsert of this match is in progress: try again', { code: 'conflict' });
    held.add(key);
    try {
      await new Promise((r) => setTimeout(r, CONTENTION_HOLD_MS));
      return upsertNow(a, properties, fieldName, fieldValue, read);
    } finally {
      held.delete(key);
    }
  };
}

// Stryker restore all
/** The check, then the update or create, of an upsert: no `await` between them. */
function upsertNow(a: LeadArea, properties: Record<string, unknown>, fieldName: string, fieldValue: unknown, read: (l: Rec) => unknown) {
  const { app, leads, out } = a;
  // ---- check ----
  const found = leads.filter((l) => valueMatches(a.matchIgnoresCase, read(l), fieldValue));
  const matches = app.at('upsert.matches', found, { fieldName, fieldValue, properties });
  if (matches.length > 1) {
    const ids = app.at('upsert.ambiguous-ids', matches.length > UPSERT_MAX_IDS ? undefined : matches.map((l) => l.id), { matches, properties });
    ambiguous(app, ids, matches.length);
  }
  // ---- write (create) ----
  if (matches.length === 0) {
    // Stryker disable next-line ObjectLiteral: a fault seam's argument (unused with no fault on)
    return app.seam('upsert.create', { properties }, () => {
      const rec = leads.insert(app.at('upsert.new-lead', makeLead(app, createdProperties(app, properties, fieldName, fieldValue)), undefined));
      // Stryker disable next-line BooleanLiteral: the notification presents the Lead as stored now (webhooks.ts notify): this copy's computed flag is unread
      app.emit('lead', 'new', out(rec, false));
      // `upsert.create-status`: a create may answer 201, an update answers 200.
      return { status: Number(app.choice('upsert.create-status')), body: out(rec) };
    });
  }
  // ---- write (update) ----
  const target = matches[0];
  const patch = leadPatch(app, target, properties);
  // Stryker disable next-line ObjectLiteral: a fault seam's argument (unused with no fault on)
  return app.seam('upsert.update', { lead: target, patch }, () => {
    // Stryker disable next-line LogicalOperator,BooleanLiteral: equivalent: `target` is the stored record (no await since the check); `previous`, computed
    // or not, is read only by webhook.no-op-update = skipped and by the change lists of webhook.payload shapes other than the default (not shown)
    const before = out(leads.get(target.id) ?? target, false);
    const rec = leads.update(target.id, patch)!;
    // Stryker disable next-line BooleanLiteral: the notification presents the Lead as stored now (webhooks.ts notify); this copy's computed flag is read
    // only by webhook.no-op-update = skipped, whose alternative (notified) announces every update
    app.emit('lead', 'update', out(rec, false), before);
    return out(rec);
  });
}

/** The parts of a conversion's `details`, checked: the Person's, the Company's and the Opportunity's. */
interface ConvertDetails {
  person: Record<string, unknown>;
  company: Record<string, unknown> | undefined | null;
  opp: Record<string, unknown> | undefined | null;
}

/** Checks a conversion's body and its `details.person`. */
function checkConvertBody(app: App, raw: unknown): ConvertDetails {
  // Stryker disable next-line ConditionalExpression: made false, a missing body (the spec's Body is `{ details }`) is refused: refused with a 4xx
  // or taken (WIRE-5, errors.ill-typed-input); made true, killed
  const body = raw === undefined ? {} : raw;
  if (!isObj(body)) invalid(app, 'the body must be a JSON object { details }');
  const details = (body as Record<string, unknown>).details ?? {};
  // Stryker disable next-line ConditionalExpression,CallExpression: made false, a details that is no object is read as one without members:
  // ill-typed input refused with a 4xx or taken (WIRE-5, errors.ill-typed-input); made true, killed
  if (!isObj(details)) invalid(app, 'details must be an object { person?, company?, opportunity? }', 'details');
  const d = details as Record<string, unknown>;
  // Stryker disable next-line ArrayDeclaration,StringLiteral: emptied, a member that is no object is read member by member (a text has none):
  // ill-typed input refused with a 4xx or taken (WIRE-5, errors.ill-typed-input)
  for (const k of ['person', 'company', 'opportunity'])
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: the same; a null member refused or read as absent: not stated (WIRE-5);
    // made true, or `=== undefined`, every conversion is refused: killed
    if (d[k] !== undefined && d[k] !== null && !isObj(d[k])) invalid(app, `details.${k} must be an object`, k);
  const person = (d.person ?? {}) as Record<string, unknown>;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: a name that is no text taken (the Lead's used) or refused, a null one
  // refused or read as absent (WIRE-5); an absent name refused (a term made true, `=== undefined`, `||`): CONVERT-3 fails ("without details.person…")
  if (person.name !== undefined && person.name !== null && typeof person.name !== 'string') invalid(app, 'details.person.name must be a string', 'person.name');
  // Stryker disable next-line ArrayDeclaration,StringLiteral: emptied, an ill-typed id is taken (read as none: model.ts id()): ill-typed input
  // refused with a 4xx or taken (WIRE-5, errors.ill-typed-input); a contact type that is no id is still refused below
  for (const k of ['contact_type_id', 'assignee_id'])
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: the same; a null id refused or read as absent: not stated
    // (WIRE-5); made true (other terms) or `=== undefined`, every conversion with a person id is refused: killed
    if (person[k] !== undefined && person[k] !== null && !isId(person[k])) invalid(app, `details.person.${k} must be an identifier`, `person.${k}`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a contact type the account lacks refused or taken, as POST /people's company_id that
  // names no Company (WIRE-5: "Status codes for missing records … not shown"); a null one refused or read as absent; made true, killed
  if (person.contact_type_id !== undefined && person.contact_type_id !== null && !CONTACT_TYPES.some((c) => c.id === Number(person.contact_type_id)))
    // Stryker disable next-line CallExpression: the same (taken)
    invalid(app, `contact type ${String(person.contact_type_id)} does not exist`, 'person.contact_type_id');
  return { person, company: d.company as ConvertDetails['company'], opp: d.opportunity as ConvertDetails['opp'] };
}

/** The Company of that name (`convert.company-name-match`). */
const companyNamed = (a: LeadArea, name: string) => a.companies.all().find((c) => sameText(a.companyIgnoresCase, c.name, name));

/** Checks `details.company`: the plan (join or create), and the fuzzy candidates when `exact_match` is not true. */
function companyPlanOf(a: LeadArea, company: Record<string, unknown>): { plan: CompanyPlan; candidates: Rec[] } {
  const { app, companies } = a;
  // Stryker disable next-line ConditionalExpression: a null id refused or read as absent: not stated (WIRE-5); made true or false (whole), killed
  const hasId = company.id !== undefined && company.id !== null;
  // Stryker disable next-line ConditionalExpression: a null name, the same
  const hasName = company.name !== undefined && company.name !== null;
  // Stryker disable next-line ConditionalExpression,CallExpression: made false, the id is joined, the name unused: "refusing, or honouring one of them, both
  // conform" (CONVERT-8); made true, killed
  if (hasId && hasName) invalid(app, 'details.company takes id or name, not both', 'company');
  // Stryker disable next-line ConditionalExpression: made false, an exact_match that is no boolean is read as not true: ill-typed input refused
  // with a 4xx or taken (WIRE-5, errors.ill-typed-input); made true, killed
  if (company.exact_match !== undefined && typeof company.exact_match !== 'boolean')
    // Stryker disable next-line CallExpression: the same
    invalid(app, 'details.company.exact_match must be a boolean', 'company.exact_match');
  // Stryker disable next-line ConditionalExpression,LogicalOperator,CallExpression: an id no Company has refused or taken (the Person joins none), as
  // POST /people's company_id that names no Company (WIRE-5: "Status codes for missing records … not shown"); made true, killed
  if (hasId && (!isId(company.id) || !companies.get(company.id as number))) invalid(app, `company ${String(company.id)} does not exist`, 'company.id');
  if (hasName && typeof company.name !== 'string') invalid(app, 'details.company.name must be a string', 'company.name');
  const name = hasName ? (company.name as string) : undefined;
  const existing = name ? companyNamed(a, name) : undefined;
  const given: CompanyPlan = hasId ? { joinId: Number(company.id) } : existing ? { joinId: existing.id } : name ? { newName: name } : {};
  const plan = app.at('convert.company-plan', given, { company, existing });
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral,ArrayDeclaration: which candidates are listed, and whether with
  // exact_match: CONVERT-9, a MAY ("recorded, never judged"); made false (whole) or `name`, `name.toLowerCase` throws (500): killed
  if (!name || company.exact_match === true) return { plan, candidates: [] };
  // Stryker disable next-line MethodExpression: the same (CONVERT-9)
  const lower = name.toLowerCase();
  // Which Companies are fuzzy candidates: CONVERT-9, a MAY ("recorded, never judged"); not OptionalChaining: `existing.id` throws (500), CONVERT-1 fails.
  // Stryker disable MethodExpression,ArrowFunction,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: candidates are a MAY (CONVERT-9)
  const candidates = companies.filter(
    (c) =>
      c.id !== existing?.id && typeof c.name === 'string' && c.name !== '' && (c.name.toLowerCase().includes(lower) || lower.includes(c.name.toLowerCase())),
  );
  // Stryker restore MethodExpression,ArrowFunction,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral
  return { plan, candidates };
}

/** Checks `details.opportunity`: where the new Opportunity goes (none without `details.opportunity`). */
function opportunityPlanOf(app: App, opp: ConvertDetails['opp']): OpportunityPlan {
  let oppPlan: OpportunityPlan = {};
  const pipelines = opportunityPipelines(app);
  if (opp) {
    // An omitted name refused: which members are required is not shown; refusing every opportunity or a string name is killed (CONVERT-12).
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: ill-typed or null opportunity.name, refused or taken (WIRE-5)
    if (opp.name !== undefined && opp.name !== null && typeof opp.name !== 'string')
      // Stryker disable next-line CallExpression: the same (taken: WIRE-5)
      invalid(app, 'details.opportunity.name must be a string', 'opportunity.name');
    // Stryker disable next-line ConditionalExpression,EqualityOperator: ill-typed or null monetary_value, refused or taken (WIRE-5); the others are killed
    if (opp.monetary_value !== undefined && opp.monetary_value !== null && typeof opp.monetary_value !== 'number')
      // Stryker disable next-line CallExpression: the same (taken: WIRE-5)
      invalid(app, 'details.opportunity.monetary_value must be a number', 'opportunity.monetary_value');
    // Stryker disable next-line ConditionalExpression,EqualityOperator: ill-typed or null assignee_id, refused or taken (WIRE-5); the others are killed
    if (opp.assignee_id !== undefined && opp.assignee_id !== null && !isId(opp.assignee_id))
      // Stryker disable next-line CallExpression: the same (taken: WIRE-5)
      invalid(app, 'details.opportunity.assignee_id must be an identifier', 'opportunity.assignee_id');
    // Stryker disable next-line ConditionalExpression: a null pipeline_id refused with a 4xx or taken (WIRE-5); the other ConditionalExpressions are killed
    const pipeline = opp.pipeline_id === undefined || opp.pipeline_id === null ? pipelines[0] : pipelines.find((p) => p.id === Number(opp.pipeline_id));
    if (!pipeline) invalid(app, `pipeline ${String(opp.pipeline_id)} is not an opportunity pipeline`, 'opportunity.pipeline_id');
    // Stryker disable next-line ConditionalExpression: a null pipeline_stage_id refused with a 4xx or taken (WIRE-5); the others are killed (CONVERT-11/12)
    const givenStage = opp.pipeline_stage_id !== undefined && opp.pipeline_stage_id !== null;
    const stage = givenStage ? pipeline!.stages.find((s) => s.id === Number(opp.pipeline_stage_id)) : undefined;
    // An unknown stage: failed, or taken at a stage of its pipeline (PIPE-5: "which entries fail is not stated"); made true, killed.
    // Stryker disable next-line ConditionalExpression: an unknown stage taken (above)
    if (givenStage && !stage)
      // Stryker disable next-line CallExpression: the same (taken, the Opportunity is placed at the first stage of its pipeline)
      invalid(app, `stage ${String(opp.pipeline_stage_id)} is not a stage of pipeline ${pipeline!.id}`, 'opportunity.pipeline_stage_id');
    // Stryker disable next-line OptionalChaining: equivalent on the seed data: every opportunity pipeline has stages; `stage.id` is killed
    oppPlan = { pipelineId: pipeline!.id, stageId: stage?.id ?? firstStage(pipeline!.id) ?? pipeline!.stages[0]?.id };
  }
  return app.at('convert.opportunity-plan', oppPlan, { opportunity: opp ?? undefined, pipelines });
}

/** What a conversion wrote. */
interface Converted {
  personRec: Rec;
  companyRec?: Rec;
  createdCompany: boolean;
  oppRec?: Rec;
}

/** The writes of a conversion: the Company joined or created, the new Person and Opportunity; the Lead deleted; each announced. */
function writeConversion(a: LeadArea, lead: Rec, d: ConvertDetails, plan: CompanyPlan, oppPlan: OpportunityPlan): Converted {
  const { app, companies, out } = a;
  let companyRec: Rec | undefined;
  let createdCompany = false;
  if (plan.joinId !== undefined) companyRec = companies.get(plan.joinId);
  else if (plan.newName !== undefined) {
    companyRec = companies.insert(makeCompany(app, { name: plan.newName, assignee_id: lead.assignee_id, address: lead.address }));
    createdCompany = true;
  }
  const joined = app.at('convert.joined-company', companyRec, { created: createdCompany, lead, requested: !!d.company });
  const personRec = newPerson(a, lead, d.person, joined);
  // Made true, killed (a conversion without a Company throws).
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the primary_contact_id of a Company created or joined by conversion: not stated
  if (createdCompany && companyRec) companyRec = companies.update(companyRec.id, { primary_contact_id: personRec.id } as Partial<Rec>);
  const oppRec = oppPlan.pipelineId === undefined ? undefined : newOpportunity(a, lead, d, oppPlan, personRec, joined);
  a.leads.delete(lead.id);

  // Whether a conversion is a delete event is not stated (open choice webhook.convert-delete).
  // Stryker disable next-line StringLiteral,BooleanLiteral,CallExpression: the lead/delete notification of a conversion: EVENT-8, a MAY (its payload:
  // "not shown"); left out, the conversion is silent, as under webhook.convert-delete's other alternative
  if (app.choice('webhook.convert-delete') === 'announced') app.emit('lead', 'delete', out(lead, false));
  // The records it creates are new records of their types ("A Person is created…"): announced as such.
  // Stryker disable next-line ConditionalExpression: a fault hook (the identity with no fault on); made false, killed (EVENT-1)
  if (app.at('convert.announce-new', true, undefined)) {
    // Stryker disable next-line BooleanLiteral: equivalent: a new record's notification presents the record as stored, per subscription (webhooks.ts)
    app.emit('person', 'new', out(personRec, false));
    // Stryker disable next-line BooleanLiteral: the same (the `||` of this line is killed: EVENT-6)
    if (createdCompany && companyRec) app.emit('company', 'new', out(companyRec, false));
    // Stryker disable next-line BooleanLiteral: the same
    if (oppRec) app.emit('opportunity', 'new', out(oppRec, false));
  }
  return { personRec, companyRec, createdCompany, oppRec };
}

/** The Person a Lead becomes: `details.person`'s name, contact type and assignee, the rest from the Lead. */
function newPerson(a: LeadArea, lead: Rec, person: Record<string, unknown>, joined: Rec | undefined): Rec {
  const { app } = a;
  // Stryker disable next-line all: which Lead custom fields the Person copies: not stated (a Lead holds values of known definitions only)
  const personCustom = (lead.custom_fields as CustomFieldValue[]).filter((c) => definition(c.custom_field_definition_id)?.available_on.includes('person'));
  // The name sent not taken is killed (CONVERT-3); ObjectLiteral: a fault hook's argument (unused with no fault on).
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,ObjectLiteral: the Person's name without details.person.name: not shown
  const personName = app.at('convert.person-name', typeof person.name === 'string' && person.name !== '' ? person.name : lead.name, { lead });
  return a.people.insert(
    makePerson(app, {
      ...lead,
      name: personName,
      contact_type_id: person.contact_type_id ?? null,
      assignee_id: person.assignee_id ?? lead.assignee_id,
      company_id: joined?.id ?? null,
      // Stryker disable next-line LogicalOperator: the Person's company_name: not stated (CONVERT-4..6 judge company_id)
      company_name: joined?.name ?? null,
      // Stryker disable next-line ArrayDeclaration: which Lead fields the Person copies: not stated; ["Stryker was here"]: equivalent (entries() drops it)
      emails: lead.email ? [lead.email] : [],
      custom_fields: personCustom,
    }),
  );
}

/** The Opportunity of a conversion: `details.opportunity`, else the Lead's name and value. */
function newOpportunity(a: LeadArea, lead: Rec, d: ConvertDetails, oppPlan: OpportunityPlan, personRec: Rec, joined: Rec | undefined): Rec {
  const { app } = a;
  const o = d.opp ?? {};
  return a.opportunities.insert(
    app.at(
      'convert.new-opportunity',
      makeOpportunity(app, {
        // The name sent not taken is killed (CONVERT-12).
        // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: the Opportunity's name without details.opportunity.name: not stated
        name: typeof o.name === 'string' && o.name !== '' ? o.name : lead.name,
        pipeline_id: oppPlan.pipelineId,
        pipeline_stage_id: oppPlan.stageId,
        monetary_value: o.monetary_value ?? lead.monetary_value,
        assignee_id: o.assignee_id ?? d.person.assignee_id ?? lead.assignee_id,
        primary_contact_id: personRec.id,
        // Stryker disable LogicalOperator: the Opportunity's company members: not stated ("an Opportunity is created", its members are those sent)
        company_id: joined?.id ?? null,
        company_name: joined?.name ?? null,
        // Stryker restore LogicalOperator
        customer_source_id: lead.customer_source_id,
        tags: lead.tags,
      }),
      undefined,
    ),
  );
}

/** The answer of a conversion (`convert.no-company`, `convert.no-opportunity`, `convert.fuzzy-candidates`). */
function conversionAnswer(a: LeadArea, c: Converted, candidates: Rec[]): Record<string, unknown> {
  const { app, out } = a;
  const answer: Record<string, unknown> = { person: out(c.personRec) };
  if (c.companyRec) answer.company = out(c.companyRec);
  else if (app.choice('convert.no-company') === 'null') answer.company = null;
  if (c.oppRec) answer.opportunity = out(c.oppRec);
  else if (app.choice('convert.no-opportunity') === 'null') answer.opportunity = null;
  // Stryker disable all: where and in what shape fuzzy candidates come: not shown (convert.fuzzy-candidates); CONVERT-9 is a MAY
  if (candidates.length) {
    if (app.choice('convert.fuzzy-candidates') === 'fuzzy-company-matches') answer.fuzzy_company_matches = candidates.map((x) => ({ id: x.id, name: x.name }));
    else answer.company_candidates = candidates.map((x) => out(x));
  }
  // Stryker restore all
  if (app.choice('general.extra-fields') === 'nested-members') answer[NESTED_EXTRA] = true;
  return answer;
}

/** `POST /leads/{lead_id}/convert`: every check first, then the writes, with no `await` between them. */
function convert(a: LeadArea, ctx: RequestContext) {
  const { app } = a;
  const leadId = idParam(ctx.params.lead_id, 'lead_id');
  // ---- checks: nothing is written before all of them pass ----
  const d = checkConvertBody(app, ctx.body);
  // Stryker disable next-line ArrayDeclaration: a candidate list without details.company: CONVERT-9, a MAY (where and what shape: not shown)
  const company = d.company ? companyPlanOf(a, d.company) : { plan: {}, candidates: [] };
  let plan: CompanyPlan = company.plan;
  const oppPlan = opportunityPlanOf(app, d.opp);
  const lead =
    app.at('convert.lead', a.leads.get(leadId), { id: leadId, person: d.person }) ??
    (() => {
      // Stryker disable next-line ObjectLiteral,StringLiteral: members of an error body: "the general error body: not shown"; the choice id made "": killed
      throw refusal(app, Number(app.choice('convert.missing-lead')), `lead ${leadId} not found`, { code: 'lead_unknown' });
    })();
  // Made true (the Lead's company_name over details.company), killed.
  // Stryker disable next-line all: only the alternative from-lead of convert.company-default runs it (default none); loosened: from-lead
  if (!d.company && app.choice('convert.company-default') === 'from-lead' && typeof lead.company_name === 'string' && lead.company_name !== '') {
    const existing = companyNamed(a, lead.company_name);
    plan = existing ? { joinId: existing.id } : { newName: lead.company_name };
  }
  // ---- writes ----
  const converted = writeConversion(a, lead, d, plan, oppPlan);
  return { status: Number(app.choice('convert.status')), body: conversionAnswer(a, converted, company.candidates) };
}

export const leads: AreaModule = {
  name: 'leads',
  api(router, app) {
    const area: LeadArea = {
      app,
      leads: app.store.collection<Rec>(C.leads),
      people: app.store.collection<Rec>(C.people),
      companies: app.store.collection<Rec>(C.companies),
      opportunities: app.store.collection<Rec>(C.opportunities),
      out: (rec: Rec, computed = true) => present(app, rec, { computed }),
      matchIgnoresCase: app.choice('upsert.text-match') === 'case-insensitive',
      companyIgnoresCase: app.choice('convert.company-name-match') === 'case-insensitive',
    };
    router.add('PUT', '/leads/upsert', upsertRoute(area));
    router.add('POST', '/leads/{lead_id}/convert', (ctx) => convert(area, ctx));
  },
};
