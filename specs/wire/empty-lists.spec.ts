/**
 * spec § What the service does: "Fields that are absent or empty are returned as `null` (lists
 * as `[]`)" (WIRE-3), observed on lists that are really empty.
 *
 * Every other spec tags what it creates (`ns.tags`), so without these tests no answer would ever
 * carry an empty `tags` list and a server answering `tags: null` for it would pass. Here one
 * record of each kind the suite can create is made with its name only: no tags, no entries, no
 * custom fields. Each answer (create, and read back by id where the spec gives a way) must match
 * its contract: every list a list, never null or left out. A server may fill a list on its own
 * (a default tag, an activity "created"): that is no failure, the list is just not observed empty.
 * The empty lists seen are recorded (specs/wire/observe.ts) and checked against every list field
 * of every contract by selftest/empty-lists.test.ts.
 *
 * Safety: the records carry no namespace tag, but a namespaced name, and are listed in
 * created-records.json like every other (the API client records what a create answers; the
 * records a conversion makes are added by hand). Only where writes are allowed.
 */
import type { Identifier } from '../../contracts/index.js';
import { bulkCreate, expectCreated, extension, opportunityPipeline, sameId } from '../support/make.js';
import { breaks, expect, isAccepted, notJudged, rule, test, type ApiClient, type ApiResponse, type Namespace } from '../support/fixtures/test.js';
import { judgeLists } from './observe.js';

const NO_WRITES =
  'writes are not allowed on this target (CRM_ALLOW_WRITES): the read-only spec specs/wire/listed-records.spec.ts judges the records that exist';

type Body = Record<string, unknown>;
const idOf = (res: ApiResponse) => (res.body as { id: Identifier }).id;

/** An upsert matching a new name, with that name only: creates an untagged Lead. */
async function untaggedLead(api: ApiClient, ns: Namespace, label: string): Promise<ApiResponse> {
  const name = ns.name(label);
  const res = await api.put('/leads/upsert', { properties: { name }, match: { field_name: 'name', field_value: name } });
  expectCreated(res, 'Lead (upsert matching no Lead)', 'UPSERT-2');
  return res;
}

test(
  ...rule(
    'WIRE-3',
    'a Project created with its name only answers its empty lists as [], on create and in a search by id',
    async ({ api, ns, target }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const res = await api.post('/projects', { name: ns.name('untagged project') });
      expectCreated(res, 'Project', 'PROJ-1');
      judgeLists(testInfo, res, ['Project']);
      const found = await api.post<unknown[]>('/projects/search', { ids: [idOf(res)] });
      expect(found, `a search by id${breaks(['SEARCH-1'])}`).toHaveStatus(200);
      judgeLists(testInfo, found, ['ProjectList']);
      expect(
        Array.isArray(found.body) && found.body.some((p) => sameId((p as Body).id, idOf(res))),
        `the search by id finds Project ${String(idOf(res))}${breaks(['SEARCH-14'])}`,
      ).toBe(true);
    },
  ),
);

test(
  ...rule('WIRE-3', 'a Person created with its name only answers its empty lists as []', async ({ api, ns, target }, testInfo) => {
    test.skip(!target.allowWrites, NO_WRITES);
    const res = await api.post('/people', { name: ns.name('untagged person') });
    expectCreated(res, 'Person', 'PEOPLE-1');
    judgeLists(testInfo, res, ['Person']);
  }),
);

test(
  ...rule(
    'WIRE-3',
    'a Company created with its name only answers its empty lists as [], on create, on fetch and in its activities',
    async ({ api, ns, target, profile }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const res = await api.post('/companies', { name: ns.name('untagged company') });
      expectCreated(res, 'Company', 'COMPANY-1');
      judgeLists(testInfo, res, ['Company']);
      const id = encodeURIComponent(String(idOf(res)));
      const fetched = await api.get(`/companies/${id}`);
      expect(fetched).toHaveStatus(200);
      judgeLists(testInfo, fetched, ['Company']);
      const types = profile.fixtures.company_with_activities?.activity_types ?? [];
      if (types.length) {
        // A new Company has no activities of the profile's types (a server may log one: not a failure).
        const acts = await api.post(`/companies/${id}/activities`, { activity_types: types });
        expect(acts, 'the activities of the new Company are listed').not.toBeRefused();
        judgeLists(testInfo, acts, ['ActivityList']);
      }
    },
  ),
);

test(
  ...rule(
    'WIRE-3',
    'a Lead created by upsert with its name only answers its empty lists as [], on create and when matched again',
    async ({ api, ns, target }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const res = await untaggedLead(api, ns, 'untagged lead');
      judgeLists(testInfo, res, ['Lead']);
      const name = (res.body as { name: string }).name;
      const again = await api.put('/leads/upsert', { properties: {}, match: { field_name: 'name', field_value: name } });
      // A step of the upsert's rules (one match by name updates that Lead): WIRE-3 is blocked by them when it fails.
      const step = breaks(['UPSERT-3', 'UPSERT-7']);
      expect(again, `the upsert with empty properties matching the Lead by name succeeds${step}`).not.toBeRefused();
      expect(sameId(idOf(again), idOf(res)), `the upsert matched Lead ${String(idOf(res))}${step}`).toBe(true);
      // What an update answers is a Lead (UPSERT-11): one without its name is no Lead to judge the lists of.
      expect(typeof (again.body as { name?: unknown }).name, `the update answers a Lead, with its name${breaks(['UPSERT-11'])}`).toBe('string');
      judgeLists(testInfo, again, ['Lead']);
    },
  ),
);

