/**
 * Baselines that expire (specs/support/core/expectations.ts, reporting/verdict.ts): an entry may
 * carry an expiry date and an issue link; past its date it counts as no entry and the report
 * lists it as expired; an entry whose failure no longer happens is stale, reported, and with
 * CRM_EXPECTATIONS_STRICT=1 it fails the run (and the merge of its shards).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { summaryLines } from '../reporting/conformance-reporter.js';
import { renderHtml } from '../reporting/html.js';
import { mergeExitCode } from '../reporting/merge.js';
import { buildReport } from '../reporting/verdict.js';
import { ConfigError, parseConfig } from '../specs/support/core/config.js';
import { loadExpectations } from '../specs/support/core/expectations.js';
import { scratchDir } from './helpers.js';
import { EXPECTATIONS, R, syntheticOutcomes } from './synthetic-outcomes.js';

const dir = scratchDir('crm-baseline-');
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

test('an entry past its expiry date counts as no entry; the day itself still holds', () => {
  const path = file('dated.json', [
    { rule: 'ACCOUNT-2', reason: 'strings until 2.3', expires: '2026-03-31', issue: 'https://tracker.example.com/CRM-12' },
    { rule: 'ACCOUNT-1', reason: 'no date' },
  ]);
  const onTheDay = loadExpectations(path, dir, '2026-03-31');
  assert.deepEqual(
    onTheDay.expectations.map((e) => e.rule),
    ['ACCOUNT-2', 'ACCOUNT-1'],
  );
  assert.deepEqual(onTheDay.expired, []);
  const after = loadExpectations(path, dir, '2026-04-01');
  assert.deepEqual(
    after.expectations.map((e) => e.rule),
    ['ACCOUNT-1'],
  );
  assert.deepEqual(
    after.expired.map((e) => [e.rule, e.expires, e.issue]),
    [['ACCOUNT-2', '2026-03-31', 'https://tracker.example.com/CRM-12']],
  );
});

test('a bad expiry date or issue link stops the run naming the entry', () => {
  const rejects = (content: unknown, pattern: RegExp) =>
    assert.throws(
      () => loadExpectations(file('bad.json', content), dir),
      (e: unknown) => e instanceof ConfigError && /CRM_EXPECTATIONS/.test(e.message) && pattern.test(e.message),
      String(pattern),
    );
  rejects([{ rule: 'ACCOUNT-2', reason: 'x', expires: '31/03/2026' }], /\[0\]\.expires: must be a date YYYY-MM-DD/);
  rejects([{ rule: 'ACCOUNT-2', reason: 'x', expires: '2026-02-30' }], /\[0\]\.expires: must be a date/);
  rejects([{ rule: 'ACCOUNT-2', reason: 'x', issue: 'CRM-12' }], /\[0\]\.issue: must be an http\(s\) URL/);
});

test('CRM_EXPECTATIONS_STRICT is a setting: off by default', () => {
  const base = { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 't0ken-value', CRM_USER_EMAIL: 'a@b.example' };
  assert.equal(parseConfig(base as NodeJS.ProcessEnv).expectationsStrict, false);
  assert.equal(parseConfig({ ...base, CRM_EXPECTATIONS_STRICT: '1' } as NodeJS.ProcessEnv).expectationsStrict, true);
  assert.throws(
    () => parseConfig({ ...base, CRM_EXPECTATIONS_STRICT: 'yes' } as NodeJS.ProcessEnv),
    (e: unknown) => e instanceof ConfigError && /CRM_EXPECTATIONS_STRICT.*must be 1 or 0/.test(e.message),
  );
});

test('the report lists stale and expired entries; with failOnStale the merge exits 1', () => {
  const outcomes = syntheticOutcomes();
  const expectations = {
    ...EXPECTATIONS,
    expired: [{ rule: R.fail.id, reason: 'was to ship in 2.2', expires: '2026-01-31', issue: 'https://tracker.example.com/CRM-9' }],
  };
  const report = buildReport(outcomes, { target: 't', runId: 'r', expectations });
  assert.deepEqual(report.expectations?.stale, [{ entry: `rule ${R.unexpected.id}`, reason: 'fixed?' }], 'its only test passed');
  assert.deepEqual(report.expectations?.expired, [
    { entry: `rule ${R.fail.id}`, reason: 'was to ship in 2.2', expires: '2026-01-31', issue: 'https://tracker.example.com/CRM-9' },
  ]);
  assert.deepEqual(report.expectations?.unmatched, ['title "a test that no longer exists"'], 'an entry that matched no test is not stale: nothing is known');
  const lines = summaryLines(report, 'conformance.html').join('\n');
  assert.match(lines, new RegExp(`^Stale baseline entries: 1 entry whose failure no longer happens .*: rule ${R.unexpected.id}$`, 'm'));
  assert.match(
    lines,
    new RegExp(`^Expired baseline entries, counted as no entry: rule ${R.fail.id} \\(expired 2026-01-31, https://tracker\\.example\\.com/CRM-9\\)$`, 'm'),
  );
  const html = renderHtml(report);
  assert.match(html, new RegExp(`id="stale-entries"><b>1 stale entry</b>: .*<b>rule ${R.unexpected.id}</b> — fixed\\?`));
  assert.match(html, new RegExp(`id="expired-entries"><b>1 expired entry</b>, counted as no entry:<ul><li><b>rule ${R.fail.id}</b> expired 2026-01-31`));
  assert.match(html, /<a href="https:\/\/tracker\.example\.com\/CRM-9">/);
  assert.match(html, /matched no test of this run: title &quot;a test that no longer exists&quot;/);
  const passing = outcomes.filter((o) => o.rules[0] !== R.fail.id);
  assert.equal(mergeExitCode(buildReport(passing, { target: 't', runId: 'r', expectations }), passing), 0, 'stale entries are reported only');
  const strict = buildReport(passing, { target: 't', runId: 'r', expectations: { ...expectations, failOnStale: true } });
  assert.equal(strict.expectations?.failOnStale, true);
  assert.match(summaryLines(strict, 'conformance.html').join('\n'), /^STALE BASELINE \(CRM_EXPECTATIONS_STRICT=1 fails the run\)/m);
  assert.equal(mergeExitCode(strict, passing), 1);
});
