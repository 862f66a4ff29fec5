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
const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const id = (v: unknown): number | string | null => (typeof v === 'number' || (typeof v === 'string' && v !== '') ? v : null);
const list = <T = unknown>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');

/** An address; a country not sent is null, or "" under `records.address-country` = empty-string ("`country` may be null or empty"). */
export function address(v: unknown, app?: App): Record<string, string | null> | null {
  if (!v || typeof v !== 'object') return null;
  const a = v as Record<string, unknown>;
  const noCountry = app?.choice('records.address-country') === 'empty-string' ? '' : null;
  return { street: s(a.street), city: s(a.city), state: s(a.state), postal_code: s(a.postal_code), country: s(a.country) ?? noCountry };
}

/** Tags in the order of `records.tag-order`: as sent, or sorted. */
const tagsOf = (app: App, v: unknown): string[] => (app.choice('records.tag-order') === 'sorted' ? strings(v).sort() : strings(v));

function entries(v: unknown, key: 'email' | 'number' | 'url'): { [k: string]: string }[] {
  return list<Record<string, unknown>>(v)
    .filter((e) => e && typeof e === 'object' && typeof e[key] === 'string')
    .map((e) => ({ [key]: e[key] as string, category: typeof e.category === 'string' ? (e.category as string) : 'work' }));
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
  return values.map((c) => {
    const options = CUSTOM_FIELDS.find((d) => d.id === Number(c.custom_field_definition_id) && d.data_type === 'MultiSelect')?.options;
    if (!options || !Array.isArray(c.value)) return c;
    const rank = (x: unknown) => options.findIndex((o) => String(o.id) === String(x));
    return { ...c, value: [...(c.value as unknown[])].sort((a, b) => rank(a) - rank(b)) };
  });
}

/**
 * The custom field values of a create body, in the order of `records.custom-field-order`; under
 * `records.custom-fields-listing` = every-definition, every definition available on the record's
 * kind is listed, null when not set.
 */
function customFields(app: App, v: unknown, kind: string): CustomFieldValue[] {
  const order = app.choice('records.custom-field-order');
  const values = optionOrder(app, normalizeCustomFields(v, [], order));
  if (app.choice('records.custom-fields-listing') === 'set-only') return values;
  const unset = CUSTOM_FIELDS.filter((d) => d.available_on.includes(kind) && !values.some((c) => Number(c.custom_field_definition_id) === d.id));
  return normalizeCustomFields(
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
    socials: entries(b.socials, 'url'),
    websites: entries(b.websites, 'url'),
    tags: tagsOf(app, b.tags),
    custom_fields: customFields(app, b.custom_fields, 'person'),
    interaction_count: 0,
    ...stamps(app),
  };
}

export function makeCompany(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  return {
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
    custom_fields: customFields(app, b.custom_fields, 'company'),
    interaction_count: 0,
    ...stamps(app),
  };
}

/** Record types by path segment (`/{entity}/…`): collection and singular type. */
export const ENTITIES: Record<string, { collection: string; type: string }> = {
  people: { collection: C.people, type: 'person' },
  companies: { collection: C.companies, type: 'company' },
  leads: { collection: C.leads, type: 'lead' },
  opportunities: { collection: C.opportunities, type: 'opportunity' },
  projects: { collection: C.projects, type: 'project' },
  tasks: { collection: C.tasks, type: 'task' },
};

/** Lead status ids: `New` is the initial status. */
export const LEAD_STATUSES = [
  { id: 601, name: 'New' },
  { id: 602, name: 'Contacted' },
  { id: 603, name: 'Qualified' },
];

export function makeLead(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const email =
    b.email && typeof b.email === 'object' && typeof (b.email as Record<string, unknown>).email === 'string'
      ? { email: (b.email as Record<string, string>).email, category: (b.email as Record<string, string>).category ?? 'work' }
      : null;
  return {
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
    custom_fields: customFields(app, b.custom_fields, 'lead'),
    interaction_count: 0,
    ...stamps(app),
    date_last_contacted: null,
  };
}

/** First stage of a pipeline ("stage defaults to the first stage of the pipeline"). */
export function firstStage(pipelineId: unknown): number | null {
  return PIPELINES.find((p) => p.id === Number(pipelineId))?.stages[0]?.id ?? null;
}

export function makeOpportunity(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const pipelineId = id(b.pipeline_id) ?? PIPELINES[0].id;
  return {
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
    status: s(b.status) ?? 'Open',
    tags: tagsOf(app, b.tags),
    interaction_count: 0,
    monetary_value: n(b.monetary_value),
    win_probability: n(b.win_probability),
    custom_fields: customFields(app, b.custom_fields, 'opportunity'),
    ...stamps(app),
  };
}

export function makeProject(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const rr = b.related_resource && typeof b.related_resource === 'object' ? (b.related_resource as Record<string, unknown>) : null;
  return {
    name: s(b.name) ?? '',
    related_resource: rr ? { id: id(rr.id), type: s(rr.type) } : null,
    assignee_id: id(b.assignee_id),
    status: 'Open',
    details: o(b.details),
    tags: tagsOf(app, b.tags),
    custom_fields: customFields(app, b.custom_fields, 'project'),
    ...stamps(app),
  };
}

export function makeTask(app: App, b: Record<string, unknown>): Omit<Rec, 'id'> {
  const o = optional(app);
  const rr = b.related_resource && typeof b.related_resource === 'object' ? (b.related_resource as Record<string, unknown>) : {};
  const status = b.status === 'Completed' ? 'Completed' : 'Open';
  return {
    name: s(b.name) ?? '',
    related_resource: { id: id(rr.id), type: s(rr.type) },
    assignee_id: id(b.assignee_id),
    due_date: n(b.due_date),
    reminder_date: n(b.reminder_date),
    completed_date: n(b.completed_date) ?? (status === 'Completed' ? app.now() : null),
    priority: s(b.priority) ?? 'None',
    status,
    details: o(b.details),
    tags: tagsOf(app, b.tags),
    custom_fields: customFields(app, b.custom_fields, 'task'),
    ...stamps(app),
  };
}

/** The record as sent: internal `_` members removed; computed custom field values on request. */
export function present(app: App, rec: Rec, options: { computed?: boolean } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('_')) out[k] = v;
  if (options.computed && Array.isArray(rec.custom_fields)) out.custom_fields = computeCustomFields(rec.custom_fields as CustomFieldValue[]);
  const extra = app.choice('general.extra-fields');
  if (extra !== 'none') out.conformance_variant_extra = true;
  return extra === 'nested-members' ? withNestedExtras(out) : out;
}

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

export { CURRENT_USER_ID };

/** The answer of a create: the status of the open choice `general.create-status`. */
export const created = (app: App, body: unknown) => ({ status: Number(app.choice('general.create-status')), body });
