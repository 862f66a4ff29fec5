/**
 * The generated list of rules and their conformance tests (rules/CONFORMANCE.md), checked in
 * and reviewed like Kubernetes' conformance list. `npm run rules:list` (rules/write-list.ts)
 * gathers the input and rewrites it; this file only renders, so the self-test can compare.
 */
import { AREAS, RULES, type Rule } from './index.js';

export interface ListedTestRef { title: string; file: string; line: number; rules: string[]; tags?: string[] }
/** A group of contracts/cases that names the rules it illustrates. */
export interface CaseRef { file: string; description: string; contract: string; rules: string[] }
/** A route handler of the reference server. */
export interface RouteRef { method: string; path: string; at: string }
export interface FaultRef { name: string; rules: string[] }
/** A test that judges `rules` only when it fails (a counterexample's criteria name them). */
export interface ConditionalJudge { test: ListedTestRef; via: string; rules: string[] }
/** An open choice of the spec (rules/choices/): what a server may do either way. */
export interface ChoiceRef { id: string; text: string; section?: string; quote?: string; rules: string[] }

export interface ListInput {
  tests: (ListedTestRef & { contracts: string[] })[];
  cases: CaseRef[];
  faults: FaultRef[];
  /** fault name → the lines of reference/ that check it */
  faultSites: Map<string, string[]>;
  routes: RouteRef[];
  conditional: ConditionalJudge[];
  /** undefined: rules/choices/index.ts does not exist yet */
  choices?: ChoiceRef[];
  /** The spec's headings, in order. */
  headings: string[];
}

/** A table cell: pipes escaped, `<` and `>` outside code spans escaped, no line breaks. */
function cell(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('`')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
}

const code = (s: string) => `\`${s}\``;
const uniq = <T>(xs: T[]) => [...new Set(xs)];

export function sourceText(r: Rule): string {
  const s = r.source;
  const where = `§ ${s.section}${s.item ? `, ${s.item}` : ''}`;
  const beyond = [s.rfc, s.reading ? `suite's reading: ${s.reading}` : ''].filter(Boolean).join('; ');
  return `${where}: “${s.quote}”${beyond ? ` — ${beyond}` : ''}`;
}

/** The numbered lists of the spec (`rule N`, `step N` items) and the rules that read each item. */
function numberedLists(headings: string[]): string[] {
  const lists = new Map<string, { section: string; kind: string; items: Map<number, string[]> }>();
  for (const r of RULES) {
    const m = /^(rule|step) (\d+)\b/.exec(r.source.item ?? '');
    if (!m) continue;
    const key = `${r.source.section} ${m[1]}`;
    const list = lists.get(key) ?? { section: r.source.section, kind: m[1], items: new Map() };
    list.items.set(Number(m[2]), [...(list.items.get(Number(m[2])) ?? []), r.id]);
    lists.set(key, list);
  }
  const lines = [
    '## Numbered lists of the spec and their rules',
    '',
    'Rule ids are never renumbered or reused. Where a list\'s ids do not follow its numbers, the Source',
    'column (the rule\'s `source.item`) says which item each rule reads; this table maps them.',
    '',
    '| Section | Items → rules | Ids follow the numbers |',
    '|---|---|---|',
  ];
  const order = (s: string) => headings.indexOf(s);
  for (const list of [...lists.values()].sort((a, b) => order(a.section) - order(b.section))) {
    const items = [...list.items].sort(([a], [b]) => a - b);
    const ids = items.flatMap(([, xs]) => xs);
    // The list's own prefix: the one most of its rules carry (OAUTH for the OAuth steps, not AUTH).
    const prefixes = ids.map((id) => id.split('-')[0]);
    const own = prefixes.sort((a, b) => prefixes.filter((p) => p === b).length - prefixes.filter((p) => p === a).length)[0];
    const follows = items.every(([n, xs]) => xs.includes(`${own}-${n}`));
    const mapping = items.map(([n, xs]) => `${list.kind} ${n} → ${xs.join(', ')}`).join('; ');
    const off = items.filter(([n, xs]) => !xs.includes(`${own}-${n}`)).map(([n]) => `${list.kind} ${n} is not ${own}-${n}`);
    lines.push(`| ${cell(list.section)} | ${cell(mapping)} | ${follows ? 'yes' : `no: ${off.join('; ')}`} |`);
  }
  return [...lines, ''];
}

