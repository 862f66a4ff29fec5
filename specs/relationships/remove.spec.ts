/**
 * spec § Endpoints → Relationships: `DELETE /{entity}/{entity_id}/related` with body
 * `{ resource: { id, type } }` answers `{ removed: boolean, resource: { id, type } }`;
 * "Deleting the relationship does not delete either record". § States and transitions: the
 * relationship is removed.
 *
 * Only `people` is a shown value of `entity`, so every removal starts from a Person: a Person
 * created with `company_id` (person → company), or a Project created with the Person as its
 * `related_resource` (project → person). The meaning of `removed` (e.g. for a second removal)
 * is not shown and is not judged.
 *
 * The removal names two records, and the table names no other effect (REL-5): what links either
 * of them to a third record stays as it was (another Project related to the Person, the Project's
 * link to another Person, or to a record of another type by the Person's id, the Company's primary
 * contact). Whether a Company's primary contact is itself a relationship this endpoint removes is
 * not stated and not judged. A Task (made through the profile's create_task extension: the spec
 * gives no way) is judged as a Project is (REL-4); a Task says it has no relationship with an
 * object of nulls ("both members may be null"), a Project with null or such an object. A removal
 * naming an id no Company has is answered as a removal or refused (open choice
 * `relationships.remove-none`), never with a 5xx (REL-1).
 *
 * Limitation: the spec has no way to fetch a Person. That the Person still exists after the
 * removal is observed indirectly: a second removal on it is answered as for an existing Person.
 * The answer to removing a relationship that does not exist is not shown, so a refused second
 * removal is compared with the answer for a new Person that was never related: a refusal there
 * too leaves nothing to judge (a note), a 2xx there says the Person is gone. A server that
 * deleted the Person and answers 2xx for unknown records is not caught.
 */
import { Company, Project, RelationshipRemoved, Task } from '../../contracts/index.js';
import {
  breaks,
  describeExchange,
  expect,
  expectJson,
  expectRefusedOrTaken,
  isAccepted,
  notJudged,
  rule,
  test,
  type ApiClient,
  type Namespace,
} from '../support/fixtures/test.js';
import { extension, make, NO_TASK_CREATE, post, sameId, expectCreated } from '../support/make.js';
import { absentId } from '../support/records.js';

/** A Company and a Person whose company_id is that Company. */
async function personInCompany(api: ApiClient, ns: Namespace) {
  const company = await make.company({ api, ns });
  const person = await make.person({ api, ns }, { company_id: company.id });
  return { company, person };
}

const removeRelated = (api: ApiClient, personId: unknown, resource: { id: unknown; type: string }) =>
  api.delete<RelationshipRemoved>(`/people/${encodeURIComponent(String(personId))}/related`, { resource });

type Linked = { related_resource?: { id?: unknown; type?: unknown } | null };

/** A Project created with `related` as its related_resource; without it named on the answer REL-5 is blocked by PROJ-1. */
async function projectRelatedTo(api: ApiClient, ns: Namespace, related: { id: unknown; type: string }): Promise<Linked & { id: unknown }> {
  const project = (await make.project({ api, ns }, { related_resource: related })) as Linked & { id: unknown };
  expect(
    sameId(project.related_resource?.id, related.id),
    `the created Project names ${related.type} ${String(related.id)} as related_resource (got ${JSON.stringify(project.related_resource)})${breaks(['PROJ-1'])}`,
  ).toBe(true);
  return project;
}

/** The record of `kind` (projects, tasks) with `id` as a search by its ids answers it; it outlives the removal (REL-2). */
async function foundById<T extends { id: unknown }>(api: ApiClient, kind: 'projects' | 'tasks', id: unknown): Promise<T> {
  const found = await api.post<T[]>(`/${kind}/search`, { ids: [id] });
  expect(found).not.toBeRefused();
  const after = Array.isArray(found.body) ? found.body.find((r) => sameId(r.id, id)) : undefined;
  expect(after, `the record ${String(id)} is still found by id${breaks(['REL-2', 'SEARCH-14'])}`).toBeTruthy();
  return after!;
}

