/**
 * The conformance report page: rendered from a synthetic outcome set (fail, warn, skip, pass,
 * known failure, unexpected pass, untested), opened offline in Chromium; the numbers on the
 * page match conformance.json; a screenshot is kept as reports/conformance-report.png.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RULES } from '../rules/index.js';
import { renderHtml } from '../reporting/html.js';
import { buildReport, runWarnings } from '../reporting/verdict.js';
import { chromiumPath, launch, openOffline } from './chromium.js';
import { ROOT, scratchDir } from './helpers.js';
import { EXPECTATIONS, R, syntheticOutcomes } from './synthetic-outcomes.js';

function synthetic() {
  const outcomes = syntheticOutcomes();
  const report = buildReport(outcomes, {
    target: 'http://127.0.0.1:4010 (synthetic)',
    runId: 'selftest',
    warnings: ['synthetic run warning: 3 of 4 answers are 401/403'],
    expectations: EXPECTATIONS,
    specUrl: 'https://example.com/crm-developer-api.md',
    durationMs: 4200,
  });
  report.calibration = { score: 0.875, caught: 7, faults: 8, date: '2026-11-22' };
  return { outcomes, report };
}

test('verdicts: MUST failure ⇒ NOT CONFORMANT; known failures count, unexpected passes are listed', () => {
  const { report } = synthetic();
  const v = (id: string) => report.rules.find((r) => r.id === id)!;
  assert.equal(report.verdict, 'NOT CONFORMANT');
  assert.equal(v(R.fail.id).verdict, 'FAIL');
  assert.equal(v(R.warn.id).verdict, 'WARN');
  assert.equal(v(R.skip.id).verdict, 'SKIP');
  assert.equal(v(R.pass.id).verdict, 'PASS');
  assert.equal(v(R.known.id).verdict, 'FAIL');
  assert.equal(v(R.known.id).known, true);
  assert.equal(v(R.unexpected.id).verdict, 'PASS');
  assert.equal(report.tests.failed, 1, 'only the real failure fails the run');
  assert.equal(report.tests.knownFailures, 1);
  assert.equal(report.expectations?.unexpectedPasses.length, 1);
  assert.deepEqual(report.expectations?.unmatched, ['title "a test that no longer exists"']);
  assert.equal(report.requests.total, 11);
  assert.equal(report.requests.byStatus['500'], 2);
  const total = Object.values(report.counts).reduce((a, c) => a + Object.values(c).reduce((x, y) => x + y, 0), 0);
  assert.equal(total, RULES.length, 'every rule is counted once');
});

test('without the failing tests the verdict is CONFORMANT', () => {
  const outcomes = syntheticOutcomes().filter((o) => o.rules[0] !== R.fail.id && o.rules[0] !== R.known.id);
  assert.equal(buildReport(outcomes, { target: 't', runId: 'r' }).verdict, 'CONFORMANT');
});

test('run warnings count the answers of every test, passed or not', () => {
  const base = syntheticOutcomes()[3];
  const many = (statuses: Record<string, number>, status = 'passed') => Array.from({ length: 12 }, (_, i) => ({ ...base, title: `t${i}`, status, statuses, requests: Object.values(statuses).reduce((a, b) => a + b, 0) }));
  assert.match(runWarnings(many({ '401': 3, '200': 1 })).join('\n'), /401\/403: check the credentials/);
  assert.match(runWarnings(many({ '404': 3, '200': 1 }), 'http://x.example').join('\n'), /404: check CRM_BASE_URL \(requests go to http:\/\/x\.example\/developer_api\/v1\)/);
  assert.match(runWarnings(many({ '0': 2 }, 'failed')).join('\n'), /no usable answer/);
  assert.match(runWarnings(many({ '500': 2 }, 'failed')).join('\n'), /5xx/);
  assert.deepEqual(runWarnings(many({ '200': 5, '401': 1, '404': 1 })), []);
  assert.deepEqual(runWarnings(many({ '401': 1 }).slice(0, 4)), [], 'too few answers to judge');
});

test('a run warning names the properties a slow target stopped at their time budget', () => {
  const base = syntheticOutcomes()[3];
  const note = (title: string, text: string) => ({ ...base, title, notes: [text] });
  const outcomes = [
    note('SEARCH-4 property: random project sorts', 'property "random projects sorts and pages give what the spec fixes": 64 runs of 300 (time limit reached), seed 7'),
    note('SEARCH-5 property: random task criteria', 'property "random tasks criteria select what the spec\'s model selects": 300 runs of 300, seed 7'),
    note('UPSERT-3 a model of upsert', 'property "upsert/convert model": 41 runs of 150 (time limit reached), seed 9'),
  ];
  const warnings = runWarnings(outcomes);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /^2 properties stopped at their time budget, the target answering too slowly for all their runs \(SEARCH-4 \(random projects sorts\) 64 of 300, UPSERT-3 \(upsert\/convert model\) 41 of 150 runs\)/);
  assert.deepEqual(runWarnings(outcomes.slice(1, 2)), [], 'a property that made all its runs is no warning');
});

test('the page renders offline in Chromium and shows the numbers of conformance.json', async (t) => {
  const executable = chromiumPath();
  if (!executable) {
    t.skip('no Chromium found (set CRM_CHROMIUM_PATH)');
    return;
  }
  const { report } = synthetic();
  const dir = scratchDir('crm-report-');
  const file = join(dir, 'conformance.html');
  writeFileSync(file, renderHtml(report));
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(report, null, 2));
  const browser = await launch();
  try {
    const { page, external, errors, context } = await openOffline(browser, file);
    assert.equal(await page.textContent('#verdict'), report.verdict);
    for (const level of ['MUST', 'SHOULD', 'MAY'] as const) {
      for (const verdict of ['PASS', 'FAIL', 'WARN', 'SKIP', 'UNTESTED'] as const) {
        const shown = await page.textContent(`td[data-level="${level}"][data-verdict="${verdict}"]`);
        assert.equal(Number(shown), report.counts[level][verdict], `${level} ${verdict}`);
      }
    }
    assert.equal(Number(await page.textContent('#tests-total')), report.tests.total);
    assert.equal(Number(await page.textContent('#requests-total')), report.requests.total);
    for (const k of ['passed', 'failed', 'warned', 'skipped', 'knownFailures'] as const) {
      assert.equal(Number(await page.textContent(`[data-tests="${k}"]`)), report.tests[k], `tests ${k}`);
    }
    // The matrix: one coloured cell per rule, each with the verdict of conformance.json.
    const cells = await page.$$eval('.matrix .cell', (els) => els.map((e) => [e.getAttribute('data-rule'), e.getAttribute('data-cell-verdict')]));
    assert.equal(cells.length, RULES.length);
    for (const [id, verdict] of cells) assert.equal(verdict, report.rules.find((r) => r.id === id)?.verdict, `cell ${id}`);
    const red = await page.$eval(`.matrix .cell[data-rule="${R.fail.id}"]`, (e) => getComputedStyle(e).backgroundColor);
    assert.equal(red, 'rgb(207, 34, 46)', 'a failed rule is red');
    // Failed and warned rules with their evidence.
    const flagged = report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN');
    assert.equal(Number(await page.textContent('#flagged-count')), flagged.length);
    const failSection = (await page.textContent(`section.detail[id="${R.fail.id}"]`)) ?? '';
    assert.match(failSection, /expected status 200, got 500/);
    assert.match(failSection, /curl -sS -X GET/);
    assert.match(failSection, /CRM_FC_SEED=1234567 (CRM_FC_PATH=\S+ )?npx playwright test/);
    assert.match(failSection, /no answer within 15 s/);
    assert.doesNotMatch(await page.content(), /ref-access-|«redacted»[^<]*[0-9a-f]{24}/, 'no secret on the page');
    assert.match((await page.textContent(`section.detail[id="${R.warn.id}"]`)) ?? '', /not met/);
    assert.match((await page.textContent(`section.detail[id="${R.known.id}"]`)) ?? '', /Known failure/);
    assert.match((await page.textContent('#unexpected-passes')) ?? '', new RegExp(R.unexpected.id));
    assert.match((await page.textContent('#calibration')) ?? '', /87\.5%/);
    assert.match((await page.textContent('#run-warnings')) ?? '', /401\/403/);
    // A matrix cell of a passing rule opens the (collapsed) list of all rules at its row.
    await page.click(`.matrix .cell[data-rule="${R.pass.id}"]`);
    assert.equal(await page.$eval('details.all', (d) => (d as HTMLDetailsElement).open), true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.$eval('details.all', (d) => ((d as HTMLDetailsElement).open = false));
    assert.deepEqual(external, [], 'the page loads nothing from the network');
    assert.deepEqual(errors, [], 'no script error');
    mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
    await page.screenshot({ path: resolve(ROOT, 'reports/conformance-report.png'), fullPage: true });
    await context.close();
  } finally {
    await browser.close();
  }
});

test('a held repeat counts as failed, in its rule\'s verdict and the run\'s, and the page names the test that failed first', () => {
  const [first] = syntheticOutcomes().filter((o) => o.rules[0] === R.fail.id);
  const repeat = { ...first, title: `${first.title} (again)`, status: 'failed', expectedStatus: 'passed', held: `a repeat of the failure of "${first.title}"`, repeatOf: first.title, skipReason: `a repeat of the failure of "${first.title}"` };
  const report = buildReport([...syntheticOutcomes(), repeat], { target: 't', runId: 'r' });
  assert.equal(report.tests.failed, 2);
  const shown = report.rules.find((r) => r.id === R.fail.id)!.tests.find((t) => t.title === repeat.title)!;
  assert.equal(shown.status, 'failed');
  assert.equal(shown.repeatOf, first.title);
  assert.match(renderHtml(report), /The same problem as <b>[^<]+<\/b>, which failed first/);
});
