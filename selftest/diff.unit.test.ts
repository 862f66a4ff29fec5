/**
 * Runs compared (reporting/runs.ts, diff.ts, compare.ts; `crm-conformance diff` and `compare`),
 * from small committed conformance.json fixtures (selftest/fixtures/runs/): v1-main and v1-pr are
 * two runs of suite 0.1.0 against one target, with a rule in each category of the diff (and a
 * report carrying fields and a test status this version does not know, as a later report would);
 * v2-other is a run of suite 0.2.0 against another target, with a rule fewer and a rule more.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareRuns, renderCompareHtml, renderCompareMarkdown } from '../reporting/compare.js';
import { diffRuns, renderDiffMarkdown, renderDiffText, type RunDiff } from '../reporting/diff.js';
import { readRun, RunReadError } from '../reporting/runs.js';
import { chromiumPath, launch, openOffline } from './chromium.js';
import { ROOT, runCli, scratchDir } from './helpers.js';

const FIXTURES = resolve(ROOT, 'selftest/fixtures/runs');
const run = (name: string) => readRun(join(FIXTURES, name));
const ids = (d: RunDiff, kind: keyof RunDiff) => (d[kind] as { id: string }[]).map((c) => c.id);

test('a diff puts each rule of both runs in its category, MUST first', () => {
  const d = diffRuns(run('v1-main'), run('v1-pr'));
  assert.deepEqual(ids(d, 'regressed'), ['WIRE-1', 'WIRE-2', 'WIRE-5'], 'PASS → FAIL (MUST, and MUST known), PASS → WARN (SHOULD)');
  assert.deepEqual(ids(d, 'newlyFailing'), ['WIRE-4'], 'SKIP → FAIL');
  assert.deepEqual(ids(d, 'lostVisibility'), ['WIRE-3', 'COMPANY-1', 'COMPANY-6'], 'blocked, SKIP, not judged');
  assert.deepEqual(ids(d, 'fixed'), ['WIRE-6']);
  assert.deepEqual(ids(d, 'stillFailing'), ['COMPANY-5']);
  assert.deepEqual(ids(d, 'newlyPassing'), ['COMPANY-4']);
  assert.equal(d.unchanged, 3);
  assert.equal(d.judgedInNeither, 0);
  assert.equal(d.commonRules, 13);
  assert.deepEqual(d.notes, [], 'one version, one target, one depth: nothing to note');
  const wire3 = d.lostVisibility[0];
  assert.equal(wire3.after, 'NOT JUDGED', 'a PASS its tests did not reach (all blocked) is no pass');
  assert.match(wire3.reason ?? '', /blocked by WIRE-1/);
  const [wire1, wire2, wire5] = d.regressed;
  assert.equal(wire1.blocking, true);
  assert.match(wire1.quote ?? '', /^Wire format: JSON bodies/, "the spec's own sentence, from the catalog");
  assert.equal(wire1.reason, 'WIRE-1 a test: expected Content-Type application/json, got text/html second line', 'one line');
  assert.deepEqual(wire1.where, { file: 'specs/wire/json.spec.ts', line: 12 });
  assert.equal(wire2.known, true);
  assert.equal(wire2.blocking, undefined, 'a regression the baseline lists does not fail the diff');
  assert.equal(wire5.blocking, undefined, 'a SHOULD regression does not fail the diff');
  assert.equal(d.mustRegressions, 1);
  assert.equal(d.exitCode, 1);
});

test('the reverse diff lists the regressions as fixed and passes', () => {
  const d = diffRuns(run('v1-pr'), run('v1-main'));
  assert.deepEqual(ids(d, 'fixed'), ['WIRE-1', 'WIRE-2', 'WIRE-5']);
  assert.deepEqual(ids(d, 'regressed'), ['WIRE-6']);
  assert.equal(d.regressed[0].level, 'SHOULD');
  assert.match(d.fixed[0].reason ?? '', /expected Content-Type/, 'a fixed rule says what failed before');
  assert.equal(d.exitCode, 0);
});

test('runs of different suite versions are compared on their common rules, and the diff says so', () => {
  const d = diffRuns(run('v1-pr'), run('v2-other'));
  assert.equal(d.commonRules, 12);
  assert.deepEqual(ids(d, 'added'), ['WIRE-99']);
  assert.deepEqual(ids(d, 'removed'), ['UPSERT-4']);
  assert.match(d.notes.join('\n'), /different versions of the suite \(0\.1\.0 → 0\.2\.0\): compared on their 12 common rules/);
  assert.match(d.notes.join('\n'), /different targets: https:\/\/crm\.example\.com → https:\/\/staging/);
  assert.match(d.notes.join('\n'), /different depths \(standard → quick\)/);
  assert.equal(d.exitCode, 0, 'a failing rule that only the new version has is no regression');
  const text = renderDiffText(d);
  assert.match(text, /^Note: the runs come from different versions of the suite/m);
  assert.match(text, /NEW RULES \(1\)/);
});

test('the console text and the Markdown name level, rule, verdicts, sentence and reason', () => {
  const d = diffRuns(run('v1-main'), run('v1-pr'));
  const text = renderDiffText(d);
  assert.match(text, /^ {2}before v1-main {2}\(suite 0\.1\.0, https:\/\/crm\.example\.com/m);
  assert.match(text, /^REGRESSED \(3\): passed before, fail now/m);
  assert.match(text, /^ {2}MUST {3}WIRE-1 {7}PASS → FAIL {7}API responses are JSON bodies/m);
  assert.match(text, /^ {9}spec: "Wire format: JSON bodies/m);
  assert.match(text, /^ {9}now: {2}WIRE-1 a test: expected Content-Type/m);
  assert.match(text, /\[known failure: the baseline lists it\]/);
  assert.match(text, /^Exit 1: 1 MUST rule regressed \(WIRE-1\)\.$/m);
  const md = renderDiffMarkdown(d);
  assert.match(md, /^### Changes against v1-main: ❌ 1 MUST regression$/m);
  assert.match(md, /^\| \*\*WIRE-1\*\* API responses are JSON bodies with Content-Type application\/json \| MUST \| PASS → FAIL \| \*Wire format/m);
  assert.match(md, /^#### Lost visibility \(3\)/m);
});

test('the Markdown keeps within its budget and says what it left out', () => {
  const d = diffRuns(run('v1-main'), run('v1-pr'));
  const many = Array.from({ length: 3000 }, (_, i) => ({ ...d.regressed[0], id: `WIRE-${1000 + i}`, reason: 'x'.repeat(300) }));
  const big: RunDiff = { ...d, regressed: many };
  const md = renderDiffMarkdown(big, { maxBytes: 64 * 1024, whole: 'the diff command' });
  assert.ok(Buffer.byteLength(md) <= 64 * 1024, `${Buffer.byteLength(md)} bytes`);
  assert.match(md, /rules left out to keep within 64 KiB: the whole diff is in the diff command/);
  assert.match(md, /Exit 1: 3000 MUST rules regressed \(WIRE-1000, .*, WIRE-1009 and 2990 more\)\.$/, 'the verdict line is kept, short');
});

test('a run that cannot be read is a RunReadError naming the fix', () => {
  const dir = scratchDir('crm-diff-');
  assert.throws(
    () => readRun(join(dir, 'absent')),
    (e: unknown) => e instanceof RunReadError && /no such file or directory/.test(e.message),
  );
  assert.throws(
    () => readRun(dir),
    (e: unknown) => e instanceof RunReadError && /holds no conformance\.json.*merged first \(npm run merge -- <shard dirs>\)/.test(e.message),
  );
  writeFileSync(join(dir, 'conformance.json'), '{"verdict": ');
  assert.throws(
    () => readRun(dir),
    (e: unknown) => e instanceof RunReadError && /not JSON/.test(e.message),
  );
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify({ verdict: 'CONFORMANT' }));
  assert.throws(
    () => readRun(dir),
    (e: unknown) => e instanceof RunReadError && /not a conformance report.*rules/.test(e.message),
  );
  const named = readRun(`base=${join(FIXTURES, 'v1-main', 'conformance.json')}`);
  assert.equal(named.label, 'base', 'name=path names the run');
  assert.equal(readRun(join(FIXTURES, 'v1-main', 'conformance.json')).label, 'v1-main', 'a conformance.json is named after its directory');
});

test('three runs side by side: a column per run naming target and version, rules by area, the share every run passes', async () => {
  const c = compareRuns(['v1-main', 'v1-pr', 'v2-other'].map(run));
  assert.deepEqual(
    c.columns.map((x) => [x.label, x.suiteVersion, x.target]),
    [
      ['v1-main', '0.1.0', 'https://crm.example.com'],
      ['v1-pr', '0.1.0', 'https://crm.example.com'],
      ['v2-other', '0.2.0', 'https://staging.other-crm.example.org'],
    ],
  );
  assert.deepEqual(
    c.areas.map((a) => a.area),
    ['wire', 'companies', 'upsert'],
    'areas in the catalog order',
  );
  assert.equal(c.common, 12, 'WIRE-99 and UPSERT-4 are missing from some run');
  assert.equal(c.allPass, 2, 'COMPANY-2 and COMPANY-3 pass everywhere');
  assert.match(c.notes[0], /different versions of the suite \(0\.1\.0, 0\.2\.0\)/);
  const md = renderCompareMarkdown(c);
  assert.match(md, /^\| suite \| 0\.1\.0 \| 0\.1\.0 \| 0\.2\.0 \|$/m);
  assert.match(md, /^\| ≠ \*\*WIRE-1\*\* .* \| MUST \| PASS \| \*\*FAIL\*\* \| PASS \|$/m);
  assert.match(md, /^\| \*\*UPSERT-4\*\* .* \| PASS \| PASS \| — \|$/m);
  const html = renderCompareHtml(c);
  const file = join(scratchDir('crm-compare-'), 'conformance-compare.html');
  writeFileSync(file, html);
  if (!chromiumPath()) return;
  const browser = await launch();
  try {
    const { page, external, errors } = await openOffline(browser, file);
    assert.deepEqual(external, [], 'the page asks the network for nothing');
    assert.deepEqual(errors, []);
    assert.equal(await page.locator('th.col').count(), 3);
    assert.equal(await page.locator('th.col[data-column="2"]').getAttribute('data-suite-version'), '0.2.0');
    assert.equal(await page.locator('#share').getAttribute('data-all-pass'), '2');
    assert.equal(await page.locator('tr.rule[data-rule="WIRE-1"] td.v').nth(1).getAttribute('data-verdict'), 'FAIL');
    await page.getByLabel('only the rules where the runs differ').check();
    assert.equal(await page.locator('tr.rule[data-rule="COMPANY-2"]').isVisible(), false, 'a rule every run passes is hidden by the filter');
    assert.equal(await page.locator('tr.rule[data-rule="WIRE-1"]').isVisible(), true);
  } finally {
    await browser.close();
  }
});

test('crm-conformance diff and compare: exit 1 on a MUST regression, 0 otherwise, 2 on misuse; files written', async () => {
  const out = scratchDir('crm-diff-cli-');
  const [a, b] = [join(FIXTURES, 'v1-main'), join(FIXTURES, 'v1-pr')];
  const regressed = await runCli(['diff', a, b, '--json', join(out, 'diff.json'), '--markdown', join(out, 'diff.md')], {});
  assert.equal(regressed.code, 1, regressed.out);
  assert.match(regressed.stdout, /^crm-conformance diff\n {2}before v1-main/);
  const json = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8')) as RunDiff;
  assert.equal(json.format, 'crm-conformance-diff');
  assert.deepEqual(ids(json, 'regressed'), ['WIRE-1', 'WIRE-2', 'WIRE-5']);
  assert.match(readFileSync(join(out, 'diff.md'), 'utf8'), /^### Changes against v1-main/);
  const fixed = await runCli(['diff', b, a, '--format', 'json'], {});
  assert.equal(fixed.code, 0, fixed.out);
  assert.deepEqual(ids(JSON.parse(fixed.stdout) as RunDiff, 'fixed'), ['WIRE-1', 'WIRE-2', 'WIRE-5']);
  for (const bad of [
    ['diff', a],
    ['diff', a, join(out, 'nowhere')],
    ['diff', a, b, '--format', 'xml'],
    ['diff', a, b, '--since', 'x'],
    ['compare', a],
  ]) {
    const res = await runCli(bad, {});
    assert.equal(res.code, 2, `${bad.join(' ')}: ${res.out}`);
    assert.match(res.stderr, /^crm-conformance (diff|compare): .*\n\nusage: crm-conformance/);
  }
  const compared = await runCli(['compare', a, b, `other=${join(FIXTURES, 'v2-other')}`, '--out', join(out, 'cmp')], {});
  assert.equal(compared.code, 0, compared.out);
  assert.match(compared.stdout, /^crm-conformance compare: 3 runs side by side$/m);
  assert.match(compared.stdout, /^ {2}other {2}\(suite 0\.2\.0, https:\/\/staging/m);
  for (const f of ['conformance-compare.html', 'conformance-compare.md', 'conformance-compare.json']) assert.ok(existsSync(join(out, 'cmp', f)), f);
});
