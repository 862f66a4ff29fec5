/**
 * People (spec § People): `POST /people`.
 *
 * Open choices (rules/choices.json): the fields required on create
 * (`records.required-on-create`), the status of a create (`general.create-status`), first and
 * last name derived from `name` or not (`people.name-parts`), `company_name` taken from the
 * Company of `company_id` or not (`people.company-name`). Person create is eligible for
 * computed custom field values: the answer carries option names.
 * Faults: reference/faults/people.ts.
 *
 * Also home of the body checks shared with companies: ill-typed members are refused with a 4xx.
 */
import type { App, AreaModule } from '../app.js';
import { C, created, makePerson, present, type Rec } from '../model.js';
import { asObject, invalid, lenient } from './common.js';

// The type checks of a create body (people, companies): without them the model takes an ill-typed member leniently, storing
// valid values only; refusing and taking are both conformant (errors.ill-typed-input; WIRE-5 judges a taking by its answer).
// Stryker disable all: ill-typed input, refused or taken leniently (above)
const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// Stryker restore all

export interface BodyShape {
  strings: string[];
  ids: string[];
  entries: Record<string, 'email' | 'number' | 'url'>;
}

// Stryker disable all: ill-typed input, refused or taken leniently (the members checked)
export const PERSON_SHAPE: BodyShape = {
  strings: ['name', 'prefix', 'first_name', 'middle_name', 'last_name', 'suffix', 'title', 'company_name', 'details'],
  ids: ['assignee_id', 'company_id', 'contact_type_id'],
  entries: { emails: 'email', phone_numbers: 'number', socials: 'url', websites: 'url' },
};
// Stryker restore all

/** A non-empty name, unless the open choice `records.required-on-create` requires nothing. */
// Stryker disable next-line BlockStatement: a name required or not: open choice records.required-on-create ("Fields required on create: not shown")
export function requireName(app: App, b: Record<string, unknown>): void {
  // Stryker disable next-line all: the same (a check loosened or dropped requires nothing, or takes a blank name: the other alternative)
  if (app.choice('records.required-on-create') === 'name' && (typeof b.name !== 'string' || b.name.trim() === '')) invalid(app, 'name is required', 'name');
}

/** Refuses (4xx) a record body whose members have the wrong types. */
// Stryker disable all: ill-typed input, refused or taken leniently (isId above)
export function checkRecordBody(app: App, body: unknown, shape: BodyShape, skip: string[] = []): Record<string, unknown> {
  if (body === undefined || !isObj(body)) invalid(app, 'the body must be a JSON object');
  const b = asObject(body);
  for (const k of shape.strings) {
    if (typeof b[k] === 'number' && lenient(app)) b[k] = String(b[k]);
    if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string') invalid(app, `${k} must be a string`, k);
  }
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
  if (b.tags !== undefined && b.tags !== null && (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== 'string')))
    invalid(app, 'tags must be a list of strings', 'tags');
  if (b.custom_fields !== undefined && b.custom_fields !== null) {
    if (!Array.isArray(b.custom_fields) || b.custom_fields.some((c) => !isObj(c) || !isId(c.custom_field_definition_id))) {
      invalid(app, 'custom_fields must be a list of { custom_field_definition_id, value }', 'custom_fields');
    }
  }
  return b;
}
// Stryker restore all

export const people: AreaModule = {
  name: 'people',
  api(router, app) {
    const people = app.store.collection<Rec>(C.people);
    const companies = app.store.collection<Rec>(C.companies);
    router.add('POST', '/people', (ctx) => {
      const b = checkRecordBody(app, app.at('people.create.body', ctx.body, {}), PERSON_SHAPE);
      // Stryker disable next-line all: a name required or not: open choice records.required-on-create
      requireName(app, b);
      const fields = makePerson(app, b);
      // The test of open choice people.company-name: loosened or dropped, company_name is as sent (its other alternative).
      // Stryker disable next-line all: the test of open choice people.company-name (above)
      if (fields.company_id !== null && fields.company_name === null && app.choice('people.company-name') === 'from-company') {
        const company = companies.get(fields.company_id as number);
        // Made false, company_name stays as sent: the other alternative. Made true, a company_id no Company has fails the create
        // with a 5xx, which WIRE-5 catches (specs/people/bad-input.spec.ts; checked by hand): StrykerJS disables both or neither.
        // Stryker disable next-line ConditionalExpression: made false, the other alternative of people.company-name (above)
        if (company) fields.company_name = company.name;
      }
      // Stryker disable next-line all: the test of open choice people.name-parts (its branch runs under derived-from-name only)
      if (fields.first_name === null && fields.last_name === null && app.choice('people.name-parts') === 'derived-from-name') {
        const parts = String(fields.name).trim().split(/\s+/).filter(Boolean);
        fields.first_name = parts[0] ?? null;
        fields.last_name = parts.length > 1 ? parts[parts.length - 1] : null;
      }
      const rec = people.insert(fields);
      app.emit('person', 'new', present(app, rec));
      return created(app, present(app, rec, { computed: app.at('people.create.computed', true, {}) }));
    });
  },
};