export function renderConformanceList(input: ListInput): string {
  const { tests } = input;
  const testsOf = new Map<string, ListInput['tests']>();
  for (const t of tests) for (const id of t.rules) testsOf.set(id, [...(testsOf.get(id) ?? []), t]);
  const faultsOf = new Map<string, FaultRef[]>();
  for (const f of input.faults) for (const id of f.rules) faultsOf.set(id, [...(faultsOf.get(id) ?? []), f]);
  const casesOf = new Map<string, CaseRef[]>();
  for (const c of input.cases) for (const id of c.rules) casesOf.set(id, [...(casesOf.get(id) ?? []), c]);
  const conditionalOf = new Map<string, ConditionalJudge[]>();
  for (const j of input.conditional) for (const id of j.rules) conditionalOf.set(id, [...(conditionalOf.get(id) ?? []), j]);

  const levels = { MUST: 0, SHOULD: 0, MAY: 0 };
  for (const r of RULES) levels[r.level]++;
  const lines = [
    '# Conformance rules and tests',
    '',
    '<!-- Generated by `npm run rules:list`; do not edit by hand. -->',
    '',
    `${RULES.length} rules (${levels.MUST} MUST, ${levels.SHOULD} SHOULD, ${levels.MAY} MAY), ${tests.length} tests, ${input.faults.length} faults of the reference server.`,
    '',
    'From a sentence of the spec, search for its words here: the **Source** column quotes, verbatim, the sentence',
    '(or table cells, as `cell | cell`) each rule reads, with its section and list item, and the RFC or the suite\'s',
    'reading where the rule goes beyond the spec. Its row gives the rule (`rules/*.ts`), the **Tests** that judge it',
    '(`file:line`, found by `playwright test --list`), the **Contract** its tests check answers with',
    '(`contracts/`; `toMatchContract`, `conforms` or `.parse` in the test or its file\'s own functions; contract case',
    'groups that name the rule), the reference server\'s **Faults** that break it (each run alone must make a test',
    'of the rule fail or warn), and the **Reference** code: the handler of its endpoint and the lines that check its faults.',
    'Search-property tests that name a rule only when they fail are listed after the areas.',
    '',
    '## Rules by section of the spec',
    '',
    '| Section | Rules |',
    '|---|---|',
    ...uniq(input.headings).filter((h) => RULES.some((r) => r.source.section === h))
      .map((h) => `| ${cell(h)} | ${RULES.filter((r) => r.source.section === h).map((r) => r.id).join(', ')} |`),
    '',
  ];

  for (const [area, title] of Object.entries(AREAS)) {
    const rules = RULES.filter((r) => r.area === area);
    if (!rules.length) continue;
    lines.push(`## ${title}`, '', '| Rule | Level | Source | Statement | Tests | Contract | Faults | Reference |', '|---|---|---|---|---|---|---|---|');
    for (const r of rules) {
      const ts = [...(testsOf.get(r.id) ?? [])].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.title.localeCompare(b.title));
      const cond = conditionalOf.get(r.id) ?? [];
      // Tests made in a loop share their file:line: one entry each, their titles after it.
      const at = uniq(ts.map((t) => `${t.file}:${t.line}`));
      const testCell = ts.length
        ? at.map((loc) => `${code(loc)} ${cell(ts.filter((t) => `${t.file}:${t.line}` === loc).map((t) => t.title).join('; '))}`).join('<br>')
        : cell(r.untestable ? `untestable: ${r.untestable}` : '**none**');
      const condCell = cond.length ? `<br>only when failing: ${cond.map((j) => code(`${j.test.file}:${j.test.line}`)).join(', ')}` : '';
      const contracts = uniq(ts.flatMap((t) => t.contracts)).sort();
      const cases = (casesOf.get(r.id) ?? []).map((c) => `${c.contract} (case ${code(c.file)} “${c.description}”)`);
      const faults = (faultsOf.get(r.id) ?? []).map((f) => f.name).sort();
      const handlers = (r.endpoint ?? '').split(', ').filter(Boolean).flatMap((e) => {
        const [method, path] = e.split(' ');
        return input.routes.filter((x) => x.method === method && x.path === path).map((x) => `${code(e)} ${code(x.at)}`);
      });
      const sites = uniq(faults.flatMap((f) => input.faultSites.get(f) ?? [])).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      const reference = [...handlers, ...(sites.length ? [`fault checks: ${sites.map(code).join(', ')}`] : [])];
      lines.push(`| ${[
        r.id, r.level, cell(sourceText(r)), cell(r.text), testCell + condCell,
        cell([...contracts, ...cases].join(', ') || '—'), cell(faults.map(code).join(', ') || '—'), reference.map(cell).join('<br>') || '—',
      ].join(' | ')} |`);
    }
    lines.push('');
  }

  lines.push(
    '## Tests that judge a rule only when they fail',
    '',
    'A search property passes under its own rule; a counterexample also counts against the rules of its',
    'criteria (and, for the order property, of its sort, direction, page size and number), which the test',
    'then names in its annotations. These tests judge those rules only when they fail.',
    '',
    '| Test | Attributed by | Rules it names when it fails |',
    '|---|---|---|',
    ...input.conditional.map((j) => `| ${code(`${j.test.file}:${j.test.line}`)} ${cell(j.test.title)} | ${cell(code(j.via))} | ${j.rules.join(', ')} |`),
    '',
    ...numberedLists(input.headings),
    '## Open choices',
    '',
  );
  if (!input.choices) {
    lines.push('No open choices are catalogued yet (`rules/choices/index.ts` does not exist); `npm run rules:list` lists them here once it does.', '');
  } else {
    lines.push(
      'What the spec leaves open (`rules/choices/`): a conformant server may choose either way, so no test asserts it.',
      '',
      '| Choice | Source | What is open | Rules |',
      '|---|---|---|---|',
      ...input.choices.map((c) => `| ${c.id} | ${cell(c.section ? `§ ${c.section}${c.quote ? `: “${c.quote}”` : ''}` : '—')} | ${cell(c.text)} | ${c.rules.join(', ') || '—'} |`),
      '',
    );
  }
  return lines.join('\n');
}
