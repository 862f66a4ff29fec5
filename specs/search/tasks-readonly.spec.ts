/**
 * spec § Endpoints → Tasks, for targets that cannot create tasks (no task-create extension in
 * the profile; the spec shows only the task search): read-only relations over whatever tasks
 * the account has. A filtered result is the subset of the account's tasks that satisfy the filter;
 * followed 1 and 2 partition the tasks; a created or modified date range selects the tasks within
 * it; the pages of a sorted search are consistently ordered. When the target can create tasks these
 * tests are skipped where the specs that create their own tasks see the same thing: all of them
 * but the followed partition, which those specs see only when the target can also follow its own
 * tasks (without a follow extension no task of theirs is ever followed, and a followed task
 * answered to `followed: 2` shows only among the account's own).
 *
 * Others may create, change and delete the account's tasks meanwhile (the suite's own tests, on
 * a target that can create tasks, and anyone on a shared account): each check reads a window fixed
 * at its start and asserts only the problems that every round of it shows (./readonly.ts).
 */
import { accountWindow, orderProblems, partitionProblems, windowProblems, readWindow, selectionProblems, type AccountWindow } from './readonly.js';
import { search, type Filter, type Rec } from '../support/search.js';
import { expect, rule, test, type ApiClient } from '../support/fixtures/test.js';
import { extension } from '../support/make.js';

const CREATES = 'the target can create tasks (capabilities.extensions.create_task): the specs with their own tasks check this rule exactly';
const CREATES_AND_FOLLOWS =
  'the target can create and follow tasks (capabilities.extensions.create_task and follow): the specs with their own followed tasks check this rule exactly';
const NO_TASK = 'the account has no task: nothing to check';

/** The window of the account's tasks at the test's start (./readonly.ts), or a note that there is none. */
async function windowOf(api: ApiClient): Promise<AccountWindow | undefined> {
  const window = await accountWindow(api);
  if (!window) test.info().annotations.push({ type: 'note', description: NO_TASK });
  return window;
}

/** Judges a search of the window whose answer `holds` tells by each task: every task of the window that satisfies it, once, and no other. */
async function expectSelection(api: ApiClient, window: AccountWindow, criteria: Filter, holds: (t: Rec) => boolean): Promise<void> {
  const problems = await windowProblems(
    api,
    window,
    async (tasks, only) => selectionProblems(tasks, await readWindow(api, window, { ...criteria, ...only }), holds),
    true,
  );
  expect(
    problems,
    `${JSON.stringify(criteria)}: the window's tasks that satisfy it, each once, and no other (wrong: answered, does not satisfy it; missing: satisfies it, not answered; in every round)`,
  ).toEqual([]);
}

test(
  ...rule(
    'TSEARCH-7',
    'read-only: the tasks of a search are Tasks whose status is Open or Completed',
    async ({ api, profile }) => {
      test.skip(!!extension(profile, 'create_task'), CREATES);
      const found = await search(api, 'tasks', { page_size: 20 }); // checks the TaskList contract
      for (const t of found) expect(['Open', 'Completed'], `status of task ${String(t.id)}`).toContain(t.status);
      if (!found.length) test.info().annotations.push({ type: 'note', description: NO_TASK });
    },
    { also: ['SEARCH-1'] },
  ),
);

/** The criteria of a task search that a task's own members tell, with values the window's tasks have. */
function criteriaOf(tasks: Rec[]): [Filter, (t: Rec) => boolean][] {
  const due = tasks
    .map((t) => t.due_date)
    .filter((d): d is number => typeof d === 'number')
    .sort((a, b) => a - b);
  const mid = due[Math.floor(due.length / 2)];
  const related = (t: Rec) => t.related_resource as { id: unknown; type: unknown } | null;
  const checks: [Filter, (t: Rec) => boolean][] = [
    [{ statuses: ['Open'] }, (t) => t.status === 'Open'],
    [{ statuses: ['Completed'] }, (t) => t.status === 'Completed'],
    [{ assignee_ids: [-2] }, (t) => t.assignee_id === null],
    [{ project_ids: [-2] }, (t) => related(t)?.type !== 'project'],
    [{ statuses: ['Open'], assignee_ids: [-2] }, (t) => t.status === 'Open' && t.assignee_id === null],
  ];
  if (mid !== undefined) {
    checks.push([{ minimum_due_date: mid }, (t) => typeof t.due_date === 'number' && t.due_date >= mid]);
    checks.push([{ maximum_due_date: mid }, (t) => typeof t.due_date === 'number' && t.due_date <= mid]);
  }
  // An opportunity and a project some task is related to, when the account has such tasks.
  for (const type of ['opportunity', 'project']) {
    const rel = tasks.map(related).find((r) => r?.type === type && r.id !== null);
    if (!rel) continue;
    const member = type === 'opportunity' ? 'opportunity_ids' : 'project_ids';
    checks.push([{ [member]: [rel.id] }, (t) => related(t)?.type === type && String(related(t)?.id) === String(rel.id)]);
  }
  return checks;
}

