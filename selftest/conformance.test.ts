/**
 * The whole conformance suite against the embedded reference server, in one run that two tests
 * read: everything passes and nothing warns; and no secret reaches any artifact of the run (it is
 * given distinctive credentials, selftest/leak-scan.ts, and writes every report). One run of the
 * whole suite instead of two: the same suite, server and reporters, only the credentials differ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, readJson, runPlaywright, type RunResult } from './helpers.js';
import { assertNoLeaks, leakEnv } from './leak-scan.js';
import type { ConformanceReport } from '../reporting/verdict.js';

const DIR = 'reports/runs/selftest-reference';
let run: Promise<RunResult> | undefined;
/** The run both tests read, started by the first of them. */
const referenceRun = () => (run ??= runPlaywright([], leakEnv(DIR)));

test('the suite passes the conformant reference server with no failure and no warning', async (t) => {
  const res = await referenceRun();
  const report = readJson<ConformanceReport>(`${DIR}/conformance.json`);
  const bad = report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN').map((r) => `${r.id} ${r.verdict}: ${r.reasons.join('; ')}`);
  assert.deepEqual(bad, [], `rules failed or warned against the reference server:\n${bad.join('\n')}\n${res.stdout.slice(-3000)}`);
  assert.equal(res.code, 0, res.stdout.slice(-3000) + res.stderr.slice(-2000));
  assert.equal(report.verdict, 'CONFORMANT');
  assert.deepEqual(report.untraced, []);
  const skipped = report.rules.filter((r) => r.verdict === 'SKIP').map((r) => `${r.id}: ${r.reasons.join('; ')}`);
  assert.deepEqual(skipped, [], 'no rule is skipped against the reference server');
  t.diagnostic(`${report.tests.total} tests in ${(res.ms / 1000).toFixed(1)} s; ${report.counts.MUST.PASS} MUST rules pass`);
});

test('no secret, code or token in any artifact of that run', async (t) => {
  const res = await referenceRun();
  t.diagnostic(assertNoLeaks('reference run', DIR, res, false));
});
