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
import { summaryLines } from '../reporting/conformance-reporter.js';
import { buildReport, runWarnings, type TestOutcome } from '../reporting/verdict.js';
import { chromiumPath, launch, openOffline } from './chromium.js';
import { ROOT, scratchDir } from './helpers.js';
import { EXPECTATIONS, R, leftBehindOutcomes, outcome, syntheticOutcomes, wholeRunOutcomes } from './synthetic-outcomes.js';

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
  const many = (statuses: Record<string, number>, status = 'passed') =>
    Array.from({ length: 12 }, (_, i) => ({ ...base, title: `t${i}`, status, statuses, requests: Object.values(statuses).reduce((a, b) => a + b, 0) }));
  assert.match(runWarnings(many({ '401': 3, '200': 1 })).join('\n'), /401\/403: check the credentials/);
  assert.match(
    runWarnings(many({ '404': 3, '200': 1 }), 'http://x.example').join('\n'),
    /404: check CRM_BASE_URL \(requests go to http:\/\/x\.example\/developer_api\/v1\)/,
  );
  assert.match(runWarnings(many({ '0': 2 }, 'failed')).join('\n'), /no usable answer/);
  assert.match(runWarnings(many({ '500': 2 }, 'failed')).join('\n'), /5xx/);
  assert.deepEqual(runWarnings(many({ '200': 5, '401': 1, '404': 1 })), []);
  assert.deepEqual(runWarnings(many({ '401': 1 }).slice(0, 4)), [], 'too few answers to judge');
});

test('a run warning names the properties a slow target stopped at their time budget', () => {
  const base = syntheticOutcomes()[3];
  const note = (title: string, text: string) => ({ ...base, title, notes: [text] });
  const outcomes = [
    note(
      'SEARCH-4 property: random project sorts',
      'property "random projects sorts and pages give what the spec fixes": 64 runs of 300 (time limit reached), seed 7',
    ),
    note('SEARCH-5 property: random task criteria', 'property "random tasks criteria select what the spec\'s model selects": 300 runs of 300, seed 7'),
    note('UPSERT-3 a model of upsert', 'property "upsert/convert model": 41 runs of 150 (time limit reached), seed 9'),
  ];
  const warnings = runWarnings(outcomes);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0],
    /^2 properties stopped at their time budget, the target answering too slowly for all their runs \(SEARCH-4 \(random projects sorts\) 64 of 300, UPSERT-3 \(upsert\/convert model\) 41 of 150 runs\)/,
  );
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
    assert.equal(await page.textContent('#verdict'), report.verdictLine, 'the verdict as qualified by what was judged');
    assert.equal(await page.getAttribute('#verdict', 'data-verdict'), report.verdict);
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
    // The property's replay line as the console printed it: seed, path and CRM_FC_RUNS.
    assert.match(failSection, /Replay the property: CRM_FC_SEED=1234567 CRM_FC_PATH=3:1:0 CRM_FC_RUNS=100 npx playwright test/);
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

test("a held repeat counts as failed, in its rule's verdict and the run's, and the page names the test that failed first", () => {
  const [first] = syntheticOutcomes().filter((o) => o.rules[0] === R.fail.id);
  const repeat = {
    ...first,
    title: `${first.title} (again)`,
    status: 'failed',
    expectedStatus: 'passed',
    held: `a repeat of the failure of "${first.title}"`,
    repeatOf: first.title,
    skipReason: `a repeat of the failure of "${first.title}"`,
  };
  const report = buildReport([...syntheticOutcomes(), repeat], { target: 't', runId: 'r' });
  assert.equal(report.tests.failed, 2);
  const shown = report.rules.find((r) => r.id === R.fail.id)!.tests.find((t) => t.title === repeat.title)!;
  assert.equal(shown.status, 'failed');
  assert.equal(shown.repeatOf, first.title);
  assert.match(renderHtml(report), /The same problem as <b>[^<]+<\/b>, which failed first/);
});

// Issue 32: a run that judged nothing, or only part of the rules, never says CONFORMANT unqualified.

/** What the reporter's configuration needs (it redacts with the configured secrets). */
const withTarget = () => Object.assign(process.env, { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'selftest-token', CRM_USER_EMAIL: 'a@b.example' });

