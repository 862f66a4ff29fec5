/**
 * The read-only checks over the account's own tasks (tasks-readonly.spec.ts): records the suite did
 * not make, which others may create, change or delete while the suite runs (a shared or live
 * account). What they rest on:
 * - A window fixed at the test's start at both ends: the tasks created at or before the newest
 *   task's creation time then, and after the {@link WINDOW_AT_START} newest. Created dates never
 *   change, so a task made later falls outside it (but for one made within that same second).
 * - Rounds (../support/others.ts): a check reads the window's tasks as they are now, then the
 *   searches it judges, and lists its problems as items (`missing 1234`, `both 1234`, `order 1234
 *   before 1235`); a problem is asserted only when every round shows it. A task that changes,
 *   appears or vanishes meanwhile, or a page that shifts under a deletion, makes a problem in one
 *   round and not in the next. A check of one item per task judges again, after its first round,
 *   only the tasks its problems name (by `ids`), so that no shift clears a fault either.
 * - What an answer shows of its own records is judged at once where no change can explain it: a
 *   created date outside the window's bounds.
 */
import { breaks, expect, test, type ApiClient } from '../support/fixtures/test.js';
import { persistentProblems } from '../support/others.js';
import { idOf, search, searchPages, type Filter, type Rec } from '../support/search.js';

export { orderProblems, partitionProblems, selectionProblems } from '../../generators/window-model.js';

/** Tasks of the account in the window at the test's start: at most this many (12 pages of 20), so that it has room to grow. */
export const WINDOW_AT_START = 240;
/** Pages of 20 read at most in the window: more means others made tasks faster than the suite reads them. */
const MAX_PAGES = 25;

export interface AccountWindow {
  /** The created-date bounds of the window. */
  filter: { minimum_created_date?: number; maximum_created_date: number };
  /** The window's tasks as last read (at the test's start, then by each round of a check). */
  tasks: Rec[];
}

/** The window of the account's tasks at the test's start; undefined when the account has no task. */
export async function accountWindow(api: ApiClient): Promise<AccountWindow | undefined> {
  const desc = { sort_by: 'date_created', sort_direction: 'desc' };
  const [newest] = await search(api, 'tasks', { ...desc, page_size: 1 });
  if (!newest) return undefined;
  const last = newest.date_created as number;
  const pageSize = 20;
  const far = await search(api, 'tasks', { ...desc, page_size: pageSize, page_number: WINDOW_AT_START / pageSize });
  // With more tasks than the window holds, it starts a second after the oldest of them (unless they all share the newest's second).
  const first = far.length === pageSize ? Math.min(last, (far[far.length - 1].date_created as number) + 1) : undefined;
  const window = { filter: { ...(first === undefined ? {} : { minimum_created_date: first }), maximum_created_date: last } };
  await expectInWindow(api, window, newest);
  return { ...window, tasks: await readWindow(api, window) };
}

/**
 * The newest task, created at the window's maximum bound, is answered within it (a maximum selects
 * the records at it: SEARCH-10), or the window would leave out what it was sized on. Judged only
 * while the task is there and the `ids` criterion restricts the search.
 */
async function expectInWindow(api: ApiClient, window: Pick<AccountWindow, 'filter'>, task: Rec): Promise<void> {
  const id = idOf(task);
  const within = await search(api, 'tasks', { ...window.filter, ids: [task.id] });
  if (within.some((t) => idOf(t) === id)) return;
  const alone = await search(api, 'tasks', { ids: [task.id] });
  if (!alone.some((t) => idOf(t) === id) || within.length) return; // deleted meanwhile, or ids does not restrict: nothing to tell
  expect(
    [],
    `task ${id}, created at ${String(task.date_created)}, answered within the created-date bounds ${JSON.stringify(window.filter)}${breaks(['SEARCH-10'])}`,
  ).toContain(id);
}

/**
 * Every page of a task search within the window (`extra`: the criteria judged, which may narrow
 * its created dates further). A task answered outside the window's created-date bounds fails
 * SEARCH-10 at once; a window grown past {@link MAX_PAGES} pages skips the test with the reason
 * (the account is too busy to read a window of it, which says nothing of the server).
 */
export async function readWindow(api: ApiClient, window: Pick<AccountWindow, 'filter'>, extra: Filter = {}, pageSize = 20): Promise<Rec[]> {
  const filter = { ...window.filter, ...extra };
  const { records, complete } = await searchPages(api, 'tasks', filter, pageSize, Math.ceil((MAX_PAGES * 20) / pageSize));
  const outside = records.filter((t) => !inBounds(t.date_created, window.filter)).map((t) => `${idOf(t)} (created ${String(t.date_created)})`);
  if (outside.length) expect(outside, `tasks answered outside the created-date bounds ${JSON.stringify(window.filter)}${breaks(['SEARCH-10'])}`).toEqual([]);
  if (!complete)
    test.skip(
      true,
      `the window of the account's tasks (${JSON.stringify(window.filter)}) grew past ${MAX_PAGES} pages of 20 while the test ran: others create tasks faster than the suite reads them`,
    );
  return records;
}

const inBounds = (v: unknown, b: AccountWindow['filter']): boolean =>
  typeof v === 'number' && (b.minimum_created_date === undefined || v >= b.minimum_created_date) && v <= b.maximum_created_date;

/**
 * The problems every round of a check shows (../support/others.ts): `round(tasks, only)` judges
 * against the window's tasks as they are now (first as last read, then read again for each round),
 * its searches narrowed by `only`. A check whose items each name one task (`missing 12`, `both 12`:
 * `byTask`) judges in each round after the first only the tasks its problems name, by the `ids`
 * criterion: a narrow read that others' changes elsewhere cannot shift (a task updated meanwhile
 * moves between the pages of a whole read, and one round that misses it would clear a fault).
 */
export function windowProblems(
  api: ApiClient,
  window: AccountWindow,
  round: (tasks: Rec[], only: Filter) => Promise<string[]>,
  byTask = false,
): Promise<string[]> {
  return persistentProblems(async (n, still) => {
    if (n === 0) return round(window.tasks, {});
    if (!byTask) {
      window.tasks = await readWindow(api, window);
      return round(window.tasks, {});
    }
    const only = { ids: [...new Set(still.map(taskOf))].map((id) => (/^\d+$/.test(id) ? Number(id) : id)) };
    return round(await readWindow(api, window, only), only);
  });
}

/** The task an item names (`missing 12` → `12`). */
const taskOf = (item: string): string => item.slice(item.indexOf(' ') + 1);
