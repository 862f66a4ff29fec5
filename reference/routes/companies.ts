/**
 * Companies (spec § Companies): `POST /companies`, `GET /companies/{company_id}`,
 * `POST /companies/{company_id}/activities`.
 *
 * - `primary_contact_id` is always present; `null` until one is set.
 * - `activity_types` filter: an activity matches an entry when both its type `id` and
 *   `category` are equal.
 * Open choices (rules/choices.json): the fields required on create
 * (`records.required-on-create`), the status of a create (`general.create-status`), what an
 * empty `activity_types` list selects (`companies.activities-empty-filter`: every activity, or
 * none), the order of the activities (`companies.activities-order`) and the status for an
 * unknown company (`records.missing-status`).
 * Faults: reference/faults/companies.ts (and activity-parent-wrong in ./activities.ts).
 */
import type { AreaModule } from '../app.js';
import { C, created, makeCompany, present, type Rec } from '../model.js';
import { NEIGHBOUR_COMPANY_ID, presentActivity } from './activities.js';
import { FIXTURES } from '../profile.js';
import { idParam, invalid, lenient, missing } from './common.js';
import { checkRecordBody, requireName, type BodyShape } from './people.js';

// Stryker disable all: ill-typed input, refused or taken leniently (errors.ill-typed-input; as PERSON_SHAPE in people.ts)
export const COMPANY_SHAPE: BodyShape = {
  strings: ['name', 'details', 'email_domain'],
  ids: ['assignee_id', 'contact_type_id', 'primary_contact_id'],
  entries: { phone_numbers: 'number', socials: 'url', websites: 'url' },
};

const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');
// Stryker restore all

export const companies: AreaModule = {
  name: 'companies',
  // Stryker disable all: seed data (an account's companies are its own)
  seed(app) {
    const c = app.store.collection<Rec>(C.companies);
    const id = FIXTURES.company_with_activities.company_id;
    c.insert({
      ...makeCompany(app, { name: 'Seeded Activities Inc.', email_domain: 'activities.example', details: 'Seeded: has activities and an attached file' }),
      id,
    });
    c.insert({ ...makeCompany(app, { name: 'Seeded Neighbour Ltd.', email_domain: 'neighbour.example' }), id: NEIGHBOUR_COMPANY_ID });
  },
  // Stryker restore all
  api(router, app) {
    const companies = app.store.collection<Rec>(C.companies);
    const activities = app.store.collection<Rec>(C.activities);

    router.add('POST', '/companies', (ctx) => {
      const b = checkRecordBody(app, ctx.body, COMPANY_SHAPE);
      // Stryker disable next-line all: a name required or not: open choice records.required-on-create
      requireName(app, b);
      const rec = companies.insert(app.at('companies.create.fields', makeCompany(app, b), {}));
      app.emit('company', 'new', present(app, rec));
      return created(app, present(app, rec));
    });

    router.add('GET', '/companies/{company_id}', (ctx) => {
      const rec = companies.get(idParam(ctx.params.company_id, 'company_id')) ?? missing(app, 'company');
      return present(app, rec);
    });

    router.add('POST', '/companies/{company_id}/activities', (ctx) => {
      const company = companies.get(idParam(ctx.params.company_id, 'company_id')) ?? missing(app, 'company');
      const b = ctx.body ?? {};
      // A body that is no object has no activity_types: refused here, or read as no filter below (a lenient taking, answered as a list).
      // Stryker disable next-line all: refused or taken leniently (errors.ill-typed-input)
      if (typeof b !== 'object' || Array.isArray(b) || b === null) return invalid(app, 'the body must be a JSON object');
      // Without activity_types: what the request selects, or whether the member is required, is not shown.
      // Stryker disable next-line ArrayDeclaration: not shown (above): made a list of one bad entry, the request is refused
      const kinds = (b as { activity_types?: unknown }).activity_types ?? [];
      if (!Array.isArray(kinds)) return invalid(app, 'activity_types must be a list', 'activity_types');
      for (const k of kinds) {
        // Stryker disable next-line all: the lenient alternative of errors.ill-typed-input (a number category as its text)
        if (lenient(app) && k && typeof k === 'object' && typeof (k as Record<string, unknown>).category === 'number') {
          (k as Record<string, unknown>).category = String((k as Record<string, unknown>).category);
        }
        const entry = k as Record<string, unknown> | null;
        // An entry that is null has no members: refused. A primitive entry has none either, and is refused next.
        if (!entry) invalid(app, 'every entry of activity_types is { id, category }', 'activity_types');
        // An entry whose id or category is ill-typed matches no activity kind: refused, or taken leniently (answered as a list).
        // Stryker disable next-line all: refused or taken leniently (errors.ill-typed-input)
        if (!isId(entry!.id) || typeof entry!.category !== 'string') invalid(app, 'every entry of activity_types is { id, category }', 'activity_types');
      }
      const wanted = kinds as { id: number | string; category: string }[];
      const ofCompany = activities.filter((a) => {
        const parent = a.parent as { id: number; type: string };
        // Every activity has a Company as parent: the spec creates none, and the seeded ones are companies'.
        // Stryker disable next-line ConditionalExpression: equivalent (above)
        return parent.type === 'company' && parent.id === company.id;
      });
      const selected =
        // Stryker disable next-line ConditionalExpression: made false, an empty filter selects none: companies.activities-empty-filter's other alternative
        wanted.length === 0
          ? app.choice('companies.activities-empty-filter') === 'all'
            ? ofCompany
            : []
          : ofCompany.filter((a) => {
              const t = a.type as { id: number; category: string };
              return wanted.some((w) => String(w.id) === String(t.id) && w.category === t.category);
            });
      const found = app.at('companies.activities.found', selected, { all: ofCompany });
      // The order of the answer is not shown (companies.activities-order: the reference's two orders; any order is conformant).
      // Stryker disable next-line UnaryOperator: not shown (above)
      const dir = app.choice('companies.activities-order') === 'oldest-first' ? 1 : -1;
      // Stryker disable next-line all: the same
      found.sort((x, y) => dir * ((x.activity_date as number) - (y.activity_date as number)) || x.id - y.id);
      return found.map((a) => presentActivity(app, a));
    });
  },
};
