/**
 * What `npm run mutants` (scripts/mutants.ts) plans and reads, from data:
 *
 * - {@link routesByFile}: which endpoints each reference file serves: every area module of
 *   reference/routes/index.ts registers its routes on a listing router (under every alternative of
 *   every open choice, as selftest/endpoints.unit.test.ts lists them); reference/search.ts serves
 *   the endpoints of contracts/endpoints.ts's area `search`; {@link CROSS_CUTTING} files serve all.
 * - {@link subsetOf}: which spec files reach a file's endpoints: the coverage map of a quick run
 *   (spec-coverage.json: per endpoint, and per path shape outside the spec, the spec files whose
 *   tests sent it requests; an auth-host route outside the spec is reached through the
 *   authorization request's tests). A mutant of the file is judged by those specs first.
 * - {@link survivors}, {@link rangeOf}: the survivors of a StrykerJS JSON report, as `--mutate` ranges.
 * - {@link summaryRows}: a report per area (routes/<area>, search, model, the rest).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ENDPOINTS } from '../contracts/endpoints.js';
import { App } from '../reference/app.js';
import { alternativeChoices, maxAlternatives } from '../reference/choices.js';
import type { Router } from '../reference/http.js';
import { AREA_MODULES } from '../reference/routes/index.js';
import type { SpecCoverage } from '../reporting/coverage/map.js';
import { ROOT } from '../specs/support/core/config.js';

/** Reference files every area uses (the model, the store, the router and server, the app, common helpers): judged by the whole suite. */
export const CROSS_CUTTING = [
  'reference/model.ts',
  'reference/store.ts',
  'reference/http.ts',
  'reference/server.ts',
  'reference/app.ts',
  'reference/custom-fields.ts',
  'reference/routes/common.ts',
  'reference/routes/index.ts',
];

export interface RouteRef {
  host: 'api' | 'auth' | 'root';
  method: string;
  pattern: string;
}

const key = (r: RouteRef) => `${r.method} ${r.pattern}`;

/** The routes each area module registers, by its file (the module's name in reference/routes/), under every alternative of every open choice. */
export function routesByFile(): Map<string, RouteRef[]> {
  const byFile = new Map<string, Map<string, RouteRef>>();
  const credentials = { accessToken: 'a', userEmail: 'u@x.example', bearerToken: 'b', clientId: 'c', clientSecret: 's', loginEmail: 'l', loginPassword: 'p' };
  for (let k = 0; k < maxAlternatives(); k++) {
    const app = new App({ credentials, faults: new Set(), choices: alternativeChoices(k) });
    for (const m of AREA_MODULES) {
      const file = `reference/routes/${m.name}.ts`;
      const routes = byFile.get(file) ?? new Map<string, RouteRef>();
      byFile.set(file, routes);
      const listing = (host: RouteRef['host']) =>
        ({
          add(method: string, pattern: string) {
            routes.set(`${host} ${method} ${pattern}`, { host, method, pattern });
            return this;
          },
        }) as unknown as Router;
      m.seed?.(app);
      m.api?.(listing('api'), app);
      m.root?.(listing('root'), app);
      m.auth?.(listing('auth'), app);
    }
  }
  const out = new Map<string, RouteRef[]>();
  for (const [file, routes] of byFile) if (existsSync(join(ROOT, file)) && routes.size) out.set(file, [...routes.values()]);
  return out;
}

/** The endpoints reference/search.ts serves: contracts/endpoints.ts's area `search` (the two searches). */
export const searchRoutes = (): RouteRef[] => ENDPOINTS.filter((e) => e.area === 'search').map((e) => ({ host: e.host, method: e.method, pattern: e.path }));

/** The routes of a reference file, or undefined for a file every area uses (or one that serves no route: judged by the whole suite too). */
export function routesOf(file: string, byFile: Map<string, RouteRef[]> = routesByFile()): RouteRef[] | undefined {
  if (CROSS_CUTTING.includes(file)) return undefined;
  if (file === 'reference/search.ts') return searchRoutes();
  return byFile.get(file);
}

/** Does a path shape of the map's `outsideSpec` (`POST /projects/{…}/follow`, `POST (another host or path)`) stand for a route? */
function shapeMatches(shape: string, r: RouteRef): boolean {
  const [method, ...rest] = shape.split(' ');
  const path = rest.join(' ');
  if (method !== r.method) return false;
  if (r.host !== 'api') return path === '(another host or path)';
  const a = path.split('/');
  const b = r.pattern.split('/');
  return a.length === b.length && a.every((s, i) => s === b[i] || (b[i].startsWith('{') && (s === '{…}' || /^[a-z_]+$/.test(s))));
}

/** The spec files whose tests reach a route, by the coverage map. */
export function specFilesOf(r: RouteRef, map: SpecCoverage): string[] {
  const endpoint = map.endpoints.find((e) => e.host === (r.host === 'auth' ? 'auth' : 'api') && e.endpoint === key(r));
  if (endpoint && r.host !== 'root') return endpoint.specFiles;
  // The login and consent forms are reached only through an authorization request (by the browser: never an exchange).
  if (r.host === 'auth') return map.endpoints.find((e) => e.endpoint === 'GET /oauth/authorize')?.specFiles ?? [];
  return Object.entries(map.outsideSpecFiles).flatMap(([shape, files]) => (shapeMatches(shape, r) ? files : []));
}

