/**
 * Record shapes of the reference server and their factories. Stored records have exactly the
 * spec's fields plus internal members prefixed with `_` (never sent). Area modules create
 * records through these factories so that every area (convert, upsert, bulk, webhooks) builds
 * the same shapes.
 */
import type { App } from './app.js';
import { CUSTOM_FIELDS, computeCustomFields, normalizeCustomFields, type CustomFieldValue } from './custom-fields.js';
import { PIPELINES } from './routes/pipelines.js';
import { CURRENT_USER_ID } from './routes/common.js';

export type Rec = Record<string, unknown> & { id: number; _followed?: boolean };

/** Collection names in the store. */
export const C = {
  people: 'people',
  companies: 'companies',
  leads: 'leads',
  opportunities: 'opportunities',
  projects: 'projects',
  tasks: 'tasks',
  activities: 'activities',
  files: 'files',
  webhooks: 'webhooks',
} as const;

const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
// Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent for JSON input: Number.isFinite is false for every non-number (the typeof test
// made true changes nothing), and `||` differs only for NaN and ±Infinity, which JSON cannot carry; hides the whole test made true or false (killed)
const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
// Stryker disable next-line ConditionalExpression,StringLiteral: an id sent as text stored as null (the string test made false, or 'string' made ""): ids
// stay numbers (rules/choices.json ids.sequence), so a text id is ill-typed input, refused or taken leniently (WIRE-5). Hides killed: the test made true or
// false; `v !== ''` made true, or its '' changed (an assignee_id "" answered "": WIRE-5 PUT /leads/upsert with properties whose entries are null, …)
const id = (v: unknown): number | string | null => (typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : null);
// Stryker disable next-line ArrayDeclaration: made a list of one text, a record created without tags answers that tag (entries() drops it): a server may
// fill a list on its own, a default tag (specs/wire/empty-lists.spec.ts: WIRE-3 judges that a list is a list); the spec names no tags of a new record
const list = <T = unknown>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
// Stryker disable next-line MethodExpression,ConditionalExpression: equivalent: every create refuses tags holding a non-string, under every choice
// (checkRecordBody, checkWorkBody, checkUpsert, the bulk entry check); hides the filter made false (killed: every tag dropped)
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/** An address; a country not sent is null, or "" under `records.address-country` = empty-string ("`country` may be null or empty"). */
export function address(v: unknown, app?: App): Record<string, string | null> | null {
  // Stryker disable next-line ConditionalExpression: an address that is no object (a lead upsert does not check it) read as an address of nulls, not null:
  // ill-typed input, refused or taken leniently (WIRE-5), either reading a valid "address or null"; hides the test made true or false (killed)
  if (!v || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  const noCountry = app?.choice('records.address-country') === 'empty-string' ? '' : null;
  return { street: s(a.street), city: s(a.city), state: s(a.state), postal_code: s(a.postal_code), country: s(a.country) ?? noCountry };
}

/** Tags in the order of `records.tag-order`: as sent, or sorted. */
const tagsOf = (app: App, v: unknown): string[] => (app.choice('records.tag-order') === 'sorted' ? strings(v).sort() : strings(v));

function entries(v: unknown, key: 'email' | 'number' | 'url'): { [k: string]: string }[] {
  return list<Record<string, unknown>>(v)
    .filter(
      // Stryker disable next-line ConditionalExpression: `typeof e === 'object'` made true is equivalent (a JSON value that is no object has no member email,
      // number or url). Hides killed ones: the test made false (every entry dropped); made true, or `e && typeof e === 'object'` or the value's test made
      // true (WIRE-5 PUT /leads/upsert with properties whose entries are null, …: a null entry throws, an entry without its number is answered)
      (e) => e && typeof e === 'object' && typeof e[key] === 'string',
    )
    .map(
      // Stryker disable next-line StringLiteral: the category of an entry sent without one: not shown ("The complete set of categories: not shown"); hides
      // 'string' made "" (killed: every category answered 'work')
      (e) => ({ [key]: e[key] as string, category: typeof e.category === 'string' ? (e.category as string) : 'work' }),
    );
}

/**
 * An optional string member (a "string or null" of the spec): a string, or null. An empty string is
 * an empty field, stored (and answered) as null: "Fields that are absent or empty are returned as
 * `null`" (the choice `records.empty-strings`, decided: rules/choices.json). The point
 * `records.empty-string` is where a fault keeps it.
 */
const optional =
  (app: App) =>
  (v: unknown): string | null =>
    typeof v !== 'string' ? null : v === '' ? app.at('records.empty-string', null, undefined) : v;

const nameParts = (o: (v: unknown) => string | null, b: Record<string, unknown>) => ({
  prefix: o(b.prefix),
  first_name: o(b.first_name),
  middle_name: o(b.middle_name),
  last_name: o(b.last_name),
  suffix: o(b.suffix),
  title: o(b.title),
});

/** Multi-select values in the order of `records.multi-select-order`: as sent, or in the order of the field's options. */
export function optionOrder(app: App, values: CustomFieldValue[]): CustomFieldValue[] {
  if (app.choice('records.multi-select-order') !== 'option-order') return values;
  // Stryker disable all: code only the option-order alternative of records.multi-select-order runs (the default, as-sent, returns above)
  return values.map((c) => {
    const options = CUSTOM_FIELDS.find((d) => d.id === Number(c.custom_field_definition_id) && d.data_type === 'MultiSelect')?.options;
    if (!options || !Array.isArray(c.value)) return c;
    const rank = (x: unknown) => options.findIndex((o) => String(o.id) === String(x));
    return { ...c, value: [...(c.value as unknown[])].sort((a, b) => rank(a) - rank(b)) };
  });
}

// Stryker restore all
/**
 * The custom field values of a create body, in the order of `records.custom-field-order`; under
 * `records.custom-fields-listing` = every-definition, every definition available on the record's
 * kind is listed, null when not set.
 */
function customFields(app: App, v: unknown, kind: string): CustomFieldValue[] {
  // Stryker disable next-line StringLiteral: equivalent under the default: app.choice('') is undefined, and normalizeCustomFields' order then
  // defaults to 'definition-order', the default alternative of records.custom-field-order (it differs only under as-sent)
  const order = app.choice('records.custom-field-order');
  const values = optionOrder(app, normalizeCustomFields(v, [], order));
  if (app.choice('records.custom-fields-listing') === 'set-only') return values;
  // Stryker disable next-line all: code only the every-definition alternative of records.custom-fields-listing runs (set-only returns above)
  const unset = CUSTOM_FIELDS.filter((d) => d.available_on.includes(kind) && !values.some((c) => Number(c.custom_field_definition_id) === d.id));
  return normalizeCustomFields(
    // Stryker disable next-line all: code only the every-definition alternative of records.custom-fields-listing runs
    unset.map((d) => ({ custom_field_definition_id: d.id, value: null })),
    values,
    order,
  );
}

function stamps(app: App) {
  const t = app.now();
  return { date_created: t, date_modified: t };
}

export function makePerson(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  return {
    // A Person created without a name: taken only under records.required-on-create = nothing ("Fields required on create: not shown"), named "".
    // Stryker disable next-line StringLiteral: the name of a Person created without one, not shown (above); a conversion always sends one
    name: s(b.name) ?? '',
    ...nameParts(o, b),
    address: address(b.address, app),
    assignee_id: id(b.assignee_id),
    company_id: id(b.company_id),
    company_name: o(b.company_name),
    contact_type_id: id(b.contact_type_id),
    details: o(b.details),
    emails: entries(b.emails, 'email'),
    phone_numbers: entries(b.phone_numbers, 'number'),
    // A Person's socials and websites: POST /people shows name, emails, address and phone_numbers (PEOPLE-2 judges those), the spec gives no read
    // of a Person (PROJ-6's reading), and which Lead fields a converted Person copies is not stated.
    // Stryker disable next-line StringLiteral: a Person's socials, not judged (above)
    socials: entries(b.socials, 'url'),
    // Stryker disable next-line StringLiteral: a Person's websites, not judged (above)
    websites: entries(b.websites, 'url'),
    tags: tagsOf(app, b.tags),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'person'),
    interaction_count: 0,
    ...stamps(app),
  };
}

