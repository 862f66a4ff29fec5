/**
 * spec § Endpoints → Tasks (`POST /tasks/search`): the default sort (`due_date`),
 * `opportunity_ids`, `project_ids` with -2, `statuses`, the Task shape of the results, and a
 * task answered as it was stored (TSEARCH-8: as the create answered it).
 * Tasks are created through the profile's documented extension (the spec shows no task
 * create); projects through `POST /projects`, opportunities through the bulk create.
 */
import { Task } from '../../contracts/index.js';
import { createInOrder, expectSameRecords, idsOf, inNs, needTaskCreate, search } from '../support/search.js';
import { REAL_TEXTS } from '../../generators/real-text.js';
import { breaks, expect, rule, test } from '../support/fixtures/test.js';
import { make, opportunitiesToRelate, sameId } from '../support/make.js';
import { customFieldValues, storedDifferences } from '../support/records.js';

const DAY = 86_400;
const T0 = 1_893_456_000;

test(
  ...rule('TSEARCH-1', 'a task search without sort_by sorts by due_date, ascending', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    // Name order, creation order and due order all differ.
    const [t3, t1, t4, t2] = await createInOrder('tasks', { api, ns, profile }, [
      { name: ns.name('aaaa'), due_date: T0 + 3 * DAY },
      { name: ns.name('dddd'), due_date: T0 + DAY },
      { name: ns.name('bbbb'), due_date: T0 + 4 * DAY },
      { name: ns.name('cccc'), due_date: T0 + 2 * DAY },
    ]);
    expect(idsOf(await search(api, 'tasks', inNs(ns))), 'no sort_by: by due date ascending').toEqual(idsOf([t1, t2, t3, t4]));
    // The default key in the other direction rests on sort_direction (SEARCH-6) too.
    expect(
      idsOf(await search(api, 'tasks', inNs(ns, { sort_direction: 'desc' }))),
      `no sort_by, desc: by due date descending${breaks(['TSEARCH-1', 'SEARCH-6'])}`,
    ).toEqual(idsOf([t4, t3, t2, t1]));
  }),
);

test(
  ...rule('TSEARCH-3', 'opportunity_ids selects the tasks related to those opportunities', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    const [o1, o2] = await opportunitiesToRelate({ api, ns, profile }, 2);
    test.skip(!o1 || !o2, 'the profile lists no fixture opportunities and POST /opportunities/bulk_create did not create an Opportunity to relate tasks to');
    const project = await make.project({ api, ns });
    const [to1, to2, , , to1b] = await createInOrder('tasks', { api, ns, profile }, [
      { related_resource: { id: o1!.id, type: 'opportunity' } },
      { related_resource: { id: o2!.id, type: 'opportunity' } },
      { related_resource: { id: project.id, type: 'project' } },
      {},
      { related_resource: { id: o1!.id, type: 'opportunity' } },
    ]);
    expectSameRecords(await search(api, 'tasks', inNs(ns, { opportunity_ids: [o1!.id] })), [to1, to1b], 'opportunity_ids [o1]');
    expectSameRecords(await search(api, 'tasks', inNs(ns, { opportunity_ids: [o1!.id, o2!.id] })), [to1, to2, to1b], 'opportunity_ids [o1, o2]');
    // A task related to a Project is related to no Opportunity, whatever Opportunity has the Project's id.
    expectSameRecords(await search(api, 'tasks', inNs(ns, { opportunity_ids: [project.id] })), [], "opportunity_ids [a Project's id]");
  }),
);

test(
  ...rule('TSEARCH-4', 'project_ids selects the tasks of those projects and -2 the tasks with no project', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    const [p1, p2] = [await make.project({ api, ns }), await make.project({ api, ns })];
    const company = await make.company({ api, ns });
    // A task related to a Company has no project either.
    const [t1, t2, none, t1b, ofCompany] = await createInOrder('tasks', { api, ns, profile }, [
      { related_resource: { id: p1.id, type: 'project' } },
      { related_resource: { id: p2.id, type: 'project' } },
      {},
      { related_resource: { id: p1.id, type: 'project' } },
      { related_resource: { id: company.id, type: 'company' } },
    ]);
    expectSameRecords(await search(api, 'tasks', inNs(ns, { project_ids: [p1.id] })), [t1, t1b], 'project_ids [p1]');
    expectSameRecords(await search(api, 'tasks', inNs(ns, { project_ids: [-2] })), [none, ofCompany], 'project_ids [-2]: no project');
    expectSameRecords(await search(api, 'tasks', inNs(ns, { project_ids: [p2.id, -2] })), [t2, none, ofCompany], 'project_ids [p2, -2]');
  }),
);

test(
  ...rule('TSEARCH-5', 'statuses selects tasks by status, Open or Completed', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    const [open1, done, open2] = await createInOrder('tasks', { api, ns, profile }, [
      { status: 'Open' },
      { status: 'Completed', completed_date: T0 },
      { status: 'Open' },
    ]);
    expect([open1.status, done.status, open2.status], 'statuses of the created tasks').toEqual(['Open', 'Completed', 'Open']);
    expectSameRecords(await search(api, 'tasks', inNs(ns, { statuses: ['Open'] })), [open1, open2], 'statuses [Open]');
    expectSameRecords(await search(api, 'tasks', inNs(ns, { statuses: ['Completed'] })), [done], 'statuses [Completed]');
    expectSameRecords(await search(api, 'tasks', inNs(ns, { statuses: ['Open', 'Completed'] })), [open1, done, open2], 'statuses [Open, Completed]');
  }),
);

test(
  ...rule('TSEARCH-7', 'a task in the results is a Task whose status is Open or Completed', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    await make.task({ api, ns, profile }, { status: 'Open', priority: 'High', due_date: T0 });
    await make.task({ api, ns, profile }, { status: 'Completed', completed_date: T0 + DAY });
    const found = await search(api, 'tasks', inNs(ns)); // checks the TaskList contract
    expect(found.length, 'both tasks are found').toBe(2);
    for (const t of found) {
      expect(t).toMatchContract(Task);
      expect(['Open', 'Completed'], `status of task ${String(t.id)}`).toContain(t.status);
    }
  }),
);

test(
  ...rule(
    'TSEARCH-8',
    "a search by id answers every member the task's create (the profile's extension) answered: long free text, dates, relation, owner and custom fields",
    async ({ api, ns, profile }) => {
      needTaskCreate(profile);
      const project = await make.project({ api, ns });
      const user = profile.fixtures.users[0]?.id;
      const custom = customFieldValues(profile, 'task', REAL_TEXTS[1]);
      const created = await make.task(
        { api, ns, profile },
        {
          // Free text longer than a preview: every sentence of real users' text.
          details: REAL_TEXTS.join(' / '),
          priority: 'High',
          due_date: T0 + DAY,
          reminder_date: T0,
          related_resource: { id: project.id, type: 'project' },
          tags: [`${ns.id} équipe`],
          ...(user !== undefined ? { assignee_id: user } : {}),
          ...(custom.length ? { custom_fields: custom } : {}),
        },
      );
      const read = (await search(api, 'tasks', { ids: [created.id] })).find((t) => sameId(t.id, created.id));
      expect(read, `the search by id finds task ${String(created.id)}${breaks(['SEARCH-14'])}`).toBeTruthy();
      expect(storedDifferences(created, read, { profile }), 'the search answers the task as its create answered it').toEqual([]);
    },
  ),
);
