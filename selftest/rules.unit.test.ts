/**
 * The rules catalog: rules/rules.json is valid against its schema (rules/schema.ts) and loads
 * as written; ids unique and well formed; every rule's section is a heading of the spec
 * (rules/spec-headings.json) and, where the spec is at hand (selftest/spec.ts), its quote is found
 * verbatim in that section and the headings are the spec's; every test names a known rule; every
 * rule is tested or untestable; the generated list (docs/conformance/, `npm run rules:list`)
 * renders every rule on its area's page, its row anchored for the reports' links.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AREAS, RULES, normaliseSpecText, ruleIdOfTitle, ruleLink, SPEC_HEADINGS } from '../rules/index.js';
import { areaPage, CHOICES_PAGE, INDEX_PAGE, renderConformancePages } from '../rules/list.js';
import { CatalogError, parseRules, RuleRecord } from '../rules/schema.js';
import { ruleAnchor } from '../rules/spec-text.js';
import { gatherListInput, writeConformancePages } from '../rules/write-list.js';
import { assertCatalogFile, ROOT, readJson } from './helpers.js';
import { headingsOf, SPEC_MISSING, SPEC_TEXT } from './spec.js';

const input = gatherListInput();
const tests = input.tests;

/** Heading → the text under it (up to the next heading), normalised as quotes are. Two sections may share a heading. */
function sections(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let heading = '';
  let body: string[] = [];
  const flush = () => {
    if (heading) out.set(heading, [...(out.get(heading) ?? []), normaliseSpecText(body.join('\n'))]);
  };
  for (const line of (SPEC_TEXT ?? '').split('\n')) {
    const m = /^#+\s+(.+)$/.exec(line);
    if (m) {
      flush();
      heading = m[1].trim();
      body = [];
    } else body.push(line);
  }
  flush();
  return out;
}

/** Whether the passages of a quote (joined by ` … `) occur, in order, in one of the texts. */
function quoted(quote: string, texts: string[]): boolean {
  const parts = quote.split(' … ').map((p) => p.replace(/\s+/g, ' ').trim());
  return texts.some((t) => {
    let at = 0;
    for (const p of parts) {
      const i = t.indexOf(p, at);
      if (i < 0) return false;
      at = i + p.length;
    }
    return true;
  });
}

test('rules/rules.json is valid against its schema, keys in the documented order, and loads as written (fast)', () => {
  const raw = assertCatalogFile('rules/rules.json', RuleRecord);
  assert.equal(raw.length, RULES.length, 'one record per rule');
  assert.deepEqual(RULES, raw, 'RULES is the file, record for record, unchanged by loading');
  assert.ok(
    RULES.every((r) => /^\d+\.\d+\.\d+$/.test(r.since)),
    'every rule says since which release',
  );
});

test('a broken record stops the load with a message naming the file, the record and the problem (fast)', () => {
  const good = readJson<Record<string, unknown>[]>('rules/rules.json');
  const cases: [unknown[], RegExp][] = [
    [[good[0], { ...good[1], level: 'MUSTN' }], /rules\/rules\.json record 1 \(WIRE-2\) is not a valid record: level/],
    [[{ ...good[0], extra: 1 }], /record 0 \(WIRE-1\).*extra/],
    [[good[0], good[0]], /record 1 \(WIRE-1\): duplicate id WIRE-1/],
    [[{ ...good[0], rfc: 'RFC 6749 §4.1.2', reading: undefined }], /record 0 \(WIRE-1\).*reading/],
  ];
  for (const [data, message] of cases)
    assert.throws(
      () => parseRules(data),
      (e: Error) => e instanceof CatalogError && message.test(e.message),
      String(message),
    );
});

test('rule ids are unique and of the form AREA-N', () => {
  const seen = new Set<string>();
  for (const r of RULES) {
    assert.match(r.id, /^[A-Z]+-\d+$/, `rule id ${r.id}`);
    assert.ok(!seen.has(r.id), `duplicate rule id ${r.id}`);
    seen.add(r.id);
    assert.ok(r.text.length > 10, `${r.id} has a paraphrase`);
    assert.ok(r.area in AREAS, `${r.id} has a known area`);
  }
});

test('the catalog covers the whole spec (more than 100 rules)', () => {
  assert.ok(RULES.length > 100, `${RULES.length} rules`);
});

