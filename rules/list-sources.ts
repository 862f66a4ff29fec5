/**
 * What `npm run rules:list` reads besides the catalog, found by scanning the sources: the
 * contracts each test judges with, the contract cases that name rules, the reference server's
 * route handlers and fault checks, and the tests that judge a rule only when they fail (the
 * search properties). Tooling only: specs never import this file.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CaseRef, ConditionalJudge, ListedTestRef, RouteRef } from './list.js';

function filesUnder(root: string, dir: string, ext = '.ts'): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');

/** The source lines of each test: from its line to the line before the next test of the file (tests made in a loop share theirs). */
function testBodies(root: string, tests: ListedTestRef[]): Map<ListedTestRef, string> {
  const out = new Map<ListedTestRef, string>();
  const byFile = new Map<string, ListedTestRef[]>();
  for (const t of tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
  for (const [file, ts] of byFile) {
    const lines = read(root, file).split('\n');
    const starts = [...new Set(ts.map((t) => t.line))].sort((a, b) => a - b);
    for (const t of ts) {
      const next = starts.find((l) => l > t.line) ?? lines.length + 1;
      out.set(t, lines.slice(t.line - 1, next - 1).join('\n'));
    }
  }
  return out;
}

/** Top-level functions of a file (`function f(` / `const f = (…) =>`), each with its source up to the closing line at column 0. */
function localFunctions(source: string): Map<string, string> {
  const lines = source.split('\n');
  const out = new Map<string, string>();
  lines.forEach((line, i) => {
    const m = /^(?:export\s+)?(?:async\s+)?function\s+(\w+)|^(?:export\s+)?const\s+(\w+)\s*=\s*(?:async\s*)?(?:\(|\w+\s*=>)/.exec(line);
    if (!m) return;
    const end = lines.findIndex((l, j) => j >= i && /^(\}|\);?$)/.test(l));
    out.set(m[1] ?? m[2], lines.slice(i, end < 0 ? undefined : end + 1).join('\n'));
  });
  return out;
}

