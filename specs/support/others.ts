/**
 * Checks over records the suite did not make (the account's own tasks, the activities of the
 * profile's company): others may create, change or delete them while the suite runs, on a shared
 * or live account. Such a check lists its problems as items (`missing 1234`, `both 1234`), round
 * after round, each round reading afresh, and asserts only the problems every round shows: a
 * record that changes, appears or vanishes meanwhile makes a problem in one round and not in the
 * next, a server's fault makes it in every round. A quiet account needs one round.
 */
import { test } from './fixtures/test.js';

/** Rounds at most before a problem is asserted. */
export const ROUNDS = 3;

/**
 * The problems every round of a check shows (`round(n, still)`, n from 0, lists one round's;
 * `still`: the problems every round before it showed, which a round may judge alone); those one
 * round showed and the next did not are taken for others' activity, kept as a note on the test.
 */
export async function persistentProblems(round: (n: number, still: string[]) => Promise<string[]>): Promise<string[]> {
  let problems = await round(0, []);
  const passing = new Set<string>();
  for (let n = 1; n < ROUNDS && problems.length; n++) {
    const again = new Set(await round(n, problems));
    for (const p of problems) if (!again.has(p)) passing.add(p);
    problems = problems.filter((p) => again.has(p));
  }
  if (passing.size)
    test.info().annotations.push({
      type: 'note',
      description: `seen in one round and not in the next, so taken for others' activity on the account: ${[...passing].join(', ')}`,
    });
  return problems;
}
