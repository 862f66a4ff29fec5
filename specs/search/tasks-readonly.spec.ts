/**
 * spec § Endpoints → Tasks, for targets that cannot create tasks (no task-create extension in
 * the profile; the spec shows only the task search): read-only relations over whatever tasks
 * the account has. A filtered result is a subset of the unfiltered one and its records satisfy
 * the filter; followed 1 and 2 partition the tasks; narrowing a date range never adds records;
 * the pages of a sorted search are consistently ordered. When the target can create tasks these
 * tests are skipped where the specs that create their own tasks see the same thing: all of them
 * but the followed partition, which those specs see only when the target can also follow its own
 * tasks (without a follow extension no task of theirs is ever followed, and a followed task
 * answered to `followed: 2` shows only among the account's own).
 */
import { compareOrder, compareSets, pagingOf } from '../../generators/search-model.js';
import { expectSameRecords, idsOf, search, searchAll, type Filter, type Rec } from '../support/search.js';
import { expect, rule, test, type ApiClient } from '../support/fixtures/test.js';
import { extension } from '../support/make.js';

const CREATES = 'the target can create tasks (capabilities.extensions.create_task): the specs with their own tasks check this rule exactly';
const CREATES_AND_FOLLOWS =
  'the target can create and follow tasks (capabilities.extensions.create_task and follow): the specs with their own followed tasks check this rule exactly';
/** Pages of 20 read at most: an account with more tasks is narrowed to its newest ones. */
const MAX_PAGES = 25;

/** A base filter over the account's tasks that selects at most MAX_PAGES × 20 of them. */
async function base(api: ApiClient): Promise<{ filter: Filter; tasks: Rec[] }> {
  const newest = await search(api, 'tasks', { sort_by: 'date_created', sort_direction: 'desc', page_size: 20, page_number: MAX_PAGES });
  const filter: Filter = newest.length === 20 ? { minimum_created_date: newest[newest.length - 1].date_created + 1 } : {};
  return { filter, tasks: await searchAll(api, 'tasks', filter, 20, MAX_PAGES) };
}

test(
  ...rule(
    'TSEARCH-7',
    'read-only: the tasks of a search are Tasks whose status is Open or Completed',
    async ({ api, profile }) => {
      test.skip(!!extension(profile, 'create_task'), CREATES);
      const found = await search(api, 'tasks', { page_size: 20 }); // checks the TaskList contract
      for (const t of found) expect(['Open', 'Completed'], `status of task ${String(t.id)}`).toContain(t.status);
      if (!found.length) test.info().annotations.push({ type: 'note', description: 'the account has no task: nothing to check' });
    },
    { also: ['SEARCH-1'] },
  ),
);

test(
  ...rule(
    'SEARCH-5',
    'read-only: a filtered task search is the subset of the unfiltered one whose tasks satisfy the filter',
    async ({ api, profile }) => {
      test.skip(!!extension(profile, 'create_task'), CREATES);
      const { filter, tasks } = await base(api);
      const all = new Set(idsOf(tasks));
      const due = tasks
        .map((t) => t.due_date)
        .filter((d): d is number => typeof d === 'number')
        .sort((a, b) => a - b);
      const mid = due[Math.floor(due.length / 2)];
      const checks: [Filter, (t: Rec) => boolean][] = [
        [{ statuses: ['Open'] }, (t) => t.status === 'Open'],
        [{ statuses: ['Completed'] }, (t) => t.status === 'Completed'],
        [{ assignee_ids: [-2] }, (t) => t.assignee_id === null],
        [{ project_ids: [-2] }, (t) => (t.related_resource as { type: unknown } | null)?.type !== 'project'],
        [{ statuses: ['Open'], assignee_ids: [-2] }, (t) => t.status === 'Open' && t.assignee_id === null],
        ...(mid !== undefined
          ? [[{ minimum_due_date: mid }, (t: Rec) => typeof t.due_date === 'number' && t.due_date >= mid] as [Filter, (t: Rec) => boolean]]
          : []),
        ...(mid !== undefined
          ? [[{ maximum_due_date: mid }, (t: Rec) => typeof t.due_date === 'number' && t.due_date <= mid] as [Filter, (t: Rec) => boolean]]
          : []),
      ];
      // An opportunity and a project some task is related to, when the account has such tasks.
      for (const type of ['opportunity', 'project']) {
        const rel = tasks.map((t) => t.related_resource as { id: unknown; type: unknown } | null).find((r) => r?.type === type && r.id !== null);
        if (!rel) continue;
        const member = type === 'opportunity' ? 'opportunity_ids' : 'project_ids';
        checks.push([
          { [member]: [rel.id] },
          (t) => {
            const r = t.related_resource as { id: unknown; type: unknown } | null;
            return r?.type === type && String(r.id) === String(rel.id);
          },
        ]);
      }
      for (const [g, holds] of checks) {
        const got = await searchAll(api, 'tasks', { ...filter, ...g }, 20, MAX_PAGES);
        const outside = got.filter((t) => !all.has(String(t.id))).map((t) => String(t.id));
        expect(outside, `${JSON.stringify(g)}: tasks outside the unfiltered result`).toEqual([]);
        expect(
          got.filter((t) => !holds(t)).map((t) => String(t.id)),
          `${JSON.stringify(g)}: tasks that do not satisfy it`,
        ).toEqual([]);
        expectSameRecords(got, tasks.filter(holds), `${JSON.stringify(g)}: every task of the unfiltered result that satisfies it`);
      }
    },
    { also: ['SEARCH-15', 'TSEARCH-3', 'TSEARCH-4', 'TSEARCH-5', 'TSEARCH-6'] },
  ),
);

