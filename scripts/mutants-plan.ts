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
 * - {@link resultEntries}, {@link mergeResults}: each file's results, kept in docs/mutation-results.json
 *   ({@link RESULTS_FILE}) with the commit they were judged at, a report's files replacing theirs.
 * - {@link summaryRows}, {@link summaryMarkdownOf}: those results per area (routes/<area>, search,
 *   model, the rest), as a table and as docs/mutation-summary.md.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
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

/** The ignore classes by name, in the order of the summary's columns: those of {@link IGNORE_CLASSES}, then `disabled`. */
export const IGNORE_CLASS_NAMES: readonly string[] = [...IGNORE_CLASSES.map((c) => c.name), 'disabled'];

/** The area a reference file belongs to in the summary. */
export const areaOf = (file: string) =>
  file.startsWith('reference/routes/') && !CROSS_CUTTING.includes(file)
    ? `routes/${file.slice('reference/routes/'.length, -3)}`
    : file === 'reference/search.ts'
      ? 'search'
      : file === 'reference/model.ts'
        ? 'model'
        : 'the rest';

/** The summary's order of areas: routes/<area> by name, then search, model, the rest and the total. */
const byArea = (a: string, b: string) => {
  const rank = (area: string) => ['search', 'model', 'the rest', 'total'].indexOf(area) + 1;
  return rank(a) - rank(b) || a.localeCompare(b);
};

/** The summary's order of files: by area, then by path. */
const byFile = (a: string, b: string) => byArea(areaOf(a), areaOf(b)) || a.localeCompare(b);

/** The files StrykerJS mutates, by the `mutate` of stryker.config.mjs. */
export async function strykerFiles(): Promise<string[]> {
  const config = (await import(pathToFileURL(join(ROOT, 'stryker.config.mjs')).href)) as { default: { mutate: string[] } };
  return mutatedFiles(config.default.mutate);
}

/* ---------- the results kept: docs/mutation-results.json ---------- */

/** Each reference file's latest results, with the commit and date they were judged at: the summary page is rendered from it. */
export const RESULTS_FILE = 'docs/mutation-results.json';

const RESULTS_COMMENT =
  "Written by npm run mutants -- --write-summary (scripts/mutants.ts): each reference file's latest mutation results, with the commit and date it was judged at. The files of reports/mutation/mutation.json replace their entries; an entry of several files (only their pooled results known) goes when one of them is judged again. docs/mutation-summary.md is rendered from it. A survivor is `file:line:column` mutator: `original` → `replacement`.";

const count = z.number().int().nonnegative();

const ResultEntrySchema = z.strictObject({
  /** One file, or several whose results are known only pooled. */
  files: z.array(z.string().regex(/^reference\/[\w/-]+\.ts$/)).min(1),
  commit: z.string().regex(/^[0-9a-f]{7,40}$/),
  date: z.iso.date(),
  mutants: count,
  killed: count,
  survived: count,
  timeout: count,
  noCoverage: count,
  /** Runtime and compile errors. */
  errors: count,
  /** The ignored mutants by class ({@link IGNORE_CLASS_NAMES}); a class of none left out. */
  ignored: z.partialRecord(z.enum(IGNORE_CLASS_NAMES), count),
  /** Each survivor as the summary page lists it. */
  survivors: z.array(z.string()),
  /** Quick's blind spots: its survivors that a standard run kills (none when none survived); absent: no standard pass over them yet. */
  blindSpots: count.optional(),
});

export type ResultEntry = z.infer<typeof ResultEntrySchema>;

const ResultsSchema = z
  .strictObject({ $comment: z.string(), entries: z.array(ResultEntrySchema) })
  .refine((r) => new Set(r.entries.flatMap((e) => e.files)).size === r.entries.flatMap((e) => e.files).length, {
    message: 'a file stands in more than one entry',
    path: ['entries'],
  });

/** The commit and date results were judged at. */
export interface Judgement {
  commit: string;
  date: string;
}

/** The entries of a results file's text; an error naming `file` when it is not JSON or not of the schema. */
export function parseResults(text: string, file = RESULTS_FILE): ResultEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = ResultsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: not mutation results (scripts/mutants-plan.ts, ResultsSchema): ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data.entries;
}

/** The text of the results file holding `entries`. */
export const resultsJson = (entries: ResultEntry[]) => JSON.stringify({ $comment: RESULTS_COMMENT, entries }, null, 1) + '\n';