test(
  ...rule('REL-1', "removing a person's company answers { removed: boolean, resource: { id, type } }", async ({ api, ns }) => {
    const { company, person } = await personInCompany(api, ns);
    const res = await removeRelated(api, person.id, { id: company.id, type: 'company' });
    expect(res).not.toBeRefused();
    expectJson(res);
    expect(res).toMatchContract(RelationshipRemoved);
  }),
);

test(
  ...rule('REL-3', 'the answer names the resource sent (its id and type): a Project related to the Person', async ({ api, ns }) => {
    // A Project, the other kind REL-4 names ("a Project related to the Person"): REL-1 and REL-2 remove a Company.
    const person = await make.person({ api, ns });
    const project = await projectRelatedTo(api, ns, { id: person.id, type: 'person' });
    const res = await removeRelated(api, person.id, { id: project.id, type: 'project' });
    expect(res).not.toBeRefused();
    const r = (res.body as { resource?: { id?: unknown; type?: unknown } } | undefined)?.resource;
    expect(r, `the answer carries resource: ${JSON.stringify(res.body)}`).toBeTruthy();
    expect(sameId(r?.id, project.id), `resource.id is the project ${String(project.id)}, got ${JSON.stringify(r?.id)}`).toBe(true);
    expect(String(r?.type).toLowerCase(), 'resource.type is the type sent').toBe('project');
  }),
);

test(
  ...rule('REL-2', "removing a person's company keeps the Company: it is still fetched as before", async ({ api, ns }) => {
    const { company, person } = await personInCompany(api, ns);
    const res = await removeRelated(api, person.id, { id: company.id, type: 'company' });
    expect(res).not.toBeRefused();
    const fetched = await api.get<Company>(`/companies/${encodeURIComponent(String(company.id))}`);
    expect(fetched, 'the Company still exists after the removal').toHaveStatus(200);
    expect(fetched).toMatchContract(Company);
    expect(sameId(fetched.body.id, company.id) && fetched.body.name === company.name, 'the same Company').toBe(true);
  }),
);

test(
  ...rule(
    'REL-2',
    "removing a person's company keeps the Person: a second removal on it is answered as for a Person never related",
    async ({ api, ns }, testInfo) => {
      const { company, person } = await personInCompany(api, ns);
      const first = await removeRelated(api, person.id, { id: company.id, type: 'company' });
      expect(first).not.toBeRefused();
      const second = await removeRelated(api, person.id, { id: company.id, type: 'company' });
      if (isAccepted(second)) {
        expect(second).toMatchContract(RelationshipRemoved);
        return;
      }
      expect(second, 'the second removal: accepted, or refused (a 5xx is no refusal)').toBeRefused();
      // Refused. The answer to removing a relationship that does not exist is not shown: compare it
      // with that of a Person that surely exists and was never related to the Company removed.
      const control = await make.person({ api, ns });
      const stranger = await make.company({ api, ns });
      const never = await removeRelated(api, control.id, { id: stranger.id, type: 'company' });
      const evidence = `${describeExchange(second.exchange)}\n\nfor a Person never related:\n${describeExchange(never.exchange)}`;
      if (!isAccepted(never)) {
        // As with a bulk entry that is never failed (BULK-5): a conformant choice leaves nothing to judge.
        testInfo.annotations.push({
          type: 'note',
          description: `a second removal is refused (${second.status}), and so is a removal for a Person never related (${never.status}): whether the Person still exists does not show`,
        });
        return;
      }
      expect(
        second.status,
        `the Person is answered as gone (${second.status}) where a Person never related is answered ${never.status}: removing its company deleted it\n${evidence}`,
      ).toBe(never.status);
    },
  ),
);

