/**
 * Runs of a property in flight (specs/support/property.ts): the values fast-check gives its runs,
 * run several at a time against a far target, and the latency the test's own exchanges show.
 */
import fc from 'fast-check';
import { QUICK_PROPERTY_REQUESTS, type TargetConfig } from './core/config.js';

/**
 * Quick's request budget of a property ({@link QUICK_PROPERTY_REQUESTS}): `predicate`, but once
 * its runs have sent that many requests (the test's exchanges since the property started: its
 * record set or crowd, made before, is not counted), a run is not made (to fast-check it passes;
 * `unmade` counts it, for the note). The first run is always made. Off in other depths, on replay
 * (CRM_FC_PATH), once a run has failed (`failed`: shrinking has budgets of its own) and after
 * `end` (a failing run re-run alone).
 */
export function quickBudget<T>(
  target: TargetConfig,
  predicate: (value: T) => Promise<void>,
  exchanges: (() => readonly unknown[]) | undefined,
  failed: () => boolean,
) {
  let on = target.depth === 'quick' && !target.fc.path && !!exchanges;
  const base = exchanges?.().length ?? 0;
  let started = 0;
  let unmade = 0;
  return {
    predicate: async (value: T): Promise<void> => {
      if (on && started > 0 && !failed() && exchanges!().length - base >= QUICK_PROPERTY_REQUESTS) {
        unmade++;
        return;
      }
      started++;
      await predicate(value);
    },
    end: () => (on = false),
    /** Every run made again: those of before are forgotten. */
    forget: () => (unmade = 0),
    unmade: () => unmade,
  };
}

/**
 * The values fast-check gives the runs of a property with this seed, in order: a property that
 * only records them, run with the same seed and runs (the same generation, bias included).
 */
export function valuesOf<T>(arb: fc.Arbitrary<T>, seed: number, numRuns: number): T[] {
  const values: T[] = [];
  fc.check(
    fc.property(arb, (v) => {
      values.push(v);
      return true;
    }),
    { seed, numRuns },
  );
  return values;
}

/**
 * Runs `predicate` on `values`, `inFlight` at a time, started in order; no new run after
 * `timeLimitMs`, none past a failing one. `failedAt`: the lowest failing index (every run before
 * it has ended, so it is the one fast-check finds when it runs them one after another).
 * `inFlight` as a function: the first {@link TIMED_RUNS} runs go alone and time a run of this
 * target; the function gives the runs in flight for that time (ms per run), `inFlight` in the result.
 */
export async function runInFlight<T>(
  values: T[],
  predicate: (value: T) => Promise<void>,
  inFlight: number | ((msPerRun: number) => number),
  timeLimitMs?: number,
): Promise<{ done: number; interrupted: boolean; inFlight: number; msPerRun?: number; failedAt?: number; failedValue?: T; error?: unknown }> {
  const deadline = timeLimitMs ? Date.now() + timeLimitMs : Infinity;
  let next = 0;
  let done = 0;
  let interrupted = false;
  let failedAt: number | undefined;
  let error: unknown;
  const lane = async (limit: number) => {
    while (next < limit && (failedAt === undefined || next < failedAt)) {
      if (Date.now() >= deadline) {
        interrupted = true;
        return;
      }
      const i = next++;
      try {
        await predicate(values[i]);
        done++;
      } catch (err) {
        if (failedAt === undefined || i < failedAt) {
          failedAt = i;
          error = err;
        }
      }
    }
  };
  let lanes = typeof inFlight === 'number' ? inFlight : 1;
  let msPerRun: number | undefined;
  if (typeof inFlight === 'function') {
    const started = Date.now();
    await lane(Math.min(TIMED_RUNS, values.length));
    msPerRun = (Date.now() - started) / Math.max(1, done);
    lanes = failedAt === undefined && !interrupted ? Math.max(1, inFlight(msPerRun)) : 1;
  }
  if (!interrupted) await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, values.length - next)) }, () => lane(values.length)));
  return { done, interrupted, inFlight: lanes, msPerRun, failedAt, failedValue: failedAt === undefined ? undefined : values[failedAt], error };
}

/**
 * The target's latency as `exchanges` show it (ms): the fastest of them, or undefined under five.
 * The fastest, not the median: on loopback the answers of a crowd of concurrent requests
 * (a race, a busy machine) take tens of ms, while the target's own latency is what its fastest
 * answers take; a far target's fastest answers still take its latency.
 */
export function latencyOfExchanges(exchanges: readonly { durationMs: number; status?: number }[]): number | undefined {
  const times = exchanges
    // A 429 (and its wait) or no answer says nothing of the target's latency.
    .filter((x) => x.status === undefined || (x.status > 0 && x.status !== 429))
    .map((x) => x.durationMs)
    .filter((t) => Number.isFinite(t))
    .sort((a, b) => a - b);
  return times.length >= 5 ? times[0] : undefined;
}

/** Runs that go alone first and time a run of the target (then the runs in flight follow what they took). */
export const TIMED_RUNS = 2;
