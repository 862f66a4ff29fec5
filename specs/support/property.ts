/**
 * The one property runner of the suite (fast-check): the search properties, the upsert model and
 * the bulk property all run through {@link checkProperty}.
 *
 * - Seed: CRM_FC_SEED, or a fresh one; runs: CRM_FC_RUNS (scaled down by heavy properties);
 *   CRM_FC_PATH replays one counterexample (its shrink path) instead of every run.
 * - Budgets: `timeLimitMs` stops generating new runs (the property then passes with the runs it
 *   made); shrinking against a live target sends requests for every candidate, so it gets its own
 *   budget (`shrinkBudgetMs`): past it, the remaining candidates are not sent and the smallest
 *   counterexample found so far is reported. The first counterexample is reported too. The
 *   budget is 5 s in a run (a faulty server must not cost a gating run half a minute per
 *   property; 30 s made a run with `upsert-not-atomic` 2.5 times as long), and 60 s when a
 *   counterexample is replayed (CRM_FC_PATH): then someone is looking at it.
 * - Evidence: a failure attaches `counterexample.txt` (seed, path, the shrunk and the first
 *   counterexample, what was sent, the problem) and says how to replay, in one form for every
 *   property: `CRM_FC_SEED=… CRM_FC_PATH=… CRM_FC_RUNS=… npx playwright test <file>:<line>` (from an
 *   installed package `npx crm-conformance run <file>:<line>`: {@link replayLine}). CRM_FC_RUNS is
 *   the setting the property's runs came from, so that fed back it gives the same runs; a model
 *   runs a plain list of commands ({@link commandList}), so that its path replays without more.
 *   A CRM_FC_PATH that leads nowhere in a property's values leaves the test not judged.
 */
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { DEFAULT_FC_RUNS, type TargetConfig } from './core/config.js';
import { redactText } from './core/redact.js';
import { replayLine } from './core/replay.js';
import { notJudged } from './fixtures/rule.js';

export { commandList } from './core/replay.js';

/**
 * The tag of every test whose inputs are random (a property through {@link checkProperty}): a
 * fault only such tests catch is caught by chance. `npm run calibrate -- --scope matrix
 * --no-random` runs the fault matrix without them, to find such faults.
 */
export const RANDOM_TAG = '@random';

/** Default time budget of shrinking (requests to the target for every candidate), in a run and on replay (CRM_FC_PATH). */
export const SHRINK_BUDGET_MS = 5_000;
export const REPLAY_SHRINK_BUDGET_MS = 60_000;

