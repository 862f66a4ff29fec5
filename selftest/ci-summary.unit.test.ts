/**
 * Where CI looks (reporting/ci-summary.ts, `crm-conformance summary --github`): the job summary
 * and the error annotations rendered from the fixture runs of selftest/fixtures/runs/ (v1-main
 * the base branch's run, v1-pr the pull request's), within GitHub's limits: 1 MiB of summary,
 * at most 10 error annotations with the MUST regressions first and one "N more".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { annotationCommands, annotationsFor, COMMENT_MARK, MAX_ANNOTATIONS, renderSummary, STEP_SUMMARY_LIMIT } from '../reporting/ci-summary.js';
import { diffRuns } from '../reporting/diff.js';
import { readRun, type RuleView, type RunView } from '../reporting/runs.js';
import { ROOT, runCli, scratchDir } from './helpers.js';

const FIXTURES = resolve(ROOT, 'selftest/fixtures/runs');
const run = (name: string) => readRun(join(FIXTURES, name));

test('the job summary: the verdict, the diff against the base, the failed rules with reasons, the baseline', () => {
  const pr = run('v1-pr');
  const md = renderSummary(pr, { diff: diffRuns(run('v1-main'), pr) });
  const lines = md.split('\n');
  assert.equal(lines[0], '## ❌ crm-conformance: NOT CONFORMANT');
  assert.match(md, /^https:\/\/crm\.example\.com · suite 0\.1\.0 · run `r1130` · 2026-11-21T11:30:00\.000Z$/m);
  assert.match(md, /^MUST 4 pass \/ 4 fail \/ 3 not judged · SHOULD 1 pass \/ 0 fail \/ 1 warn/m);
  assert.ok(md.indexOf('### Changes against v1-main: ❌ 1 MUST regression') < md.indexOf('### Failed MUST rules'), 'the diff comes first');
  assert.match(md, /^\| \*\*WIRE-1\*\* API responses are JSON bodies with Content-Type application\/json \| MUST FAIL \| \*Wire format: JSON bodies/m);
  assert.match(md, /^\| \*\*WIRE-2\*\* .* \*\(known failure\)\* \| MUST FAIL \|/m);
  assert.match(md, /<summary><b>Warnings \(SHOULD and MAY rules\) \(1\)<\/b><\/summary>/);
  assert.match(md, /^- \*\*Stale\*\* \(the failure no longer happens: remove the entry\): rule UPSERT-4$/m);
  assert.match(md, /^- \*\*Expired\*\* \(counted as no entry\): rule COMPANY-5$/m);
  assert.ok(!md.includes(COMMENT_MARK), 'the mark is for the PR comment only');
  const none = renderSummary(pr, { baseNote: 'No diff: the base run could not be read (base-reports: no such file or directory).' });
  assert.match(none, /^> No diff: the base run could not be read/m);
  assert.ok(!none.includes('### Changes against'));
});

/** A run of `n` failed MUST rules, each with a long reason. */
function hugeRun(n: number): RunView {
  const base = run('v1-pr');
  const rules = new Map<string, RuleView>();
  for (let i = 0; i < n; i++) {
    const id = `WIRE-${100 + i}`;
    rules.set(id, {
      id,
      level: 'MUST',
      area: 'wire',
      text: `rule ${i}`,
      verdict: 'FAIL',
      state: 'fail',
      known: false,
      reason: `${id} failed: ${'x'.repeat(180)}`,
    });
  }
  return { ...base, rules };
}

test('the job summary keeps within 1 MiB, and a PR comment within 65,536 characters, saying what was left out', () => {
  const huge = hugeRun(12_000);
  const before = {
    ...huge,
    label: 'main',
    rules: new Map([...huge.rules].map(([id, r]) => [id, { ...r, verdict: 'PASS', state: 'pass' as const, reason: undefined }])),
  };
  const diff = diffRuns(before, huge);
  const md = renderSummary(huge, { diff });
  const size = Buffer.byteLength(md);
  assert.ok(size <= STEP_SUMMARY_LIMIT, `${size} bytes`);
  assert.ok(size > STEP_SUMMARY_LIMIT / 2, `the budget is used (${size} bytes)`);
  assert.match(md, /rules left out to keep within 1024 KiB: every rule is in conformance\.html and conformance\.json/);
  assert.match(md, /Exit 1: 12000 MUST rules regressed/);
  const comment = renderSummary(huge, { diff, maxBytes: 65_536, comment: true });
  assert.ok(Buffer.byteLength(comment) <= 65_536, `${Buffer.byteLength(comment)} bytes`);
  assert.equal(comment.split('\n')[0], COMMENT_MARK);
});

