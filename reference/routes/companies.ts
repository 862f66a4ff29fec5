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

export const COMPANY_SHAPE: BodyShape = {
  strings: ['name', 'details', 'email_domain'],
  ids: ['assignee_id', 'contact_type_id', 'primary_contact_id'],
  entries: { phone_numbers: 'number', socials: 'url', websites: 'url' },
};

const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');

export const companies: AreaModule = {
  name: 'companies',
  seed(app) {
    const c = app.store.collection<Rec>(C.companies);
    const id = FIXTURES.company_with_activities.company_id;
    c.insert({
      ...makeCompany(app, { name: 'Seeded Activities Inc.', email_domain: 'activities.example', details: 'Seeded: has activities and an attached file' }),
      id,
    });
    c.insert({ ...makeCompany(app, { name: 'Seeded Neighbour Ltd.', email_domain: 'neighbour.example' }), id: NEIGHBOUR_COMPANY_ID });
  },
  api(router, app) {
    const companies = app.store.collection<Rec>(C.companies);
    const activities = app.store.collection<Rec>(C.activities);

    router.add('POST', '/companies', (ctx) => {
      const b = checkRecordBody(app, ctx.body, COMPANY_SHAPE);
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
      if (typeof b !== 'object' || Array.isArray(b) || b === null) return invalid(app, 'the body must be a JSON object');
      const kinds = (b as { activity_types?: unknown }).activity_types ?? [];
      if (!Array.isArray(kinds)) return invalid(app, 'activity_types must be a list', 'activity_types');
      for (const k of kinds) {
        if (lenient(app) && k && typeof k === 'object' && typeof (k as Record<string, unknown>).category === 'number') {
          (k as Record<string, unknown>).category = String((k as Record<string, unknown>).category);
        }
        if (!k || typeof k !== 'object' || !isId((k as Record<string, unknown>).id) || typeof (k as Record<string, unknown>).category !== 'string') {
          invalid(app, 'every entry of activity_types is { id, category }', 'activity_types');
        }
      }
      const wanted = kinds as { id: number | string; category: string }[];
      const ofCompany = activities.filter((a) => {
        const parent = a.parent as { id: number; type: string };
        return parent.type === 'company' && parent.id === company.id;
      });
      const selected =
        wanted.length === 0
          ? app.choice('companies.activities-empty-filter') === 'all'
            ? ofCompany
            : []
          : ofCompany.filter((a) => {
              const t = a.type as { id: number; category: string };
              return wanted.some((w) => String(w.id) === String(t.id) && w.category === t.category);
            });
      const found = app.at('companies.activities.found', selected, { all: ofCompany });
      const dir = app.choice('companies.activities-order') === 'oldest-first' ? 1 : -1;
      found.sort((x, y) => dir * ((x.activity_date as number) - (y.activity_date as number)) || x.id - y.id);
      return found.map((a) => presentActivity(app, a));
    });
  },
};
