/**
 * Tasks (spec § Tasks): `POST /tasks/search`; and the documented extension `POST /tasks`
 * (NOT part of the spec, which shows only the task search; listed in reference/profile.json
 * capabilities.extensions.create_task) so that the suite can create the tasks it searches.
 *
 * Open choices of the spec and what this server does:
 * - `POST /tasks` (extension): `name` (string) is required; the other Task members are
 *   optional (`status` `Open` unless `Completed`; `priority` `None` unless given; a Completed
 *   task without `completed_date` gets the current time). Answers the Task as stored (raw option
 *   ids: task create is not among the endpoints with computed values), status per the open
 *   choice `general.create-status`.
 * - `opportunity_ids` selects tasks whose related_resource is an opportunity with one of the ids;
 *   `project_ids` likewise for projects, and `-2` selects tasks not related to a project.
 * - `custom_activity_type_id` ("present in some search results"): the open choice
 *   `tasks.custom-activity-type-id`.
 * - Seeded: a few tasks tagged `reference-fixture` (so that read-only checks have data).
 * - The search engine and its choices: reference/search.ts. Faults: reference/faults/search.ts.
 */
import type { AreaModule } from '../app.js';
import { C, created, makeTask, present, type Rec } from '../model.js';
import { NONE, emptyMeansAll, idList, keys, runSearch, sharedCriteria, statusesCriterion, timestampCriterion, type SearchDef } from '../search.js';
import { invalid } from './common.js';
import { checkWorkBody } from './projects.js';
import { FIXTURES } from '../profile.js';

type Related = { id: number | string | null; type: string | null };
const related = (rec: Rec) => rec.related_resource as Related;
/** A related_resource with an id. Through the spec's endpoints, type project with no id does not occur (a removal clears both members). */
// Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (above): a task with type project has an id
const hasId = (rr: Related) => rr.id !== null && rr.id !== undefined;

export const TASK_SEARCH: SearchDef = {
  // Stryker disable next-line StringLiteral: the kind names the search to the fault hooks only (unused with no fault on)
  kind: 'task',
  sortKeys: {
    name: keys.name,
    assigned_to: keys.assignedTo,
    related_to: keys.relatedTo,
    status: keys.status,
    priority: keys.priority,
    due_date: keys.number('due_date'),
    reminder_date: keys.number('reminder_date'),
    completed_date: keys.number('completed_date'),
    date_created: keys.number('date_created'),
    date_modified: keys.number('date_modified'),
  },
  defaultSort: 'due_date',
  criteria: {
    ...sharedCriteria(),
    opportunity_ids: (v, app) => {
      const list = idList(app, 'opportunity_ids', v);
      // Stryker disable next-line ConditionalExpression: made false, an empty list selects nothing: search.empty-list's other alternative
      if (emptyMeansAll(app, list)) return undefined;
      const ids = new Set(list.map(String));
      return (rec) => related(rec).type === 'opportunity' && ids.has(String(related(rec).id));
    },
    project_ids: (v, app) => {
      const list = idList(app, 'project_ids', v);
      // Stryker disable next-line ConditionalExpression: the same
      if (emptyMeansAll(app, list)) return undefined;
      const ids = new Set(list.map(String));
      const none = list.some((x) => Number(x) === NONE);
      return (rec) => {
        const rr = related(rec);
        const project = rr.type === 'project' && hasId(rr);
        return project ? ids.has(String(rr.id)) : none;
      };
    },
    statuses: statusesCriterion,
    // Stryker disable next-line StringLiteral: the criterion's name is for error text; an op other than 'min' bounds from above
    minimum_due_date: timestampCriterion('due_date', 'minimum_due_date', 'min'),
    // Stryker disable next-line StringLiteral: the same
    maximum_due_date: timestampCriterion('due_date', 'maximum_due_date', 'max'),
  },
};

export const tasks: AreaModule = {
  name: 'tasks',
  // Stryker disable all: seed data (an account's tasks are its own; read-only checks judge whatever they find)
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
  // Stryker restore all
  api(router, app) {
    const tasks = app.store.collection<Rec>(C.tasks);

    // Extension (not in the spec): create a task. How it checks its input is the reference's own (no rule judges an extension).
    // Stryker disable all: the extension POST /tasks (capabilities.extensions.create_task) is no part of the spec
    router.add('POST', '/tasks', (ctx) => {
      const b = checkWorkBody(app, ctx.body, 'task', true, ['name', 'details', 'priority', 'status'], ['due_date', 'reminder_date', 'completed_date']);
      if (b.status !== undefined && b.status !== null && b.status !== 'Open' && b.status !== 'Completed')
        invalid(app, 'status must be Open or Completed', 'status');
      const rec = tasks.insert(makeTask(app, b));
      app.emit('task', 'new', present(app, rec));
      return created(app, present(app, rec));
    });
    // Stryker restore all

    const activityTypeId = app.choice('tasks.custom-activity-type-id') === 'present';
    router.add('POST', '/tasks/search', (ctx) =>
      runSearch(app, TASK_SEARCH, tasks.all(), ctx.body, {
        present: (rec, computed) => {
          const out = present(app, rec, { computed });
          if (activityTypeId) out.custom_activity_type_id = 0;
          return out;
        },
      }),
    );
  },
};