test(
  ...rule('REL-4', 'after the removal a Project related to the Person no longer names it', async ({ api, ns }) => {
    const person = await make.person({ api, ns });
    const created = await api.post<Project>('/projects', { name: ns.name('project'), tags: ns.tags, related_resource: { id: person.id, type: 'person' } });
    expectCreated(created, 'Project', 'PROJ-1');
    const project = created.body;
    // A step of PROJ-1 (the fields sent come back): without it the removal cannot be observed, and REL-4 is blocked by it.
    expect(
      sameId(project.related_resource?.id, person.id),
      `the created Project names the Person as related_resource (got ${JSON.stringify(project.related_resource)})${breaks(['PROJ-1'])}`,
    ).toBe(true);
    const res = await removeRelated(api, person.id, { id: project.id, type: 'project' });
    expect(res).not.toBeRefused();
    const found = await api.post<Project[]>('/projects/search', { ids: [project.id] });
    expect(found).not.toBeRefused();
    const after = Array.isArray(found.body) ? found.body.find((p) => sameId(p.id, project.id)) : undefined;
    // The Project outlives the removal (REL-2): a removal that deleted it leaves nothing for REL-4 to judge.
    expect(after, `the Project ${String(project.id)} is still found by id${breaks(['REL-2', 'SEARCH-14'])}`).toBeTruthy();
    expect(
      sameId(after?.related_resource?.id, person.id),
      `the Project no longer names the Person as related_resource: ${JSON.stringify(after?.related_resource)}`,
    ).toBe(false);
  }),
);

test(
  ...rule('REL-4', 'after the removal a Task related to the Person no longer names it, and is still a Task', async ({ api, ns, profile }) => {
    test.skip(!extension(profile, 'create_task'), NO_TASK_CREATE);
    const person = await make.person({ api, ns });
    const task = (await make.task({ api, ns, profile }, { related_resource: { id: person.id, type: 'person' } })) as Linked & { id: unknown };
    if (!sameId(task.related_resource?.id, person.id))
      notJudged(`the task-create extension (the profile's, not the spec's) did not relate the Task to the Person: ${JSON.stringify(task.related_resource)}`);
    const res = await removeRelated(api, person.id, { id: task.id, type: 'task' });
    expect(res).not.toBeRefused();
    const after = await foundById<Task>(api, 'tasks', task.id);
    expect(
      sameId(after.related_resource?.id, person.id),
      `the Task no longer names the Person as related_resource: ${JSON.stringify(after.related_resource)}`,
    ).toBe(false);
    // § Task: "related_resource | related_resource (both members may be null)": a Task without one has an object of nulls, never null.
    expect(after, 'the Task after the removal is a Task: its related_resource an object whose members may be null').toMatchContract(Task);
  }),
);

test(
  ...rule('REL-5', "removing a Person's relationship with one Project leaves its relationship with another Project", async ({ api, ns }) => {
    const person = await make.person({ api, ns });
    const removed = await projectRelatedTo(api, ns, { id: person.id, type: 'person' });
    const kept = await projectRelatedTo(api, ns, { id: person.id, type: 'person' });
    const res = await removeRelated(api, person.id, { id: removed.id, type: 'project' });
    expect(res).not.toBeRefused();
    const after = await foundById<Project>(api, 'projects', kept.id);
    expect(
      sameId(after.related_resource?.id, person.id),
      `the other Project ${String(kept.id)} still names the Person as related_resource: ${JSON.stringify(after.related_resource)}`,
    ).toBe(true);
  }),
);

