/** The whole conformance suite against the embedded reference server: everything passes, nothing warns. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJson, runPlaywright } from './helpers.js';
import type { ConformanceReport } from '../reporting/verdict.js';

test('the suite passes the conformant reference server with no failure and no warning', async (t) => {
  const res = await runPlaywright([], { CRM_REPORT_DIR: 'reports/runs/selftest-reference' });
  const report = readJson<ConformanceReport>('reports/runs/selftest-reference/conformance.json');
  const bad = report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN').map((r) => `${r.id} ${r.verdict}: ${r.reasons.join('; ')}`);
  assert.deepEqual(bad, [], `rules failed or warned against the reference server:\n${bad.join('\n')}\n${res.stdout.slice(-3000)}`);
  assert.equal(res.code, 0, res.stdout.slice(-3000) + res.stderr.slice(-2000));
  assert.equal(report.verdict, 'CONFORMANT');
  assert.deepEqual(report.untraced, []);
  const skipped = report.rules.filter((r) => r.verdict === 'SKIP').map((r) => `${r.id}: ${r.reasons.join('; ')}`);
  assert.deepEqual(skipped, [], 'no rule is skipped against the reference server');
  t.diagnostic(`${report.tests.total} tests in ${(res.ms / 1000).toFixed(1)} s; ${report.counts.MUST.PASS} MUST rules pass`);
});