const clean = () => syntheticOutcomes().filter((o) => o.rules[0] !== R.fail.id && o.rules[0] !== R.known.id);
const firstCard = (html: string) => /<section class="cards">\s*<div class="card"([^>]*)>/.exec(html)?.[1] ?? '';

test('a run that ran no test is INCONCLUSIVE, never CONFORMANT: one line says why and the fix', () => {
  const none = buildReport([], { target: 't', runId: 'r' });
  assert.equal(none.verdict, 'INCONCLUSIVE');
  assert.equal(none.scope, 'none');
  assert.equal(none.coverage.judged, 0);
  assert.match(
    none.verdictReason ?? '',
    /^no test ran: the filter of this run \(--grep, a file or directory, --project, --shard\) selected no test\. Fix the filter/,
  );
  const lines = summaryLines(none, 'reports/conformance.html');
  assert.match(lines[0], /^Conformance: INCONCLUSIVE — /);
  assert.equal(lines.filter((l) => /INCONCLUSIVE/.test(l)).length, 2, 'the verdict and one banner');
  assert.match(lines[1], /^INCONCLUSIVE, nothing was judged: no test ran/);
  assert.ok(!lines.some((l) => /(^|[^T] )CONFORMANT/.test(l)), lines.join('\n'));
  // The embedded server did not start (global set-up / webServer failed): the error is named.
  const stopped = buildReport([], { target: 't', runId: 'r', stopped: 'Error: Process from config.webServer was not able to start. Exit code: 1' });
  assert.equal(stopped.verdict, 'INCONCLUSIVE');
  assert.match(
    stopped.verdictReason ?? '',
    /^no test ran: the run stopped before any test \(Error: Process from config\.webServer was not able to start\. Exit code: 1\)\. Fix what that error names/,
  );
  assert.match(renderHtml(stopped), /id="verdict">INCONCLUSIVE</);
});

test('a run whose every test was skipped judged nothing: INCONCLUSIVE', () => {
  const skipped = clean().map((o) => ({
    ...o,
    status: 'skipped',
    expectedStatus: 'skipped',
    skipReason: 'heavy specs run with CRM_HEAVY=1',
    warnings: [],
    unexpectedPass: undefined,
    expectedFailure: undefined,
  }));
  const report = buildReport(skipped, { target: 't', runId: 'r' });
  assert.equal(report.verdict, 'INCONCLUSIVE');
  assert.equal(report.scope, 'none');
  assert.match(report.verdictReason ?? '', /^no rule was judged: all 4 tests of this run were skipped \(first reason: heavy specs run with CRM_HEAVY=1\)/);
});

test("a subset run is CONFORMANT for the rules judged, never bare: JSON scope and counts, the console's lines, the page's verdict and first card", () => {
  const report = buildReport(clean(), { target: 't', runId: 'r' });
  assert.equal(report.verdict, 'CONFORMANT');
  assert.equal(report.scope, 'partial');
  const c = report.coverage;
  assert.equal(c.judged, 3, 'pass, warn (SHOULD) and the unexpected pass');
  assert.equal(c.notApplicable, 1, 'the rule whose test was skipped for the profile');
  assert.equal(c.untestable, RULES.filter((r) => r.untestable).length);
  assert.equal(c.judgeable, RULES.length - c.untestable);
  assert.equal(c.judged + c.notApplicable + c.notJudged, c.judgeable);
  assert.equal(report.verdictLine, `CONFORMANT for the 3 rules judged (${c.notJudged} rules not judged in this run)`);
  const lines = summaryLines(report, 'reports/conformance.html', 'passed');
  assert.match(lines[0], new RegExp(`^Conformance: CONFORMANT for the 3 rules judged \\(${c.notJudged} rules not judged in this run\\) — `));
  assert.match(
    lines.at(-1)!,
    new RegExp(`^Partial run: 3 of ${c.judgeable} rules judged, ${c.notJudged} not judged .*This is no verdict on the rules not judged: run the whole suite`),
  );
  const html = renderHtml(report);
  assert.match(
    html,
    /data-verdict="CONFORMANT" data-scope="partial" id="verdict">CONFORMANT<span class="qualifier"> for the 3 rules judged \(\d+ rules not judged in this run\)<\/span><\/div>/,
  );
  assert.match(html, /<title>CONFORMANT for the 3 rules judged/);
  assert.match(firstCard(html), /id="coverage" data-scope="partial"/, 'the first card says what was judged');
  assert.match(html, new RegExp(`<span data-coverage="notJudged">${c.notJudged}</span> not judged in this run`));
});

