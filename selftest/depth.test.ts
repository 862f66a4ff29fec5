/**
 * CRM_DEPTH=quick against the embedded server (issue 34): CONFORMANT, every rule the standard run
 * judges is judged (the run's coverage is complete), at most 1,000 requests, and the verdict names
 * the depth. The parts without a suite run: selftest/depth.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { ConformanceReport } from '../reporting/verdict.js';
import { readJson, ROOT, runPlaywright } from './helpers.js';

test('a quick run against the embedded server is CONFORMANT, judges every rule and sends at most 1,000 requests', async (t) => {
  const dir = 'reports/runs/selftest-depth-quick';
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  const run = await runPlaywright([], { CRM_DEPTH: 'quick', CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal' }, 300_000);
  const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
  t.diagnostic(`quick: ${report.verdictLine}, ${report.tests.total} tests, ${report.requests.total} requests, ${Math.round(run.ms / 100) / 10} s`);
  assert.equal(report.verdict, 'CONFORMANT', run.stdout.slice(-3000));
  assert.equal(report.scope, 'complete', `every rule judged: ${JSON.stringify(report.coverage)}`);
  assert.equal(report.coverage.notJudged, 0);
  assert.ok(report.requests.total <= 1_000, `at most 1,000 requests: ${report.requests.total}`);
  assert.equal(report.depth, 'quick');
  assert.match(run.stdout, /, depth quick\. Report:/);
  assert.equal(run.code, 0, run.stdout.slice(-2000) + run.stderr.slice(-1000));
});
