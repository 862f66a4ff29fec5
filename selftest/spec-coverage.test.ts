/**
 * The coverage map end to end: a run of two spec directories against the embedded reference
 * writes spec-coverage.json (valid, its endpoints exercised, no value of the run in it) and
 * spec-coverage.html beside conformance.html, which links to it; the console prints its line
 * after the verdict; a merge of report directories writes the map of their summed counts.
 * (The map of a whole standard run, and its gaps, is checked by selftest/conformance.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { merge } from '../reporting/merge.js';
import { SpecCoverage, type SpecCoverage as Map } from '../reporting/coverage/map.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { runPlaywright, scratchDir } from './helpers.js';

test('a run writes spec-coverage.json and spec-coverage.html, linked from conformance.html, and prints its line; a merge sums the maps', async (t) => {
  const dir = scratchDir('crm-spec-coverage-');
  const res = await runPlaywright(['specs/pipelines', 'specs/account'], { CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal' });
  assert.equal(res.code, 0, res.out.slice(-3000));
  const map: Map = SpecCoverage.parse(JSON.parse(readFileSync(join(dir, 'spec-coverage.json'), 'utf8')));
  const endpoint = (key: string) => map.endpoints.find((e) => e.endpoint === key)!;
  assert.ok(endpoint('GET /pipelines').requests > 0);
  assert.ok(endpoint('GET /account').requests > 0);
  assert.equal(endpoint('POST /projects/search').requests, 0, 'a spec directory not run: its endpoints not exercised');
  assert.equal(endpoint('GET /pipelines').statuses.find((s) => s.class === '2xx')?.gap, undefined, 'a 2xx answer seen');
  assert.ok(map.summary.gaps.unexplained > 0, 'a run of two directories leaves most of the surface unexercised');
  assert.ok(map.summary.exchanges > 0);
  // The page, and the conformance page's link to it.
  const page = readFileSync(join(dir, 'spec-coverage.html'), 'utf8');
  assert.match(page, /<a href="conformance\.html">conformance report<\/a>/);
  assert.match(page, new RegExp(`data-exercised="${map.summary.classes.exercised}" data-total="${map.summary.classes.total}"`));
  const conformance = readFileSync(join(dir, 'conformance.html'), 'utf8');
  assert.match(conformance, /<a href="spec-coverage\.html">spec coverage map<\/a>/);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  assert.deepEqual(report.specCoverage?.classes, map.summary.classes);
  // One line after the verdict's.
  const lines = res.stdout.split('\n');
  const verdict = lines.findIndex((l) => l.startsWith('Conformance: '));
  assert.match(
    lines[verdict + 1] ?? '',
    /^Spec coverage: \d+\/22 endpoints, \d+\/\d+ classes \(\d+ gaps, \d+ explained, \d+ unexplained\): .*spec-coverage\.html$/,
    res.stdout.slice(-2000),
  );
  // No value of the run: the embedded server's ids and names are not in the map.
  const text = readFileSync(join(dir, 'spec-coverage.json'), 'utf8');
  assert.doesNotMatch(text, /crm-conformance-|127\.0\.0\.1:\d+\/developer_api/, 'no namespace tag, no URL of the run');
  // A merge of report directories (the same one twice, for the plumbing) writes the map of the summed counts.
  const out = scratchDir('crm-spec-coverage-merged-');
  const merged = merge([dir, dir], out, { allure: false });
  assert.deepEqual(merged.coverageMissing, []);
  const twice = SpecCoverage.parse(JSON.parse(readFileSync(join(out, 'spec-coverage.json'), 'utf8')));
  assert.equal(twice.endpoints.find((e) => e.endpoint === 'GET /account')?.requests, 2 * endpoint('GET /account').requests);
  assert.equal(twice.summary.classes.exercised, map.summary.classes.exercised, 'the same classes, counted twice');
  assert.ok(existsSync(join(out, 'spec-coverage.html')));
  assert.match(readFileSync(join(out, 'conformance.html'), 'utf8'), /href="spec-coverage\.html"/);
  t.diagnostic(`${map.summary.classes.exercised}/${map.summary.classes.total} classes in ${(res.ms / 1000).toFixed(1)} s`);
});
