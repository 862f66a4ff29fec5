/**
 * Tasks (spec § Tasks): `POST /tasks/search`; and the documented extension `POST /tasks`
 * (NOT part of the spec, which shows only the task search; listed in reference/profile.json
 * capabilities.extensions.create_task) so that the suite can create the tasks it searches.
 *
 * Open choices of the spec and what this server does:
 * - `POST /tasks` (extension): `name` (string) is required; the other Task members are
 *   optional (`status` `Open` unless `Completed`; `priority` `None` unless given; a Completed
 *   task without `completed_date` gets the current time). Answers 200 (variant 201) with the
 *   Task as stored (raw option ids: task create is not among the endpoints with computed values).
 * - `opportunity_ids` selects tasks whose related_resource is an opportunity with one of the ids;
 *   `project_ids` likewise for projects, and `-2` selects tasks not related to a project.
 * - `custom_activity_type_id` ("present in some search results") is sent by the variant only.
 * - Seeded: a few tasks tagged `reference-fixture` (so that read-only checks have data).
 * - The search engine and its choices: reference/search.ts.
 */
import type { AreaModule } from '../app.js';
import { C, makeTask, present, type Rec } from '../model.js';
import { NONE, idList, keys, priorityKey, runSearch, sharedCriteria, statusKey, statusesCriterion, timestampCriterion, type SearchDef } from '../search.js';
import { checkWorkBody } from './projects.js';
import { FIXTURES } from '../profile.js';

type Related = { id: number | string | null; type: string | null };
const related = (rec: Rec) => rec.related_resource as Related;

export const TASK_SEARCH: SearchDef = {
  kind: 'task',
  sortKeys: {
    name: keys.name,
    assigned_to: keys.assignedTo,
    related_to: keys.relatedTo,
    status: statusKey,
    priority: priorityKey,
    due_date: keys.number('due_date'),
    reminder_date: keys.number('reminder_date'),
    completed_date: keys.number('completed_date'),
    date_created: keys.number('date_created'),
    date_modified: keys.number('date_modified'),
  },
  defaultSort: (app) => (app.fault('task-search-default-sort-name') ? 'name' : 'due_date'),
  criteria: {
    ...sharedCriteria(),
    opportunity_ids: (v, app) => {
      const ids = new Set(idList(app, 'opportunity_ids', v).map(String));
      if (app.fault('task-search-opportunity-ids-ignored')) return undefined;
      return (rec) => related(rec).type === 'opportunity' && ids.has(String(related(rec).id));
    },
    project_ids: (v, app) => {
      const list = idList(app, 'project_ids', v);
      const ids = new Set(list.map(String));
      const none = list.some((x) => Number(x) === NONE) && !app.fault('task-search-no-project-unsupported');
      return (rec) => {
        const rr = related(rec);
        const project = rr.type === 'project' && rr.id !== null && rr.id !== undefined;
        return project ? ids.has(String(rr.id)) : none;
      };
    },
    statuses: statusesCriterion('task-search-statuses-ignored'),
    minimum_due_date: timestampCriterion('due_date', 'minimum_due_date', 'min'),
    maximum_due_date: timestampCriterion('due_date', 'maximum_due_date', 'max', 'task-search-due-max-exclusive'),
  },
};

export const tasks: AreaModule = {
  name: 'tasks',
  faults: [
    { name: 'task-search-default-sort-name', rules: ['TSEARCH-1'], description: 'a task search without sort_by sorts by name instead of due_date' },
    { name: 'task-search-opportunity-ids-ignored', rules: ['TSEARCH-3'], description: 'opportunity_ids of a task search is ignored' },
    { name: 'task-search-no-project-unsupported', rules: ['TSEARCH-4'], description: 'project_ids -2 is taken as a project id and selects no task without project' },
    { name: 'task-search-statuses-ignored', rules: ['TSEARCH-5'], description: 'statuses of a task search is ignored' },
    { name: 'task-search-due-max-exclusive', rules: ['TSEARCH-6'], description: 'maximum_due_date is exclusive (a task due at the bound is left out)' },
    { name: 'task-search-status-done', rules: ['TSEARCH-7'], description: 'task search results report a completed task with status "Done"' },
  ],
  seed(app) {
    const c = app.store.collection<Rec>(C.tasks);
    const day = 86_400;
    const base = 1_767_225_600; // 2026-01-01
    const [me, colleague] = FIXTURES.users.map((u) => u.id);
    const region = FIXTURES.custom_fields.dropdown;
    const fixtures: Record<string, unknown>[] = [
      { name: 'Seeded call back', priority: 'High', due_date: base + day, assignee_id: me },
      { name: 'Seeded send offer', priority: 'None', due_date: base + 3 * day, reminder_date: base + 2 * day, assignee_id: colleague },
      { name: 'Seeded archive', status: 'Completed', completed_date: base, due_date: base, priority: 'None' },
      { name: 'Seeded follow-up', priority: 'High', related_resource: { id: FIXTURES.company_with_activities.company_id, type: 'company' }, assignee_id: me },
      { name: 'Seeded review', status: 'Completed', completed_date: base + day, priority: 'High', due_date: base + 2 * day },
      { name: 'Seeded plan', priority: 'None', custom_fields: [{ custom_field_definition_id: region.id, value: region.options[1].id }] },
    ];
    fixtures.forEach((f, i) => {
      const rec = c.insert(makeTask(app, { ...f, tags: ['reference-fixture'] }));
      if (i % 2 === 0) rec._followed = true;
    });
  },
  api(router, app) {
    const tasks = app.store.collection<Rec>(C.tasks);

    // Extension (not in the spec): create a task.
    router.add('POST', '/tasks', (ctx) => {
      const b = checkWorkBody(app, ctx.body, 'task', true, ['name', 'details', 'priority', 'status'], ['due_date', 'reminder_date', 'completed_date']);
      if (b.status !== undefined && b.status !== null && b.status !== 'Open' && b.status !== 'Completed') {
        return { status: app.variant ? 400 : 422, body: app.variant ? { errors: [{ field: 'status', detail: 'status is Open or Completed' }] } : { success: false, status: 422, message: 'status must be Open or Completed' } };
      }
      const rec = tasks.insert(makeTask(app, b));
      app.emit('task', 'new', present(app, rec));
      const out = present(app, rec);
      return app.variant ? { status: 201, body: out } : out;
    });

    router.add('POST', '/tasks/search', (ctx) =>
      runSearch(app, TASK_SEARCH, tasks.all(), ctx.body, {
        present: (rec) => {
          const out = present(app, rec, { computed: !app.fault('search-computed-values-off') });
          if (app.fault('task-search-status-done') && out.status === 'Completed') out.status = 'Done';
          if (app.variant) out.custom_activity_type_id = 0;
          return out;
        },
      }),
    );
  },
};