test('a whole run is CONFORMANT unqualified; a MUST rule skipped for the target is named in the headline; a rule left out is not judged', () => {
  const all = wholeRunOutcomes();
  const whole = buildReport(all, { target: 't', runId: 'r' });
  assert.equal(whole.verdict, 'CONFORMANT');
  assert.equal(whole.scope, 'complete');
  assert.equal(whole.verdictLine, 'CONFORMANT');
  assert.ok(!summaryLines(whole, 'x').some((l) => /^Partial run/.test(l)));
  // A capability the profile does not declare: still complete.
  const [first, ...rest] = all;
  const capability = buildReport(
    [{ ...first, status: 'skipped', expectedStatus: 'skipped', skipReason: 'the target profile lists no company with activities' }, ...rest],
    { target: 't', runId: 'r' },
  );
  assert.equal(capability.scope, 'complete');
  assert.equal(capability.verdict, 'CONFORMANT');
  const mustJudgeable = RULES.filter((r) => r.level === 'MUST' && !r.untestable).length;
  const skippedRule = RULES.find((r) => r.id === first.rules[0])!;
  assert.equal(skippedRule.level, 'MUST', 'the first synthetic outcome is of a MUST rule');
  assert.equal(capability.verdictLine, `CONFORMANT for ${mustJudgeable - 1} of ${mustJudgeable} MUST rules; 1 skipped: ${skippedRule.id}`);
  assert.match(
    summaryLines(capability, 'x')[0],
    new RegExp(`^Conformance: CONFORMANT for ${mustJudgeable - 1} of ${mustJudgeable} MUST rules; 1 skipped: ${skippedRule.id} — `),
  );
  assert.equal(capability.coverage.notApplicable, 1);
  // Certification: a MUST rule not judged fails the run (INCONCLUSIVE, naming it).
  const certified = buildReport(
    [{ ...first, status: 'skipped', expectedStatus: 'skipped', skipReason: 'the target profile lists no company with activities' }, ...rest],
    { target: 't', runId: 'r', certify: true },
  );
  assert.equal(certified.verdict, 'INCONCLUSIVE');
  assert.match(certified.verdictReason ?? '', new RegExp(`^certification \\(CRM_CERTIFY=1\\) needs every MUST rule judged: 1 skipped: ${skippedRule.id}`));
  assert.equal(buildReport(all, { target: 't', runId: 'r', certify: true }).verdict, 'CONFORMANT', 'every MUST rule judged: certified');
  // One rule's tests left out (a --grep): partial, qualified.
  const subset = buildReport(rest, { target: 't', runId: 'r' });
  assert.equal(subset.scope, 'partial');
  assert.equal(subset.verdictLine, `CONFORMANT for the ${rest.length} rules judged (1 rule not judged in this run)`);
  // A failure in a subset run: NOT CONFORMANT, and it says how much was judged.
  const failing = buildReport([{ ...rest[0], status: 'failed', error: 'boom' }, ...rest.slice(1)], { target: 't', runId: 'r' });
  assert.equal(failing.verdictLine, `NOT CONFORMANT (${rest.length} rules judged, 1 not judged in this run)`);
});

