/**
 * Calibration: for each switchable fault of the reference server, run the whole conformance
 * suite against the reference server with that fault alone and check that the suite catches
 * it on a rule the fault names. Writes reports/calibration.json with the mutation score.
 *
 *   npm run calibrate                 # every fault, 2 in parallel
 *   npm run calibrate -- --jobs 3 name1 name2
 *   npm run calibrate -- --scope matrix   # every fault in ONE Playwright run (npm test): scripts/matrix.config.ts
 *   npm run calibrate -- --scope matrix --no-random   # without the tests of random inputs: the faults only they catch
 *   npm run calibrate -- --scope spread --record   # every test against every fault: selftest/fault-spread.json
 */
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { faultCatalog } from '../reference/server.js';
import { getRule } from '../rules/index.js';
import { ROOT } from '../specs/support/core/config.js';
import { readJson, runPlaywright } from '../specs/support/core/suite-run.js';
import { readOutcomes } from '../reporting/outcomes.js';
import { buildReport, type ConformanceReport, type TestOutcome } from '../reporting/verdict.js';
import { OUTCOMES_FILE } from '../reporting/conformance-reporter.js';
import { inPool } from '../specs/support/core/pool.js';
import { matrixWorkers } from '../specs/support/fixtures/instances.js';
import { RANDOM_TAG } from '../specs/support/property.js';

export interface FaultResult {
  name: string;
  rules: string[];
  description: string;
  caught: boolean;
  /** Rules that failed or warned in the run. */
  flagged: string[];
  /** The run exited non-zero (a MUST rule failed). */
  runFailed: boolean;
  knownSurvivor?: string;
  ms: number;
  error?: string;
  /**
   * The spread (scope `spread`: every test against the fault): the rules flagged that the fault does
   * not name, and the first root cause of its report (reporting/verdict.ts `rootCauseOrder`), which
   * should be one the fault names.
   */
  outside?: string[];
  rootCause?: string;
  /** For each rule flagged that the fault does not name: the tests that failed or warned on it, with their first line (matrix scopes). */
  outsideBy?: string[];
}

export interface Calibration {
  summary: { score: number; caught: number; faults: number; survivors: number; date: string; durationMs: number; jobs: number; scope: Scope };
  faults: FaultResult[];
}

export const SURVIVORS_FILE = resolve(ROOT, 'selftest/known-survivors.json');

/**
 * The spread of every fault, recorded (`npm run calibrate -- --scope spread --record`; with fault
 * names, theirs only, the rest kept): which rules each fails and its first root cause. selftest/fault-spread.unit.test.ts
 * holds it: every fault of the catalog measured, none failing a rule it does not name, each one's
 * first root cause one it names.
 */
export const SPREAD_FILE = resolve(ROOT, 'selftest/fault-spread.json');

export interface SpreadRecord {
  date: string;
  depth: string;
  faults: { name: string; rules: string[]; flagged: string[]; outside: string[]; rootCause?: string }[];
}