test(
  ...rule(
    'SEARCH-5',
    'read-only: a filtered task search answers the tasks of the account that satisfy the filter',
    async ({ api, profile }) => {
      test.skip(!!extension(profile, 'create_task'), CREATES);
      const window = await windowOf(api);
      if (!window) return;
      for (const [criteria, holds] of criteriaOf(window.tasks)) await expectSelection(api, window, criteria, holds);
    },
    { also: ['SEARCH-15', 'TSEARCH-3', 'TSEARCH-4', 'TSEARCH-5', 'TSEARCH-6'] },
  ),
);

test(
  ...rule('SEARCH-9', 'read-only: followed 1 and followed 2 partition the tasks', async ({ api, profile }) => {
    // Without a follow extension the suite's own tasks are never followed: only the account's may be.
    test.skip(!!extension(profile, 'create_task') && !!extension(profile, 'follow'), CREATES_AND_FOLLOWS);
    const window = await windowOf(api);
    if (!window) return;
    let followed = 0;
    const problems = await windowProblems(
      api,
      window,
      async (tasks, only) => {
        const [one, two] = [await readWindow(api, window, { followed: 1, ...only }), await readWindow(api, window, { followed: 2, ...only })];
        followed = Math.max(followed, one.length);
        return partitionProblems(tasks, one, two);
      },
      true,
    );
    const note = 'no task of the window was answered to followed 1: only that followed 2 answers every task was judged';
    if (!followed) test.info().annotations.push({ type: 'note', description: note });
    expect(problems, 'followed 1 and followed 2 together: every task of the window once (both: in the two answers; neither: in none; in every round)').toEqual(
      [],
    );
  }),
);

test(
  ...rule(
    'SEARCH-10',
    'read-only: a created or modified date range answers the tasks within it, and narrowing it never adds tasks',
    async ({ api, profile }) => {
      test.skip(!!extension(profile, 'create_task'), CREATES);
      const window = await windowOf(api);
      if (!window) return;
      for (const [field, name] of [
        ['date_created', 'created'],
        ['date_modified', 'modified'],
      ] as const) {
        const values = [...new Set(window.tasks.map((t) => t[field] as number))].sort((a, b) => a - b);
        if (!values.length) continue;
        // The whole range of the window's values, and its middle third: what each answers is what its bounds select.
        const ranges = [
          [values[0], values[values.length - 1]],
          [values[Math.floor(values.length / 3)], values[Math.floor((2 * values.length) / 3)]],
        ];
        for (const [lo, hi] of ranges) {
          const within = (t: Rec) => typeof t[field] === 'number' && (t[field] as number) >= lo && (t[field] as number) <= hi;
          await expectSelection(api, window, { [`minimum_${name}_date`]: lo, [`maximum_${name}_date`]: hi }, within);
        }
      }
    },
  ),
);

for (const sortBy of ['due_date', 'name', 'date_created', 'status', 'priority']) {
  test(
    ...rule(
      sortBy === 'due_date' ? 'TSEARCH-1' : 'TSEARCH-2',
      `read-only: the pages of a task search sorted by ${sortBy} are consistently ordered`,
      async ({ api, profile }) => {
        test.skip(!!extension(profile, 'create_task'), CREATES);
        const window = await windowOf(api);
        if (!window) return;
        for (const direction of ['asc', 'desc'] as const) {
          // due_date is the default sort: asked for without sort_by.
          const criteria: Filter = { ...(sortBy === 'due_date' ? {} : { sort_by: sortBy }), sort_direction: direction };
          // Names of an existing account may use any alphabet: their order is not judged.
          const judged = sortBy === 'name' ? undefined : sortBy;
          const problems = await windowProblems(api, window, async (tasks) =>
            orderProblems(tasks, await readWindow(api, window, criteria, 7), judged, direction),
          );
          expect(problems, `pages of 7 sorted by ${sortBy} ${direction}: every task of the window once, in order (in every round)`).toEqual([]);
        }
      },
      { also: ['SEARCH-4'] },
    ),
  );
}