export interface Subset {
  /** The spec files to judge the file's mutants with, sorted; undefined: the whole suite. */
  specs?: string[];
  why: string;
}

/** The spec files that reach a reference file's endpoints (or the whole suite, and why). */
export function subsetOf(file: string, map: SpecCoverage, byFile: Map<string, RouteRef[]> = routesByFile()): Subset {
  const routes = routesOf(file, byFile);
  if (!routes) return { why: CROSS_CUTTING.includes(file) ? 'every area uses it' : 'it serves no route' };
  const specs = [...new Set(routes.flatMap((r) => specFilesOf(r, map)))].sort();
  if (!specs.length) return { why: `no spec file of the plan's run sent requests to its ${routes.length} routes` };
  return { specs, why: `${specs.length} spec files send requests to its ${routes.length} routes` };
}

/** The files StrykerJS mutates: its `mutate` patterns (a file, or `dir/**\/*.ext`) expanded, relative to the project. */
export function mutatedFiles(patterns: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(`${dir}/${d.name}`) : [`${dir}/${d.name}`]));
  return patterns.flatMap((p) => {
    const m = /^(.*)\/\*\*\/\*(\.[a-z]+)$/.exec(p);
    if (!m) return existsSync(join(ROOT, p)) ? [p] : [];
    return walk(m[1])
      .filter((f) => f.endsWith(m[2]))
      .sort();
  });
}

/** The order of the whole run: routes first (the largest first), then search.ts, model.ts, then the rest (the largest first). */
export function runOrder(files: string[]): string[] {
  const size = (f: string) => statSync(join(ROOT, f)).size;
  const bySize = (a: string, b: string) => size(b) - size(a);
  const isRoute = (f: string) => f.startsWith('reference/routes/') && !CROSS_CUTTING.includes(f);
  const first = ['reference/search.ts', 'reference/model.ts'].filter((f) => files.includes(f));
  return [...files.filter(isRoute).sort(bySize), ...first, ...files.filter((f) => !isRoute(f) && !first.includes(f)).sort(bySize)];
}

/* ---------- StrykerJS's JSON report (mutation-testing-report-schema) ---------- */

export interface Position {
  line: number;
  column: number;
}

export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: Position; end: Position };
}

export interface MutationReport {
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
}

/** A mutant's identity across runs: its file, mutator, place and replacement. */
export const mutantKey = (file: string, m: ReportMutant) =>
  `${file}@${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.mutatorName} ${m.replacement ?? ''}`;

/**
 * A mutant's place as a `--mutate` range, `file:line:column-line:column`: the report's columns
 * count from 1, StrykerJS's ranges from 0 (it selects the mutants whose place lies inside).
 */
export const rangeOf = (file: string, m: ReportMutant) =>
  `${file}:${m.location.start.line}:${m.location.start.column - 1}-${m.location.end.line}:${m.location.end.column - 1}`;

/** The survivors of a report, by file (only `files`, when given). */
export function survivors(report: MutationReport, files?: string[]): { file: string; mutant: ReportMutant }[] {
  return Object.entries(report.files)
    .filter(([f]) => !files || files.includes(f))
    .flatMap(([file, f]) => f.mutants.filter((m) => m.status === 'Survived').map((mutant) => ({ file, mutant })));
}

/** The text of a mutant's place in its file (its first line, when it spans several). */
export function originalText(source: string, m: ReportMutant): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  const first = lines[start.line - 1] ?? '';
  return start.line === end.line ? first.slice(start.column - 1, end.column - 1) : `${first.slice(start.column - 1)} …`;
}

/* ---------- the summary ---------- */

/** The classes of scripts/stryker-ignorers.mjs, by how their reasons begin; any other reason is a `// Stryker disable` comment's. */
export const IGNORE_CLASSES = [
  { name: 'error text', prefix: 'the text of an error answer' },
  { name: 'log', prefix: 'log output' },
  { name: 'hook point', prefix: "a fault's hook point" },
  { name: 'area label', prefix: "an area module's label" },
  { name: 'open choice', prefix: 'the alternative of an open choice' },
  { name: 'other alternative', prefix: 'code of another alternative' },
] as const;

export const ignoreClassOf = (reason = '') => IGNORE_CLASSES.find((c) => reason.startsWith(c.prefix))?.name ?? 'disabled';

/** The area a reference file belongs to in the summary. */
export const areaOf = (file: string) =>
  file.startsWith('reference/routes/') && !CROSS_CUTTING.includes(file)
    ? `routes/${file.slice('reference/routes/'.length, -3)}`
    : file === 'reference/search.ts'
      ? 'search'
      : file === 'reference/model.ts'
        ? 'model'
        : 'the rest';

export interface SummaryRow {
  area: string;
  mutants: number;
  killed: number;
  survived: number;
  timeout: number;
  noCoverage: number;
  /** Runtime and compile errors. */
  errors: number;
  ignored: Record<string, number>;
  /** (killed + timeout) / (killed + timeout + survived), in percent; undefined when none was judged. */
  score?: number;
}

