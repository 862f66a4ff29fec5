/**
 * The Allure results the suite writes (reporting/allure-reporter.ts), from Playwright's own
 * reporter objects: one result per test with the conformance labels and the spec link, the
 * conformance status (a held failure is failed, with its error), attachments stored beside it.
 * `npm run report` turning such results into a page is checked by merge.test.ts and package.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, TestCase, TestResult } from '@playwright/test/reporter';
import AllureResultsReporter, { type AllureResult } from '../reporting/allure-reporter.js';
import { scratchDir, readJson } from './helpers.js';

type Annotation = { type: string; description?: string };

function fakeTest(dir: string, title: string, tags: string[], annotations: Annotation[] = []): TestCase {
  const file = join(dir, 'specs/leads/upsert.spec.ts');
  return {
    title,
    tags,
    annotations,
    expectedStatus: 'passed',
    location: { file, line: 1, column: 1 },
    parent: { project: () => ({ name: 'api' }) },
    titlePath: () => ['', 'api', 'leads/upsert.spec.ts', title],
  } as unknown as TestCase;
}

function fakeResult(status: TestResult['status'], extra: Partial<TestResult> = {}): TestResult {
  return {
    status,
    duration: 12,
    startTime: new Date('2026-11-23T10:00:00Z'),
    parallelIndex: 1,
    retry: 0,
    errors: [],
    attachments: [],
    annotations: [],
    steps: [],
    stdout: [],
    stderr: [],
    workerIndex: 1,
    ...extra,
  } as unknown as TestResult;
}

function written(resultsDir: string): AllureResult[] {
  return readdirSync(resultsDir)
    .filter((f) => f.endsWith('-result.json'))
    .map((f) => readJson<AllureResult>(join(resultsDir, f)));
}

test('Allure results: conformance labels and spec link, conformance status, attachments stored beside them', () => {
  const dir = scratchDir('allure-selftest-');
  const resultsDir = join(dir, 'allure-results');
  const reporter = new AllureResultsReporter({ resultsDir, specUrl: 'https://example.com/crm-developer-api.md' });
  reporter.onBegin({ rootDir: join(dir, 'specs') } as FullConfig);
  const evidence = join(dir, 'exchanges.json');
  writeFileSync(evidence, '[{"method":"GET"}]');

  reporter.onTestEnd(
    fakeTest(dir, 'UPSERT-4 passes', ['@UPSERT-4', '@MUST', '@leads']),
    fakeResult('passed', {
      attachments: [{ name: 'exchanges.json', path: evidence, contentType: 'application/json' }],
    }),
  );
  // Held: skipped for Playwright, failed in the conformance report (and here), with its error.
  reporter.onTestEnd(
    fakeTest(dir, 'UPSERT-4 held repeat', ['@UPSERT-4', '@MUST', '@leads']),
    fakeResult('skipped', {
      annotations: [
        { type: 'failure', description: 'Error: expect(received).toBe(expected)\nExpected: 200' },
        { type: 'held', description: 'a repeat' },
        { type: 'skip', description: 'a repeat: a FAIL in the conformance report' },
      ],
    }),
  );
  reporter.onTestEnd(
    fakeTest(dir, 'UPSERT-4 fails', ['@UPSERT-4', '@MUST', '@leads']),
    fakeResult('failed', {
      errors: [{ message: '\u001b[31mExpected: 200\u001b[39m', stack: 'Error: Expected: 200\n    at upsert.spec.ts:9' }],
      attachments: [{ name: 'replay.sh', body: Buffer.from('#!/bin/sh\n'), contentType: 'text/x-shellscript' }],
    }),
  );
  reporter.onTestEnd(
    fakeTest(dir, 'UPSERT-4 known', ['@UPSERT-4', '@MUST', '@leads'], [{ type: 'expected-failure', description: 'listed' }]),
    fakeResult('passed'),
  );
  reporter.onTestEnd(
    fakeTest(dir, 'UPSERT-4 skipped', ['@UPSERT-4', '@MUST', '@leads']),
    fakeResult('skipped', { annotations: [{ type: 'skip', description: 'the target cannot create tasks' }] }),
  );

  const results = written(resultsDir);
  const byName = (n: string) => results.find((r) => r.name === n)!;
  assert.equal(results.length, 5);
  for (const r of results) {
    const label = (name: string) => r.labels.find((l) => l.name === name)?.value;
    assert.equal(label('story'), 'UPSERT-4');
    assert.equal(label('rule'), 'UPSERT-4');
    assert.equal(label('level'), 'MUST');
    assert.equal(label('severity'), 'critical');
    assert.ok(label('epic') && label('feature'), 'epic and feature');
    assert.ok(
      r.links.some((l) => l.url.includes('#') && l.name?.startsWith('spec § ')),
      'the link to the rule section',
    );
    assert.equal(r.stage, 'finished');
  }
  assert.equal(byName('UPSERT-4 passes').status, 'passed');
  const [att] = byName('UPSERT-4 passes').attachments;
  assert.equal(att.name, 'exchanges.json');
  assert.equal(readFileSync(join(resultsDir, att.source), 'utf8'), '[{"method":"GET"}]');

  const held = byName('UPSERT-4 held repeat');
  assert.equal(held.status, 'failed');
  assert.equal(held.statusDetails.message, 'Error: expect(received).toBe(expected)');
  assert.ok(held.labels.some((l) => l.name === 'tag' && l.value === 'held'));
  assert.match(held.description ?? '', /\*\*held\*\*: a repeat/);

  const failed = byName('UPSERT-4 fails');
  assert.equal(failed.status, 'failed');
  assert.equal(failed.statusDetails.message, 'Expected: 200', 'colour codes removed');
  assert.equal(readFileSync(join(resultsDir, failed.attachments[0].source), 'utf8'), '#!/bin/sh\n');
  assert.match(failed.attachments[0].source, /\.sh$/);

  assert.ok(byName('UPSERT-4 known').labels.some((l) => l.name === 'tag' && l.value === 'known-failure'));
  assert.equal(byName('UPSERT-4 skipped').status, 'skipped');
  assert.equal(byName('UPSERT-4 skipped').statusDetails.message, 'the target cannot create tasks');
  // Same test, same history id across runs; no temporary files left.
  assert.equal(byName('UPSERT-4 passes').historyId.split(':')[0], byName('UPSERT-4 passes').testCaseId);
  assert.ok(!readdirSync(resultsDir).some((f) => f.endsWith('.tmp')));
  assert.ok(existsSync(evidence));
});
