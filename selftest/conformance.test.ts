/**
 * The whole conformance suite against the embedded reference server, in one run that three tests
 * read: everything passes and nothing warns; no secret reaches any artifact of the run (it is
 * given distinctive credentials, selftest/leak-scan.ts, and writes every report); and its coverage
 * map (spec-coverage.json, reporting/coverage/) has no unexplained gap: each class of the spec's
 * surface is exercised or has its reason in rules/coverage-reasons.json. One run of the whole
 * suite instead of three: the same suite, server and reporters, only the credentials differ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, readJson, runPlaywright, type RunResult } from './helpers.js';
import { assertNoLeaks, leakEnv } from './leak-scan.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { SpecCoverage } from '../reporting/coverage/map.js';

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

test("the run's coverage map: every endpoint exercised, every gap a test exercises or a reason explains", async (t) => {
  await referenceRun();
  const map = SpecCoverage.parse(readJson(`${DIR}/spec-coverage.json`));
  assert.equal(map.summary.endpoints.exercised, map.summary.endpoints.total, 'every endpoint of the spec is exercised');
  assert.deepEqual(map.staleReasons, [], 'no reason names a class the surface no longer has');
  const unexplained = map.gaps.filter((g) => !g.explained).map((g) => g.id);
  assert.deepEqual(unexplained, [], 'gaps with no reason in rules/coverage-reasons.json: write the test that exercises them, or give the reason');
  t.diagnostic(`${map.summary.classes.exercised}/${map.summary.classes.total} classes, ${map.summary.gaps.total} gaps, all explained`);
});
