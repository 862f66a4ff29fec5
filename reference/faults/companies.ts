/** Faults of Companies (`POST /companies`, `GET /companies/{id}`, `POST /companies/{id}/activities`). */
import type { Rec } from '../model.js';
import type { Fault } from './types.js';
import { dropNulls, emptyListsTo, latin1Column, mapStrings, onSuccess } from './reshape.js';

declare module './types.js' {
  interface HookPoints {
    /** The fields of a new Company, before it is stored. */
    'companies.create.fields': { value: Omit<Rec, 'id'>; ctx: Record<string, never> };
    /** The activities of a Company that the activity_types filter selected; ctx.all: every activity of the Company. */
    'companies.activities.found': { value: Rec[]; ctx: { all: Rec[] } };
  }
}

const CREATE = 'POST /companies';
const FETCH = 'GET /companies/{company_id}';

export const COMPANIES_FAULTS: Fault[] = [
  {
    name: 'company-fetch-missing-primary-contact',
    rules: ['COMPANY-3'],
    description: 'GET /companies/{id} leaves primary_contact_id out of the answer',
    routes: [
      {
        route: FETCH,
        respond: onSuccess((b) => {
          const { primary_contact_id: _, ...rest } = b as Record<string, unknown>;
          return rest;
        }),
      },
    ],
  },
  {
    name: 'company-address-dropped',
    rules: ['COMPANY-1', 'COMPANY-2'],
    description: 'the address sent on company create is not stored (comes back null)',
    at: { 'companies.create.fields': (fields) => ({ ...fields, address: null }) },
  },
  {
    name: 'company-websites-null',
    rules: ['COMPANY-6', 'WIRE-3'],
    description: 'a Company without websites has websites: null instead of []',
    routes: [CREATE, FETCH].map((route) => ({ route, respond: onSuccess((b) => emptyListsTo(b, ['websites'])) })),
  },
  {
    name: 'company-absent-field-missing',
    rules: ['COMPANY-6', 'WIRE-3'],
    description: 'the serializer drops null members of a Company on create',
    routes: [{ route: CREATE, respond: onSuccess(dropNulls) }],
  },
  {
    name: 'company-activities-filter-ignored',
    rules: ['COMPANY-5'],
    description: 'POST /companies/{id}/activities ignores activity_types and answers every activity',
    at: { 'companies.activities.found': (_found, { all }) => all },
  },
  {
    name: 'company-text-latin1',
    rules: ['COMPANY-1'],
    description: 'the company store keeps name, details and address in Latin-1 columns: characters beyond U+00FF ("Ł", "山") are created (and answered) as "?"',
    at: {
      'companies.create.fields': (fields) => ({
        ...fields,
        ...(mapStrings({ name: fields.name, details: fields.details, address: fields.address }, latin1Column) as Record<string, unknown>),
      }),
    },
  },
  {
    name: 'company-fetch-no-socials',
    rules: ['COMPANY-2'],
    description: 'GET /companies/{id} does not join the socials and websites of the Company: both come back [] though the create answered them',
    routes: [{ route: FETCH, respond: onSuccess((b) => ({ ...(b as Record<string, unknown>), socials: [], websites: [] })) }],
  },
];
