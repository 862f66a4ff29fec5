/**
 * Depths (issue 34): CRM_DEPTH and `crm-conformance run --depth` are read and checked like every
 * setting; a depth sets the default runs of the properties and the heavy specs; `quick` leaves out
 * the tests of its selection (specs/support/quick-selection.json), and the report names the depth.
 * The quick run against the embedded server: selftest/depth.test.ts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, parseConfig, QUICK_PROPERTY_REQUESTS, ROOT } from '../specs/support/core/config.js';
import { depthOption } from '../cli/run.js';
import { quickLeaveOut } from '../specs/support/core/quick.js';
import { judgedBy, selectQuick } from '../scripts/quick-selection.js';
import { applyMutant } from '../scripts/mutant-kills.js';
import { buildReport, type TestOutcome } from '../reporting/verdict.js';
import { summaryLines } from '../reporting/conformance-reporter.js';
import { suiteConfig } from '../specs/support/suite-config.js';

const base = { CRM_BASE_URL: 'http://127.0.0.1:9', CRM_ACCESS_TOKEN: 'selftest-token-0000', CRM_USER_EMAIL: 'selftest@example.com' };

test('CRM_DEPTH: standard by default; quick a hundredth of the random inputs, deep ten times; CRM_FC_RUNS still wins', () => {
  const of = (env: Record<string, string>) => parseConfig({ ...base, ...env });
  assert.equal(of({}).depth, 'standard');
  assert.equal(of({}).fc.runs, 300);
  assert.deepEqual([of({ CRM_DEPTH: 'quick' }).depth, of({ CRM_DEPTH: 'quick' }).fc.runs], ['quick', 3]);
  assert.deepEqual([of({ CRM_DEPTH: 'deep' }).depth, of({ CRM_DEPTH: 'deep' }).fc.runs], ['deep', 3000]);
  assert.equal(of({ CRM_DEPTH: 'deep', CRM_FC_RUNS: '40' }).fc.runs, 40);
  assert.throws(
    () => of({ CRM_DEPTH: 'fast' }),
    (e: Error) => e instanceof ConfigError && /CRM_DEPTH="fast": must be quick, standard or deep/.test(e.message),
  );
});

test('heavy specs: off in quick (unless CRM_HEAVY=1), as the profile says in standard', () => {
  const of = (env: Record<string, string>) => parseConfig({ ...base, ...env }).heavy;
  assert.equal(of({ CRM_DEPTH: 'quick' }), false);
  assert.equal(of({ CRM_DEPTH: 'quick', CRM_HEAVY: '1' }), true);
  assert.equal(of({}), false);
  assert.equal(of({ CRM_HEAVY: '1' }), true);
  assert.equal(of({ CRM_DEPTH: 'deep', CRM_HEAVY: '0' }), false);
});

test('crm-conformance run --depth <d> and --depth=<d> set the depth; the other arguments go to Playwright', () => {
  assert.deepEqual(depthOption(['--depth', 'quick', '--grep', '@UPSERT-4']), { depth: 'quick', rest: ['--grep', '@UPSERT-4'] });
  assert.deepEqual(depthOption(['--depth=deep', '--no-doctor']), { depth: 'deep', rest: ['--no-doctor'] });
  assert.deepEqual(depthOption(['specs/leads']), { depth: undefined, rest: ['specs/leads'] });
});

const outcome = (file: string, title: string, rules: string[], requests: number, durationMs = 10) =>
  ({ file, title, rules, requests, durationMs, status: 'passed', expectedStatus: 'passed', notes: [], warnings: [] }) as unknown as TestOutcome;

test('the quick selection keeps the properties and, of the other tests, the cheapest that judge every rule that ran (those the properties judge too), and leaves out the rest', () => {
  const s = selectQuick([
    [
      outcome('specs/search/projects.property.spec.ts', 'SEARCH-5 property', ['SEARCH-5'], 600),
      outcome('specs/search/criteria.spec.ts', 'SEARCH-5 project search: AND', ['SEARCH-5'], 8),
      outcome('specs/search/paging.spec.ts', 'SEARCH-3 project search: 20 entries', ['SEARCH-3'], 23),
      outcome('specs/search/paging.spec.ts', 'SEARCH-3 task search: 20 entries', ['SEARCH-3'], 25),
      outcome('specs/wire/x.spec.ts', 'WIRE-1 one request', ['WIRE-1'], 1),
      outcome('specs/wire/x.spec.ts', 'WIRE-1 another request', ['WIRE-1'], 1, 100),
    ],
  ] as never);
  assert.deepEqual(
    s.leaveOut.map((t) => t.title),
    // SEARCH-5's own test stays: a property's few random runs at quick depth may not reach its case.
    ['SEARCH-3 task search: 20 entries', 'WIRE-1 another request'],
  );
  assert.deepEqual([s.from.tests, s.kept.tests], [6, 4]);
  // A rule only a property judges is the property's alone.
  const alone = selectQuick([[outcome('specs/search/projects.property.spec.ts', 'SEARCH-5 property', ['SEARCH-5'], 600)]] as never);
  assert.deepEqual([alone.leaveOut, alone.kept.tests], [[], 1]);
});

test('the quick selection keeps a test of a rule on each endpoint and item the catalog gives it that standard judges it on', () => {
  const on = (o: TestOutcome, endpoints: string[]) => ({ ...o, endpoints }) as TestOutcome;
  const tasks = on(outcome('specs/search/custom-fields.spec.ts', 'SEARCH-13 task search results', ['SEARCH-13'], 3), ['POST /tasks', 'POST /tasks/search']);
  const projects = on(outcome('specs/search/custom-fields.spec.ts', 'SEARCH-13 project search results', ['SEARCH-13'], 5), [
    'POST /projects',
    'POST /projects/search',
  ]);
  assert.deepEqual(
    judgedBy(projects),
    ['SEARCH-13 POST /projects/search', 'SEARCH-13 project search'],
    'the rule on the endpoint of its list the test reached, and on the item its title names',
  );
  assert.deepEqual(judgedBy({ ...on(projects, []), title: 'SEARCH-13 results' }), ['SEARCH-13'], 'no endpoint or item of its lists: the rule');
  assert.deepEqual(judgedBy({ rules: ['PROJ-2'], endpoints: ['POST /projects'], title: 'PROJ-2 x' }), ['PROJ-2'], 'a rule of one endpoint: the rule');
  // A rule of several items (PSEARCH-4: statuses, status_ids): on each its title names.
  assert.deepEqual(judgedBy({ rules: ['PSEARCH-4'], title: 'PSEARCH-4 status_ids selects projects by status id' }), ['PSEARCH-4 status_ids']);
  assert.deepEqual(judgedBy({ rules: ['PSEARCH-4'], title: 'PSEARCH-4 statuses selects projects by status name' }), ['PSEARCH-4 statuses']);
  assert.deepEqual(judgedBy({ rules: ['PSEARCH-4'], title: 'PSEARCH-4 a status filter' }), ['PSEARCH-4']);
  assert.deepEqual(selectQuick([[tasks, projects]] as never).leaveOut, [], 'both kept: one search each');
  // Without the endpoints (an outcome file of an older run) nor an item in the titles, one test covers the rule.
  assert.equal(
    selectQuick([[outcome(tasks.file, 'SEARCH-13 one', tasks.rules, 3), outcome(projects.file, 'SEARCH-13 two', projects.rules, 5)]] as never).leaveOut.length,
    1,
  );
});

test('the quick selection judges each rule under every choice set it was made from: a test that skips under one set does not cover it there', () => {
  const skipped = (o: TestOutcome) => ({ ...o, status: 'skipped' }) as TestOutcome;
  const cheap = outcome('specs/events/delivery.spec.ts', 'EVENT-5 the delete notification', ['EVENT-5'], 2);
  const dear = outcome('specs/events/computed-values.spec.ts', 'EVENT-5 the update notification', ['EVENT-5'], 6);
  const under = (runs: TestOutcome[][]) => selectQuick(runs as never).leaveOut.map((t) => t.title);
  assert.deepEqual(under([[cheap, dear]]), ['EVENT-5 the update notification']);
  assert.deepEqual(
    under([
      [cheap, dear],
      [skipped(cheap), dear],
    ]),
    ['EVENT-5 the delete notification'],
  );
  // A test that ran under no set is never left out: it may judge its rule against another server.
  assert.deepEqual(under([[cheap, skipped(dear)]]), []);
});

test("the quick selection keeps a test that kills each of quick's blind spots, the cheapest, never counting a property's kill", () => {
  const rel = outcome('specs/relationships/remove.spec.ts', 'REL-5 one', ['REL-5'], 5);
  const rel2 = outcome('specs/relationships/remove.spec.ts', 'REL-5 two', ['REL-5'], 4);
  const bad = outcome('specs/relationships/bad-input.spec.ts', 'WIRE-5 null body', ['WIRE-5'], 2);
  const bad2 = outcome('specs/relationships/bad-input.spec.ts', 'WIRE-5 no body', ['WIRE-5'], 2, 50);
  const prop = outcome('specs/search/tasks.property.spec.ts', 'SEARCH-4 property', ['SEARCH-4'], 600);
  const kill = (mutant: string, ...by: TestOutcome[]) => ({ mutant, killedBy: by.map((o) => ({ file: o.file, title: o.title })) });
  const s = selectQuick([[rel, rel2, bad, bad2, prop]] as never, undefined, [
    kill('a.ts:1:1 over-clearing', rel), // rel2 is cheaper for REL-5, but only rel kills it
    kill('a.ts:2:1 null body', bad, bad2), // either: the cheaper
    kill('a.ts:3:1 sort key', prop), // a property's kill: not kept by it
    kill('a.ts:4:1 nothing'),
  ]);
  assert.deepEqual(s.leaveOut.map((t) => t.title).sort(), ['REL-5 two', 'WIRE-5 no body']);
  assert.deepEqual(s.mutants, { kept: 2, propertyOnly: ['a.ts:3:1 sort key'], noKiller: ['a.ts:4:1 nothing'] });
  assert.equal(selectQuick([[rel, rel2]] as never).mutants, undefined, 'without kill data, no blind spots are named');
});

test('made again from an earlier selection, the quick selection keeps every test that one ran, new ones too, and covers what is left', () => {
  const one = outcome('specs/wire/x.spec.ts', 'WIRE-1 one', ['WIRE-1'], 1);
  const dear = outcome('specs/wire/x.spec.ts', 'WIRE-1 dear', ['WIRE-1'], 9);
  const added = outcome('specs/wire/x.spec.ts', 'WIRE-1 added since', ['WIRE-1'], 9);
  const other = outcome('specs/wire/y.spec.ts', 'WIRE-2 one', ['WIRE-2'], 1);
  const other2 = outcome('specs/wire/y.spec.ts', 'WIRE-2 two', ['WIRE-2'], 2);
  const titles = (s: { leaveOut: { title: string }[] }) => s.leaveOut.map((t) => t.title).sort();
  assert.deepEqual(titles(selectQuick([[one, dear, added, other, other2]] as never)), ['WIRE-1 added since', 'WIRE-1 dear', 'WIRE-2 two']);
  // The last selection ran `dear` (and knew nothing of `added`); it left out `one` and both WIRE-2 tests.
  const last = [one, other, other2].map((o) => ({ file: o.file, title: o.title }));
  assert.deepEqual(titles(selectQuick([[one, dear, added, other, other2]] as never, undefined, undefined, last)), ['WIRE-1 one', 'WIRE-2 two']);
});

test('a blind spot is made again in the code of today by the lines around it, or not at all when they changed', () => {
  const then = 'const a = 1;\nif (x && y) f();\n';
  const m = { mutatorName: 'LogicalOperator', replacement: 'x || y', location: { start: { line: 2, column: 5 }, end: { line: 2, column: 11 } } } as never;
  assert.equal(applyMutant(then, '// moved\nconst a = 1;\nif (x && y) f();\n', m), '// moved\nconst a = 1;\nif ((x || y)) f();\n');
  assert.equal(applyMutant(then, 'if (x && y) g();\n', m), undefined);
  // An expression is switched in as one operand, as StrykerJS does: `(a || b) && c`, not `a || b && c`.
  const chain = 'if (a && b && c) f();\n';
  const inner = { mutatorName: 'LogicalOperator', replacement: 'a || b', location: { start: { line: 1, column: 5 }, end: { line: 1, column: 11 } } } as never;
  assert.equal(applyMutant(chain, chain, inner), 'if ((a || b) && c) f();\n');
  const block = { mutatorName: 'BlockStatement', replacement: '{}', location: { start: { line: 1, column: 8 }, end: { line: 1, column: 16 } } } as never;
  assert.equal(applyMutant('if (a) { f(); }\n', 'if (a) { f(); }\n', block), 'if (a) {}\n');
});

test("quickLeaveOut: one pattern per test of the selection, matching that test's grep title only", () => {
  const patterns = quickLeaveOut();
  const { leaveOut } = JSON.parse(readFileSync(resolve(ROOT, 'specs/support/quick-selection.json'), 'utf8')) as { leaveOut: { file: string; title: string }[] };
  assert.equal(patterns.length, leaveOut.length, 'one pattern per test left out');
  // Playwright's grep title: project, file (from specs/), describe titles, the title, tags.
  const t = leaveOut[0];
  const grepTitle = `api ${t.file.replace(/^specs\//, '')} ${t.title}`;
  assert.ok(patterns[0].test(grepTitle) && patterns[0].test(`${grepTitle} @random`), grepTitle);
  assert.equal(patterns[0].test(`${grepTitle} and more`), false, 'a pattern matches its own title only');
  assert.equal(patterns[0].test(`api other/file.spec.ts ${t.title}`), false, 'in its own file only');
});

test('lanes: a quick run against a near target has no property lane (its specs run in the API lane); a standard one, or a far target, has one', () => {
  const lanes = (env: Record<string, string>) => (suiteConfig({ ...base, ...env }).projects ?? []).map((p) => p.name);
  assert.deepEqual(lanes({ CRM_DEPTH: 'quick' }), ['bulk', 'oauth', 'api']);
  assert.deepEqual(lanes({}), ['bulk', 'oauth', 'properties', 'api']);
  assert.deepEqual(lanes({ CRM_DEPTH: 'quick', CRM_BASE_URL: 'https://crm.example.com/developer_api/v1', CRM_ALLOW_WRITES: '1' }), [
    'bulk',
    'oauth',
    'properties',
    'api',
  ]);
});

test("a quick run's property stopped at its request budget: its runs made, the budget, and a Power line naming it", () => {
  const o = {
    ...outcome('specs/search/tasks.property.spec.ts', 'SEARCH-4 property: random task sorts', ['SEARCH-4'], 45),
    notes: [
      `property "random tasks sorts and pages give what the spec fixes": 3 runs of 4 (quick's budget of ${QUICK_PROPERTY_REQUESTS} requests reached), seed -7 (3 in flight at 12 ms, budget 9 s)`,
    ],
  } as TestOutcome;
  const report = buildReport([o], { target: 't', runId: 'r', depth: 'quick' });
  assert.deepEqual(report.power, [
    {
      rule: 'SEARCH-4',
      property: 'random tasks sorts and pages give what the spec fixes',
      runs: 3,
      planned: 4,
      cut: false,
      quickBudget: QUICK_PROPERTY_REQUESTS,
      inFlight: 3,
      budgetS: 9,
    },
  ]);
  const lines = summaryLines(report, 'conformance.html').filter((l) => l.startsWith('Power:'));
  assert.match(lines.join('\n'), /^Power: every property but those below made all its runs/m);
  assert.match(
    lines.join('\n'),
    new RegExp(
      `^Power: at quick depth, SEARCH-4 \\(random tasks sorts and pages give what the spec fixes\\) 3 of 4 runs: its budget of ${QUICK_PROPERTY_REQUESTS} requests reached`,
      'm',
    ),
  );
});

test('the report names the depth: conformance.json, the console summary; and the properties a budget cut short, with their runs', () => {
  const o = {
    ...outcome('specs/search/projects.property.spec.ts', 'SEARCH-4 property: random project sorts', ['SEARCH-4'], 100),
    notes: [
      'property "random projects sorts and pages give what the spec fixes": 40 runs of 300 (time limit reached), seed 5 (10 in flight at 50 ms, budget 17 s)',
    ],
  } as TestOutcome;
  const report = buildReport([o], { target: 't', runId: 'r', depth: 'quick' });
  assert.equal(report.depth, 'quick');
  assert.deepEqual(report.power, [
    { rule: 'SEARCH-4', property: 'random projects sorts and pages give what the spec fixes', runs: 40, planned: 300, cut: true, inFlight: 10, budgetS: 17 },
  ]);
  const lines = summaryLines(report, 'conformance.html');
  assert.match(lines[0], /, depth quick\. Report:/);
  assert.ok(
    lines.some((l) =>
      /^Power: 1 property cut short by its time budget: SEARCH-4 \(random projects sorts and pages give what the spec fixes\) 40 of 300 runs/.test(l),
    ),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) =>
      l.includes("(40 of 300 runs in all; against this target 10 runs in flight, the property budgets 17 s in all (the bound of the properties' runs))"),
    ),
    lines.join('\n'),
  );
});