test(
  ...rule('SEARCH-9', 'read-only: followed 1 and followed 2 partition the tasks', async ({ api, profile }) => {
    // Without a follow extension the suite's own tasks are never followed: only the account's may be.
    test.skip(!!extension(profile, 'create_task') && !!extension(profile, 'follow'), CREATES_AND_FOLLOWS);
    const { filter, tasks } = await base(api);
    const followed = await searchAll(api, 'tasks', { ...filter, followed: 1 }, 20, MAX_PAGES);
    const others = await searchAll(api, 'tasks', { ...filter, followed: 2 }, 20, MAX_PAGES);
    expectSameRecords([...followed, ...others], tasks, 'followed 1 and followed 2 together: every task once');
  }),
);

test(
  ...rule('SEARCH-10', 'read-only: narrowing a created or modified date range never adds tasks', async ({ api, profile }) => {
    test.skip(!!extension(profile, 'create_task'), CREATES);
    const { filter, tasks } = await base(api);
    for (const [field, name] of [
      ['date_created', 'created'],
      ['date_modified', 'modified'],
    ] as const) {
      const values = [...new Set(tasks.map((t) => t[field]))].sort((a, b) => a - b);
      if (!values.length) continue;
      const [lo, hi] = [values[0], values[values.length - 1]];
      const wide = await searchAll(api, 'tasks', { ...filter, [`minimum_${name}_date`]: lo, [`maximum_${name}_date`]: hi }, 20, MAX_PAGES);
      expectSameRecords(
        wide,
        tasks.filter((t) => t[field] >= lo && t[field] <= hi),
        `${field} within [${lo}, ${hi}]`,
      );
      const narrowLo = values[Math.floor(values.length / 3)];
      const narrowHi = values[Math.floor((2 * values.length) / 3)];
      const narrow = await searchAll(api, 'tasks', { ...filter, [`minimum_${name}_date`]: narrowLo, [`maximum_${name}_date`]: narrowHi }, 20, MAX_PAGES);
      const wideIds = new Set(idsOf(wide));
      expect(
        narrow.filter((t) => !wideIds.has(String(t.id))).map((t) => String(t.id)),
        `${field} within [${narrowLo}, ${narrowHi}] adds no task to [${lo}, ${hi}]`,
      ).toEqual([]);
      expectSameRecords(
        narrow,
        tasks.filter((t) => t[field] >= narrowLo && t[field] <= narrowHi),
        `${field} within [${narrowLo}, ${narrowHi}]`,
      );
    }
  }),
);

for (const sortBy of ['due_date', 'name', 'date_created', 'status', 'priority']) {
  test(
    ...rule(
      sortBy === 'due_date' ? 'TSEARCH-1' : 'TSEARCH-2',
      `read-only: the pages of a task search sorted by ${sortBy} are consistently ordered`,
      async ({ api, profile }) => {
        test.skip(!!extension(profile, 'create_task'), CREATES);
        const { filter, tasks } = await base(api);
        for (const direction of ['asc', 'desc'] as const) {
          // due_date is the default sort: asked for without sort_by.
          const f: Filter = { ...filter, ...(sortBy === 'due_date' ? {} : { sort_by: sortBy }), sort_direction: direction };
          const pages = await searchAll(api, 'tasks', f, 7, MAX_PAGES * 3);
          expect(compareSets(pages, tasks), `pages of 7 sorted by ${sortBy} ${direction}: every task once`).toEqual([]);
          // Names of an existing account may use any alphabet: their order is not judged.
          if (sortBy !== 'name') expect(compareOrder(pages, pagingOf('tasks', f).sortBy, direction), `order of ${sortBy} ${direction}`).toEqual([]);
        }
      },
      { also: ['SEARCH-4'] },
    ),
  );
}
