/**
 * One verdict (issue 42): the console, conformance.json, conformance.html and the exit status say
 * the same thing, whatever reporters a run has; and no run leaves an earlier run's verdict behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../reporting/verdict.js';
import { runPlaywright, scratchDir } from './helpers.js';

const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
const pageVerdict = (dir: string) => /data-verdict="([^"]+)"/.exec(readFileSync(join(dir, 'conformance.html'), 'utf8'))?.[1];

test('CRM_STRICT=1: a SHOULD failure is NOT CONFORMANT in the console, the JSON, the HTML and the exit status alike', async () => {
  const dir = scratchDir('crm-strict-');
  const res = await runPlaywright(['specs/account', '--grep', '@ACCOUNT-3'], {
    REFERENCE_FAULTS: 'account-timezone-offset',
    CRM_STRICT: '1',
    CRM_REPORT_DIR: dir,
    CRM_REPORTERS: 'minimal',
  });
  assert.equal(res.code, 1, res.out.slice(-2000));
  assert.match(res.stdout, /^Conformance: NOT CONFORMANT \(/m);
  assert.match(res.stdout, /SHOULD 0 pass \/ 1 fail \/ 0 warn/);
  assert.equal(read(dir).verdict, 'NOT CONFORMANT');
  assert.equal(pageVerdict(dir), 'NOT CONFORMANT');
  // Without CRM_STRICT the same failure warns: CONFORMANT for the rules judged, exit 0.
  const lenient = await runPlaywright(['specs/account', '--grep', '@ACCOUNT-3'], {
    REFERENCE_FAULTS: 'account-timezone-offset',
    CRM_REPORT_DIR: dir,
    CRM_REPORTERS: 'minimal',
  });
  assert.equal(lenient.code, 0, lenient.out.slice(-2000));
  assert.match(lenient.stdout, /^Conformance: CONFORMANT for the 1 rule judged .*SHOULD 0 pass \/ 1 warn/m);
  assert.equal(read(dir).verdict, 'CONFORMANT');
});

test('--reporter=list: the run still writes and prints its own verdict; an earlier verdict and Allure results are not left behind or lost', async () => {
  const dir = scratchDir('crm-reporter-flag-');
  // What an earlier run left: a CONFORMANT verdict, and Allure results this run (without Allure) must not delete.
  mkdirSync(join(dir, 'allure-results'), { recursive: true });
  writeFileSync(join(dir, 'allure-results', 'kept.json'), '{}');
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify({ verdict: 'CONFORMANT', runId: 'earlier' }));
  writeFileSync(join(dir, 'conformance.html'), '<div data-verdict="CONFORMANT"></div>');
  const res = await runPlaywright(['specs/wire/conventions.spec.ts', '--reporter=list'], {
    REFERENCE_FAULTS: 'json-content-type-missing',
    CRM_REPORT_DIR: dir,
  });
  assert.equal(res.code, 1, res.out.slice(-2000));
  assert.match(res.stdout, /^Conformance: NOT CONFORMANT/m, 'the verdict line, without the conformance reporter configured');
  const report = read(dir);
  assert.notEqual(report.runId, 'earlier', "this run's verdict, not the earlier one");
  assert.equal(report.verdict, 'NOT CONFORMANT');
  assert.equal(report.rules.find((r) => r.id === 'WIRE-1')?.verdict, 'FAIL');
  assert.equal(pageVerdict(dir), 'NOT CONFORMANT');
  assert.ok(existsSync(join(dir, 'allure-results', 'kept.json')), 'a run without the Allure reporter keeps the Allure results it does not write');
  assert.ok(!existsSync(join(dir, '.outcomes')), 'the outcome records are removed once judged');
});

test('a run that stops before judging anything leaves no earlier verdict in its report directory', async () => {
  const dir = scratchDir('crm-stale-verdict-');
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify({ verdict: 'CONFORMANT', runId: 'earlier' }));
  const res = await runPlaywright(['specs/account', '--grep', 'matches no test at all'], { CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal' });
  assert.notEqual(res.code, 0);
  assert.notEqual(existsSync(join(dir, 'conformance.json')) ? read(dir).runId : undefined, 'earlier');
});
