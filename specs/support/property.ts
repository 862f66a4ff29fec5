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
 * - Runs in flight: against a far target the runs are sent several at a time
 *   ({@link concurrencyFor} of the latency the test's own exchanges show, else the preflight's;
 *   one on loopback). The values are the ones fast-check gives its runs in order (the same seed),
 *   started in that order; the first failing run (the lowest index: every run before it has ended) is re-run alone by
 *   fast-check (`path` = its index) and shrunk there, so its seed and path are those a run one
 *   after another finds, and the replay line replays it (a replay, CRM_FC_PATH, runs alone).
 * - Budgets follow the latency ({@link latencyBudget}): a far target gets the same runs as a near
 *   one, within a bound the property's note states; a run cut short says how many runs it made.
 */
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { DEFAULT_FC_RUNS, QUICK_PROPERTY_REQUESTS, type TargetConfig } from './core/config.js';
import { breaks } from './core/attribution.js';
import { measuredLatencyMs, PREFLIGHT_ENV, readPreflight } from './core/preflight.js';
import { redactText } from './core/redact.js';
import { replayLine } from './core/replay.js';
import { notJudged } from './fixtures/rule.js';
import { latencyOfExchanges, quickBudget, runInFlight, valuesOf } from './property-flight.js';
import { ruleIdOfTitle } from '../../rules/index.js';

export { commandList } from './core/replay.js';
export { latencyOfExchanges, runInFlight, TIMED_RUNS, valuesOf } from './property-flight.js';

/**
 * The tag of every test whose inputs are random (a property through {@link checkProperty}): a
 * fault only such tests catch is caught by chance. `npm run calibrate -- --scope matrix
 * --no-random` runs the fault matrix without them, to find such faults.
 */
export const RANDOM_TAG = '@random';

/** Default time budget of shrinking (requests to the target for every candidate), in a run and on replay (CRM_FC_PATH). */
export const SHRINK_BUDGET_MS = 5_000;
export const REPLAY_SHRINK_BUDGET_MS = 60_000;
/**
 * A quick run (CRM_DEPTH=quick) promises at most 1,000 requests, a faulty server's too: its
 * shrinking sends candidates for at most about this many requests (the property's requestsPerRun
 * each); the replay line (CRM_FC_PATH) shrinks further within {@link REPLAY_SHRINK_BUDGET_MS}.
 */
export const QUICK_SHRINK_REQUESTS = 150;

/** At most this many runs of a property in flight. */
export const MAX_IN_FLIGHT = 16;

/**
 * Runs of a property in flight for a target answering in `latencyMs` (the fastest of the test's exchanges):
 * one on loopback and under 10 ms (CPU bounds the run there, not the wait), else one per 5 ms of
 * latency, at most {@link MAX_IN_FLIGHT}: 50 ms ⇒ 10, 300 ms ⇒ 16. At 300 ms the 4,300 requests of
 * the properties lane need 80 s with 16 in flight (the goal of a whole run is 120 s; 8 would need 160 s).
 * A 429 is waited for by the client, run-wide; bulk calls keep their own pacing.
 */
export function concurrencyFor(latencyMs: number | undefined): number {
  if (!latencyMs || latencyMs < 10) return 1;
  return Math.min(MAX_IN_FLIGHT, Math.ceil(latencyMs / 5));
}

let latencyCache: { file?: string; ms?: number } | undefined;
/** The run's latency as its preflight measured it (ms; undefined without a preflight), read once per process. */
export function runLatencyMs(): number | undefined {
  const file = process.env[PREFLIGHT_ENV];
  if (!latencyCache || latencyCache.file !== file) latencyCache = { file, ms: measuredLatencyMs(readPreflight(file)) };
  return latencyCache.ms;
}

/** The longest budget of one property, whatever the latency: the bound a far target's run keeps (stated in the note). */
export const MAX_PROPERTY_BUDGET_MS = 180_000;

/**
 * A property's time budget at a latency: `budgetMs` (the budget on loopback, see {@link scaledBudget})
 * plus the wait of its runs at that latency, `runs × requestsPerRun × latency / inFlight`, with half
 * again for slack, at most {@link MAX_PROPERTY_BUDGET_MS}. Loopback and under 10 ms: `budgetMs`.
 */