test('every rule has a source: a heading of the spec (rules/spec-headings.json) and a quote', () => {
  const headings = new Set(SPEC_HEADINGS);
  for (const r of RULES) {
    assert.ok(headings.has(r.section), `${r.id}: section "${r.section}" is not a heading of the spec (rules/spec-headings.json)`);
    assert.ok(r.quote.trim().length >= 10, `${r.id} quotes the spec`);
    if (r.item) assert.match(r.item, /\S/, `${r.id}: an empty item`);
    if (r.rfc) assert.match(r.rfc, /^RFC \d+( §\d+(\.\d+)*)?(, §\d+(\.\d+)*)*$/, `${r.id}: rfc "${r.rfc}" is of the form "RFC 6749 §4.1.2"`);
    if (r.rfc) assert.ok(r.reading, `${r.id}: a rule that follows an RFC says how it reads the spec`);
  }
});

test("rules/spec-headings.json is the spec's headings, in order", { skip: SPEC_MISSING }, () => {
  assert.deepEqual(SPEC_HEADINGS, headingsOf(SPEC_TEXT!), 'rules/spec-headings.json: write the headings of the spec, in order');
});

test("every rule's quote is found, verbatim, in its section of the spec", { skip: SPEC_MISSING }, () => {
  const bySection = sections();
  for (const r of RULES) {
    assert.ok(bySection.has(r.section), `${r.id}: section "${r.section}" is not a heading of the spec`);
    assert.ok(
      quoted(r.quote, bySection.get(r.section)!),
      `${r.id}: the quote is not in § ${r.section} (whitespace-normalised, table rows as "cell | cell"): "${r.quote}"`,
    );
  }
});

test('a rule that reads a numbered list item names it as "rule N" or "step N", and that item exists in its section', { skip: SPEC_MISSING }, () => {
  const bySection = sections();
  for (const r of RULES) {
    const m = /^(rule|step) (\d+)\b/.exec(r.item ?? '');
    if (!m) continue;
    const text = bySection.get(r.section)!.join(' ');
    assert.ok(text.includes(`${m[2]}. `), `${r.id}: § ${r.section} has no item ${m[2]}`);
  }
});

test('every test title starts with a known rule id and carries its tags', () => {
  assert.ok(tests.length > 0, 'playwright lists tests');
  const known = new Set(RULES.map((r) => r.id));
  for (const t of tests) {
    const id = ruleIdOfTitle(t.title);
    assert.ok(id, `test "${t.title}" (${t.file}:${t.line}) does not start with a rule id`);
    assert.ok(known.has(id), `test "${t.title}" names unknown rule ${id}`);
    assert.ok(t.tags?.includes(id) && t.rules.includes(id), `test "${t.title}" carries the tag and annotation of ${id}`);
    for (const r of t.rules) assert.ok(known.has(r), `test "${t.title}" names unknown rule ${r}`);
    assert.doesNotMatch(t.title, /\bshould work\b/i);
  }
});

test('every rule has a test, or is untestable with a reason', (t) => {
  const tested = new Set(tests.flatMap((x) => x.rules));
  const missing = RULES.filter((r) => !tested.has(r.id) && !r.untestable).map((r) => r.id);
  assert.deepEqual(missing, [], `rules without a test: ${missing.join(', ')}`);
  const untestableWithTests = RULES.filter((r) => r.untestable && tested.has(r.id)).map((r) => r.id);
  assert.deepEqual(untestableWithTests, [], `rules marked untestable that have tests: ${untestableWithTests.join(', ')}`);
  t.diagnostic(`${RULES.length} rules: ${tested.size} tested, ${RULES.filter((r) => r.untestable).length} untestable`);
});

/**
 * MAY tests the integrator is to move into a `*.optional.spec.ts` file (issue 13); remove an entry
 * once moved (the test fails while a listed entry is stale).
 */
const AWAITING_MOVE = new Set<string>();