/** The seed of a property: CRM_FC_SEED, or a fresh one. */
export function propertySeed(target: TargetConfig): number {
  return target.fc.seed ?? (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

/** The number of runs of a heavy property: `runs` divided by `divisor`, at least `min`. */
export const scaledRuns = (runs: number, divisor: number, min: number) => Math.max(min, Math.ceil(runs / divisor));

/**
 * A heavy property's time budget (`timeLimitMs`): `ms` for the default runs, more in proportion
 * when CRM_FC_RUNS asks for more (never less). Past it the property passes with the runs it made,
 * and its note says how many: a slow server gets fewer runs instead of a run several times as long.
 */
export const scaledBudget = (runs: number, ms: number) => Math.max(ms, Math.round((ms * runs) / DEFAULT_FC_RUNS));

/** A discrepancy found by a property: what was sent (a filter, a request) and what was wrong. */
export class PropertyFailure extends Error {
  constructor(
    readonly sent: unknown,
    readonly problems: string[],
  ) {
    super(`${problems.join('\n')}\n  sent: ${JSON.stringify(sent)}`);
  }
}

export interface PropertyOptions<T> {
  /** What the property says, for messages. */
  name: string;
  /** The seed (when the test needed it before, e.g. to generate its record set); default {@link propertySeed}. */
  seed?: number;
  /** Runs; default CRM_FC_RUNS. */
  numRuns?: number;
  /** Stop generating runs after this long (the property passes with the runs made). */
  timeLimitMs?: number;
  /** Time budget of shrinking; default {@link SHRINK_BUDGET_MS}. */
  shrinkBudgetMs?: number;
  /** The rules a counterexample implicates (annotated on the test when it fails). */
  rulesOf?: (value: T) => string[];
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const sentOf = (e: unknown) => (e instanceof PropertyFailure ? [`sent: ${JSON.stringify(e.sent)}`] : []);
const shown = (v: unknown) => {
  try {
    return fc.stringify(v);
  } catch {
    return String(v);
  }
};

/**
 * Runs `predicate` on values of `arb` (it throws to report a problem); fails the test with the
 * counterexample, its seed and path and a replay line; see the file header.
 */
export async function checkProperty<T>(
  testInfo: TestInfo,
  target: TargetConfig,
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  o: PropertyOptions<T>,
): Promise<void> {
  const seed = o.seed ?? propertySeed(target);
  const numRuns = o.numRuns ?? target.fc.runs;
  const budget = o.shrinkBudgetMs ?? (target.fc.path ? REPLAY_SHRINK_BUDGET_MS : SHRINK_BUDGET_MS);
  let first: { value: string; error: unknown; at: number } | undefined;
  let unsent = 0;
  const guarded = async (value: T): Promise<void> => {
    // Past the shrink budget a candidate is not sent: it counts as passing, so shrinking ends
    // with the smallest counterexample found so far.
    if (first && Date.now() - first.at > budget) {
      unsent++;
      return;
    }
    try {
      await predicate(value);
    } catch (err) {
      first ??= { value: shown(value), error: err, at: Date.now() };
      throw err;
    }
  };
  let details: fc.RunDetails<[T]>;
  try {
    details = await fc.check(fc.asyncProperty(arb, guarded), {
      seed,
      numRuns,
      ...(target.fc.path ? { path: target.fc.path } : {}),
      ...(o.timeLimitMs ? { interruptAfterTimeLimit: o.timeLimitMs, markInterruptAsFailure: false } : {}),
    });
  } catch (err) {
    // A path that leads nowhere in this property's values: a setting that does not fit, no verdict.
    if (target.fc.path && /Unable to replay/.test(messageOf(err))) {
      notJudged(
        `not judged: CRM_FC_PATH=${target.fc.path} is no path of the property "${o.name}" with seed ${seed} (${messageOf(err)}): ` +
          'replay with the line its failure printed, for its own test only (the file:line at its end), or unset CRM_FC_PATH',
      );
    }
    throw err;
  }
  const replayOf = (path: string) => replayLine({ seed, path, runsSetting: target.fc.runs, file: testInfo.file, line: testInfo.line });
  testInfo.annotations.push({
    type: 'note',
    description: `property "${o.name}": ${details.numRuns} runs of ${numRuns}${details.interrupted && !details.failed ? ' (time limit reached)' : ''}, seed ${seed}`,
  });
  if (!details.failed) return;

  const path = details.counterexamplePath ?? '';
  const firstPath = path.split(':')[0];
  const value = details.counterexample?.[0] as T;
  const err = details.errorInstance;
  const stopped = unsent > 0 ? `; shrinking stopped by its budget of ${budget / 1000} s (${unsent} candidate${unsent === 1 ? '' : 's'} not sent)` : '';
  const text = [
    `property: ${o.name}`,
    `seed: ${seed}`,
    `path: ${path}`,
    `runs: ${details.numRuns} of ${numRuns}${numRuns === target.fc.runs ? '' : ` (from CRM_FC_RUNS=${target.fc.runs})`}, shrinks: ${details.numShrinks}${stopped}`,
    `counterexample (shrunk): ${shown(value)}`,
    ...sentOf(err),
    `problem:\n${messageOf(err)}`,
    '',
    ...(first ? [`first counterexample (path ${firstPath}): ${first.value}`, ...sentOf(first.error), `first problem:\n${messageOf(first.error)}`, ''] : []),
    `replay: ${replayOf(path)}`,
    `replay the first counterexample: ${replayOf(firstPath)}`,
  ].join('\n');
  await testInfo.attach('counterexample.txt', { body: redactText(text), contentType: 'text/plain' });
  // The failure also counts against the rules the (shrunk) counterexample implicates.
  const implicated = o.rulesOf ? [...new Set(o.rulesOf(value))] : [];
  for (const id of implicated) testInfo.annotations.push({ type: 'rule', description: id });
  const about = implicated.length ? ` (rules of its criteria: ${implicated.join(', ')})` : '';
  throw new Error(
    redactText(
      `${o.name}: counterexample${about} (seed ${seed}, path ${path}${stopped}):\n${messageOf(err)}\nReplay with: ${replayOf(path)}\n(see counterexample.txt; the first counterexample was found at path ${firstPath})`,
    ),
  );
}
