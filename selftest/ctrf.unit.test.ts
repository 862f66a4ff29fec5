/**
 * CTRF beside JUnit (reporting/ctrf.ts): a run's ctrf-report.json is valid against the CTRF
 * schema that `ctrf`, the format's reference implementation, ships (read from the installed
 * package: no network), each test carries its rules and level as labels, statuses follow the
 * gate, and the shards of a run merge (reporting/merge.ts) into one document with one run id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getSchema, validate, type CTRFReport } from 'ctrf';
import { OUTCOMES_FILE, type OutcomeFile } from '../reporting/conformance-reporter.js';
import { CTRF_FILE, ctrfReport } from '../reporting/ctrf.js';
import { merge } from '../reporting/merge.js';
import { buildReport } from '../reporting/verdict.js';
import { scratchDir } from './helpers.js';
import { EXPECTATIONS, R, syntheticOutcomes } from './synthetic-outcomes.js';

const valid = (doc: unknown) => {
  const res = validate(doc);
  assert.ok(res.valid, `CTRF schema: ${JSON.stringify(res.errors)}`);
};

test('the schema is the one the ctrf package ships, complete offline', () => {
  const schema = getSchema('0.0.0') as { title?: string; $ref?: string };
  assert.equal(schema.title, 'CTRF JSON Schema');
  assert.ok(!/"\$ref":\s*"https?:/.test(JSON.stringify(schema)), 'no reference to a schema on the network');
});

test('a run as CTRF: valid; rules and level as labels; statuses follow the gate', () => {
  const outcomes = syntheticOutcomes();
  const report = buildReport(outcomes, { target: 'http://127.0.0.1:4010', runId: 'run42', expectations: EXPECTATIONS, durationMs: 4200 });
  const doc = ctrfReport(report, outcomes, {
    GITHUB_ACTIONS: 'true',
    GITHUB_SHA: 'abc123',
    GITHUB_REF_NAME: 'main',
    GITHUB_RUN_ID: '77',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'o/r',
  });
  valid(doc);
  assert.equal(doc.reportFormat, 'CTRF');
  assert.equal(doc.runId, 'run42');
  assert.equal(doc.results.tool.name, 'crm-conformance');
  assert.equal(doc.results.tool.version, report.suiteVersion);
  assert.deepEqual(
    { commit: doc.results.environment?.commit, branch: doc.results.environment?.branchName, url: doc.results.environment?.buildUrl },
    { commit: 'abc123', branch: 'main', url: 'https://github.com/o/r/actions/runs/77' },
  );
  assert.equal(doc.results.tests.length, outcomes.length);
  const byRule = (id: string) => doc.results.tests.find((t) => t.labels?.rule === id)!;
  for (const t of doc.results.tests) {
    assert.ok(t.labels?.rule && t.labels.level, `${t.name}: rule and level labels`);
    assert.ok(t.tags?.includes(String(t.labels.rule)));
  }
  assert.deepEqual([byRule(R.fail.id).status, byRule(R.fail.id).rawStatus], ['failed', 'failed']);
  assert.match(byRule(R.fail.id).message ?? '', /^expected status 200, got 500$/);
  assert.deepEqual([byRule(R.known.id).status, byRule(R.known.id).rawStatus], ['other', 'known-failure'], 'a known failure does not fail the run');
  assert.deepEqual([byRule(R.warn.id).status, byRule(R.warn.id).rawStatus, byRule(R.warn.id).labels?.level], ['other', 'warned', 'SHOULD']);
  assert.deepEqual([byRule(R.skip.id).status, byRule(R.skip.id).message], ['skipped', 'the target profile lists no company with activities']);
  assert.deepEqual([byRule(R.pass.id).status, byRule(R.pass.id).labels?.level], ['passed', 'MUST']);
  assert.deepEqual(doc.results.summary.failed, 1);
  assert.equal(doc.results.summary.stop - doc.results.summary.start, 4200);
});

test('the shards of a run merge into one CTRF document with one run id', () => {
  const outcomes = syntheticOutcomes();
  const dir = scratchDir('crm-ctrf-');
  const shards = [outcomes.slice(0, 3), outcomes.slice(3)].map((part, i) => {
    const shard = join(dir, `shard-${i + 1}`);
    mkdirSync(shard, { recursive: true });
    const file: OutcomeFile = {
      version: 1,
      meta: { target: 'http://127.0.0.1:4010', runId: 'run42', shard: `${i + 1}/2`, generatedAt: new Date().toISOString() },
      outcomes: part.map((o) => ({ ...o, shard: `${i + 1}/2` })),
    };
    writeFileSync(join(shard, OUTCOMES_FILE), JSON.stringify(file));
    return shard;
  });
  merge(shards, join(dir, 'merged'), { allure: false });
  const doc = JSON.parse(readFileSync(join(dir, 'merged', CTRF_FILE), 'utf8')) as CTRFReport;
  valid(doc);
  assert.equal(doc.runId, 'run42');
  assert.equal(doc.results.tests.length, outcomes.length);
  assert.deepEqual((doc.extra as { shards?: string[] }).shards, ['1/2', '2/2']);
  assert.deepEqual([...new Set(doc.results.tests.map((t) => (t.extra as { shard?: string }).shard))].sort(), ['1/2', '2/2']);
});