const CONTRACT_USE = [/toMatchContract\(\s*([A-Z]\w*)/g, /conforms\(\s*[^,()]+,\s*([A-Z]\w*)/g, /\b([A-Z]\w*)\.(?:safeParse|parse)\(/g];

const CONTRACT_CHOOSER = /(?:toMatchContract\(|conforms\(\s*[^,()]+,)\s*(\w+)\(/g;

/** The test wrappers and configuration: they judge nothing of a test's own. */
const NOT_FOLLOWED = new Set(['rule', 'test', 'expect', 'loadConfig']);

/** Local name → [file, exported name] of the named imports of a source file from relative `.js` paths. */
function importsOf(file: string, source: string): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const m of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(\.[^']+)\.js'/g)) {
    const target = join(file, '..', `${m[2]}.ts`).split('\\').join('/');
    for (const part of m[1].split(',')) {
      const [name, local] = part
        .replace(/^\s*type\s+/, '')
        .trim()
        .split(/\s+as\s+/);
      if (name) out.set(local ?? name, [target, name]);
    }
  }
  return out;
}

/**
 * The contracts each test judges with: `toMatchContract(X)`, `conforms(value, X)` and
 * `X.parse(…)` in its body and in the functions it calls, of its own file or imported from
 * specs/support (followed through their own calls), where X is a contract of contracts/index.ts;
 * for a contract chosen at run time (`toMatchContract(listContract(kind))`), every contract the
 * choosing function names.
 */
export function contractsOfTests(root: string, tests: ListedTestRef[], contractNames: ReadonlySet<string>): Map<ListedTestRef, string[]> {
  const bodies = testBodies(root, tests);
  const files = new Map<string, { fns: Map<string, string>; imports: Map<string, [string, string]> }>();
  const fileOf = (file: string) => {
    if (!files.has(file)) {
      const source = existsSync(join(root, file)) ? read(root, file) : '';
      files.set(file, { fns: localFunctions(source), imports: importsOf(file, source) });
    }
    return files.get(file)!;
  };
  const out = new Map<ListedTestRef, string[]>();
  for (const t of tests) {
    const seen = new Set<string>();
    const texts: { file: string; text: string; name?: string }[] = [{ file: t.file, text: bodies.get(t) ?? '' }];
    for (let i = 0; i < texts.length; i++) {
      const { file, text } = texts[i];
      const here = fileOf(file);
      for (const m of text.matchAll(/\b(\w+)\(/g)) {
        const imported = here.imports.get(m[1]);
        const [inFile, name] = here.fns.has(m[1]) ? [file, m[1]] : imported && imported[0].startsWith('specs/') ? imported : [];
        if (!inFile || !name || NOT_FOLLOWED.has(name) || seen.has(`${inFile}#${name}`)) continue;
        seen.add(`${inFile}#${name}`);
        const body = fileOf(inFile).fns.get(name);
        if (body) texts.push({ file: inFile, text: body, name });
      }
    }
    const found = new Set<string>();
    // A function that chooses the contract (`toMatchContract(listContract(kind))`): every contract it names.
    const choosers = new Set(texts.flatMap(({ text }) => [...text.matchAll(CONTRACT_CHOOSER)].map((m) => m[1])));
    for (const { text, name } of texts) {
      for (const re of CONTRACT_USE) for (const m of text.matchAll(re)) if (contractNames.has(m[1])) found.add(m[1]);
      if (name && choosers.has(name)) for (const m of text.matchAll(/\b([A-Z]\w*)\b/g)) if (contractNames.has(m[1])) found.add(m[1]);
    }
    out.set(t, [...found].sort());
  }
  return out;
}

/** The groups of contracts/cases/*.json that name their rules (`"rules": [...]`). */
export function contractCases(root: string): CaseRef[] {
  const out: CaseRef[] = [];
  for (const file of filesUnder(root, 'contracts/cases', '.json')) {
    const groups = JSON.parse(read(root, file)) as { description?: string; contract?: string; rules?: string[] }[];
    if (!Array.isArray(groups)) continue;
    for (const g of groups) if (g.rules?.length) out.push({ file, description: g.description ?? '', contract: g.contract ?? '', rules: g.rules });
  }
  return out;
}

/** The route handlers of the reference server: `router.add('METHOD', '/path', …)` with file and line. */
export function referenceRoutes(root: string): RouteRef[] {
  const out: RouteRef[] = [];
  for (const file of filesUnder(root, 'reference')) {
    read(root, file)
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(/\.add\(\s*'([A-Z]+)',\s*'([^']+)'/g)) out.push({ method: m[1], path: m[2], at: `${file}:${i + 1}` });
      });
  }
  return out;
}

/** Where the reference server checks each fault: the lines of reference/ that name it, other than its definition. */
export function faultSites(root: string, names: string[]): Map<string, string[]> {
  const sources = filesUnder(root, 'reference').map((file) => ({ file, lines: read(root, file).split('\n') }));
  const out = new Map<string, string[]>();
  for (const name of names) {
    const quoted = new RegExp(`['"\`]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`);
    const at: string[] = [];
    for (const { file, lines } of sources) {
      lines.forEach((line, i) => {
        if (quoted.test(line) && !/\bname:\s*['"`]/.test(line)) at.push(`${file}:${i + 1}`);
      });
    }
    out.set(name, at);
  }
  return out;
}

/**
 * Tests that judge a rule only when they fail. The search properties (`criteriaProperty`,
 * `orderProperty`) pass under their own rule; a counterexample also counts against the rules
 * of its criteria (`criteriaRules`) and, for the order property, of its sort, direction, page
 * size and number. The rules they may name are the rule ids written in those functions of the
 * file under specs/ that defines `criteriaRules`, kept to the searched kind (PSEARCH for projects,
 * TSEARCH for tasks).
 */
export function conditionalJudges(root: string, tests: ListedTestRef[]): ConditionalJudge[] {
  const support = filesUnder(root, 'specs').find((f) => /function\s+criteriaRules\s*\(/.test(read(root, f)));
  if (!support) return [];
  const fns = localFunctions(read(root, support));
  const idsIn = (...names: string[]) => [...new Set(names.flatMap((n) => [...(fns.get(n) ?? '').matchAll(/'([A-Z]+-\d+)'/g)].map((m) => m[1])))];
  const byHelper: Record<string, string[]> = {
    criteriaProperty: idsIn('criteriaRules'),
    orderProperty: idsIn('criteriaRules', 'orderProperty'),
  };
  const bodies = testBodies(root, tests);
  const out: ConditionalJudge[] = [];
  for (const t of tests) {
    const body = bodies.get(t) ?? '';
    for (const [helper, ids] of Object.entries(byHelper)) {
      const m = new RegExp(`\\b${helper}\\(\\s*'(projects|tasks)'`).exec(body);
      if (!m) continue;
      const other = m[1] === 'projects' ? 'TSEARCH-' : 'PSEARCH-';
      const rules = ids.filter((id) => !id.startsWith(other) && !t.rules.includes(id)).sort(byRuleId);
      out.push({ test: t, via: `${helper} (${support})`, rules });
    }
  }
  return out;
}

/** Orders rule ids by area, then number. */
export function byRuleId(a: string, b: string): number {
  const [pa, na] = a.split('-');
  const [pb, nb] = b.split('-');
  return pa === pb ? Number(na) - Number(nb) : pa < pb ? -1 : 1;
}