test('annotations: at most 10, the MUST regressions first, then the other failed MUST rules, then one "N more"', () => {
  const pr = run('v1-pr');
  const list = annotationsFor(pr, diffRuns(run('v1-main'), pr), { cwd: ROOT });
  assert.deepEqual(
    list.map((a) => a.title),
    ['MUST WIRE-1 regressed (PASS → FAIL)', 'MUST WIRE-4 fails', 'MUST COMPANY-5 fails'],
    'WIRE-2 is a known failure: no annotation',
  );
  assert.equal(list[0].file, undefined, 'a file that is not in the workspace is not named');
  const huge = hugeRun(40);
  const many = annotationsFor(huge, undefined, { cwd: ROOT });
  assert.equal(many.length, MAX_ANNOTATIONS);
  assert.equal(many[9].title, '31 more');
  assert.match(many[9].message, /^31 more failed MUST rules \(WIRE-109, WIRE-110, .*WIRE-139\): the job summary and conformance\.html list every one$/);
  const inconclusive = annotationsFor({
    ...pr,
    verdict: 'INCONCLUSIVE',
    verdictLine: 'INCONCLUSIVE',
    verdictReason: 'the target stopped answering',
    rules: new Map(),
  });
  assert.deepEqual(inconclusive, [{ title: 'crm-conformance: INCONCLUSIVE', message: 'INCONCLUSIVE: the target stopped answering' }]);
});

test('annotation commands are escaped as GitHub reads them, and name a file of the workspace with its line', () => {
  const [cmd] = annotationCommands([{ title: 'MUST A-1 fails: x, y', message: '100% broken\nsecond line', file: 'specs/wire/json.spec.ts', line: 12 }]);
  assert.equal(cmd, '::error file=specs/wire/json.spec.ts,line=12,title=MUST A-1 fails%3A x%2C y::100%25 broken%0Asecond line');
  const pr = run('v1-pr');
  const real = {
    ...pr,
    rules: new Map([...pr.rules].map(([id, r]) => [id, id === 'WIRE-4' ? { ...r, where: { file: 'specs/wire/conventions.spec.ts', line: 7 } } : r])),
  };
  const withFile = annotationsFor(real, undefined, { cwd: ROOT }).find((a) => a.title === 'MUST WIRE-4 fails');
  assert.deepEqual([withFile?.file, withFile?.line], ['specs/wire/conventions.spec.ts', 7], 'a spec file of this checkout is named');
});

test('crm-conformance summary --github appends to $GITHUB_STEP_SUMMARY and prints the annotations; a missing base is said, not fatal', async () => {
  const dir = scratchDir('crm-summary-');
  const file = join(dir, 'step-summary.md');
  writeFileSync(file, '# an earlier step\n');
  const [main, pr] = [join(FIXTURES, 'v1-main'), join(FIXTURES, 'v1-pr')];
  const res = await runCli(['summary', pr, '--base', main, '--github', '--comment', join(dir, 'comment.md')], { GITHUB_STEP_SUMMARY: file });
  assert.equal(res.code, 0, res.out);
  const written = readFileSync(file, 'utf8');
  assert.ok(written.startsWith('# an earlier step\n## ❌ crm-conformance: NOT CONFORMANT'), 'appended');
  const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
  assert.equal(errors.length, 3);
  assert.match(errors[0], /^::error title=MUST WIRE-1 regressed \(PASS → FAIL\)::WIRE-1: API responses are JSON bodies/);
  assert.match(
    res.stdout,
    /^crm-conformance summary: NOT CONFORMANT; \d+ bytes to the job summary, 3 annotation\(s\); against v1-main: 1 MUST regression\(s\)$/m,
  );
  assert.ok(readFileSync(join(dir, 'comment.md'), 'utf8').startsWith(COMMENT_MARK));
  const noBase = await runCli(['summary', pr, '--base', join(dir, 'no-base'), '--github'], { GITHUB_STEP_SUMMARY: file });
  assert.equal(noBase.code, 0, noBase.out);
  assert.match(noBase.stdout, /^::warning title=crm-conformance%3A no diff::No diff: the base run could not be read/m);
  const outside = await runCli(['summary', pr, '--github'], {});
  assert.equal(outside.code, 2, outside.out);
  assert.match(outside.stderr, /GITHUB_STEP_SUMMARY is not set/);
  const stdout = await runCli(['summary', pr], {});
  assert.equal(stdout.code, 0);
  assert.match(stdout.stdout, /^## ❌ crm-conformance: NOT CONFORMANT$/m);
});
