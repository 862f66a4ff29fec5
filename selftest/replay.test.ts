/**
 * Replay (issue 32, item 6): the upsert model's printed replay line works where it is printed. It
 * gives the seed, the path and the CRM_FC_RUNS setting the model's runs came from (the model runs
 * half of it: the line printed the halved number, which fed back was halved again); fed back
 * through `crm-conformance run` it reproduces the counterexample (fc.commands needed its replayPath
 * too: "Unable to replay, got wrong path", on the faulty and the fixed server alike); on the fixed
 * server the same line passes. A failed test's replay script, run on the faulty server and on the
 * fixed one, says FAILURE AGAIN and EXPECTED: by the status it expects, by the records or the Lead it
 * expects, or by running the test again. The parts without a suite run: selftest/replay.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { ConformanceReport } from '../reporting/verdict.js';
import { cleanEnv, readJson, ROOT, runCli, runPlaywright, runProcess, scratchDir } from './helpers.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';

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

/**
 * The replay script of `rule`'s first failed test in `spec` against the reference with `fault`, run
 * on that faulty server and then on the same server without the fault, on the same ports (the ids
 * of the failed run mean nothing to it): each run's last line, the script and its text.
 */
async function replayOnBoth(fault: string, spec: string, rule: string): Promise<{ faulty: string; fixed: string; text: string }> {
  const dir = scratchDir('crm-replay-script-');
  const profile = resolve(ROOT, 'reference/profile.json');
  const env = cleanEnv();
  const faultyServer = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, { ...env, REFERENCE_FAULTS: fault });
  const setup = referenceEnv(faultyServer.api, faultyServer.auth, profile);
  const lastLine = (out: string) => out.trim().split('\n').at(-1)!;
  let script = '';
  let faulty = '';
  try {
    await runPlaywright([spec, '--grep', `@${rule}`], { ...setup, CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal' });
    const test = readJson<ConformanceReport>(`${dir}/conformance.json`)
      .rules.find((r) => r.id === rule)!
      .tests.find((t) => t.status === 'failed')!;
    assert.ok(test, `${fault} fails a test of ${rule}`);
    assert.match(test.replayCommand ?? '', new RegExp(`^bash \\S+/replay/${rule}-\\w+\\.sh$`));
    script = resolve(ROOT, test.replayCommand!.slice('bash '.length));
    assert.equal(readFileSync(script, 'utf8'), test.replay, 'the card shows the script the console names');
    const again = await runProcess('bash', [script], { env: { ...env, ...setup }, timeoutMs: 120_000 });
    faulty = lastLine(again.stdout);
  } finally {
    await faultyServer.stop();
  }
  const fixedServer = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, env, faultyServer.ports);
  try {
    const fixedRun = await runProcess('bash', [script], { env: { ...env, ...setup }, timeoutMs: 120_000 });
    return { faulty, fixed: lastLine(fixedRun.stdout), text: readFileSync(script, 'utf8') };
  } finally {
    await fixedServer.stop();
  }
}

test('the replay script of a failed multi-step test shows the failure on the faulty server and the expected answer on the fixed one, with ids it takes anew', async () => {
  const r = await replayOnBoth('convert-lead-left-behind', 'specs/leads/convert.spec.ts', 'CONVERT-14');
  assert.match(r.faulty, /^FAILURE AGAIN: expected a 4xx refusal, got 200/, r.text);
  assert.match(r.fixed, /^EXPECTED: a 4xx refusal, got 4\d\d: the failure does not show/, r.text);
});

test('the replay script of a search that found the wrong records makes them anew in a fresh namespace and checks the ids it finds', async () => {
  const r = await replayOnBoth('search-tags-all', 'specs/search/criteria.spec.ts', 'SEARCH-8');
  assert.match(r.text, /^NS="ccr/m);
  assert.match(r.faulty, /^FAILURE AGAIN: tags \[\S+-a, \S+-b\]: any of the two: the records found are exactly /, r.text);
  assert.match(r.fixed, /^EXPECTED: tags .*: the failure does not show/, r.text);
});

test('the replay script of a check it cannot make of the answers runs the test again, and says which it saw', async () => {
  // COMPANY-6: a member left out of the Company (the check is the test's own: `field in company`).
  const r = await replayOnBoth('company-absent-field-missing', 'specs/companies/create.spec.ts', 'COMPANY-6');
  assert.match(r.text, /CRM_STRICT=1 npx playwright test 'specs\/companies\/create\.spec\.ts:\d+' --grep 'COMPANY-6 /);
  assert.match(r.faulty, /^FAILURE AGAIN: the test fails again/, r.text);
  assert.match(r.fixed, /^EXPECTED: the test passes now/, r.text);
});