export function makeCompany(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  return {
    // Stryker disable next-line StringLiteral: a Company created without a name: "Required fields on company create: not shown" (records.required-on-create)
    name: s(b.name) ?? '',
    address: address(b.address, app),
    assignee_id: id(b.assignee_id),
    contact_type_id: id(b.contact_type_id),
    details: o(b.details),
    email_domain: o(b.email_domain),
    phone_numbers: entries(b.phone_numbers, 'number'),
    primary_contact_id: id(b.primary_contact_id),
    socials: entries(b.socials, 'url'),
    websites: entries(b.websites, 'url'),
    tags: tagsOf(app, b.tags),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'company'),
    interaction_count: 0,
    ...stamps(app),
  };
}

/** Record types by path segment (`/{entity}/…`): collection and singular type. */
export const ENTITIES: Record<string, { collection: string; type: string }> = {
  people: { collection: C.people, type: 'person' },
  companies: { collection: C.companies, type: 'company' },
  // As path segments: "Accepted values of `entity` beyond `people`: not shown" (relationships.entities). As resource types: the types `resource` takes
  // are not listed, no member of the spec links a Lead, and a Person's tie to an Opportunity is never read (no read of an Opportunity). `project`: REL-3/4.
  // Stryker disable next-line ObjectLiteral,StringLiteral: `leads` / `lead` of DELETE /{entity}/{entity_id}/related, not shown (above)
  leads: { collection: C.leads, type: 'lead' },
  // Stryker disable next-line ObjectLiteral,StringLiteral: `opportunities` / `opportunity` of the same endpoint, not shown (above)
  opportunities: { collection: C.opportunities, type: 'opportunity' },
  projects: { collection: C.projects, type: 'project' },
  tasks: { collection: C.tasks, type: 'task' },
};