/** The report per area (routes/<area> in order, search, model, the rest) and a total row. */
export function summaryRows(report: MutationReport): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  const row = (area: string) => {
    let r = rows.get(area);
    if (!r) rows.set(area, (r = { area, mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, errors: 0, ignored: {} }));
    return r;
  };
  const total = row('total');
  for (const [file, f] of Object.entries(report.files)) {
    for (const m of f.mutants) {
      for (const r of [row(areaOf(file)), total]) {
        r.mutants++;
        if (m.status === 'Killed') r.killed++;
        else if (m.status === 'Survived') r.survived++;
        else if (m.status === 'Timeout') r.timeout++;
        else if (m.status === 'NoCoverage') r.noCoverage++;
        else if (m.status === 'Ignored') r.ignored[ignoreClassOf(m.statusReason)] = (r.ignored[ignoreClassOf(m.statusReason)] ?? 0) + 1;
        else if (m.status === 'RuntimeError' || m.status === 'CompileError') r.errors++;
      }
    }
  }
  for (const r of rows.values()) {
    const judged = r.killed + r.timeout + r.survived;
    if (judged) r.score = (100 * (r.killed + r.timeout)) / judged;
  }
  const order = (a: string) => (a === 'total' ? 4 : a === 'the rest' ? 3 : a === 'model' ? 2 : a === 'search' ? 1 : 0);
  return [...rows.values()].sort((a, b) => order(a.area) - order(b.area) || a.area.localeCompare(b.area));
}

/** The summary as a text table. */
export function summaryTable(rows: SummaryRow[]): string {
  const classes = [...IGNORE_CLASSES.map((c) => c.name), 'disabled'];
  const head = ['area', 'mutants', 'killed', 'survived', 'timeout', 'no cov.', 'errors', ...classes.map((c) => `ign. ${c}`), 'score'];
  const cells = rows.map((r) => [
    r.area,
    ...[r.mutants, r.killed, r.survived, r.timeout, r.noCoverage, r.errors, ...classes.map((c) => r.ignored[c] ?? 0)].map(String),
    r.score === undefined ? '-' : `${r.score.toFixed(1)}%`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i ? x.padStart(widths[i]) : x.padEnd(widths[i]))).join('  ');
  return [line(head), ...cells.map(line)].join('\n');
}

/**
 * The summary as a Markdown page (docs/mutation-summary.md, `npm run mutants -- --write-summary`):
 * the score by area of the files judged so far, the files not judged yet, and the survivors (the
 * blind spots still open), with what they were judged on.
 */
export function summaryMarkdown(report: MutationReport, all: string[], meta: { commit: string; date: string; blindSpots?: number }): string {
  const rows = summaryRows(report);
  const classes = [...IGNORE_CLASSES.map((c) => c.name), 'disabled'];
  const head = ['area', 'mutants', 'killed', 'survived', 'timeout', 'errors', ...classes.map((c) => `ignored: ${c}`), 'score'];
  const cell = (r: SummaryRow) => [
    r.area === 'total' ? '**total**' : r.area,
    ...[r.mutants, r.killed, r.survived, r.timeout, r.errors, ...classes.map((c) => r.ignored[c] ?? 0)].map(String),
    r.score === undefined ? '–' : `${r.score.toFixed(1)}%`,
  ];
  const judged = Object.keys(report.files).sort();
  const open = all.filter((f) => !judged.includes(f));
  const left = survivors(report);
  return [
    '# Mutation testing: the summary',
    '',
    `Generated by \`npm run mutants -- --write-summary\` from reports/mutation/mutation.json (written at commit ${meta.commit}, ${meta.date}).`,
    'How to read and re-run it: [calibration.md](calibration.md#mutation-testing). The score is (killed + timeout) /',
    '(killed + timeout + survived); ignored mutants are no matter of the spec, each with its reason.',
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${cell(r).join(' | ')} |`),
    '',
    `Files judged: ${judged.length} of ${all.length}.${open.length ? ` Not judged yet: ${open.map((f) => `\`${f}\``).join(', ')}.` : ''}`,
    ...(meta.blindSpots === undefined ? [] : ['', `Quick's blind spots (survivors of the quick suite that standard depth kills): ${meta.blindSpots}.`]),
    '',
    `## Survivors (${left.length})`,
    '',
    left.length ? 'Each is a change of the reference no check of the quick suite notices: a check to write, or a reason to give.' : 'None.',
    '',
    ...left.map((x) => {
      const m = x.mutant;
      const was = originalText(report.files[x.file].source, m).slice(0, 80).replace(/\|/g, '\\|');
      return `- \`${x.file}:${m.location.start.line}:${m.location.start.column}\` ${m.mutatorName}: \`${was}\` → \`${(m.replacement ?? '').slice(0, 80)}\``;
    }),
    '',
  ].join('\n');
}

/** A path relative to the project, with forward slashes. */
export const projectPath = (p: string) => relative(ROOT, p).split('\\').join('/');
