/**
 * spec § Endpoints → Projects and Tasks: minimum/maximum created and modified dates, and the
 * due-date bounds of tasks. Bounds are judged against the records' own returned
 * date_created/date_modified values (the server's clock is never assumed); a minimum or a
 * maximum includes its value. Timestamps have a resolution of one second, so the records are
 * created until the server's clock has moved on (polling with a deadline, never a fixed sleep).
 */
import { create, createUntilLater, distinct, expectSameRecords, inNs, needTaskCreate, search, type Kind, type Rec } from '../support/search.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const KINDS: Kind[] = ['projects', 'tasks'];
const label = (kind: Kind) => (kind === 'projects' ? 'project search' : 'task search');

for (const kind of KINDS) {
  test(
    ...rule(
      'SEARCH-10',
      `${label(kind)}: minimum/maximum created and modified dates bound the records' own timestamps, inclusively`,
      async ({ api, ns, profile }) => {
        if (kind === 'tasks') needTaskCreate(profile);
        const first = await create(kind, { api, ns, profile });
        await createUntilLater(() => create(kind, { api, ns, profile }), first.date_created);
        // The records as the search shows them now (a modification date may have moved on).
        const all = await search(api, kind, inNs(ns));
        for (const [field, name] of [
          ['date_created', 'created'],
          ['date_modified', 'modified'],
        ] as const) {
          const values = distinct(all.map((r) => r[field]));
          expect(values.length, `at least two distinct ${field} values among ${all.length} records`).toBeGreaterThanOrEqual(2);
          const [lo, hi] = [values[0], values[values.length - 1]];
          const where = (p: (t: number) => boolean) => all.filter((r: Rec) => p(r[field]));
          const check = async (filter: Record<string, number>, want: Rec[], what: string) =>
            expectSameRecords(await search(api, kind, inNs(ns, filter)), want, `${what} (${JSON.stringify(filter)}; ${field} values ${values.join(', ')})`);
          // Independent searches, sent together: a far target answers them in one round trip.
          await Promise.all([
            check(
              { [`minimum_${name}_date`]: hi },
              where((t) => t >= hi),
              `minimum_${name}_date at the latest value includes it`,
            ),
            check(
              { [`maximum_${name}_date`]: lo },
              where((t) => t <= lo),
              `maximum_${name}_date at the earliest value includes it`,
            ),
            check(
              { [`minimum_${name}_date`]: lo, [`maximum_${name}_date`]: lo },
              where((t) => t === lo),
              `minimum = maximum selects that second`,
            ),
            check(
              { [`minimum_${name}_date`]: lo + 1 },
              where((t) => t > lo),
              `minimum_${name}_date one second after the earliest`,
            ),
            check(
              { [`maximum_${name}_date`]: hi - 1 },
              where((t) => t < hi),
              `maximum_${name}_date one second before the latest`,
            ),
            check({ [`minimum_${name}_date`]: hi, [`maximum_${name}_date`]: lo }, [], 'a minimum after the maximum selects nothing'),
          ]);
        }
      },
    ),
  );
}

test(
  ...rule('TSEARCH-6', 'task search: minimum_due_date and maximum_due_date bound the due date, inclusively', async ({ api, ns, profile }) => {
    needTaskCreate(profile);
    const day = 86_400;
    const d = [1_893_456_000, 1_893_456_000 + day, 1_893_456_000 + 2 * day];
    const made = await Promise.all([d[1], d[0], d[2], null].map((due) => create('tasks', { api, ns, profile }, due === null ? {} : { due_date: due })));
    const dueOf = (r: Rec) => (typeof r.due_date === 'number' ? r.due_date : null);
    const where = (p: (t: number) => boolean) => made.filter((r) => dueOf(r) !== null && p(dueOf(r)!));
    const check = async (filter: Record<string, number>, want: Rec[], what: string) =>
      expectSameRecords(await search(api, 'tasks', inNs(ns, filter)), want, `${what} (${JSON.stringify(filter)})`);
    await check(
      { minimum_due_date: d[1] },
      where((t) => t >= d[1]),
      'minimum_due_date includes a task due at the bound',
    );
    await check(
      { maximum_due_date: d[1] },
      where((t) => t <= d[1]),
      'maximum_due_date includes a task due at the bound',
    );
    await check(
      { minimum_due_date: d[1], maximum_due_date: d[1] },
      where((t) => t === d[1]),
      'minimum = maximum selects the task due then',
    );
    await check(
      { minimum_due_date: d[0] + 1, maximum_due_date: d[2] - 1 },
      where((t) => t > d[0] && t < d[2]),
      'bounds strictly between due dates',
    );
    expect(made.filter((r) => dueOf(r) !== null).length, 'three tasks have the due date sent').toBe(3);
  }),
);
