/**
 * `npm run mutants`: StrykerJS mutation testing of the reference server (stryker.config.mjs), each
 * mutant judged by a quick, strict run of the suite. StrykerJS 10 needs Node 22 or later: this Node
 * when it is, else Node 24 from the npm registry's `node` package (`npx -y node@24`, cached by npm,
 * as .ci/run gets it). docs/calibration.md, "Mutation testing", says how to read the results.
 *
 *     npm run mutants                                          # the whole reference, in stages (below)
 *     npm run mutants -- --mutate reference/routes/pipelines.ts   # one file: its spec subset, then its survivors
 *     npm run mutants -- --mutate reference/routes/pipelines.ts:60-70   # as given, judged by the whole quick suite
 *     npm run mutants -- --force                               # every mutant again (kept results ignored)
 *     npm run mutants -- --summary                             # the report per area: killed, survived, …, the score
 *     npm run mutants -- --write-summary                       # the report's files into docs/mutation-results.json, then docs/mutation-summary.md
 *     npm run mutants -- --standard                            # only the standard pass over today's survivors
 *     npm run mutants -- --files a.ts,b.ts --subsets-only      # stage 2 alone: each file with its spec subset
 *     npm run mutants -- --kills                               # which tests kill each blind spot: scripts/quick-kills.json
 *
 * The whole run (no `--mutate`), each stage's results kept in StrykerJS's incremental file, so that
 * running it again resumes: (1) the plan, one quick run of the whole suite against the unmutated
 * reference, whose coverage map says which spec files reach which endpoint (kept in
 * reports/mutation/plan/; `--replan` makes it again); (2) per reference file, routes first (the
 * largest first), then search.ts, model.ts and the rest, one StrykerJS run over the file with the
 * command limited to the spec files that reach its endpoints (scripts/mutants-plan.ts; a file every
 * area uses: the whole suite); (3) the survivors of those subsets once more, with the whole quick
 * suite (`--mutate` ranges, `--force`, in chunks of {@link CHUNK}; reports/mutation/whole-suite.json
 * remembers which were judged so); (4) the survivors at standard depth, into
 * reports/mutation-standard/ (`--no-standard` leaves it out), each file's with the spec files that
 * reach its endpoints in a standard run (its own plan, reports/mutation-standard/plan/): the mutants
 * standard kills and quick does not are listed in reports/mutation-standard/blind-spots.txt. `--files a,b` limits stages 2–4
 * to those files. Reports: reports/mutation/ (mutation.html, mutation.json with every file's
 * results, survivors.txt, stryker-incremental.json).
 *
 * The results kept: docs/mutation-results.json holds each file's latest results (counts by status,
 * the ignored by class, the survivors), each entry with the commit and date it was judged at, so that
 * a checkout without reports/ loses none. `--write-summary` merges the report into it (each file of
 * reports/mutation/mutation.json replaces its entry; an entry of several files, known only pooled,
 * goes when one of them is judged again; the others stay), then renders docs/mutation-summary.md
 * from it; with no report it renders the page from docs/mutation-results.json alone.
 *
 * The caller's CRM_* and REFERENCE_* settings are not passed on: the mutants are judged against the
 * embedded reference server with its default choices. Any other arguments go to `stryker run` as they
 * are; with a configuration file as the first argument, or `--dryRunOnly`, the script only runs StrykerJS.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCoverageMap, type SpecCoverage } from '../reporting/coverage/map.js';
import { ROOT } from '../specs/support/core/config.js';
import { cleanEnv, runPlaywright } from '../specs/support/core/suite-run.js';
import { applyMutant, killersOf, makeSandbox, mutantName, QUICK_KILLS_FILE, readQuickKills, type KilledMutant, type QuickKills } from './mutant-kills.js';
import {
  mergeResults,
  mutantKey,
  originalText,
  parseResults,
  rangeOf,
  resultEntries,
  resultsJson,
  RESULTS_FILE,
  routesByFile,
  runOrder,
  strykerFiles,
  subsetOf,
  summaryMarkdownOf,
  summaryRows,
  summaryTable,
  survivors,
  type Judgement,
  type MutationReport,
  type ReportMutant,
} from './mutants-plan.js';

/** The oldest Node StrykerJS 10 runs on. */
export const STRYKER_NODE_MAJOR = 22;

