/**
 * Runs in flight (issue 34): the number follows the latency the preflight measured (one on
 * loopback), a property's budget grows with it, and runs in flight find the counterexample a run
 * one after another finds: the same seed, path and shrunk value, so the replay line stays exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import {
  checkProperty,
  concurrencyFor,
  latencyBudget,
  MAX_PROPERTY_BUDGET_MS,
  MAX_SHRINK_BUDGET_MS,
  runInFlight,
  SHRINK_BUDGET_MS,
  shrinkBudget,
  valuesOf,
} from '../specs/support/property.js';
import type { TargetConfig } from '../specs/support/core/config.js';

// A failure's text is redacted with the run's secrets (core/redact.ts reads the configuration).
process.env.CRM_BASE_URL ??= 'http://127.0.0.1:9';
process.env.CRM_ACCESS_TOKEN ??= 'selftest-token-0000';
process.env.CRM_USER_EMAIL ??= 'selftest@example.com';

const target = { fc: { runs: 300 } } as unknown as TargetConfig;
const infoOf = () => ({
  annotations: [] as { type: string; description?: string }[],
  attach: async () => {},
  file: 'specs/search/x.property.spec.ts',
  line: 7,
});

test('runs in flight follow the latency: one on loopback and under 10 ms, one per 5 ms beyond, at most 16', () => {
  assert.equal(concurrencyFor(undefined), 1);
  assert.equal(concurrencyFor(0.4), 1);
  assert.equal(concurrencyFor(9.9), 1);
  assert.equal(concurrencyFor(10), 2);
  assert.equal(concurrencyFor(50), 10);
  assert.equal(concurrencyFor(300), 16);
  assert.equal(concurrencyFor(2_000), 16);
});

test('a budget grows with the latency (the same runs for a far target), within a bound', () => {
  assert.equal(latencyBudget(8_000, { runs: 300, requestsPerRun: 4, latencyMs: 1, inFlight: 1 }), 8_000);
  assert.equal(latencyBudget(8_000, { runs: 300, requestsPerRun: 4, latencyMs: undefined, inFlight: 1 }), 8_000);
  // 300 runs × 4 requests × 50 ms / 10 in flight = 6 s of waiting, half again for slack.
  assert.equal(latencyBudget(8_000, { runs: 300, requestsPerRun: 4, latencyMs: 50, inFlight: 10 }), 17_000);
  assert.equal(latencyBudget(8_000, { runs: 3_000, requestsPerRun: 6, latencyMs: 2_000, inFlight: 16 }), MAX_PROPERTY_BUDGET_MS);
});

test('shrinking gets the time of 50 candidates at the latency (a far counterexample is shrunk as far as a near one), within a bound', () => {
  assert.equal(shrinkBudget(SHRINK_BUDGET_MS, { requestsPerRun: 4, latencyMs: 1 }), SHRINK_BUDGET_MS);
  assert.equal(shrinkBudget(SHRINK_BUDGET_MS, { requestsPerRun: 4, latencyMs: undefined }), SHRINK_BUDGET_MS);
  assert.equal(shrinkBudget(SHRINK_BUDGET_MS, { requestsPerRun: 4, latencyMs: 50 }), SHRINK_BUDGET_MS + 50 * 4 * 50);
  assert.equal(shrinkBudget(SHRINK_BUDGET_MS, { requestsPerRun: 4, latencyMs: 300 }), 65_000);
  assert.equal(shrinkBudget(SHRINK_BUDGET_MS, { requestsPerRun: 10, latencyMs: 2_000 }), MAX_SHRINK_BUDGET_MS);
  assert.equal(shrinkBudget(200_000, { requestsPerRun: 4, latencyMs: 300 }), MAX_SHRINK_BUDGET_MS);
});

test('the values of the runs are those fast-check gives its runs, in order', () => {
  const arb = fc.array(fc.nat(100));
  const seen: number[][] = [];
  fc.check(
    fc.property(arb, (v) => {
      seen.push(v);
      return true;
    }),
    { seed: 7, numRuns: 50 },
  );
  assert.deepEqual(valuesOf(arb, 7, 50), seen);
});

test('runs in flight: at most as many as asked, the lowest failing index, nothing started past it', async () => {
  let now = 0;
  let most = 0;
  const started: number[] = [];
  const values = [...Array(40).keys()];
  const r = await runInFlight(
    values,
    async (v) => {
      started.push(v);
      most = Math.max(most, ++now);
      await new Promise((res) => setTimeout(res, v === 17 ? 30 : 2));
      now--;
      if (v === 17 || v === 21) throw new Error(`bad ${v}`);
    },
    4,
  );
  assert.equal(most, 4);
  assert.equal(r.failedAt, 17, 'the lowest failing index, though 21 failed first');
  assert.equal((r.error as Error).message, 'bad 17');
  assert.deepEqual(
    [...Array(17).keys()].filter((i) => !started.includes(i)),
    [],
    'every run before it ran',
  );
});

async function failureOf(inFlight: number): Promise<{ message: string; note: string; sent: number }> {
  const info = infoOf();
  let sent = 0;
  try {
    await checkProperty(
      info as unknown as TestInfo,
      target,
      fc.array(fc.nat(100)),
      async (a) => {
        sent++;
        await new Promise((r) => setTimeout(r, 1));
        if (a.reduce((x, y) => x + y, 0) >= 250) throw new Error(`sum ${a.reduce((x, y) => x + y, 0)}`);
      },
      { name: 'sums stay small', seed: 42, numRuns: 300, inFlight },
    );
  } catch (err) {
    return { message: (err as Error).message, note: info.annotations.find((a) => a.type === 'note')?.description ?? '', sent };
  }
  throw new Error('the property did not fail');
}

test('runs in flight find the counterexample of runs one after another: the same seed, path and shrunk value (the replay line replays it)', async () => {
  const alone = await failureOf(1);
  const together = await failureOf(8);
  const pathOf = (m: string) => /seed 42, path ([\d:]+)/.exec(m)?.[1];
  const replayOf = (m: string) => /Replay with: (.*)/.exec(m)?.[1];
  assert.ok(pathOf(alone.message), alone.message);
  assert.equal(pathOf(together.message), pathOf(alone.message));
  assert.equal(replayOf(together.message), replayOf(alone.message));
  assert.match(replayOf(together.message)!, /^CRM_FC_SEED=42 CRM_FC_PATH=[\d:]+ CRM_FC_RUNS=300 npx playwright test specs\/search\/x\.property\.spec\.ts:7$/);
  assert.equal(together.message.split('\n')[1], alone.message.split('\n')[1], 'the same shrunk problem');
  assert.equal(/(\d+) runs of 300/.exec(together.note)?.[1], /(\d+) runs of 300/.exec(alone.note)?.[1], 'the same runs up to the failing one');
});

test('a property passing with runs in flight makes every run and says how many were in flight', async () => {
  const info = infoOf();
  await checkProperty(info as unknown as TestInfo, target, fc.nat(), async () => {}, { name: 'trivial', seed: 3, numRuns: 100, inFlight: 5 });
  assert.match(info.annotations.find((a) => a.type === 'note')?.description ?? '', /^property "trivial": 100 runs of 100, seed 3 \(5 in flight at /);
});

test('the first runs go alone and time the target: a fast target keeps one run in flight, a slow one gets more', async () => {
  const values = [...Array(12).keys()];
  let seen = 0;
  const fast = await runInFlight(
    values,
    async () => {},
    (ms) => concurrencyFor((seen = ms)),
  );
  assert.equal(fast.inFlight, 1, `a run of ${seen} ms`);
  assert.equal(fast.done, 12);
  let now = 0;
  let most = 0;
  const slow = await runInFlight(
    values,
    async () => {
      most = Math.max(most, ++now);
      await new Promise((r) => setTimeout(r, 40));
      now--;
    },
    (ms) => concurrencyFor(ms),
  );
  assert.ok(slow.inFlight >= 8, `40 ms a run: ${slow.inFlight} in flight`);
  assert.equal(most, Math.min(slow.inFlight, 10), 'after the two timed runs, the ten left at once');
  assert.equal(slow.done, 12);
});

test('a run that fails only with others in flight, and passes alone, is no failure: every run goes again alone, and the note says so', async () => {
  const info = infoOf();
  let now = 0;
  await checkProperty(
    info as unknown as TestInfo,
    target,
    fc.nat(),
    async () => {
      const crowded = ++now > 1;
      await new Promise((r) => setTimeout(r, 2));
      now--;
      if (crowded) throw new Error('409: another run was at the same records');
    },
    { name: 'contended', seed: 11, numRuns: 30, inFlight: 4 },
  );
  const notes = info.annotations.filter((a) => a.type === 'note').map((a) => a.description ?? '');
  assert.ok(
    notes.some((n) => /^property "contended": run \d+ failed with 4 runs in flight and passed alone \(409: another run/.test(n)),
    notes.join('\n'),
  );
  assert.ok(
    notes.some((n) => /^property "contended": 30 runs of 30, seed 11 \(1 in flight at/.test(n)),
    notes.join('\n'),
  );
});
