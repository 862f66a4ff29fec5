/**
 * Blind-spot faults of WIRE-3 ("Fields that are absent or empty are returned as null (lists as
 * [])"): one per record kind the suite can create, each turning every EMPTY list member of a
 * presented record of that kind (tags, custom_fields, emails, phone_numbers, socials, websites,
 * leads_converted_from, …) into null, in every answer that presents the record: create, fetch,
 * search, upsert, convert, bulk. Post-processors of those routes only.
 */
import type { Fault, RouteFault } from './types.js';
import { eachRecord, emptyListsTo, onSuccess } from './reshape.js';

declare module './types.js' {
  interface HookPoints {
    /** What an optional string member ("string or null") sent as "" is stored as: null (reference/model.ts). */
    'records.empty-string': { value: string | null; ctx: undefined };
  }
}

type Kind = 'projects' | 'tasks' | 'people' | 'companies' | 'leads' | 'opportunities';

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** A presented record (not a failed bulk entry `{ success: false, … }`). */
const record = (v: unknown) => (isObj(v) && 'id' in v ? emptyListsTo(v) : v);
/** Reshapes the named members of a convert answer (`person`, `company`, `opportunity`, candidates). */
const members =
  (...names: string[]) =>
  (body: unknown) => {
    if (!isObj(body)) return body;
    const out = { ...body };
    for (const n of names) if (n in out) out[n] = eachRecord(out[n], record);
    return out;
  };
const whole = (body: unknown) => eachRecord(body, record);

const CONVERT = 'POST /leads/{lead_id}/convert';

/** Routes that present records of each kind, and where in the answer they are. */
const PRESENTING: Record<Kind, [string, (body: unknown) => unknown][]> = {
  projects: [
    ['POST /projects', whole],
    ['POST /projects/search', whole],
  ],
  tasks: [
    ['POST /tasks', whole],
    ['POST /tasks/search', whole],
  ],
  people: [
    ['POST /people', whole],
    [CONVERT, members('person')],
  ],
  companies: [
    ['POST /companies', whole],
    ['GET /companies/{company_id}', whole],
    [CONVERT, members('company', 'company_candidates')],
  ],
  leads: [['PUT /leads/upsert', whole]],
  opportunities: [
    ['POST /opportunities/bulk_create', whole],
    [CONVERT, members('opportunity')],
  ],
};

const NOUN: Record<Kind, string> = {
  projects: 'a Project',
  tasks: 'a Task',
  people: 'a Person',
  companies: 'a Company',
  leads: 'a Lead',
  opportunities: 'an Opportunity',
};

export const EMPTY_LIST_FAULTS: Fault[] = (Object.keys(PRESENTING) as Kind[]).map((kind) => ({
  name: `empty-list-null-${kind}`,
  rules: ['WIRE-3'],
  description: `every empty list member of ${NOUN[kind]} (tags, custom_fields, entry lists, …) is answered as null instead of [] (${PRESENTING[kind].map(([r]) => r).join(', ')})`,
  routes: PRESENTING[kind].map(([route, reshape]): RouteFault => ({ route, respond: onSuccess(reshape) })),
}));

/**
 * The same blind spot on a list answer: a Company with no activity of the kinds asked for is
 * answered `null` instead of `[]` (found by the WIRE-3 empty-list spec, which asks for a new
 * Company's activities).
 */
EMPTY_LIST_FAULTS.push({
  name: 'empty-list-null-activities',
  rules: ['WIRE-3'],
  description: 'POST /companies/{company_id}/activities answers null instead of [] when the Company has no such activity',
  routes: [{ route: 'POST /companies/{company_id}/activities', respond: onSuccess((body) => (Array.isArray(body) && body.length === 0 ? null : body)) }],
});

/**
 * The other half of the sentence: an empty string is an empty field, returned as null (the choice
 * records.empty-strings, decided). A serializer that keeps "" as it came: caught where a record is
 * created with empty strings (specs/wire/empty-strings.spec.ts, people and companies create).
 */
EMPTY_LIST_FAULTS.push({
  name: 'empty-string-kept',
  rules: ['WIRE-3', 'PEOPLE-3', 'COMPANY-6'],
  description:
    'an optional string member ("string or null": details, title, company_name, email_domain, …) sent as "" is stored and answered as "" instead of null',
  at: { 'records.empty-string': () => '' },
});