export function latencyBudget(budgetMs: number, o: { runs: number; requestsPerRun: number; latencyMs: number | undefined; inFlight: number }): number {
  if (!o.latencyMs || o.latencyMs < 10) return budgetMs;
  const wait = (o.runs * o.requestsPerRun * o.latencyMs) / Math.max(1, o.inFlight);
  return Math.min(MAX_PROPERTY_BUDGET_MS, Math.max(budgetMs, Math.round(budgetMs + 1.5 * wait)));
}

/** Candidates shrinking has time for at any latency (one after another: a failing case is shrunk alone). */
export const SHRINK_CANDIDATES = 50;
/** The longest shrinking budget, whatever the latency. */
export const MAX_SHRINK_BUDGET_MS = 120_000;

/**
 * The time budget of shrinking at a latency: `budgetMs` (the one on loopback) plus the time of
 * {@link SHRINK_CANDIDATES} candidates at that latency, at most {@link MAX_SHRINK_BUDGET_MS}:
 * a far target's counterexample is shrunk as far as a near one's. Under 10 ms: `budgetMs`.
 */
export function shrinkBudget(budgetMs: number, o: { requestsPerRun: number; latencyMs: number | undefined }): number {
  if (!o.latencyMs || o.latencyMs < 10) return budgetMs;
  return Math.min(MAX_SHRINK_BUDGET_MS, Math.max(budgetMs, Math.round(budgetMs + SHRINK_CANDIDATES * o.requestsPerRun * o.latencyMs)));
}

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
  /** Stop generating runs after this long (the property passes with the runs made); raised with the latency ({@link latencyBudget}). */
  timeLimitMs?: number;
  /** Requests a run sends, about (for {@link latencyBudget}); default 4. */
  requestsPerRun?: number;
  /** Runs in flight; default {@link concurrencyFor} the target's latency (1 when replaying a path). */
  inFlight?: number;
  /**
   * The test's exchanges so far (`() => api.recorder.exchanges`): the fastest of them is the
   * target's latency as this test sees it (a record set, a crowd of Leads: dozens of requests
   * before the first run). Without them, the first runs time the target.
   */
  exchanges?: () => readonly { durationMs: number; status?: number }[];
  /** Time budget of shrinking; default {@link SHRINK_BUDGET_MS}, raised with the latency ({@link shrinkBudget}). */
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

