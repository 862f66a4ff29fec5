/**
 * Companies (spec § Companies): `POST /companies`, `GET /companies/{company_id}`,
 * `POST /companies/{company_id}/activities`.
 *
 * Open choices of the spec and what this server does:
 * - "Required fields on company create: not shown": a non-empty `name` is required.
 * - The status of a create is not shown: 200 (variant: 201).
 * - `primary_contact_id` is always present; `null` until one is set.
 * - `activity_types` filter: an activity matches an entry when both its type `id` and
 *   `category` are equal. **An empty list (or no `activity_types` member) means "no filter":
 *   every activity of the Company** — the spec says the list "filters the activity kinds" and
 *   does not say what an empty filter selects; the variant answers `[]` for an empty list.
 * - Order of the activities: newest `activity_date` first (variant: oldest first).
 */
import type { AreaModule } from '../app.js';
import { C, makeCompany, present, type Rec } from '../model.js';
import { NEIGHBOUR_COMPANY_ID, presentActivity } from './activities.js';
import { FIXTURES } from '../profile.js';
import { idParam, invalid, notFound } from './common.js';
import { checkRecordBody, dropNulls, type BodyShape } from './people.js';

export const COMPANY_SHAPE: BodyShape = {
  strings: ['name', 'details', 'email_domain'],
  ids: ['assignee_id', 'contact_type_id', 'primary_contact_id'],
  entries: { phone_numbers: 'number', socials: 'url', websites: 'url' },
};

const isId = (v: unknown) => (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && v !== '');

export const companies: AreaModule = {
  name: 'companies',
  faults: [
    { name: 'company-fetch-missing-primary-contact', rules: ['COMPANY-3'], description: 'GET /companies/{id} leaves primary_contact_id out of the answer' },
    { name: 'company-address-dropped', rules: ['COMPANY-1', 'COMPANY-2'], description: 'the address sent on company create is not stored (comes back null)' },
    { name: 'company-websites-null', rules: ['COMPANY-6', 'WIRE-3'], description: 'a Company without websites has websites: null instead of []' },
    { name: 'company-absent-field-missing', rules: ['COMPANY-6', 'WIRE-3'], description: 'the serializer drops null members of a Company on create' },
    { name: 'company-activities-filter-ignored', rules: ['COMPANY-5'], description: 'POST /companies/{id}/activities ignores activity_types and answers every activity' },
  ],
  seed(app) {
    const c = app.store.collection<Rec>(C.companies);
    const id = FIXTURES.company_with_activities.company_id;
    c.insert({ ...makeCompany(app, { name: 'Seeded Activities Inc.', email_domain: 'activities.example', details: 'Seeded: has activities and an attached file' }), id });
    c.insert({ ...makeCompany(app, { name: 'Seeded Neighbour Ltd.', email_domain: 'neighbour.example' }), id: NEIGHBOUR_COMPANY_ID });
  },
  api(router, app) {
    const companies = app.store.collection<Rec>(C.companies);
    const activities = app.store.collection<Rec>(C.activities);
    const presentCompany = (rec: Rec, on: 'create' | 'fetch') => {
      const out = present(app, rec);
      if (app.fault('company-websites-null') && Array.isArray(out.websites) && out.websites.length === 0) out.websites = null;
      if (on === 'create' && app.fault('company-absent-field-missing')) dropNulls(out);
      if (on === 'fetch' && app.fault('company-fetch-missing-primary-contact')) delete out.primary_contact_id;
      return out;
    };

    router.add('POST', '/companies', (ctx) => {
      const b = checkRecordBody(app, ctx.body, COMPANY_SHAPE);
      if (typeof b.name !== 'string' || b.name.trim() === '') invalid(app, 'name is required', 'name');
      const fields = makeCompany(app, b);
      if (app.fault('company-address-dropped')) fields.address = null;
      const rec = companies.insert(fields);
      app.emit('company', 'new', present(app, rec));
      return { status: app.variant ? 201 : 200, body: presentCompany(rec, 'create') };
    });

    router.add('GET', '/companies/{company_id}', (ctx) => {
      const rec = companies.get(idParam(ctx.params.company_id, 'company_id')) ?? notFound('company');
      return presentCompany(rec, 'fetch');
    });

    router.add('POST', '/companies/{company_id}/activities', (ctx) => {
      const company = companies.get(idParam(ctx.params.company_id, 'company_id')) ?? notFound('company');
      const b = ctx.body ?? {};
      if (typeof b !== 'object' || Array.isArray(b) || b === null) return invalid(app, 'the body must be a JSON object');
      const kinds = (b as { activity_types?: unknown }).activity_types ?? [];
      if (!Array.isArray(kinds)) return invalid(app, 'activity_types must be a list', 'activity_types');
      for (const k of kinds) {
        if (!k || typeof k !== 'object' || !isId((k as Record<string, unknown>).id) || typeof (k as Record<string, unknown>).category !== 'string') {
          invalid(app, 'every entry of activity_types is { id, category }', 'activity_types');
        }
      }
      const wanted = kinds as { id: number | string; category: string }[];
      const ofCompany = activities.filter((a) => {
        const parent = a.parent as { id: number; type: string };
        return parent.type === 'company' && parent.id === company.id;
      });
      let found: Rec[];
      if (app.fault('company-activities-filter-ignored')) found = ofCompany;
      else if (wanted.length === 0) found = app.variant ? [] : ofCompany;
      else {
        found = ofCompany.filter((a) => {
          const t = a.type as { id: number; category: string };
          return wanted.some((w) => String(w.id) === String(t.id) && w.category === t.category);
        });
      }
      const dir = app.variant ? 1 : -1;
      found.sort((x, y) => dir * ((x.activity_date as number) - (y.activity_date as number)) || x.id - y.id);
      return found.map((a) => presentActivity(app, a));
    });
  },
};