test(
  ...rule('REL-5', 'a removal naming a Project related to another Person leaves that relationship', async ({ api, ns }) => {
    const person = await make.person({ api, ns });
    const other = await make.person({ api, ns });
    const project = await projectRelatedTo(api, ns, { id: other.id, type: 'person' });
    const res = await removeRelated(api, person.id, { id: project.id, type: 'project' });
    // No relationship between the two: answered removed or not, or refused (relationships.remove-none).
    if (!isAccepted(res))
      expect(res, `the removal of a relationship that does not exist: accepted, or refused (a 5xx is no refusal)${breaks(['REL-1'])}`).toBeRefused();
    const after = await foundById<Project>(api, 'projects', project.id);
    expect(
      sameId(after.related_resource?.id, other.id),
      `the Project still names the other Person ${String(other.id)} as related_resource: ${JSON.stringify(after.related_resource)}`,
    ).toBe(true);
  }),
);

test(
  ...rule(
    'REL-5',
    "a removal naming a Project related to a record of another type by the Person's id leaves that relationship",
    async ({ api, ns }, testInfo) => {
      const person = await make.person({ api, ns });
      // A Company by the Person's id: where ids are unique across types no Company has it, and a server may refuse such a link or drop it.
      const created = await post.project({ api, ns }, { related_resource: { id: person.id, type: 'company' } });
      const sent = (created.body as Linked | undefined)?.related_resource;
      if (!isAccepted(created) || !sameId(sent?.id, person.id) || String(sent?.type).toLowerCase() !== 'company') {
        testInfo.annotations.push({
          type: 'note',
          description: `a Project related to company ${String(person.id)} (the Person's id) was not made as sent (${created.status}, related_resource ${JSON.stringify(sent)}): nothing to judge`,
        });
        return;
      }
      const project = created.body as Linked & { id: unknown };
      const res = await removeRelated(api, person.id, { id: project.id, type: 'project' });
      if (!isAccepted(res))
        expect(res, `the removal of a relationship that does not exist: accepted, or refused (a 5xx is no refusal)${breaks(['REL-1'])}`).toBeRefused();
      const after = await foundById<Project>(api, 'projects', project.id);
      const rr = after.related_resource;
      expect(
        sameId(rr?.id, person.id) && String(rr?.type).toLowerCase() === 'company',
        `the Project still names company ${String(person.id)}, not the Person of that id: ${JSON.stringify(rr)}`,
      ).toBe(true);
    },
  ),
);

test(
  ...rule('REL-5', "removing a Person's company leaves the Company's primary contact, another Person", async ({ api, ns }) => {
    const contact = await make.person({ api, ns });
    const company = await make.company({ api, ns }, { primary_contact_id: contact.id });
    const person = await make.person({ api, ns }, { company_id: company.id });
    const path = `/companies/${encodeURIComponent(String(company.id))}`;
    const before = await api.get<Company>(path);
    expect(before, `the Company is fetched${breaks(['COMPANY-2'])}`).toHaveStatus(200);
    const res = await removeRelated(api, person.id, { id: company.id, type: 'company' });
    expect(res).not.toBeRefused();
    const after = await api.get<Company>(path);
    expect(after, `the Company still exists after the removal${breaks(['REL-2'])}`).toHaveStatus(200);
    expect(
      after.body.primary_contact_id,
      `the Company's primary contact (sent: the Person ${String(contact.id)}) is what it was before the removal of the other Person ${String(person.id)}`,
    ).toEqual(before.body.primary_contact_id);
  }),
);

test(
  ...rule('REL-1', 'a removal naming an id no Company has is answered as a removal, or refused with a 4xx', async ({ api, ns }) => {
    const company = await make.company({ api, ns });
    const absent = absentId(company.id, ns.id);
    // A Person whose company_id is that id, where the server takes such a create (it may refuse it: WIRE-5), else one without.
    const linked = await post.person({ api, ns }, { company_id: absent });
    const person = isAccepted(linked) && linked.body?.id !== undefined && linked.body?.id !== null ? linked.body : await make.person({ api, ns });
    const res = await removeRelated(api, person.id, { id: absent, type: 'company' });
    await expectRefusedOrTaken(res, (taken) => expect(taken, 'the answer to a removal that was taken').toMatchContract(RelationshipRemoved));
  }),
);