/** A survivor as the summary page lists it: `file:line:column` mutator: `original` → `replacement`. */
export function survivorLine(file: string, source: string, m: ReportMutant): string {
  const was = originalText(source, m).slice(0, 80).replace(/\|/g, '\\|');
  return `\`${file}:${m.location.start.line}:${m.location.start.column}\` ${m.mutatorName}: \`${was}\` → \`${(m.replacement ?? '').slice(0, 80)}\``;
}

/** What is counted of mutants: by status, the ignored by class. */
export type Counts = Pick<ResultEntry, 'mutants' | 'killed' | 'survived' | 'timeout' | 'noCoverage' | 'errors' | 'ignored'>;

const STATUS_COUNTS: Record<string, 'killed' | 'survived' | 'timeout' | 'noCoverage' | 'errors'> = {
  Killed: 'killed',
  Survived: 'survived',
  Timeout: 'timeout',
  NoCoverage: 'noCoverage',
  RuntimeError: 'errors',
  CompileError: 'errors',
};

/** Adds `from`'s counts to `to`'s. */
function addCounts(to: Counts, from: Counts): void {
  for (const k of ['mutants', 'killed', 'survived', 'timeout', 'noCoverage', 'errors'] as const) to[k] += from[k];
  for (const [c, n] of Object.entries(from.ignored)) to.ignored[c] = (to.ignored[c] ?? 0) + (n ?? 0);
}

const noCounts = (): Counts => ({ mutants: 0, killed: 0, survived: 0, timeout: 0, noCoverage: 0, errors: 0, ignored: {} });

/** The counts of one file's mutants, the ignored classes in the columns' order. */
function countsOf(mutants: ReportMutant[]): Counts {
  const counts = { ...noCounts(), mutants: mutants.length };
  for (const m of mutants) {
    const status = STATUS_COUNTS[m.status];
    const ignored = m.status === 'Ignored' ? ignoreClassOf(m.statusReason) : undefined;
    if (status) counts[status]++;
    if (ignored) counts.ignored[ignored] = (counts.ignored[ignored] ?? 0) + 1;
  }
  return { ...counts, ignored: Object.fromEntries(IGNORE_CLASS_NAMES.filter((c) => counts.ignored[c]).map((c) => [c, counts.ignored[c]])) };
}

/**
 * Each file of a report as an entry judged at `meta`, in the summary's order. `blind`: per file of a
 * standard pass, how many of its quick survivors standard killed (a file without survivors has none).
 */
export function resultEntries(report: MutationReport, meta: Judgement, blind: Record<string, number> = {}): ResultEntry[] {
  return Object.entries(report.files)
    .map(([file, f]) => {
      const survivors = f.mutants.filter((m) => m.status === 'Survived').map((m) => survivorLine(file, f.source, m));
      const blindSpots = survivors.length === 0 ? 0 : blind[file];
      return { files: [file], ...meta, ...countsOf(f.mutants), survivors, ...(blindSpots === undefined ? {} : { blindSpots }) };
    })
    .sort((a, b) => byFile(a.files[0], b.files[0]));
}

/**
 * The results kept, with a report's files judged again: each file of the report gets its own entry;
 * an entry any of whose files is in the report goes (a pooled entry judged again in part no longer
 * stands: its other files are not judged); the others stay as they are.
 */
export function mergeResults(previous: ResultEntry[], report: MutationReport, meta: Judgement, blind: Record<string, number> = {}): ResultEntry[] {
  const judged = new Set(Object.keys(report.files));
  const kept = previous.filter((e) => !e.files.some((f) => judged.has(f)));
  return [...kept, ...resultEntries(report, meta, blind)].sort((a, b) => byFile(a.files[0], b.files[0]));
}

export interface SummaryRow extends Counts {
  area: string;
  /** (killed + timeout) / (killed + timeout + survived), in percent; undefined when none was judged. */
  score?: number;
  /** The commits its entries were judged at, the oldest first. */
  judgedAt: string[];
}