/** Lead status ids: `New` is the initial status. */
export const LEAD_STATUSES = [
  // The names are read where an upsert sets status ("Transitions of these statuses: not shown") and by live mode; a new Lead's `New` is makeLead's
  // own literal (UPSERT-6). The statuses after New are seed data. The ObjectLiteral of New is killed (status_id undefined: UPSERT-6).
  // Stryker disable next-line StringLiteral: New's name, read only as above
  { id: 601, name: 'New' },
  // Stryker disable next-line ObjectLiteral,StringLiteral: seed lead statuses, read only as above
  { id: 602, name: 'Contacted' },
  // Stryker disable next-line ObjectLiteral,StringLiteral: the same
  { id: 603, name: 'Qualified' },
];

export function makeLead(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const email =
    // Stryker disable next-line ConditionalExpression: `typeof b.email === 'object'` made true is equivalent (text, numbers and booleans have no member
    // email), and the e-mail's test made true is unreached: the upsert refuses an email without a text email under every choice (checkUpsert); hides the
    // whole test, or `b.email && …`, made true or false (killed)
    b.email && typeof b.email === 'object' && typeof (b.email as Record<string, unknown>).email === 'string'
      ? // Stryker disable next-line StringLiteral: the category of an email sent without one: not shown ("The complete set of categories: not shown")
        { email: (b.email as Record<string, string>).email, category: (b.email as Record<string, string>).category ?? 'work' }
      : null;
  return {
    // A Lead created by upsert without a name (matched by e-mail): its name is not shown (`name | string`; WIRE-3's reading leaves a plain string out).
    // Stryker disable next-line StringLiteral: the name of a Lead created without one, not shown (above)
    name: s(b.name) ?? '',
    ...nameParts(o, b),
    address: address(b.address, app),
    assignee_id: id(b.assignee_id),
    company_name: o(b.company_name),
    customer_source_id: id(b.customer_source_id),
    details: o(b.details),
    email,
    phone_numbers: entries(b.phone_numbers, 'number'),
    socials: entries(b.socials, 'url'),
    websites: entries(b.websites, 'url'),
    status: 'New',
    status_id: LEAD_STATUSES[0].id,
    monetary_unit: o(b.monetary_unit),
    monetary_value: n(b.monetary_value),
    tags: tagsOf(app, b.tags),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'lead'),
    interaction_count: 0,
    ...stamps(app),
    date_last_contacted: null,
  };
}

/** First stage of a pipeline ("stage defaults to the first stage of the pipeline"). */
// Equivalent where the API shows it: conversion and bulk create fall back to the pipeline's stages[0] themselves when firstStage gives nothing; only
// seed opportunities (no read of an Opportunity in the spec) and live mode rest on it alone. Returning the stage of another pipeline is killed.
// Stryker disable next-line BlockStatement: nothing returned, the callers' fallback (above)
export function firstStage(pipelineId: unknown): number | null {
  // Stryker disable next-line LogicalOperator,OptionalChaining,ArrowFunction,ConditionalExpression: no stage found, the fallback (above); made true, killed
  return PIPELINES.find((p) => p.id === Number(pipelineId))?.stages[0]?.id ?? null;
}

export function makeOpportunity(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const pipelineId = id(b.pipeline_id) ?? PIPELINES[0].id;
  return {
    // Stryker disable next-line StringLiteral: equivalent: bulk create fails an entry without a name; a conversion names its Opportunity (sent, or the Lead's)
    name: s(b.name) ?? '',
    assignee_id: id(b.assignee_id),
    close_date: s(b.close_date),
    company_id: id(b.company_id),
    company_name: o(b.company_name),
    customer_source_id: id(b.customer_source_id),
    details: o(b.details),
    loss_reason_id: null,
    pipeline_id: pipelineId,
    pipeline_stage_id: id(b.pipeline_stage_id) ?? firstStage(pipelineId),
    primary_contact_id: id(b.primary_contact_id),
    priority: s(b.priority) ?? 'None',
    // An Opportunity's status: `status | string | observed Open` (no default stated; a plain string, out of WIRE-3's reading), and a status sent other than
    // Open: "others: not shown" (BULK-11 sends Open, which `&&` keeps).
    // Stryker disable next-line LogicalOperator,StringLiteral: the status of an Opportunity not sent one, or sent another, not shown (above)
    status: s(b.status) ?? 'Open',
    tags: tagsOf(app, b.tags),
    interaction_count: 0,
    monetary_value: n(b.monetary_value),
    win_probability: n(b.win_probability),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'opportunity'),
    ...stamps(app),
  };
}