/** What a property's run is given: its seed and runs, the target's latency, budgets and runs in flight. */
function planOf<T>(testInfo: TestInfo, target: TargetConfig, o: PropertyOptions<T>) {
  const seed = o.seed ?? propertySeed(target);
  const numRuns = o.numRuns ?? target.fc.runs;
  const requestsPerRun = o.requestsPerRun ?? 4;
  // The target's latency: the fastest of the test's own exchanges when it has sent a few (the
  // preflight's two cold probes read 17-38 ms on a loaded loopback), else the preflight's, which
  // the first runs then correct (below). A replay (CRM_FC_PATH) runs alone: one counterexample, as
  // someone looks at it.
  const seen = o.exchanges ? latencyOfExchanges(o.exchanges()) : undefined;
  const latencyMs = seen ?? runLatencyMs();
  const budget = o.shrinkBudgetMs ?? shrinkBudget(target.fc.path ? REPLAY_SHRINK_BUDGET_MS : SHRINK_BUDGET_MS, { requestsPerRun, latencyMs });
  const inFlightAtMost = target.fc.path ? 1 : Math.max(1, o.inFlight ?? concurrencyFor(latencyMs));
  const timeLimitMs = o.timeLimitMs ? latencyBudget(o.timeLimitMs, { runs: numRuns, requestsPerRun, latencyMs, inFlight: inFlightAtMost }) : undefined;
  // The whole test gets the time of the budget and of shrinking (a deep run, a far target).
  if (timeLimitMs && typeof testInfo.setTimeout === 'function' && testInfo.timeout > 0)
    testInfo.setTimeout(Math.max(testInfo.timeout, timeLimitMs + budget + 60_000));
  const candidates = target.depth === 'quick' && !target.fc.path ? Math.max(1, Math.floor(QUICK_SHRINK_REQUESTS / requestsPerRun)) : Infinity;
  return { seed, numRuns, requestsPerRun, seen, latencyMs, budget, inFlightAtMost, timeLimitMs, candidates };
}

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
  const { seed, numRuns, requestsPerRun, seen, latencyMs, budget, inFlightAtMost, timeLimitMs, candidates } = planOf(testInfo, target, o);
  let first: { value: string; error: unknown; at: number } | undefined;
  let unsent = 0;
  let shrinks = 0;
  const quick = quickBudget(target, predicate, o.exchanges, () => !!first);
  const guarded = async (value: T): Promise<void> => {
    // Past the shrink budget (its time; in a quick run also its requests) a candidate is not sent:
    // it counts as passing, so shrinking ends with the smallest counterexample found so far.
    if (first && (Date.now() - first.at > budget || shrinks >= candidates)) {
      unsent++;
      return;
    }
    if (first) shrinks++;
    try {
      await quick.predicate(value);
    } catch (err) {
      first ??= { value: shown(value), error: err, at: Date.now() };
      throw err;
    }
  };
  // Runs in flight: the values fast-check gives its runs, in order; the first failing run is
  // then re-run alone from its path (below), so that seed and path are fast-check's own.
  let ahead: Awaited<ReturnType<typeof runInFlight<T>>> | undefined;
  let seenLatencyMs = latencyMs;
  if (inFlightAtMost > 1) {
    const lanes =
      o.inFlight ??
      (seen !== undefined ? inFlightAtMost : undefined) ??
      ((msPerRun: number) => {
        seenLatencyMs = Math.round(Math.min(latencyMs ?? Infinity, msPerRun / requestsPerRun));
        return concurrencyFor(seenLatencyMs);
      });
    ahead = await runInFlight(valuesOf(arb, seed, numRuns), quick.predicate, lanes, timeLimitMs);
    if (ahead.failedAt !== undefined) first = { value: shown(ahead.failedValue), error: ahead.error, at: Date.now() };
    quick.end();
  }
  const inFlight = ahead?.inFlight ?? 1;
  const path = target.fc.path ?? (ahead?.failedAt !== undefined ? String(ahead.failedAt) : undefined);
  let details: fc.RunDetails<[T]> | undefined;
  if (!ahead || ahead.failedAt !== undefined)
    // The failing run of those in flight, alone (then shrunk); else every run.
    details = await checkRuns(arb, guarded, { seed, numRuns: ahead ? 1 : numRuns, path, timeLimitMs: ahead ? undefined : timeLimitMs }, () =>
      target.fc.path
        ? `CRM_FC_PATH=${target.fc.path} is no path of the property "${o.name}" with seed ${seed}: ` +
          'replay with the line its failure printed, for its own test only (the file:line at its end), or unset CRM_FC_PATH'
        : undefined,
    );
  const replayOf = (p: string) => replayLine({ seed, path: p, runsSetting: target.fc.runs, file: testInfo.file, line: testInfo.line });
  if (ahead?.failedAt !== undefined && !details!.failed) {
    // The run that failed among others passed alone: runs in flight were not independent on this
    // target (a contention it may answer as it likes, a limit of its own). No verdict rests on that:
    // every run goes again alone, as without runs in flight, and the note says what happened.
    testInfo.annotations.push({
      type: 'note',
      description: `property "${o.name}": run ${ahead.failedAt} failed with ${inFlight} runs in flight and passed alone (${messageOf(ahead.error).split('\n')[0].slice(0, 200)}); every run made again alone`,
    });
    ahead = undefined;
    quick.forget();
    first = undefined;
    details = await checkRuns(arb, guarded, { seed, numRuns, timeLimitMs }, () => undefined);
  }
  const runsMade = (ahead ? (ahead.failedAt !== undefined ? ahead.failedAt + 1 : ahead.done) : details!.numRuns) - quick.unmade();
  const interrupted = ahead ? ahead.interrupted : !!details!.interrupted;
  const power =
    inFlight > 1 || (timeLimitMs && timeLimitMs !== o.timeLimitMs)
      ? ` (${ahead ? inFlight : 1} in flight at ${seenLatencyMs} ms${timeLimitMs ? `, budget ${Math.round(timeLimitMs / 1000)} s` : ''})`
      : '';
  testInfo.annotations.push({
    type: 'note',
    description: `property "${o.name}": ${runsMade} runs of ${numRuns}${interrupted && !(details?.failed || ahead?.failedAt !== undefined) ? ' (time limit reached)' : ''}${quick.unmade() ? ` (quick's budget of ${QUICK_PROPERTY_REQUESTS} requests reached)` : ''}, seed ${seed}${power}`,
  });
  if (!details?.failed) return;
  const limit = shrinks >= candidates ? `${candidates} candidates in a quick run; the replay line shrinks further` : `${budget / 1000} s`;
  const stopped = unsent > 0 ? `; shrinking stopped by its budget of ${limit} (${unsent} candidate${unsent === 1 ? '' : 's'} not sent)` : '';
  const runs = `${runsMade} of ${numRuns}${numRuns === target.fc.runs ? '' : ` (from CRM_FC_RUNS=${target.fc.runs})`}${ahead ? ` (${inFlight} in flight; the failing run re-run alone)` : ''}`;
  await failWith(testInfo, o, details, { seed, runs, stopped, first, replayOf });
}