/** The entries per area (of each entry's first file: routes/<area> in order, search, model, the rest) and a total row. */
export function summaryRows(entries: ResultEntry[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  const row = (area: string) => {
    let r = rows.get(area);
    if (!r) rows.set(area, (r = { area, ...noCounts(), judgedAt: [] }));
    return r;
  };
  // The oldest first (a stable sort: entries of one date in their order), for the commits judged at.
  for (const e of [...entries].sort((a, b) => a.date.localeCompare(b.date)))
    for (const r of [row(areaOf(e.files[0])), row('total')]) {
      addCounts(r, e);
      if (!r.judgedAt.includes(e.commit)) r.judgedAt.push(e.commit);
    }
  for (const r of rows.values()) {
    const judged = r.killed + r.timeout + r.survived;
    if (judged) r.score = (100 * (r.killed + r.timeout)) / judged;
  }
  return [...rows.values()].sort((a, b) => byArea(a.area, b.area));
}

/** The summary as a text table. */
export function summaryTable(rows: SummaryRow[]): string {
  const head = ['area', 'mutants', 'killed', 'survived', 'timeout', 'no cov.', 'errors', ...IGNORE_CLASS_NAMES.map((c) => `ign. ${c}`), 'score'];
  const cells = rows.map((r) => [
    r.area,
    ...[r.mutants, r.killed, r.survived, r.timeout, r.noCoverage, r.errors, ...IGNORE_CLASS_NAMES.map((c) => r.ignored[c] ?? 0)].map(String),
    r.score === undefined ? '-' : `${r.score.toFixed(1)}%`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i ? x.padStart(widths[i]) : x.padEnd(widths[i]))).join('  ');
  return [line(head), ...cells.map(line)].join('\n');
}

/** The summary page's table: a row per area and the total, each with the commits it was judged at. */
function markdownTable(entries: ResultEntry[]): string[] {
  const head = ['area', 'mutants', 'killed', 'survived', 'timeout', 'errors', ...IGNORE_CLASS_NAMES.map((c) => `ignored: ${c}`), 'score', 'judged at'];
  const cell = (r: SummaryRow) => [
    r.area === 'total' ? '**total**' : r.area,
    ...[r.mutants, r.killed, r.survived, r.timeout, r.errors, ...IGNORE_CLASS_NAMES.map((c) => r.ignored[c] ?? 0)].map(String),
    r.score === undefined ? '–' : `${r.score.toFixed(1)}%`,
    r.judgedAt.join(', '),
  ];
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((h) => (h === 'area' || h === 'judged at' ? '---' : '---:')).join('|')}|`,
    ...summaryRows(entries).map((r) => `| ${cell(r).join(' | ')} |`),
  ];
}

/**
 * The summary as a Markdown page (docs/mutation-summary.md, `npm run mutants -- --write-summary`),
 * from the results kept ({@link RESULTS_FILE}): the score by area of the files judged so far, with
 * the commits they were judged at, the files of `all` not judged yet, and the survivors.
 */
export function summaryMarkdownOf(entries: ResultEntry[], all: string[]): string {
  const judged = new Set(entries.flatMap((e) => e.files));
  const blind = entries.reduce((n, e) => n + (e.blindSpots ?? 0), 0);
  const unknown = entries.filter((e) => e.blindSpots === undefined).flatMap((e) => e.files);
  const open = all.filter((f) => !judged.has(f)).sort(byFile);
  const left = entries.flatMap((e) => e.survivors);
  return [
    '# Mutation testing: the summary',
    '',
    `Generated by \`npm run mutants -- --write-summary\` from [${RESULTS_FILE}](mutation-results.json), which keeps each file's latest`,
    'results (merged from reports/mutation/mutation.json), each with the commit it was judged at ("judged at" below).',
    'How to read and re-run it: [calibration.md](calibration.md#mutation-testing). The score is (killed + timeout) /',
    '(killed + timeout + survived); ignored mutants are no matter of the spec, each with its reason.',
    '',
    ...markdownTable(entries),
    '',
    `Files judged: ${judged.size} of ${all.length}.${open.length ? ` Not judged yet: ${open.map((f) => `\`${f}\``).join(', ')}.` : ''}`,
    '',
    `Quick's blind spots (survivors of the quick suite that standard depth kills): ${blind}${unknown.length ? `; not known yet (no standard pass over their survivors) for ${unknown.map((f) => `\`${f}\``).join(', ')}` : ''}.`,
    '',
    `## Survivors (${left.length})`,
    '',
    left.length ? 'Each is a change of the reference no check of the quick suite notices: a check to write, or a reason to give.' : 'None.',
    '',
    ...left.map((line) => `- ${line}`),
    '',
  ].join('\n');
}

/** A path relative to the project, with forward slashes. */
export const projectPath = (p: string) => relative(ROOT, p).split('\\').join('/');
