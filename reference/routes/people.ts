/**
 * People (spec § People): `POST /people`.
 *
 * Open choices of the spec and what this server does:
 * - "Fields required on create: not shown": a non-empty `name` is required (both modes).
 * - The status of a create is not shown: 200 (variant: 201).
 * - The variant derives `first_name`/`last_name` from `name` when they are not sent (a common
 *   server behaviour the spec neither requires nor forbids).
 * - Person create is eligible for computed custom field values: the answer carries option names.
 *
 * Also home of the body checks shared with companies: ill-typed members are refused with a 4xx.
 */
import type { App, AreaModule } from '../app.js';
import { C, makePerson, present, type Rec } from '../model.js';
import { asObject, invalid } from './common.js';

const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export interface BodyShape {
  strings: string[];
  ids: string[];
  entries: Record<string, 'email' | 'number' | 'url'>;
}

export const PERSON_SHAPE: BodyShape = {
  strings: ['name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'title', 'company_name', 'details'],
  ids: ['assignee_id', 'company_id', 'contact_type_id'],
  entries: { emails: 'email', phone_numbers: 'number', socials: 'url', websites: 'url' },
};

/** Refuses (4xx) a record body whose members have the wrong types. */
export function checkRecordBody(app: App, body: unknown, shape: BodyShape, skip: string[] = []): Record<string, unknown> {
  if (body === undefined || !isObj(body)) invalid(app, 'the body must be a JSON object');
  const b = asObject(body);
  for (const k of shape.strings) if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string') invalid(app, `${k} must be a string`, k);
  for (const k of shape.ids) if (b[k] !== undefined && b[k] !== null && !isId(b[k])) invalid(app, `${k} must be an identifier`, k);
  for (const [k, member] of Object.entries(shape.entries)) {
    if (skip.includes(k) || b[k] === undefined || b[k] === null) continue;
    if (!Array.isArray(b[k])) invalid(app, `${k} must be a list`, k);
    for (const e of b[k] as unknown[]) {
      if (!isObj(e) || typeof e[member] !== 'string') invalid(app, `every entry of ${k} needs a string ${member}`, k);
      if (e.category !== undefined && typeof e.category !== 'string') invalid(app, `the category of an entry of ${k} must be a string`, k);
    }
  }
  if (b.address !== undefined && b.address !== null) {
    if (!isObj(b.address)) invalid(app, 'address must be an object', 'address');
    for (const [k, v] of Object.entries(b.address)) if (v !== null && typeof v !== 'string') invalid(app, `address.${k} must be a string`, 'address');
  }
  if (b.tags !== undefined && b.tags !== null && (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== 'string'))) invalid(app, 'tags must be a list of strings', 'tags');
  if (b.custom_fields !== undefined && b.custom_fields !== null) {
    if (!Array.isArray(b.custom_fields) || b.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id))) {
      invalid(app, 'custom_fields must be a list of { custom_field_definition_id, value }', 'custom_fields');
    }
  }
  return b;
}

/** Serializer bug of the fault `*-absent-field-missing`: null members are dropped. */
export function dropNulls(out: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(out)) if (v === null) delete out[k];
  return out;
}

export function presentPerson(app: App, rec: Rec, options: { computed?: boolean } = {}): Record<string, unknown> {
  const out = present(app, rec, options);
  if (app.fault('person-emails-null') && Array.isArray(out.emails) && out.emails.length === 0) out.emails = null;
  if (app.fault('person-absent-field-missing')) dropNulls(out);
  return out;
}

export const people: AreaModule = {
  name: 'people',
  faults: [
    { name: 'timestamps-in-ms', rules: ['WIRE-2'], description: 'every timestamp the server stamps (date_created, date_modified, …) is in milliseconds' },
    { name: 'person-emails-null', rules: ['PEOPLE-3', 'WIRE-3'], description: 'a Person without e-mail addresses has emails: null instead of []' },
    { name: 'person-absent-field-missing', rules: ['PEOPLE-3', 'WIRE-3'], description: 'the serializer drops null members of a Person instead of sending null' },
    { name: 'person-computed-values-off', rules: ['PEOPLE-4'], description: 'POST /people answers option ids instead of computed option names' },
    { name: 'person-emails-not-list-crash', rules: ['WIRE-5'], description: 'POST /people with emails that is not a list fails with 500 (emails.map is not a function)' },
  ],
  api(router, app) {
    const people = app.store.collection<Rec>(C.people);
    const companies = app.store.collection<Rec>(C.companies);
    router.add('POST', '/people', (ctx) => {
      if (app.fault('person-emails-not-list-crash') && ctx.body && typeof ctx.body === 'object') {
        // "Normalises" the addresses before the checks: a string has no .map → TypeError → 500.
        const raw = (ctx.body as { emails?: unknown }).emails;
        if (raw !== undefined && raw !== null) (raw as { email: string }[]).map((e) => e.email);
      }
      const b = checkRecordBody(app, ctx.body, PERSON_SHAPE);
      if (typeof b.name !== 'string' || b.name.trim() === '') invalid(app, 'name is required', 'name');
      const fields = makePerson(app, b);
      if (fields.company_id !== null && fields.company_name === null) {
        const company = companies.get(fields.company_id as number);
        if (company) fields.company_name = company.name;
      }
      if (app.variant && fields.first_name === null && fields.last_name === null) {
        const parts = String(fields.name).trim().split(/\s+/);
        fields.first_name = parts[0] ?? null;
        fields.last_name = parts.length > 1 ? parts[parts.length - 1] : null;
      }
      const rec = people.insert(fields);
      app.emit('person', 'new', present(app, rec));
      const body = presentPerson(app, rec, { computed: !app.fault('person-computed-values-off') });
      return { status: app.variant ? 201 : 200, body };
    });
  },
};
