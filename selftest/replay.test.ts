/**
 * Replay (issue 32, item 6): the upsert model's printed replay line works where it is printed. It
 * gives the seed, the path and the CRM_FC_RUNS setting the model's runs came from (the model runs
 * half of it: the line printed the halved number, which fed back was halved again); fed back
 * through `crm-conformance run` it reproduces the counterexample (fc.commands needed its replayPath
 * too: "Unable to replay, got wrong path", on the faulty and the fixed server alike); on the fixed
 * server the same line passes. The parts without a suite run: selftest/replay.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { ConformanceReport } from '../reporting/verdict.js';
import { readJson, ROOT, runCli, runPlaywright } from './helpers.js';

const upsert3 = (dir: string) => readJson<ConformanceReport>(`${dir}/conformance.json`).rules.find((r) => r.id === 'UPSERT-3')!;
const REPLAY = /Replay with: CRM_FC_SEED=(-?\d+) CRM_FC_PATH=([\d:]+) CRM_FC_RUNS=(\d+) (npx playwright test|npx crm-conformance run) (\S+:\d+)/;

test("the upsert model's replay line, fed back through crm-conformance run, reproduces the counterexample; on the fixed server it passes", async (t) => {
  const FAULT = 'upsert-duplicate-on-match';
  const dirs = ['found', 'replayed', 'fixed'].map((n) => `reports/runs/selftest-replay-${n}`);
  for (const d of dirs) rmSync(resolve(ROOT, d), { recursive: true, force: true });
  const found = await runPlaywright(
    ['specs/leads/upsert.model.spec.ts'],
    { REFERENCE_FAULTS: FAULT, CRM_FC_RUNS: '40', CRM_REPORT_DIR: dirs[0], CRM_REPORTERS: 'minimal' },
    240_000,
  );
  const failure = upsert3(dirs[0]).tests[0];
  assert.equal(failure.status, 'failed', `the model catches ${FAULT}\n${found.stdout.slice(-2000)}`);
  const m = REPLAY.exec(failure.error ?? '');
  assert.ok(m, `a replay line:\n${failure.error}`);
  const [, seed, path, runs, command, where] = m;
  t.diagnostic(`replay: seed ${seed}, path ${path}, runs ${runs}: ${command} ${where}`);
  assert.equal(runs, '40', 'CRM_FC_RUNS as set (the model runs half of it), so that fed back it gives the same runs');
  assert.equal(command, 'npx playwright test', 'in a checkout');
  assert.match(where, /^specs\/leads\/upsert\.model\.spec\.ts:\d+$/);
  const shrunk = /counterexample \(shrunk\): (.*)/.exec(failure.counterexample ?? '')?.[1];
  assert.ok(shrunk, `counterexample.txt names the shrunk counterexample:\n${failure.counterexample}`);

  const line = { CRM_FC_SEED: seed, CRM_FC_PATH: path, CRM_FC_RUNS: runs };
  const replayed = await runCli(
    ['run', where],
    { ...line, REFERENCE_FAULTS: FAULT, CRM_REPORT_DIR: dirs[1], CRM_REPORTERS: 'minimal' },
    { timeoutMs: 240_000 },
  );
  const again = upsert3(dirs[1]).tests[0];
  assert.equal(again.status, 'failed', `the replay fails again\n${replayed.stdout.slice(-2000)}${replayed.stderr.slice(-1000)}`);
  assert.doesNotMatch(again.error ?? '', /Unable to replay/);
  assert.equal(/counterexample \(shrunk\): (.*)/.exec(again.counterexample ?? '')?.[1], shrunk, 'the same counterexample');
  assert.match(again.error ?? '', new RegExp(`seed ${seed}, path ${path}\\b`), 'at the same seed and path');

  const fixed = await runCli(['run', where], { ...line, CRM_REPORT_DIR: dirs[2], CRM_REPORTERS: 'minimal' }, { timeoutMs: 240_000 });
  const verdict = upsert3(dirs[2]);
  assert.equal(verdict.verdict, 'PASS', `on the fixed server the same line passes: ${verdict.reasons.join('; ')}\n${fixed.stdout.slice(-2000)}`);
  assert.equal(fixed.code, 0, fixed.stdout.slice(-2000) + fixed.stderr.slice(-1000));
});