export function makeProject(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a project create refuses a related_resource that is no object under every
  // choice (checkWorkBody), and null or absent is null either way; hides the test made false (killed: the related resource sent is lost)
  const rr = b.related_resource && typeof b.related_resource === 'object' ? (b.related_resource as Record<string, unknown>) : null;
  return {
    // Stryker disable next-line StringLiteral: equivalent: a project body without a string name is refused (PROJ-3), so a Project always has one
    name: s(b.name) ?? '',
    related_resource: rr ? { id: id(rr.id), type: s(rr.type) } : null,
    assignee_id: id(b.assignee_id),
    status: 'Open',
    details: o(b.details),
    tags: tagsOf(app, b.tags),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'project'),
    ...stamps(app),
  };
}

export function makeTask(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: `typeof … === 'object'` made true is equivalent (no object reads as {}), and `||` differs
  // only for a related_resource null (it throws), sent only through the extension POST /tasks, no part of the spec (live mode sends objects); hides the test
  // made true or false (killed: a Task without related_resource throws, or loses its link)
  const rr = b.related_resource && typeof b.related_resource === 'object' ? (b.related_resource as Record<string, unknown>) : {};
  const status = b.status === 'Completed' ? 'Completed' : 'Open';
  return {
    // Tasks are made only by the profile's POST /tasks extension (no part of the spec; it requires a name), live mode and seed data (with a priority,
    // and a completed_date where Completed).
    // Stryker disable next-line StringLiteral: equivalent, a Task always has a name (above)
    name: s(b.name) ?? '',
    related_resource: { id: id(rr.id), type: s(rr.type) },
    assignee_id: id(b.assignee_id),
    due_date: n(b.due_date),
    reminder_date: n(b.reminder_date),
    // Stryker disable next-line ConditionalExpression,StringLiteral: a Task created Completed without completed_date: extension only (above); made true, killed
    completed_date: n(b.completed_date) ?? (status === 'Completed' ? app.now() : null),
    // Stryker disable next-line LogicalOperator,StringLiteral: the priority of a Task created without one: extension only (above); `observed None, High`
    priority: s(b.priority) ?? 'None',
    status,
    details: o(b.details),
    tags: tagsOf(app, b.tags),
    // Stryker disable next-line StringLiteral: the kind is read only by the every-definition alternative of records.custom-fields-listing
    custom_fields: customFields(app, b.custom_fields, 'task'),
    ...stamps(app),
  };
}

/** The record as sent: internal `_` members removed; computed custom field values on request. */
export function present(app: App, rec: Rec, options: { computed?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Made true (or endsWith), the internal _followed is answered too: a member the spec does not list, which it allows (general.extra-fields:
  // "clients must ignore what they do not know"). Hides ConditionalExpression made false (no member but computed custom_fields answered: killed).
  // Stryker disable next-line ConditionalExpression,MethodExpression: the same (above)
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('_')) out[k] = v;
  if (options.computed && Array.isArray(rec.custom_fields)) out.custom_fields = computeCustomFields(rec.custom_fields as CustomFieldValue[]);
  // Stryker disable next-line StringLiteral: the choice's id emptied reads undefined: the extra-members alternative's member (extra members: not stated)
  const extra = app.choice('general.extra-fields');
  if (extra !== 'none') out.conformance_variant_extra = true;
  return extra === 'nested-members' ? withNestedExtras(out) : out;
}

// Stryker disable all: code only the nested-members alternative of general.extra-fields runs (withNestedExtras, and NESTED_EXTRA elsewhere)
/** A member the spec does not list, added to a nested object (`general.extra-fields` = nested-members). */
export const NESTED_EXTRA = 'conformance_nested_extra';
const extended = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? { ...v, [NESTED_EXTRA]: true } : v);

/** The nested shapes of a presented record with a member the spec does not list: address, entries, related_resource, custom field values. */
export function withNestedExtras(rec: Record<string, unknown>): Record<string, unknown> {
  const out = { ...rec };
  for (const k of ['address', 'email', 'related_resource', 'parent', 'type']) if (k in out) out[k] = extended(out[k]);
  for (const k of ['emails', 'phone_numbers', 'socials', 'websites', 'custom_fields', 'stages'])
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map(extended);
  return out;
}

// Stryker restore all
export { CURRENT_USER_ID };

/** The answer of a create: the status of the open choice `general.create-status`. */
export const created = (app: App, body: unknown) => ({ status: Number(app.choice('general.create-status')), body });
