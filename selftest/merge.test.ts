/**
 * Sharding: the outcome files of several shards (synthetic here) merge into one conformance
 * report and one Allure report; a missing shard makes the report partial; `npm run merge`
 * exits 1 on a failure and 2 on a usage error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { OUTCOMES_FILE, type OutcomeFile } from '../reporting/conformance-reporter.js';
import { judged, merge, mergeOutcomes } from '../reporting/merge.js';
import type { ConformanceReport, TestOutcome } from '../reporting/verdict.js';
import { chromiumPath, launch, openOffline } from './chromium.js';
import { ROOT, scratchDir, readJson } from './helpers.js';
import { EXPECTATIONS, R, syntheticOutcomes } from './synthetic-outcomes.js';

function allureResult(o: TestOutcome): object {
  const now = Date.now();
  return {
    uuid: randomUUID(),
    historyId: randomUUID(),
    name: o.title,
    fullName: `${o.file}#${o.title}`,
    status: o.status === 'failed' ? 'failed' : o.status === 'skipped' ? 'skipped' : 'passed',
    stage: 'finished',
    labels: [
      { name: 'epic', value: 'Synthetic' },
      { name: 'story', value: o.rules[0] },
    ],
    links: [],
    parameters: [],
    steps: [],
    attachments: [],
    start: now,
    stop: now + 5,
  };
}

/** Writes a shard's report directory: conformance-outcomes.json and allure-results/. */
function shard(root: string, name: string, label: string | undefined, outcomes: TestOutcome[], depth?: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'allure-results'), { recursive: true });
  const file: OutcomeFile = {
    version: 1,
    meta: {
      target: 'http://127.0.0.1:4010',
      runId: `run${name}`,
      shard: label,
      generatedAt: new Date().toISOString(),
      expectations: EXPECTATIONS,
      durationMs: 1000,
      ...(depth ? { depth } : {}),
    },
    outcomes: outcomes.map((o) => ({ ...o, shard: label })),
  };
  writeFileSync(join(dir, OUTCOMES_FILE), JSON.stringify(file));
  for (const o of outcomes) writeFileSync(join(dir, 'allure-results', `${randomUUID()}-result.json`), JSON.stringify(allureResult(o)));
  return dir;
}

const all = syntheticOutcomes();
const [a, b, c] = [all.slice(0, 2), all.slice(2, 4), all.slice(4)];

test('three shards merge into the report a single run would give', () => {
  const root = scratchDir('crm-merge-');
  const dirs = [shard(root, 's1', '1/3', a), shard(root, 's2', '2/3', b), shard(root, 's3', '3/3', c)];
  const { report, outcomes } = mergeOutcomes(dirs);
  assert.equal(outcomes.length, all.length);
  assert.deepEqual(report.shards, ['1/3', '2/3', '3/3']);
  assert.equal(report.partial, undefined);
  assert.equal(report.verdict, 'NOT CONFORMANT');
  const verdict = (id: string) => report.rules.find((r) => r.id === id)?.verdict;
  assert.equal(verdict(R.fail.id), 'FAIL');
  assert.equal(verdict(R.warn.id), 'WARN');
  assert.equal(verdict(R.skip.id), 'SKIP');
  assert.equal(verdict(R.pass.id), 'PASS');
  assert.equal(report.tests.failed, 1);
  assert.equal(report.tests.knownFailures, 1);
  assert.equal(report.expectations?.unexpectedPasses.length, 1);
  assert.equal(
    report.requests.total,
    all.reduce((n, o) => n + (o.requests ?? 0), 0),
  );
});

test('the merged verdict names the depth of its shards; shards at different depths are named in a warning', () => {
  const root = scratchDir('crm-merge-');
  const quick = mergeOutcomes([shard(root, 'q1', '1/2', a, 'quick'), shard(root, 'q2', '2/2', b, 'quick')]).report;
  assert.equal(quick.depth, 'quick');
  assert.deepEqual(
    quick.warnings.filter((w) => /depth/.test(w)),
    [],
  );
  const mixed = mergeOutcomes([shard(root, 'm1', '1/2', a, 'quick'), shard(root, 'm2', '2/2', b)]).report;
  assert.equal(mixed.depth, 'quick+standard');
  assert.ok(
    mixed.warnings.some((w) => /different depths \(1\/2: quick, 2\/2: standard\).*same CRM_DEPTH/.test(w)),
    mixed.warnings.join('\n'),
  );
});

test('a missing shard makes the merged report partial; a shard given twice counts once', () => {
  const root = scratchDir('crm-merge-');
  const s1 = shard(root, 's1', '1/3', a);
  const s3 = shard(root, 's3', '3/3', c);
  const { report } = mergeOutcomes([s1, s3, s1]);
  assert.match(report.partial ?? '', /shard 2\/3 missing/);
  assert.equal(report.tests.total, a.length + c.length);
});

test('a shard whose preflight found the target dead makes the merged verdict INCONCLUSIVE, never CONFORMANT', () => {
  const root = scratchDir('crm-merge-');
  const clean = [all[3]];
  const dead = all.slice(2, 3);
  const s1 = shard(root, 's1', '1/2', clean);
  const s2 = shard(
    root,
    's2',
    '2/2',
    dead.map((o) => ({ ...o, targetDown: 'preflight: the target is dead: …' })),
  );
  const file = join(s2, OUTCOMES_FILE);
  const parsed = readJson<OutcomeFile>(file);
  parsed.meta.preflight = {
    version: 1,
    runId: 'runs2',
    target: 'http://127.0.0.1:4010/developer_api/v1',
    at: new Date().toISOString(),
    deadlineMs: 15_000,
    state: 'dead',
    headline: 'the target is dead: GET …/account with the configured credentials got no usable answer: no answer within 15 s',
    meaning: '',
    probes: [],
    findings: [],
    durationMs: 15_000,
  };
  writeFileSync(file, JSON.stringify(parsed));
  const { report } = mergeOutcomes([s1, s2]);
  assert.equal(report.verdict, 'INCONCLUSIVE');
  assert.equal(report.preflight?.state, 'dead');
  assert.equal(judged(report), false, 'npm run merge exits 1');
  assert.equal(judged(mergeOutcomes([shard(root, 'whole', '1/1', clean)]).report), true);
});