/** The record of a spread; measured for some faults only, the record of the others kept (`earlier`). */
function spreadRecord(cal: Calibration, earlier?: SpreadRecord): SpreadRecord {
  const measured = cal.faults.map((f) => ({ name: f.name, rules: f.rules, flagged: f.flagged, outside: f.outside ?? [], rootCause: f.rootCause }));
  const kept = (earlier?.faults ?? []).filter((f) => !measured.some((m) => m.name === f.name));
  return {
    date: cal.summary.date,
    depth: process.env.CRM_DEPTH ?? 'standard',
    faults: [...kept, ...measured].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

const readRecord = (): SpreadRecord | undefined => (existsSync(SPREAD_FILE) ? readJson<SpreadRecord>(SPREAD_FILE) : undefined);

export function knownSurvivors(): Map<string, string> {
  if (!existsSync(SURVIVORS_FILE)) return new Map();
  const list = readJson<{ fault: string; reason: string }[]>(SURVIVORS_FILE);
  return new Map(list.map((s) => [s.fault, s.reason]));
}

/**
 * `full`: the whole suite per fault. `area`: the specs of the areas of the rules the fault
 * names (tags `@<area>`). `rules`: the tests tagged with a rule the fault names. Tests share no
 * state, so a rule's tests reach the same verdict alone as in the whole suite: `rules` answers
 * "is the fault caught on a rule it names" exactly, and fastest; `full` adds the collateral
 * failures on other rules. `matrix`: the `rules` scope of every fault in one Playwright run, one
 * reference instance per fault, and workers shared by all (calibrateMatrix); the same verdicts,
 * with neither a run nor a worker start per fault. `spread`: the matrix with EVERY test against
 * every fault, each test judged to its end: which rules each fault fails beyond those it names, and
 * whether its report's first root cause is one it names (with CRM_DEPTH=quick, the quick selection).
 */
export type Scope = 'full' | 'area' | 'rules' | 'matrix' | 'spread';

/** The faults named (every fault of the catalog when none is); an unknown name stops. */
function selectFaults(names: string[]): ReturnType<typeof faultCatalog> {
  const catalog = faultCatalog();
  const unknown = names.filter((n) => !catalog.some((f) => f.name === n));
  if (unknown.length) throw new Error(`unknown faults: ${unknown.join(', ')}`);
  return names.length ? catalog.filter((f) => names.includes(f.name)) : catalog;
}

/** "EVENT-2: <test title>: <first line of its failure>" for each failed or warned test of the given rules. */
const outsideEvidence = (report: ConformanceReport, ids: string[]): string[] =>
  report.rules
    .filter((r) => ids.includes(r.id))
    .flatMap((r) =>
      r.tests
        .filter((t) => (t.status !== 'passed' && t.status !== 'skipped') || !!t.held)
        .map((t) => `${r.id}: ${t.title}: ${(t.error ?? t.warnings[0] ?? t.held ?? '').split('\n')[0].slice(0, 300)}`),
    );
/** The rules a report failed or warned on. */
const flaggedRules = (report: ConformanceReport): string[] => report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN').map((r) => r.id);

/** A calibration of the faults' results (sorted by name here), with its score. */
function calibrationOf(results: FaultResult[], started: number, jobs: number, scope: Scope): Calibration {
  results.sort((a, b) => a.name.localeCompare(b.name));
  const caught = results.filter((r) => r.caught).length;
  return {
    summary: {
      score: results.length ? caught / results.length : 1,
      caught,
      faults: results.length,
      survivors: results.filter((r) => !r.caught && r.knownSurvivor).length,
      date: new Date().toISOString().slice(0, 10),
      durationMs: Date.now() - started,
      jobs,
      scope,
    },
    faults: results,
  };
}

/**
 * A failing test makes Playwright restart its worker, so a fault that breaks many tests is slow
 * to run to the end. The first run stops after MAX_FAILURES failures; when that run did not
 * show the fault's rule, it runs again to the end.
 */
const MAX_FAILURES = Number(process.env.CRM_CALIBRATION_MAX_FAILURES ?? 12);

async function runFault(
  fault: { name: string; rules: string[]; description: string },
  survivors: Map<string, string>,
  scope: Scope,
  maxFailures = MAX_FAILURES,
): Promise<FaultResult> {
  const dir = `reports/runs/calibration/${fault.name}`;
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  const areas = [...new Set(fault.rules.map((r) => getRule(r).area))];
  const args =
    scope === 'area'
      ? ['--grep', areas.map((a) => `@${a}(\\s|$)`).join('|')]
      : scope === 'rules'
        ? ['--grep', fault.rules.map((r) => `@${r}(\\s|$)`).join('|')]
        : [];
  // In `rules` scope every test that runs names a rule of the fault, so its first failure decides.
  if (maxFailures > 0) args.push(`--max-failures=${scope === 'rules' ? 1 : maxFailures}`);
  const res = await runPlaywright(
    args,
    { REFERENCE_FAULTS: fault.name, CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal', CRM_WORKERS: process.env.CRM_CALIBRATION_WORKERS ?? '1' },
    300_000,
  );
  const base: FaultResult = { ...fault, caught: false, flagged: [], runFailed: res.code !== 0, ms: res.ms, knownSurvivor: survivors.get(fault.name) };
  const file = resolve(ROOT, dir, 'conformance.json');
  if (!existsSync(file)) return { ...base, error: `no conformance.json (exit ${res.code}): ${(res.stderr || res.stdout).slice(-400)}` };
  const report = readJson<ConformanceReport>(file);
  const flagged = flaggedRules(report);
  const caught = fault.rules.some((r) => flagged.includes(r));
  if (!caught && maxFailures > 0 && scope !== 'rules' && report.tests.failed >= maxFailures) {
    const full = await runFault(fault, survivors, scope, 0);
    return { ...full, ms: full.ms + res.ms };
  }
  return { ...base, flagged, caught };
}

export async function calibrate(
  names: string[] = [],
  jobs = 2,
  onResult?: (r: FaultResult, done: number, total: number) => void,
  scope: Scope = 'full',
): Promise<Calibration> {
  const faults = selectFaults(names);
  const survivors = knownSurvivors();
  const started = Date.now();
  const results: FaultResult[] = [];
  await inPool(faults, jobs, async (f) => {
    const r = await runFault(f, survivors, scope);
    results.push(r);
    onResult?.(r, results.length, faults.length);
  });
  return calibrationOf(results, started, jobs, scope);
}

/**
 * The whole matrix in one Playwright run (scripts/matrix.config.ts): one reference instance per
 * fault, one project whose workers serve them all. Each fault's report is built from the outcomes
 * of its own instance, as a run of its own would build it; a fault is caught when a rule it names fails or warns (scope `rules`).
 * `env`: settings of the run beside the matrix's own (a profile with CRM_EMBEDDED=1, REFERENCE_CHOICES,
 * REFERENCE_LIVE: selftest/profile-shapes.test.ts), and `dir` its report directory.
 */
export async function calibrateMatrix(
  names: string[] = [],
  onResult?: (r: FaultResult, done: number, total: number) => void,
  options: { noRandom?: boolean; spread?: boolean; env?: Record<string, string>; dir?: string } = {},
): Promise<Calibration> {
  const faults = selectFaults(names);
  const survivors = knownSurvivors();
  const workers = matrixWorkers();
  const dir = options.dir ?? (options.spread ? 'reports/runs/calibration-spread' : 'reports/runs/calibration-matrix');
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  const started = Date.now();
  const run = () =>
    runPlaywright(
      ['-c', 'scripts/matrix.config.ts', ...(options.noRandom ? ['--grep-invert', RANDOM_TAG] : [])],
      {
        ...options.env,
        CONFORMANCE_MATRIX_FAULTS: names.length ? faults.map((f) => f.name).join(',') : 'all',
        CRM_REPORT_DIR: dir,
        CRM_CALIBRATION_WORKERS: String(workers),
        ...(options.spread ? { CONFORMANCE_MATRIX_SPREAD: '1' } : {}),
        // The run's depth (the runs start with a clean environment): CRM_DEPTH=quick, the quick selection.
        ...(process.env.CRM_DEPTH ? { CRM_DEPTH: process.env.CRM_DEPTH } : {}),
      },
      // Every test against every fault takes far longer than the matrix of the faults' own rules.
      options.spread ? 14_400_000 : 1_800_000,
    );
  const read = () => readOutcomes(dir);
  let res = await run();
  let outcomes = read();
  // A run that ran no test at all did not start (seen once in ~10 runs of npm test: the
  // instances' ports, free when chosen, taken by a self-test running beside it): once more, with
  // new ports, saying why.
  if (!outcomes?.length) {
    console.error(`calibration matrix: the run ran no test (exit ${res.code}); once more. ${(res.stderr || res.stdout).slice(-1500)}`);
    rmSync(resolve(ROOT, dir), { recursive: true, force: true });
    res = await run();
    outcomes = read();
  }
  const byFault = new Map<string, TestOutcome[]>();
  for (const o of outcomes ?? []) byFault.set(o.project ?? '', [...(byFault.get(o.project ?? '') ?? []), o]);
  const results = faults.map((fault, i): FaultResult => {
    const own = byFault.get(fault.name) ?? [];
    const base: FaultResult = {
      ...fault,
      caught: false,
      flagged: [],
      runFailed: false,
      ms: own.reduce((n, o) => n + o.durationMs, 0),
      knownSurvivor: survivors.get(fault.name),
    };
    const r: FaultResult = !outcomes?.length
      ? { ...base, error: `no test ran: ${outcomes ? 'an empty' : 'no'} ${OUTCOMES_FILE} (exit ${res.code}): ${(res.stderr || res.stdout).slice(-400)}` }
      : (() => {
          const report = buildReport(own, { target: fault.name, runId: 'matrix', warnings: [], specUrl: '', durationMs: base.ms });
          const flagged = flaggedRules(report);
          const outside = flagged.filter((x) => !fault.rules.includes(x));
          const spread = options.spread ? { outside, rootCause: report.rootCauses[0] } : {};
          const outsideBy = outsideEvidence(report, outside);
          return {
            ...base,
            flagged,
            caught: fault.rules.some((x) => flagged.includes(x)),
            runFailed: report.verdict !== 'CONFORMANT',
            ...spread,
            ...(outsideBy.length ? { outsideBy } : {}),
          };
        })();
    onResult?.(r, i + 1, faults.length);
    return r;
  });
  return calibrationOf(results, started, workers, options.spread ? 'spread' : 'matrix');
}

/** The command line: `npm run calibrate -- [--scope …] [--jobs n] [--no-random] [fault…]`. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const j = args.indexOf('--jobs');
  const jobs = j >= 0 ? Number(args.splice(j, 2)[1]) : 2;
  const sc = args.indexOf('--scope');
  const scope = (sc >= 0 ? args.splice(sc, 2)[1] : 'full') as Scope;
  const nr = args.indexOf('--no-random');
  const noRandom = nr >= 0 && !!args.splice(nr, 1).length;
  if (noRandom && scope !== 'matrix') throw new Error('--no-random needs --scope matrix');
  const spread = scope === 'spread';
  const rec = args.indexOf('--record');
  const record = rec >= 0 && !!args.splice(rec, 1).length;
  if (record && !spread) throw new Error('--record needs --scope spread');
  const print = (r: FaultResult, done: number, total: number) => {
    const mark = r.caught ? 'caught  ' : r.knownSurvivor ? 'survivor' : 'MISSED  ';
    console.log(
      `[${String(done).padStart(3)}/${total}] ${mark} ${r.name.padEnd(40)} ${(r.ms / 1000).toFixed(1)}s  names ${r.rules.join(',')}; flagged ${r.flagged.slice(0, 6).join(',') || '-'}` +
        (spread ? `; outside ${r.outside?.join(',') || '-'}; first ${r.rootCause ?? '-'}` : '') +
        (r.error ? `  error: ${r.error}` : ''),
    );
  };
  const cal = scope === 'matrix' || spread ? await calibrateMatrix(args, print, { noRandom, spread }) : await calibrate(args, jobs, print, scope);
  mkdirSync(resolve(ROOT, 'reports'), { recursive: true });
  // A partial or a no-random run does not replace the score.
  if (spread) writeFileSync(resolve(ROOT, 'reports/calibration-spread.json'), JSON.stringify(cal, null, 2));
  if (record) writeFileSync(SPREAD_FILE, JSON.stringify(spreadRecord(cal, args.length ? readRecord() : undefined), null, 2) + '\n');
  else if (!args.length && !noRandom) writeFileSync(resolve(ROOT, 'reports/calibration.json'), JSON.stringify(cal, null, 2));
  const s = cal.summary;
  if (spread) {
    const wide = cal.faults.filter((f) => f.outside?.length);
    const elsewhere = cal.faults.filter((f) => f.rootCause && !f.rules.includes(f.rootCause));
    console.log(
      `\nspread: ${wide.length} of ${s.faults} faults fail rules they do not name (${wide.reduce((n, f) => n + f.outside!.length, 0)} in all); ` +
        `the first root cause is not a rule of the fault for ${elsewhere.length}${elsewhere.length ? ` (${elsewhere.map((f) => `${f.name}: ${f.rootCause}`).join(', ')})` : ''}`,
    );
  }
  console.log(
    `\ncalibration: ${s.caught}/${s.faults} faults caught (score ${(s.score * 100).toFixed(1)}%), ${s.survivors} known survivors, ${(s.durationMs / 1000).toFixed(0)} s with ${s.jobs} jobs, scope ${s.scope}`,
  );
  const missed = cal.faults.filter((f) => !f.caught && !f.knownSurvivor);
  process.exit(missed.length ? 1 : 0);
}

if (resolve(process.argv[1] ?? '') === __filename) void main();