test('the reporter: a run with no test fails the run (exit code) even when Playwright passed it, naming the error that stopped it', async () => {
  withTarget();
  const { default: ConformanceReporter } = require('../reporting/conformance-reporter.js') as typeof import('../reporting/conformance-reporter.js');
  const dir = scratchDir('crm-reporter-');
  const log = console.log;
  const printed: string[] = [];
  console.log = (...a: unknown[]) => {
    printed.push(a.join(' '));
  };
  try {
    const none = new ConformanceReporter({ outputDir: dir });
    none.onBegin({ rootDir: ROOT, shard: null } as never, {} as never);
    none.onError({ message: 'Error: Process from config.webServer was not able to start. Exit code: 1' });
    assert.deepEqual(await none.onEnd({ status: 'passed' } as never), { status: 'failed' }, '--pass-with-no-tests: still no verdict');
    assert.match(
      printed.join('\n'),
      /INCONCLUSIVE, nothing was judged: no test ran: the run stopped before any test \(Error: Process from config\.webServer was not able to start/,
    );
  } finally {
    console.log = log;
  }
});

// Issue 32, attribution: a combined test's failure counts against the rule whose prediction broke.

test('a combined test whose failure names the rule it broke counts against that rule only; the first card is the root cause', () => {
  const report = buildReport(leftBehindOutcomes(), { target: 't', runId: 'r' });
  const v = (id: string) => report.rules.find((r) => r.id === id)!;
  assert.equal(v('CONVERT-2').verdict, 'FAIL');
  assert.equal(v('CONVERT-14').verdict, 'FAIL');
  for (const id of ['UPSERT-2', 'UPSERT-3', 'UPSERT-4']) assert.equal(v(id).verdict, 'PASS', `${id}: its own test passed and the failure names CONVERT-2`);
  // A rule only the combined test covers: not judged by it (it stopped on another rule).
  assert.equal(v('UPSERT-12').verdict, 'BLOCKED');
  assert.match(
    v('UPSERT-12').reasons[0],
    /^blocked by CONVERT-2: "UPSERT-3 a model of upsert and convert predicts every answer" relies on that rule for a step/,
  );
  assert.equal(v('UPSERT-12').tests[0].status, 'blocked');
  assert.deepEqual(v('UPSERT-12').tests[0].blockedBy, ['CONVERT-2']);
  assert.deepEqual(report.rootCauses, ['CONVERT-2', 'CONVERT-14', 'CONVERT-15']);
  const html = renderHtml(report);
  assert.equal(/<section class="detail[^"]*" id="([^"]+)"/.exec(html)?.[1], 'CONVERT-2', 'the first card');
  assert.match(html, /The failure names the rule whose check broke: CONVERT-2/);
  assert.match(html, /Start with CONVERT-2: /);
  assert.match(summaryLines(report, 'x').join('\n'), /Failed MUST rules, likeliest root cause first: CONVERT-2 \([^)]+\), then CONVERT-14, CONVERT-15/);
});

test('the root cause does not follow the rule a model test happened to reach: its own tests decide, then the catalog', () => {
  // The fault breaks CONVERT-2, 14 and 15 alike; the model's random path reached CONVERT-15 this time.
  const report = buildReport(leftBehindOutcomes({ names: 'CONVERT-15' }), { target: 't', runId: 'r' });
  assert.equal(report.rules.find((r) => r.id === 'CONVERT-15')!.tests.filter((t) => t.status === 'failed').length, 2);
  assert.deepEqual(report.rootCauses, ['CONVERT-2', 'CONVERT-14', 'CONVERT-15']);
});

test('an untagged failure of a combined test still counts against every rule it covers', () => {
  const report = buildReport(leftBehindOutcomes({ tagged: false }), { target: 't', runId: 'r' });
  for (const id of ['UPSERT-2', 'UPSERT-3', 'UPSERT-4', 'UPSERT-12', 'CONVERT-2']) assert.equal(report.rules.find((r) => r.id === id)!.verdict, 'FAIL', id);
  // The rules with a failing test of their own still come first.
  assert.deepEqual(report.rootCauses.slice(0, 3), ['CONVERT-2', 'CONVERT-14', 'CONVERT-15']);
});

test('a failure naming several rules counts against those whose own tests did not all pass (all of them when each passed, or none ran)', () => {
  const rule = (id: string) => RULES.find((r) => r.id === id)!;
  const model = (breaks: string[]): TestOutcome =>
    outcome(rule('UPSERT-3'), {
      title: 'UPSERT-3 model',
      rules: ['UPSERT-3', 'UPSERT-8'],
      status: 'failed',
      error: `x [breaks ${breaks.join(', ')}]`,
      brokenRules: breaks,
    });
  const own = (id: string, status: string) => outcome(rule(id), { title: `${id} own`, status, ...(status === 'failed' ? { error: 'no' } : {}) });
  const narrowed = buildReport([model(['UPSERT-3', 'UPSERT-8']), own('UPSERT-3', 'passed'), own('UPSERT-8', 'failed')], { target: 't', runId: 'r' });
  assert.equal(narrowed.rules.find((r) => r.id === 'UPSERT-3')!.verdict, 'PASS');
  assert.equal(narrowed.rules.find((r) => r.id === 'UPSERT-8')!.verdict, 'FAIL');
  const both = buildReport([model(['UPSERT-3', 'UPSERT-8']), own('UPSERT-3', 'passed'), own('UPSERT-8', 'passed')], { target: 't', runId: 'r' });
  assert.deepEqual(
    both.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id),
    ['UPSERT-3', 'UPSERT-8'],
  );
  const alone = buildReport([model(['UPSERT-3', 'UPSERT-8'])], { target: 't', runId: 'r' });
  assert.deepEqual(
    alone.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id),
    ['UPSERT-3', 'UPSERT-8'],
  );
});

