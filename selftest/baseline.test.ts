/**
 * Stale and expired baseline entries in a real run (specs/pipelines against the conformant
 * reference server): an entry whose failure no longer happens is reported as stale and, with
 * CRM_EXPECTATIONS_STRICT=1, fails the run although the verdict stays CONFORMANT; an expired
 * entry is listed as such. The unit tests (baseline.unit.test.ts) cover the dates and the report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporting/verdict.js';
import { readJson, runPlaywright, scratchDir } from './helpers.js';

test('CRM_EXPECTATIONS_STRICT=1 fails a run whose baseline lists a failure that no longer happens', async () => {
  const dir = scratchDir('crm-stale-');
  const baseline = join(dir, 'known.json');
  writeFileSync(
    baseline,
    JSON.stringify([
      { title: 'PIPE-1 GET /pipelines answers an array of Pipeline', reason: 'believed broken', issue: 'https://tracker.example.com/CRM-5' },
      { rule: 'PIPE-2', reason: 'was to ship in 2.2', expires: '2000-01-31' },
    ]),
  );
  const res = await runPlaywright(['specs/pipelines'], {
    CRM_EXPECTATIONS: baseline,
    CRM_EXPECTATIONS_STRICT: '1',
    CRM_REPORT_DIR: join(dir, 'reports'),
    CRM_REPORTERS: 'minimal',
  });
  assert.equal(res.code, 1, `a stale entry fails the run\n${res.stdout.slice(-3000)}${res.stderr.slice(-2000)}`);
  assert.match(res.stdout, /\(run status failed: stale baseline entries\)/);
  assert.match(res.stdout, /^STALE BASELINE \(CRM_EXPECTATIONS_STRICT=1 fails the run\): 1 entry whose failure no longer happens .*: title "PIPE-1 GET/m);
  assert.match(res.stdout, /^Expired baseline entries, counted as no entry: rule PIPE-2 \(expired 2000-01-31\)$/m);
  const report = readJson<ConformanceReport>(join(dir, 'reports', 'conformance.json'));
  assert.equal(report.verdict.startsWith('CONFORMANT'), true, 'the server is not the problem: the verdict is unchanged');
  assert.deepEqual(
    report.expectations?.stale?.map((s) => [s.entry, s.issue]),
    [['title "PIPE-1 GET /pipelines answers an array of Pipeline"', 'https://tracker.example.com/CRM-5']],
  );
  assert.deepEqual(
    report.expectations?.expired?.map((s) => s.entry),
    ['rule PIPE-2'],
  );
  assert.equal(report.expectations?.entries, 1, 'the expired entry is no entry');
});
