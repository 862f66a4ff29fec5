/** Faults of People (`POST /people`): post-processors of its answer and its hook points. */
import type { Fault } from './types.js';
import { dropNulls, emptyListsTo, mapStrings, mojibake, onSuccess } from './reshape.js';

declare module './types.js' {
  interface HookPoints {
    /** The raw body of `POST /people`, before any check. */
    'people.create.body': { value: unknown; ctx: Record<string, never> };
    /** Whether the answer of `POST /people` carries computed custom field values. */
    'people.create.computed': { value: boolean; ctx: Record<string, never> };
  }
}

const CREATE = 'POST /people';

export const PEOPLE_FAULTS: Fault[] = [
  {
    name: 'timestamps-in-ms',
    rules: ['WIRE-2'],
    description: 'every timestamp the server stamps (date_created, date_modified, …) is in milliseconds',
    at: { 'clock.now': (seconds) => seconds * 1000 },
  },
  {
    name: 'person-emails-null',
    rules: ['PEOPLE-3', 'WIRE-3'],
    description: 'a Person without e-mail addresses has emails: null instead of []',
    routes: [{ route: CREATE, respond: onSuccess((b) => emptyListsTo(b, ['emails'])) }],
  },
  {
    name: 'person-absent-field-missing',
    rules: ['PEOPLE-3', 'WIRE-3'],
    description: 'the serializer drops null members of a Person instead of sending null',
    routes: [{ route: CREATE, respond: onSuccess(dropNulls) }],
  },
  {
    name: 'person-computed-values-off',
    rules: ['PEOPLE-4'],
    description: 'POST /people answers option ids instead of computed option names',
    at: { 'people.create.computed': () => false },
  },
  {
    name: 'person-emails-not-list-crash',
    rules: ['WIRE-5'],
    description: 'POST /people with emails that is not a list fails with 500 (emails.map is not a function)',
    at: {
      'people.create.body': (body) => {
        // "Normalises" the addresses before the checks: a string has no .map → TypeError → 500.
        const raw = body && typeof body === 'object' ? (body as { emails?: unknown }).emails : undefined;
        if (raw !== undefined && raw !== null) (raw as { email: string }[]).map((e) => e.email);
        return body;
      },
    },
  },
  {
    name: 'person-name-latin1',
    rules: ['PEOPLE-2'],
    description: 'POST /people decodes the body as Latin-1: a name or address outside ASCII is created (and answered) as mojibake ("Zoë" → "ZoÃ«")',
    at: { 'people.create.body': (body) => mapStrings(body, mojibake) },
  },
];
