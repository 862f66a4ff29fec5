/** The rules catalog: ids unique and well formed; every test names a known rule; every rule is tested, pending or untestable. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AREAS, RULES, ruleIdOfTitle } from '../rules/index.js';
import { renderConformanceList } from '../rules/list.js';
import { listTests, ROOT } from './helpers.js';

const tests = listTests();

test('rule ids are unique and of the form AREA-N', () => {
  const seen = new Set<string>();
  for (const r of RULES) {
    assert.match(r.id, /^[A-Z]+-\d+$/, `rule id ${r.id}`);
    assert.ok(!seen.has(r.id), `duplicate rule id ${r.id}`);
    seen.add(r.id);
    assert.ok(r.text.length > 10, `${r.id} has a paraphrase`);
    assert.ok(r.area in AREAS, `${r.id} has a known area`);
    assert.ok(!(r.pending && r.untestable), `${r.id} is either pending or untestable`);
  }
});

test('the catalog covers the whole spec (more than 100 rules)', () => {
  assert.ok(RULES.length > 100, `${RULES.length} rules`);
});

test('every rule section is a heading of the specification', () => {
  const spec = readFileSync(resolve(ROOT, '../shared/spec/crm-developer-api.md'), 'utf8');
  const headings = new Set([...spec.matchAll(/^#+\s+(.+)$/gm)].map((m) => m[1].trim()));
  for (const r of RULES) assert.ok(headings.has(r.section), `${r.id}: section "${r.section}" is not a heading of the spec`);
});

test('every test title starts with a known rule id and carries its tags', () => {
  assert.ok(tests.length > 0, 'playwright lists tests');
  const known = new Set(RULES.map((r) => r.id));
  for (const t of tests) {
    const id = ruleIdOfTitle(t.title);
    assert.ok(id, `test "${t.title}" (${t.file}:${t.line}) does not start with a rule id`);
    assert.ok(known.has(id), `test "${t.title}" names unknown rule ${id}`);
    assert.ok(t.tags.includes(id) && t.rules.includes(id), `test "${t.title}" carries the tag and annotation of ${id}`);
    for (const r of t.rules) assert.ok(known.has(r), `test "${t.title}" names unknown rule ${r}`);
    assert.doesNotMatch(t.title, /\bshould work\b/i);
  }
});

test('every rule has a test, or is pending or untestable with a reason', (t) => {
  const tested = new Set(tests.flatMap((x) => x.rules));
  const missing = RULES.filter((r) => !tested.has(r.id) && !r.pending && !r.untestable).map((r) => r.id);
  assert.deepEqual(missing, [], `rules without a test: ${missing.join(', ')}`);
  const pendingWithTests = RULES.filter((r) => r.pending && tested.has(r.id)).map((r) => r.id);
  assert.deepEqual(pendingWithTests, [], `rules marked pending that have tests now (remove "pending"): ${pendingWithTests.join(', ')}`);
  const pending = RULES.filter((r) => r.pending).length;
  t.diagnostic(`${RULES.length} rules: ${tested.size} tested, ${pending} pending, ${RULES.filter((r) => r.untestable).length} untestable`);
});

test('rules/CONFORMANCE.md is the generated list of the current catalog and tests (npm run rules:list)', () => {
  const current = readFileSync(resolve(ROOT, 'rules/CONFORMANCE.md'), 'utf8');
  assert.equal(current, renderConformanceList(tests), 'rules/CONFORMANCE.md is out of date: run `npm run rules:list` and review the diff');
});