/**
 * fast-check's runs of `arb` from `seed` (from `path` when given), within the time limit. A path
 * that leads nowhere in the property's values is a setting that does not fit: not judged, with
 * `misfit`'s words when it has some.
 */
async function checkRuns<T>(
  arb: fc.Arbitrary<T>,
  guarded: (value: T) => Promise<void>,
  r: { seed: number; numRuns: number; path?: string; timeLimitMs?: number },
  misfit: () => string | undefined,
): Promise<fc.RunDetails<[T]>> {
  try {
    return await fc.check(fc.asyncProperty(arb, guarded), {
      seed: r.seed,
      numRuns: r.numRuns,
      ...(r.path ? { path: r.path } : {}),
      ...(r.timeLimitMs ? { interruptAfterTimeLimit: r.timeLimitMs, markInterruptAsFailure: false } : {}),
    });
  } catch (err) {
    const why = /Unable to replay/.test(messageOf(err)) ? misfit() : undefined;
    if (why) notJudged(`not judged: ${why} (${messageOf(err)})`);
    throw err;
  }
}

/** Fails the test with the shrunk counterexample (attached with the first one), its seed, path and replay lines. */
async function failWith<T>(
  testInfo: TestInfo,
  o: PropertyOptions<T>,
  details: fc.RunDetails<[T]>,
  f: { seed: number; runs: string; stopped: string; first?: { value: string; error: unknown }; replayOf: (path: string) => string },
): Promise<never> {
  const { seed, stopped, first, replayOf } = f;

  const found = details.counterexamplePath ?? '';
  const firstPath = found.split(':')[0];
  const value = details.counterexample?.[0] as T;
  const err = details.errorInstance;
  const text = [
    `property: ${o.name}`,
    `seed: ${seed}`,
    `path: ${found}`,
    `runs: ${f.runs}, shrinks: ${details.numShrinks}${stopped}`,
    `counterexample (shrunk): ${shown(value)}`,
    ...sentOf(err),
    `problem:\n${messageOf(err)}`,
    '',
    ...(first ? [`first counterexample (path ${firstPath}): ${first.value}`, ...sentOf(first.error), `first problem:\n${messageOf(first.error)}`, ''] : []),
    `replay: ${replayOf(found)}`,
    `replay the first counterexample: ${replayOf(firstPath)}`,
  ].join('\n');
  await testInfo.attach('counterexample.txt', { body: redactText(text), contentType: 'text/plain' });
  // The failure also counts against the rules the (shrunk) counterexample implicates.
  const implicated = o.rulesOf ? [...new Set(o.rulesOf(value))] : [];
  for (const id of implicated) testInfo.annotations.push({ type: 'rule', description: id });
  const about = implicated.length ? ` (rules of its criteria: ${implicated.join(', ')})` : '';
  // The failure rests on the property's own rule and on those of the criteria it used (a tags
  // filter: SEARCH-8): named, the report blames the one this run shows broken (reporting/blame.ts).
  const own = ruleIdOfTitle(testInfo.title);
  const names = implicated.length ? breaks([...(own ? [own] : []), ...implicated]) : '';
  throw new Error(
    redactText(
      `${o.name}: counterexample${about}${names} (seed ${seed}, path ${found}${stopped}):\n${messageOf(err)}\nReplay with: ${replayOf(found)}\n(see counterexample.txt; the first counterexample was found at path ${firstPath})`,
    ),
  );
}