test('no outcome file: a clear error', () => {
  const root = scratchDir('crm-merge-');
  assert.throws(() => mergeOutcomes([join(root, 'nothing')]), /conformance-outcomes\.json not found: did the shard's run finish/);
});

test('merge writes conformance.json/html, concatenates allure-results and builds one Allure page that opens offline', async (t) => {
  const root = scratchDir('crm-merge-');
  const dirs = [shard(root, 's1', '1/2', all.slice(0, 3)), shard(root, 's2', '2/2', all.slice(3))];
  const out = join(root, 'merged');
  const res = merge(dirs, out);
  const report = readJson<ConformanceReport>(join(out, 'conformance.json'));
  assert.equal(report.tests.total, all.length);
  assert.ok(readFileSync(join(out, 'conformance.html'), 'utf8').includes(report.verdict));
  assert.equal(readdirSync(join(out, 'allure-results')).filter((f) => f.endsWith('-result.json')).length, all.length);
  assert.equal(res.copiedAllureFiles, all.length);
  assert.ok(res.allure?.ok, res.allure?.output);
  const html = readFileSync(join(out, 'allure-report/index.html'), 'utf8');
  assert.doesNotMatch(html, /googletagmanager/, 'no analytics tag');
  assert.doesNotMatch(html, /<script[^>]+src="https?:/, 'no external script');
  if (!chromiumPath()) {
    t.diagnostic('no Chromium: the Allure page was not opened');
    return;
  }
  const browser = await launch();
  try {
    const { page, external, context } = await openOffline(browser, join(out, 'allure-report/index.html'));
    await page.getByText('Synthetic').first().waitFor({ timeout: 15_000 });
    assert.deepEqual(external, [], 'the Allure page loads nothing from the network');
    await context.close();
  } finally {
    await browser.close();
  }
});

test('npm run merge: exit 1 when a test failed, 2 on a usage error', () => {
  const root = scratchDir('crm-merge-');
  const dirs = [shard(root, 's1', '1/2', a), shard(root, 's2', '2/2', b)];
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', resolve(ROOT, 'reporting/merge.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  const failing = run([...dirs, '--out', join(root, 'out'), '--no-allure']);
  assert.equal(failing.status, 1, failing.stdout + failing.stderr);
  assert.match(failing.stdout, /Merged 2 shard report\(s\) \(1\/2, 2\/2\)/);
  assert.match(failing.stdout, /Conformance: NOT CONFORMANT/);
  assert.ok(existsSync(join(root, 'out', 'conformance.html')));
  const passing = run([shard(root, 'p1', '1/1', [all[3]]), '--out', join(root, 'out2'), '--no-allure']);
  assert.equal(passing.status, 0, passing.stdout + passing.stderr);
  const usage = run([join(root, 'missing')]);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /usage: npm run merge/);
});

test('a merge missing a shard is INCONCLUSIVE, names the missing shard and the fix, and npm run merge exits 1', () => {
  const root = scratchDir('crm-merge-');
  const clean = all.filter((o) => o.rules[0] !== R.fail.id && o.rules[0] !== R.known.id);
  const s1 = shard(root, 's1', '1/2', clean);
  const { report } = mergeOutcomes([s1]);
  assert.equal(report.verdict, 'INCONCLUSIVE', 'never CONFORMANT with a shard missing');
  assert.match(
    report.verdictReason ?? '',
    /^shard 2\/2 missing from the merge: the tests of that shard were not judged\. Fix: name the report directory of every shard \(1 of 2 given\), or run the missing one \(npx playwright test --shard=2\/2\) and merge again/,
  );
  assert.equal(judged(report), false);
  const run = spawnSync(process.execPath, ['--import', 'tsx', resolve(ROOT, 'reporting/merge.ts'), s1, '--out', join(root, 'out'), '--no-allure'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /Conformance: INCONCLUSIVE \(shard 2\/2 missing from the merge\)/);
  assert.match(run.stdout, /\nINCONCLUSIVE: shard 2\/2 missing from the merge: .*--shard=2\/2/);
  assert.doesNotMatch(run.stdout, /Conformance: CONFORMANT/);
  // With a failure, the merge is NOT CONFORMANT (a failure is a failure), still exit 1, still naming the missing shards.
  const s3 = shard(
    root,
    's3',
    '1/3',
    all.filter((o) => o.rules[0] === R.fail.id),
  );
  const failing = spawnSync(process.execPath, ['--import', 'tsx', resolve(ROOT, 'reporting/merge.ts'), s3, '--out', join(root, 'out3'), '--no-allure'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(failing.status, 1);
  assert.match(failing.stdout, /Conformance: NOT CONFORMANT \(1 rule judged, \d+ not judged in this run\) \(shards 2\/3, 3\/3 missing from the merge\)/);
  // Every shard given: CONFORMANT for what the shards judged (a partial catalog here), exit 0.
  const whole = spawnSync(
    process.execPath,
    ['--import', 'tsx', resolve(ROOT, 'reporting/merge.ts'), s1, shard(root, 's2', '2/2', []), '--out', join(root, 'out2'), '--no-allure'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.equal(whole.status, 0, whole.stdout + whole.stderr);
  assert.match(whole.stdout, /Conformance: CONFORMANT for the 3 rules judged/);
});