test('optional (MAY) behaviour is marked in the file name: MAY tests live in *.optional.spec.ts, which hold no MUST test', () => {
  const level = new Map(RULES.map((r) => [r.id, r.level]));
  const misplaced = new Set<string>();
  for (const t of tests) {
    const id = ruleIdOfTitle(t.title)!;
    const optionalFile = /\.optional\.spec\.ts$/.test(t.file);
    if (level.get(id) === 'MAY' && !optionalFile) misplaced.add(`${t.file} ${id}`);
    assert.ok(!(optionalFile && level.get(id) === 'MUST'), `${t.file}:${t.line} is an optional spec file but judges MUST rule ${id}`);
  }
  const unexpected = [...misplaced].filter((x) => !AWAITING_MOVE.has(x));
  assert.deepEqual(unexpected, [], `MAY tests outside a *.optional.spec.ts file: ${unexpected.join(', ')}`);
  const stale = [...AWAITING_MOVE].filter((x) => !misplaced.has(x));
  assert.deepEqual(stale, [], `moved already: remove from AWAITING_MOVE: ${stale.join(', ')}`);
});

test('every fault of the reference server names known rules', () => {
  const known = new Set(RULES.map((r) => r.id));
  assert.ok(input.faults.length > 0, 'faults are found');
  for (const f of input.faults) for (const id of f.rules) assert.ok(known.has(id), `fault ${f.name} names unknown rule ${id}`);
});

test('the search properties are listed as judging rules only when they fail', () => {
  assert.ok(input.conditional.length >= 4, `${input.conditional.length} property tests found (criteria and order, projects and tasks)`);
  for (const j of input.conditional) assert.ok(j.rules.includes('SEARCH-14'), `${j.test.title}: the rules of its criteria include SEARCH-14 (ids)`);
});

test('the generated list (docs/conformance/, npm run rules:list): an index, a page per area with each of its rules and tests, the open choices', () => {
  const pages = renderConformancePages(input);
  const areas = Object.keys(AREAS) as (keyof typeof AREAS)[];
  assert.deepEqual([...pages.keys()].sort(), [INDEX_PAGE, CHOICES_PAGE, ...areas.filter((a) => RULES.some((r) => r.area === a)).map(areaPage)].sort());
  for (const r of RULES) {
    const page = pages.get(areaPage(r.area))!;
    const row = page.split('\n').find((l) => l.startsWith(`| <a id="${ruleAnchor(r.id)}"></a>${r.id} | ${r.level} | ${r.since} |`));
    assert.ok(row, `${r.id} has its row on ${areaPage(r.area)}`);
    for (const t of tests.filter((x) => x.rules.includes(r.id)))
      assert.ok(row.includes(`\`${t.file}:${t.line}\``), `${r.id}: its row names its test ${t.file}:${t.line}`);
    if (!tests.some((x) => x.rules.includes(r.id))) assert.ok(row.includes('untestable: '), `${r.id}: its row says why it is untestable`);
    assert.ok(pages.get(INDEX_PAGE)!.includes(`[${r.id}](${areaPage(r.area)})`), `${r.id} is linked from the index`);
  }
  for (const [file, text] of pages) {
    for (const [, target] of text.matchAll(/\]\(([^)#]+\.md)\)/g)) assert.ok(pages.has(target), `${file} links to ${target}, which is generated`);
    assert.match(text, /Generated by `npm run rules:list`/, `${file} says it is generated`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'crm-conformance-list-'));
  try {
    writeConformancePages(new Map([['stale.md', 'x']]), dir);
    writeConformancePages(pages, dir);
    assert.deepEqual(readdirSync(dir).sort(), [...pages.keys()].sort(), 'a page no longer generated is removed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(!existsSync(resolve(ROOT, 'rules/CONFORMANCE.md')), 'the list is generated into docs/conformance/, not rules/');
});

test('a report links a rule to its row on the rule pages, or to its section of the spec at CRM_SPEC_URL', () => {
  const rule = RULES.find((r) => r.id === 'UPSERT-4')!;
  assert.equal(
    ruleLink('file:///p/node_modules/crm-conformance/docs/conformance/', rule),
    'file:///p/node_modules/crm-conformance/docs/conformance/upsert.md#upsert-4',
  );
  assert.equal(ruleLink('https://example.com/crm-developer-api.md', rule), 'https://example.com/crm-developer-api.md#lead-upsert');
  const page = renderConformancePages(input).get(areaPage(rule.area))!;
  assert.ok(page.includes(`<a id="${ruleAnchor(rule.id)}"></a>`), 'the row carries the anchor the link names');
});