/** The survivors judged again per StrykerJS run (stages 3 and 4): an interrupted run loses at most one chunk. */
export const CHUNK = 100;

const OUT = 'reports/mutation';
const STANDARD_OUT = 'reports/mutation-standard';
const PLAN_DIR = `${OUT}/plan`;
const STANDARD_PLAN_DIR = `${STANDARD_OUT}/plan`;

const major = (version: string) => Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);

/** A Node for StrykerJS: this one when it is recent enough, else Node 24 from the npm registry; or why there is none. */
export function strykerNode(): { path: string; version: string } | { reason: string } {
  if (major(process.version) >= STRYKER_NODE_MAJOR) return { path: process.execPath, version: process.version };
  const why = `StrykerJS needs Node ${STRYKER_NODE_MAJOR} or later; this is Node ${process.version}, and Node 24 could not be had from the npm registry (npx -y node@24)`;
  try {
    const out = execFileSync('npx', ['-y', 'node@24', '-p', 'process.execPath + " " + process.version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    const [path, version] = out.trim().split('\n').pop()!.split(' ');
    if (!path || !existsSync(path) || major(version ?? '') < STRYKER_NODE_MAJOR) return { reason: `${why}: it answered ${JSON.stringify(out.trim())}` };
    return { path, version };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    // npm's error lines: the one that says what failed (a fetch, a version not found), else the first.
    const lines = (e.stderr || e.message)
      .split('\n')
      .map((l) => l.replace(/^npm (error|ERR!) /, '').trim())
      .filter((l) => l && !l.startsWith('A complete log'));
    return { reason: `${why}: ${lines.find((l) => /fail|not found|no matching|ENOENT|ETIMEDOUT/i.test(l)) ?? lines[0] ?? 'no output'}` };
  }
}

/** StrykerJS's command (the `stryker` bin of @stryker-mutator/core, a devDependency), or undefined when it is not installed. */
export function strykerBin(): string | undefined {
  const bin = join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js');
  return existsSync(bin) ? bin : undefined;
}

const log = (text: string) => console.log(`[mutants ${new Date().toISOString().slice(11, 19)}] ${text}`);
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

let current: ChildProcess | undefined;

/** Whether a file holds JSON (an incremental file StrykerJS can read). */
function isJson(file: string): boolean {
  try {
    JSON.parse(readFileSync(file, 'utf8'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `stryker run …` on the Node it needs, with `env` added (MUTANTS_SPECS, MUTANTS_DEPTH, MUTANTS_OUT); its exit code.
 * StrykerJS stopped by a signal while it writes its incremental file leaves it empty (seen: every result of 17 files, hours
 * of runs): the file is copied first (`stryker-incremental.previous.json`) and put back when the run leaves no JSON.
 */
function stryker(node: { path: string }, bin: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const incremental = join(ROOT, env.MUTANTS_OUT ?? OUT, 'stryker-incremental.json');
  const previous = incremental.replace(/\.json$/, '.previous.json');
  if (existsSync(incremental) && isJson(incremental)) copyFileSync(incremental, previous);
  return new Promise((done) => {
    current = spawn(node.path, [bin, 'run', ...args], { cwd: ROOT, env: cleanEnv(env), stdio: 'inherit' });
    current.on('exit', (code, signal) => {
      current = undefined;
      if (existsSync(previous) && existsSync(incremental) && !isJson(incremental)) {
        copyFileSync(previous, incremental);
        log(`StrykerJS left ${incremental} unreadable (stopped while writing it?): the copy made before the run is back`);
      }
      done(code ?? (signal ? 1 : 0));
    });
  });
}

const readReport = (dir = OUT): MutationReport | undefined => {
  const file = join(ROOT, dir, 'mutation.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as MutationReport) : undefined;
};

/** The commit checked out and today's date: what results judged now are judged at. */
function judgedNow(): Judgement {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  return { commit, date: new Date().toISOString().slice(0, 10) };
}

/** A report per area, as a text table. */
const reportTable = (report: MutationReport) => summaryTable(summaryRows(resultEntries(report, judgedNow())));

/** The counts of one file's mutants in a report, as a line. */
function fileLine(report: MutationReport | undefined, file: string): string {
  const ms = report?.files[file]?.mutants ?? [];
  const n = (s: string) => ms.filter((m) => m.status === s).length;
  return `${ms.length} mutants: ${n('Killed')} killed, ${n('Survived')} survived, ${n('Timeout')} timeout, ${n('Ignored')} ignored, ${n('NoCoverage')} no coverage`;
}

/**
 * The plan at `depth`: a strict run of the whole suite against the unmutated reference, writing the
 * coverage map (kept unless `replan`). Each depth has its own: standard runs the tests quick leaves out.
 */
async function plan(replan: boolean, depth: 'quick' | 'standard' = 'quick'): Promise<SpecCoverage> {
  const dir = depth === 'quick' ? PLAN_DIR : STANDARD_PLAN_DIR;
  const kept = !replan ? readCoverageMap(join(ROOT, dir)) : undefined;
  if (kept) {
    log(`plan: the coverage map of ${dir} (${kept.generatedAt}; --replan makes it again)`);
    return kept;
  }
  log(`plan: a ${depth} run of the whole suite against the unmutated reference, for its coverage map`);
  const res = await runPlaywright([], { CRM_DEPTH: depth, CRM_STRICT: '1', CRM_REPORTERS: 'minimal', CRM_REPORT_DIR: dir }, 3_600_000);
  const map = readCoverageMap(join(ROOT, dir));
  if (res.code !== 0 || !map)
    throw new Error(`the suite fails against the unmutated reference (exit ${res.code}): no mutant can be judged\n${res.out.slice(-3000)}`);
  log(`plan: ${(res.ms / 1000).toFixed(0)} s, ${map.summary.exchanges} exchanges`);
  return map;
}

/** The mutants judged by the whole quick suite so far (reports/mutation/whole-suite.json), by key. */
class Judged {
  readonly keys: Set<string>;
  constructor(private readonly file: string) {
    this.keys = new Set(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { judged: string[] }).judged : []);
  }
  add(keys: string[]): void {
    for (const k of keys) this.keys.add(k);
    mkdirSync(resolve(this.file, '..'), { recursive: true });
    writeFileSync(this.file, JSON.stringify({ judged: [...this.keys].sort() }, null, 1));
  }
}

/** Judges mutants again, in chunks (`--mutate` their ranges, `--force`), with the whole suite at `depth`; records each chunk as judged. */
async function rejudge(
  run: (args: string[], env: Record<string, string>) => Promise<number>,
  todo: { file: string; mutant: ReportMutant }[],
  depth: 'quick' | 'standard',
  judged: Judged,
  specs?: string[],
): Promise<void> {
  const env: Record<string, string> = {
    ...(depth === 'standard' ? { MUTANTS_DEPTH: 'standard', MUTANTS_OUT: STANDARD_OUT } : {}),
    ...(specs ? { MUTANTS_SPECS: specs.join(' ') } : {}),
  };
  const suite = specs ? `${specs.length} spec files at ${depth} depth` : `the whole ${depth} suite`;
  for (let i = 0; i < todo.length; i += CHUNK) {
    const chunk = todo.slice(i, i + CHUNK);
    const started = Date.now();
    log(`${depth} pass: mutants ${i + 1}–${i + chunk.length} of ${todo.length}, ${suite}`);
    const code = await run(['--force', '--mutate', chunk.map((s) => rangeOf(s.file, s.mutant)).join(',')], env);
    if (code !== 0) throw new Error(`StrykerJS ended with exit code ${code}`);
    judged.add(chunk.map((s) => mutantKey(s.file, s.mutant)));
    log(
      `${depth} pass: ${chunk.length} survivors (and any mutant inside their ranges) in ${minutes(Date.now() - started)} (${((Date.now() - started) / 1000 / chunk.length).toFixed(1)} s each)`,
    );
  }
}

/** Writes reports/mutation/survivors.txt: one line per survivor, `file:line:column mutator: original → replacement`. */
function writeSurvivors(report: MutationReport): string {
  const lines = survivors(report).map(({ file, mutant: m }) => {
    const orig = originalText(report.files[file].source, m).replace(/\s+/g, ' ').slice(0, 100);
    return `${file}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}: ${orig} → ${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 60)}`;
  });
  const path = join(ROOT, OUT, 'survivors.txt');
  writeFileSync(path, lines.join('\n') + (lines.length ? '\n' : ''));
  return path;
}

/** The mutants standard kills and quick does not (quick's blind spots), each with the source StrykerJS mutated. */
function blindSpotMutants(quick: MutationReport, standard: MutationReport): { file: string; mutant: ReportMutant; source: string }[] {
  const survived = new Set(survivors(quick).map((s) => mutantKey(s.file, s.mutant)));
  return Object.entries(standard.files).flatMap(([file, f]) =>
    f.mutants
      .filter((m) => (m.status === 'Killed' || m.status === 'Timeout') && survived.has(mutantKey(file, m)))
      .map((mutant) => ({ file, mutant, source: f.source })),
  );
}

/** The mutants standard kills and quick does not: reports/mutation-standard/blind-spots.txt. */
function blindSpots(quick: MutationReport, standard: MutationReport): string[] {
  const lines = blindSpotMutants(quick, standard).map((s) => `${mutantName(s.file, s.source, s.mutant)} (${s.mutant.status})`);
  writeFileSync(join(ROOT, STANDARD_OUT, 'blind-spots.txt'), lines.join('\n') + (lines.length ? '\n' : ''));
  return lines;
}

/**
 * `--kills`: the tests that kill each of quick's blind spots, each mutant made again by hand in a
 * sandbox and judged by its file's standard subset to the end (scripts/mutant-kills.ts), into
 * scripts/quick-kills.json, which the quick selection reads (scripts/quick-selection.ts).
 */
async function writeKills(): Promise<void> {
  const quick = readReport();
  const standard = readReport(STANDARD_OUT);
  if (!quick || !standard) {
    console.error(`mutants: --kills reads ${OUT}/mutation.json and ${STANDARD_OUT}/mutation.json: run npm run mutants first`);
    process.exit(2);
  }
  const spots = blindSpotMutants(quick, standard);
  const map = await plan(false, 'standard');
  const byFile = routesByFile();
  const sandbox = makeSandbox();
  const mutants: KilledMutant[] = [];
  for (const [i, s] of spots.entries()) {
    const name = mutantName(s.file, s.source, s.mutant);
    const mutated = applyMutant(s.source, readFileSync(join(ROOT, s.file), 'utf8'), s.mutant);
    if (!mutated) {
      log(`(${i + 1}/${spots.length}) ${name}: its lines have changed since StrykerJS judged it; left out (judge it again)`);
      continue;
    }
    const started = Date.now();
    const killedBy = await killersOf(sandbox, s.file, mutated, subsetOf(s.file, map, byFile).specs);
    log(`(${i + 1}/${spots.length}) ${name}: ${killedBy.length} tests fail, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    mutants.push({ mutant: name, killedBy });
  }
  rmSync(sandbox, { recursive: true, force: true });
  const { commit, date } = judgedNow();
  // A blind spot measured by an earlier run stays: quick kills it now because the selection keeps its killer.
  const measured = new Set(mutants.map((m) => m.mutant));
  const kept = (readQuickKills()?.mutants ?? []).filter((m) => !measured.has(m.mutant));
  const kills: QuickKills = {
    note: "Generated by npm run mutants -- --kills (scripts/mutant-kills.ts): quick's blind spots, each with the tests that fail against it at standard depth; those of earlier runs are kept. scripts/quick-selection.ts keeps one of them in quick.",
    commit,
    date,
    mutants: [...kept, ...mutants.map((m) => ({ ...m, commit }))],
  };
  writeFileSync(join(ROOT, QUICK_KILLS_FILE), JSON.stringify(kills, null, 1) + '\n');
  const none = mutants.filter((m) => !m.killedBy.length);
  log(
    `${QUICK_KILLS_FILE}: ${mutants.length} mutants measured, ${kept.length} kept from earlier runs${none.length ? `; ${none.length} killed by no test when run alone:\n${none.map((m) => m.mutant).join('\n')}` : ''}`,
  );
}

interface Options {
  files?: string[];
  force: boolean;
  replan: boolean;
  standard: boolean;
  quick: boolean;
  /** Stage 2 alone (`--subsets-only`): no whole-suite stage, no standard pass; a later run without it judges the survivors left. */
  subsetsOnly: boolean;
}

/** Stages 1–3 for `files`: the plan, each file with its subset, its survivors with the whole quick suite. */
async function quickStages(run: (args: string[], env?: Record<string, string>) => Promise<number>, files: string[], o: Options): Promise<void> {
  const map = await plan(o.replan);
  const byFile = routesByFile();
  const subsetFiles: string[] = [];
  for (const [i, file] of files.entries()) {
    const subset = subsetOf(file, map, byFile);
    log(`${file} (${i + 1}/${files.length}): ${subset.specs ? `${subset.specs.length} spec files` : 'the whole suite'}: ${subset.why}`);
    const started = Date.now();
    const code = await run(['--mutate', file, ...(o.force ? ['--force'] : [])], subset.specs ? { MUTANTS_SPECS: subset.specs.join(' ') } : {});
    if (code !== 0) throw new Error(`StrykerJS ended with exit code ${code} on ${file}`);
    if (subset.specs) subsetFiles.push(file);
    log(`${file}: ${fileLine(readReport(), file)}, in ${minutes(Date.now() - started)}`);
  }
  if (o.subsetsOnly) return;
  const judged = new Judged(join(ROOT, OUT, 'whole-suite.json'));
  const todo = survivors(readReport() ?? { files: {} }, subsetFiles).filter((s) => o.force || !judged.keys.has(mutantKey(s.file, s.mutant)));
  log(`survivors of the subsets not yet judged by the whole quick suite: ${todo.length}`);
  await rejudge(run, todo, 'quick', judged);
}

async function wholeRun(run: (args: string[], env?: Record<string, string>) => Promise<number>, o: Options): Promise<void> {
  const all = runOrder(await strykerFiles());
  const unknown = (o.files ?? []).filter((f) => !all.includes(f));
  if (unknown.length) throw new Error(`not files StrykerJS mutates (stryker.config.mjs): ${unknown.join(', ')}`);
  const files = o.files ? all.filter((f) => o.files!.includes(f)) : all;
  const started = Date.now();
  if (o.quick) await quickStages(run, files, o);
  const report = readReport();
  if (!report) throw new Error(`no report in ${OUT}: run the quick stages first`);
  log(`quick stages: ${minutes(Date.now() - started)}; survivors: ${writeSurvivors(report)}\n${reportTable(report)}`);
  if (!o.standard || o.subsetsOnly) return;
  const judged = new Judged(join(ROOT, STANDARD_OUT, 'judged.json'));
  const todo = survivors(report, files).filter((s) => o.force || !judged.keys.has(mutantKey(s.file, s.mutant)));
  log(`standard pass: ${todo.length} survivors of the quick suite not yet judged at standard depth`);
  // By file, each with the spec files that reach its endpoints in a standard run (as stage 2 at quick).
  const map = todo.length ? await plan(o.replan, 'standard') : undefined;
  const byFile = routesByFile();
  for (const file of [...new Set(todo.map((s) => s.file))]) {
    const subset = subsetOf(file, map!, byFile);
    log(`standard pass: ${file}: ${subset.specs ? `${subset.specs.length} spec files` : 'the whole suite'}: ${subset.why}`);
    await rejudge(
      run,
      todo.filter((s) => s.file === file),
      'standard',
      judged,
      subset.specs,
    );
  }
  const standard = readReport(STANDARD_OUT);
  if (standard) {
    const spots = blindSpots(report, standard);
    log(`standard kills ${spots.length} mutants quick does not (quick's blind spots): ${STANDARD_OUT}/blind-spots.txt\n${spots.join('\n')}`);
  }
}

/** The value of `--name value` (or `--name=value`) in `args`, and the rest. */
function option(args: string[], name: string): { value?: string; rest: string[] } {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return { rest: args };
  const eq = args[i].indexOf('=');
  const value = eq > 0 ? args[i].slice(eq + 1) : args[i + 1];
  return { value, rest: [...args.slice(0, i), ...args.slice(eq > 0 ? i + 1 : i + 2)] };
}

function printSummary(): void {
  const report = readReport();
  if (!report) {
    console.error(`mutants: no report in ${OUT}/mutation.json: run npm run mutants first`);
    process.exit(2);
  }
  console.log(`${join(OUT, 'mutation.json')}:\n${reportTable(report)}\nSurvivors: ${writeSurvivors(report)}`);
  const standard = readReport(STANDARD_OUT);
  if (standard) console.log(`Quick's blind spots (standard kills, quick does not): ${blindSpots(report, standard).length}, in ${STANDARD_OUT}/blind-spots.txt`);
}

/** The results kept (docs/mutation-results.json), or none yet. */
function readResults() {
  const file = join(ROOT, RESULTS_FILE);
  return existsSync(file) ? parseResults(readFileSync(file, 'utf8')) : [];
}

/**
 * docs/mutation-summary.md (summaryMarkdownOf) from docs/mutation-results.json, the report's files
 * merged into it first (mergeResults); with no report, from the results kept alone. Both committed,
 * so that each file's score travels with the code, with the commit it was judged at.
 */
async function writeSummaryPage(): Promise<void> {
  const report = readReport();
  const standard = readReport(STANDARD_OUT);
  const blind: Record<string, number> = {};
  if (report && standard) {
    for (const file of Object.keys(standard.files)) blind[file] = 0;
    for (const s of blindSpotMutants(report, standard)) blind[s.file]++;
    blindSpots(report, standard);
  }
  const entries = report ? mergeResults(readResults(), report, judgedNow(), blind) : readResults();
  if (report) writeFileSync(join(ROOT, RESULTS_FILE), resultsJson(entries));
  writeFileSync(join(ROOT, 'docs/mutation-summary.md'), summaryMarkdownOf(entries, await strykerFiles()));
  console.log(
    report
      ? `mutants: ${Object.keys(report.files).length} files of ${OUT}/mutation.json merged into ${RESULTS_FILE}; wrote docs/mutation-summary.md from it`
      : `mutants: no report in ${OUT}/mutation.json: wrote docs/mutation-summary.md from ${RESULTS_FILE} alone`,
  );
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--summary')) return printSummary();
  if (args.includes('--write-summary')) return writeSummaryPage();
  if (args.includes('--kills')) return writeKills();
  const bin = strykerBin();
  if (!bin) {
    console.error('mutants: StrykerJS is not installed (node_modules/@stryker-mutator/core): npm ci installs it (a devDependency)');
    process.exit(2);
  }
  const node = strykerNode();
  if ('reason' in node) {
    console.error(
      `mutants: ${node.reason}.\nInstall Node ${STRYKER_NODE_MAJOR} or later (or make the npm registry reachable), then run npm run mutants again.`,
    );
    process.exit(2);
  }
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      current?.kill(sig);
      process.exit(130);
    });
  const { value: mutate, rest } = option(args, '--mutate');
  const passThrough =
    /\.(m?js|json)$/.test(args[0] ?? '') || args.includes('--dryRunOnly') || (mutate !== undefined && !/^reference\/[\w/-]+\.ts$/.test(mutate));
  console.log(`mutants: StrykerJS on Node ${node.version}${node.path === process.execPath ? '' : ` (${node.path})`}: stryker run ${args.join(' ')}`.trimEnd());
  const run = (a: string[], env: Record<string, string> = {}) => stryker(node, bin, a, env);
  if (passThrough) process.exit(await run(args));
  const files = option(rest, '--files');
  const o: Options = {
    files: mutate ? [mutate] : files.value?.split(',').filter(Boolean),
    force: rest.includes('--force'),
    replan: rest.includes('--replan'),
    // One file (`--mutate`): its subset and survivors, no standard pass.
    standard: !mutate && !rest.includes('--no-standard'),
    quick: !rest.includes('--standard'),
    subsetsOnly: rest.includes('--subsets-only'),
  };
  const unknown = files.rest.filter((a) => !['--force', '--replan', '--no-standard', '--standard', '--subsets-only'].includes(a));
  if (unknown.length)
    throw new Error(`mutants: unknown arguments ${unknown.join(' ')} (stryker's own options go with a configuration file or --mutate <ranges>)`);
  await wholeRun(run, o);
}

if (resolve(process.argv[1] ?? '') === __filename)
  main().catch((err: Error) => {
    console.error(`mutants: ${err.message}`);
    process.exit(1);
  });
