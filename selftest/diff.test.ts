/**
 * The diff, the side-by-side page and the job summary on real runs: the companies specs against
 * the embedded reference server, conformant, with one reference fault, and under another set of
 * open choices (a second conformant implementation). The diff from the conformant run to the
 * faulty one lists exactly the fault's rules as regressed and exits 1; the reverse lists them as
 * fixed and exits 0; the three runs make the side-by-side page; the summary and its annotations
 * name the regression; each run's CTRF document is valid.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'ctrf';
import { ALL_FAULTS } from '../reference/faults/index.js';
import type { RunDiff } from '../reporting/diff.js';
import { runCli, runPlaywright, scratchDir } from './helpers.js';

/** A fault whose rules the companies specs judge, and that breaks no other rule there. */
const FAULT = ALL_FAULTS.find((f) => f.name === 'company-activities-filter-ignored')!;
const SPECS = 'specs/companies';

describe('diff, compare and summary of real runs', () => {
  const dir = scratchDir('crm-diff-runs-');
  const report = (name: string) => join(dir, name);

  before(async () => {
    const runs = await Promise.all(
      [
        ['conformant', {}],
        ['faulty', { REFERENCE_FAULTS: FAULT.name }],
        ['alt', { REFERENCE_CHOICES: 'alt:1' }],
      ].map(([name, env]) =>
        runPlaywright([SPECS], {
          ...(env as Record<string, string>),
          CRM_REPORT_DIR: report(name as string),
          CRM_REPORTERS: 'minimal',
          CRM_RUN_ID: `diff${name}`,
        }),
      ),
    );
    assert.deepEqual(
      runs.map((r) => r.code),
      [0, 1, 0],
      runs.map((r) => r.stdout.slice(-1500)).join('\n---\n'),
    );
  });

  test('conformant → faulty: exactly the fault’s rules regressed, exit 1; the reverse: fixed, exit 0', async () => {
    const forward = await runCli(['diff', report('conformant'), report('faulty'), '--json', join(dir, 'forward.json')], {});
    assert.equal(forward.code, 1, forward.out);
    const d = JSON.parse(readFileSync(join(dir, 'forward.json'), 'utf8')) as RunDiff;
    assert.deepEqual(
      d.regressed.map((c) => c.id),
      FAULT.rules,
    );
    for (const kind of ['fixed', 'newlyFailing', 'lostVisibility', 'stillFailing', 'added', 'removed'] as const) assert.deepEqual(d[kind], [], kind);
    assert.match(forward.stdout, new RegExp(`^Exit 1: 1 MUST rule regressed \\(${FAULT.rules[0]}\\)\\.$`, 'm'));
    const reverse = await runCli(['diff', report('faulty'), report('conformant'), '--format', 'json'], {});
    assert.equal(reverse.code, 0, reverse.out);
    const r = JSON.parse(reverse.stdout) as RunDiff;
    assert.deepEqual(
      r.fixed.map((c) => c.id),
      FAULT.rules,
    );
    assert.deepEqual(r.regressed, []);
  });

  test('three runs side by side', async () => {
    const res = await runCli(['compare', report('conformant'), report('faulty'), report('alt'), '--out', join(dir, 'compare')], {});
    assert.equal(res.code, 0, res.out);
    assert.match(res.stdout, /^crm-conformance compare: 3 runs side by side$/m);
    assert.match(res.stdout, /^ {2}faulty {2}\(suite \d+\.\d+\.\d+, embedded reference server \(http:\/\/127\.0\.0\.1:\d+\)\): NOT CONFORMANT/m);
    const html = readFileSync(join(dir, 'compare', 'conformance-compare.html'), 'utf8');
    assert.equal((html.match(/<th class="col"/g) ?? []).length, 3);
    assert.match(html, new RegExp(`data-rule="${FAULT.rules[0]}" data-all-pass="false"`));
  });

  test('the job summary and annotations name the regression; each run’s CTRF document is valid', async () => {
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '');
    const res = await runCli(['summary', report('faulty'), '--base', report('conformant'), '--github'], { GITHUB_STEP_SUMMARY: summary });
    assert.equal(res.code, 0, res.out);
    const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
    assert.equal(errors.length, FAULT.rules.length);
    assert.match(errors[0], new RegExp(`title=MUST ${FAULT.rules[0]} regressed \\(PASS → FAIL\\)::`));
    assert.match(readFileSync(summary, 'utf8'), /### Changes against conformant: ❌ 1 MUST regression/);
    for (const name of ['conformant', 'faulty', 'alt']) {
      const file = join(report(name), 'ctrf-report.json');
      assert.ok(existsSync(file), file);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      assert.ok(validate(doc).valid, `${name}: ${JSON.stringify(validate(doc).errors)}`);
      assert.equal(doc.runId, `diff${name}`);
    }
  });
});
