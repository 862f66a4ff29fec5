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
 * Limitation: the spec has no way to fetch a Person. That the Person still exists after the
 * removal is observed indirectly: a second removal on it is answered as for an existing Person.
 * The answer to removing a relationship that does not exist is not shown, so a refused second
 * removal is compared with the answer for a new Person that was never related: a refusal there
 * too leaves nothing to judge (a note), a 2xx there says the Person is gone. A server that
 * deleted the Person and answers 2xx for unknown records is not caught.
 */
import { Company, Project, RelationshipRemoved } from '../../contracts/index.js';
import { breaks, describeExchange, expect, expectJson, isAccepted, rule, test, type ApiClient, type Namespace } from '../support/fixtures/test.js';
import { make, sameId, expectCreated } from '../support/make.js';

/** A Company and a Person whose company_id is that Company. */
async function personInCompany(api: ApiClient, ns: Namespace) {
  const company = await make.company({ api, ns });
  const person = await make.person({ api, ns }, { company_id: company.id });
  return { company, person };
}

const removeRelated = (api: ApiClient, personId: unknown, resource: { id: unknown; type: string }) =>
  api.delete<RelationshipRemoved>(`/people/${encodeURIComponent(String(personId))}/related`, { resource });

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
  ...rule('REL-3', 'the answer names the resource sent (its id and type)', async ({ api, ns }) => {
    const { company, person } = await personInCompany(api, ns);
    const res = await removeRelated(api, person.id, { id: company.id, type: 'company' });
    expect(res).not.toBeRefused();
    const r = (res.body as { resource?: { id?: unknown; type?: unknown } } | undefined)?.resource;
    expect(r, `the answer carries resource: ${JSON.stringify(res.body)}`).toBeTruthy();
    expect(sameId(r?.id, company.id), `resource.id is the company ${String(company.id)}, got ${JSON.stringify(r?.id)}`).toBe(true);
    expect(String(r?.type).toLowerCase(), 'resource.type is the type sent').toBe('company');
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
