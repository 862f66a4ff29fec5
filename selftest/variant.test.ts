/**
 * False positives: the suite passes a conformant server that makes every choice the spec leaves
 * open differently (the reference server's variant mode: other id ranges and gaps, extra fields,
 * ties broken the other way, case-insensitive matching, other statuses and bodies for errors
 * the spec does not show, clamped page sizes, webhook secrets at the top level).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJson, runPlaywright } from './helpers.js';
import type { ConformanceReport } from '../reporting/verdict.js';

test('the suite passes the reference server in variant mode with no failure and no warning', async (t) => {
  const res = await runPlaywright([], { REFERENCE_VARIANT: '1', CRM_REPORT_DIR: 'reports/runs/selftest-variant', CRM_REPORTERS: 'minimal' });
  const report = readJson<ConformanceReport>('reports/runs/selftest-variant/conformance.json');
  const bad = report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN').map((r) => `${r.id} ${r.verdict}: ${r.reasons.join('; ')}`);
  assert.deepEqual(bad, [], `rules failed or warned against the variant server:\n${bad.join('\n')}`);
  assert.equal(res.code, 0, res.stdout.slice(-3000) + res.stderr.slice(-2000));
  assert.equal(report.verdict, 'CONFORMANT');
  t.diagnostic(`${report.tests.total} tests in ${(res.ms / 1000).toFixed(1)} s against the variant`);
});