test(
  ...rule(
    'WIRE-3',
    'an Opportunity bulk-created with its name only answers its empty lists as [], and no member that may be null as ""',
    async ({ api, ns, target }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const pipeline_id = (await opportunityPipeline(api))?.id;
      const res = await bulkCreate<unknown[]>(api, {
        opportunities: [{ name: ns.name('untagged opportunity'), ...(pipeline_id !== undefined ? { pipeline_id } : {}) }],
      });
      expect(res).toHaveStatus(200);
      const entry = Array.isArray(res.body) ? res.body[0] : undefined;
      expect(
        (entry as Body | undefined)?.success !== false && (entry as Body | undefined)?.id !== undefined,
        `the entry was created\n${JSON.stringify(res.body).slice(0, 500)}`,
      ).toBe(true);
      judgeLists(testInfo, res, ['BulkOpportunity', 'Opportunity'], entry, 'the bulk create entry');
      // Its "string or null" members not sent: a default (a priority `None`) or null, never an empty string ("absent or empty
      // fields are returned as null").
      const blank = ['close_date', 'company_name', 'details', 'priority'].filter((f) => (entry as Body)[f] === '');
      expect(blank, 'the members that may be null, not sent, are not answered as ""').toEqual([]);
    },
    { timeout: 60_000 },
  ),
);

test(
  ...rule(
    'WIRE-3',
    'a Task created with its name only (profile extension) answers its empty lists as [], on create and in a search by id',
    async ({ api, ns, target, profile }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const ext = extension(profile, 'create_task');
      test.skip(!ext, 'the spec gives no way to create a Task and the profile documents no create_task extension');
      const res = await api.send({ method: ext!.method, path: ext!.path, body: { name: ns.name('untagged task') } });
      // The extension is the profile's, not the spec's: its failure is no verdict on the server.
      if (!isAccepted(res))
        notJudged(`the task-create extension (${ext!.method} ${ext!.path}) answered ${res.status}: no Task to judge; check capabilities.extensions`);
      expectCreated(res, `Task (${ext!.method} ${ext!.path})`);
      judgeLists(testInfo, res, ['Task']);
      const found = await api.post<unknown[]>('/tasks/search', { ids: [idOf(res)] });
      expect(found, `a search by id${breaks(['SEARCH-1'])}`).toHaveStatus(200);
      judgeLists(testInfo, found, ['TaskList']);
      expect(
        Array.isArray(found.body) && found.body.some((t) => sameId((t as Body).id, idOf(res))),
        `the search by id finds Task ${String(idOf(res))}${breaks(['SEARCH-14'])}`,
      ).toBe(true);
    },
  ),
);

test(
  ...rule(
    'WIRE-3',
    'converting an untagged Lead answers the new Person, Company and Opportunity with their empty lists as []',
    async ({ api, ns, target }, testInfo) => {
      test.skip(!target.allowWrites, NO_WRITES);
      const lead = await untaggedLead(api, ns, 'untagged lead to convert');
      const pipeline_id = (await opportunityPipeline(api))?.id;
      const details = {
        person: { name: ns.name('untagged converted person') },
        company: { name: ns.name('untagged converted company'), exact_match: true },
        ...(pipeline_id !== undefined ? { opportunity: { name: ns.name('untagged converted opportunity'), pipeline_id } } : {}),
      };
      const res = await api.post(`/leads/${encodeURIComponent(String(idOf(lead)))}/convert`, { details });
      expect(res, 'the conversion succeeds').not.toBeRefused();
      // The answer has no top-level id: its records are listed in created-records.json here.
      const path = `/leads/${encodeURIComponent(String(idOf(lead)))}/convert`;
      for (const part of ['person', 'company', 'opportunity']) {
        const rec = (res.body as Record<string, { id?: unknown } | null | undefined> | undefined)?.[part];
        if (rec && rec.id !== undefined && rec.id !== null) api.recorder.created.push({ path: `${path} (${part})`, id: rec.id });
      }
      judgeLists(testInfo, res, ['ConvertResponse']);
    },
  ),
);

test(
  ...rule('WIRE-3', 'a search that matches nothing answers [] (projects and tasks)', async ({ api, ns }, testInfo) => {
    for (const kind of ['projects', 'tasks'] as const) {
      const res = await api.post(`/${kind}/search`, { tags: [ns.name('no record has this tag')] });
      expect(res).toHaveStatus(200);
      expect(res.body, `a ${kind} search for a tag no record has answers [] (never null)`).toEqual([]);
      judgeLists(testInfo, res, [kind === 'projects' ? 'ProjectList' : 'TaskList']);
    }
  }),
);