test('the reporter takes the rules a failure names from what rule() found a step of the test to have named', async () => {
  withTarget();
  const { outcomeOf } = await import('../reporting/conformance-reporter.js');
  const testCase = {
    title: 'UPSERT-3 a model of upsert and convert',
    annotations: [
      { type: 'rule', description: 'UPSERT-3' },
      { type: 'rule', description: 'CONVERT-2' },
      { type: 'level', description: 'MUST' },
    ],
    location: { file: join(ROOT, 'specs/leads/upsert.model.spec.ts'), line: 34, column: 1 },
    expectedStatus: 'passed',
    parent: { project: () => undefined },
  };
  const result = (message: string, breaks?: string) => ({
    status: 'failed',
    errors: [{ message }],
    attachments: [],
    duration: 5,
    annotations: breaks ? [{ type: 'breaks', description: breaks }] : [],
  });
  const message =
    'Error: upsert/convert model: counterexample (seed 1, path 0):\nupsert by name#1 {name#0}: … a converted Lead [breaks CONVERT-2]\nPUT … → 200\n  got: {"note":"[breaks UPSERT-9]"}';
  assert.deepEqual(outcomeOf(testCase as never, result(message, 'CONVERT-2') as never, ROOT).brokenRules, ['CONVERT-2']);
  assert.equal(
    outcomeOf(testCase as never, result(message) as never, ROOT).brokenRules,
    undefined,
    "a marker in the message alone (the target's answer may carry one) is no attribution",
  );
  assert.equal(outcomeOf(testCase as never, result('TransportError: no answer within 15 s') as never, ROOT).brokenRules, undefined);
  assert.equal(outcomeOf(testCase as never, result('x', 'NOPE-1') as never, ROOT).brokenRules, undefined, 'an unknown rule is no attribution');
});

test("a test whose time limit ran out is not judged, never a rule failure: the report says how long, the target's latency and the machine's load", async () => {
  withTarget();
  const { outcomeOf, timeLimitNote } = await import('../reporting/conformance-reporter.js');
  const testCase = {
    title: 'OAUTH-11 the access token works',
    annotations: [
      { type: 'rule', description: 'OAUTH-11' },
      { type: 'level', description: 'MUST' },
    ],
    location: { file: join(ROOT, 'specs/oauth/token.spec.ts'), line: 23, column: 1 },
    expectedStatus: 'passed',
    parent: { project: () => undefined },
  };
  const o = outcomeOf(
    testCase as never,
    { status: 'timedOut', errors: [{ message: 'Test timeout of 30000ms exceeded.' }], attachments: [], duration: 30_012, annotations: [] } as never,
    ROOT,
  );
  assert.equal(o.status, 'skipped');
  assert.match(o.notJudged ?? '', /^not judged: the test's time limit ran out after 30\.0 s/);
  const report = buildReport([o], { target: 't', runId: 'r' });
  assert.notEqual(report.verdict, 'NOT CONFORMANT');
  assert.equal(report.rules.find((r) => r.id === 'OAUTH-11')!.verdict === 'FAIL', false);
  assert.match(timeLimitNote(31_000, 2_000, 9.5, 2), /answered the preflight in 2000 ms; this machine was busy \(load 9\.5 on 2 cores\)/);
  assert.doesNotMatch(timeLimitNote(31_000, 2_000, 0.5, 2), /busy/);
});
