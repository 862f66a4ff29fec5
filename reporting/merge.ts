/**
 * Merges the results of a sharded run (`npx playwright test --shard=i/n` on several machines)
 * into one conformance report and one Allure report:
 *
 *     npm run merge -- reports/shard-1 reports/shard-2 reports/shard-3 [--out reports] [--no-allure]
 *
 * Each argument is a shard's report directory (its CRM_REPORT_DIR), holding the
 * `conformance-outcomes.json` the conformance reporter writes and the shard's `allure-results/`.
 * Writes into --out (default `reports`): conformance.json, conformance.html, ctrf-report.json, created-records.json,
 * conformance-outcomes.json, spec-coverage.json and spec-coverage.html (the shards' coverage maps summed,
 * reporting/coverage/map.ts), allure-results/ (all shards' results side by side),
 * allure-report/index.html (single file) and, when the shards kept Playwright blob reports,
 * html/ (Playwright's merged HTML report).
 *
 * Exit status: 0 when no test failed, 1 when a test failed or the target could not be judged
 * (verdict INCONCLUSIVE, or a shard's preflight found it dead or answering nonsense), as the
 * shards' own runs, or when a shard is missing (shard 2/3 of a --shard=i/3 run not given: INCONCLUSIVE,
 * or NOT CONFORMANT when a test failed, naming the missing shards); 2 on a usage error or a missing outcome file.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { ROOT } from '../specs/support/core/config.js';
import { buildAllure } from './allure.js';
import { OUTCOMES_FILE, readCalibration, summaryLines, writeReport, type OutcomeFile } from './conformance-reporter.js';
import { buildReport, failed, runWarnings, type ConformanceReport, type TestOutcome } from './verdict.js';
import { command, runCommand } from '../specs/support/core/replay.js';
import { mergeCoverageMaps, readCoverageMap, type SpecCoverage } from './coverage/map.js';

export interface MergeResult {
  report: ConformanceReport;
  outcomes: TestOutcome[];
  allure?: { ok: boolean; file: string; output: string };
  playwrightHtml?: { ok: boolean; output: string };
  copiedAllureFiles: number;
  /** Shards without a coverage map (spec-coverage.json): the merged map leaves them out. */
  coverageMissing: string[];
}

export class MergeError extends Error {}

/** The target could be judged: not INCONCLUSIVE, and no shard's preflight found it dead or answering nonsense. */
export const judged = (r: ConformanceReport) => r.verdict !== 'INCONCLUSIVE' && (!r.preflight || r.preflight.state === 'alive');

/**
 * `npm run merge`'s exit status: 1 when a test failed, the target could not be judged, a shard is missing or
 * (CRM_EXPECTATIONS_STRICT=1) a baseline entry is stale.
 */
export const mergeExitCode = (r: ConformanceReport, outcomes: TestOutcome[]) =>
  outcomes.some(failed) || !judged(r) || r.partial || (r.expectations?.failOnStale && r.expectations.stale?.length) ? 1 : 0;

const rank = (t: TestOutcome) => (failed(t) ? 0 : t.expectedFailure ? 1 : t.warnings.length ? 2 : t.status === 'passed' ? 3 : 4);

/** Reads the shards' outcome files and builds one report (pure apart from reading files). */
export function mergeOutcomes(dirs: string[]): { report: ConformanceReport; outcomes: TestOutcome[]; files: OutcomeFile[] } {
  if (!dirs.length) throw new MergeError('name at least one shard report directory');
  const files = dirs.map((dir) => {
    const file = resolve(dir, OUTCOMES_FILE);
    if (!existsSync(file))
      throw new MergeError(`${relative(process.cwd(), file) || file} not found: did the shard's run finish (the conformance reporter writes it)?`);
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as OutcomeFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.outcomes)) throw new MergeError(`${file} is not a conformance outcome file`);
    return parsed;
  });
  // The same test twice (a shard given twice, a re-run): the worst outcome counts.
  const byKey = new Map<string, TestOutcome>();
  for (const f of files) {
    for (const o of f.outcomes) {
      const key = `${o.file}:${o.line}:${o.title}`;
      const prev = byKey.get(key);
      if (!prev || rank(o) < rank(prev)) byKey.set(key, o);
    }
  }
  const outcomes = [...byKey.values()];
  const shards = [...new Set(files.map((f) => f.meta.shard).filter((s): s is string => !!s))].sort((a, b) => parseInt(a) - parseInt(b));
  const totals = [...new Set(shards.map((s) => Number(s.split('/')[1])))];
  let partial: string | undefined;
  let incomplete: string | undefined;
  if (totals.length > 1) {
    partial = `shards of different splits merged (${shards.join(', ')})`;
    incomplete = `${partial}: which tests ran is unknown. Fix: merge the report directories of one sharded run, every shard of the same --shard=i/n`;
  } else if (totals.length === 1) {
    const missing = Array.from({ length: totals[0] }, (_, i) => `${i + 1}/${totals[0]}`).filter((s) => !shards.includes(s));
    if (missing.length) {
      partial = `shard${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing from the merge`;
      incomplete =
        `${partial}: the tests of ${missing.length > 1 ? 'those shards' : 'that shard'} were not judged. Fix: name the report directory of every shard (${shards.length} of ${totals[0]} given), ` +
        `or run the missing one${missing.length > 1 ? 's' : ''} (${missing.map((m) => `${runCommand()} --shard=${m}`).join(', ')}) and merge again`;
    }
  }
  const first = files[0].meta;
  // Each shard of an embedded run starts its own reference server (another port): one target.
  const targets = [
    ...new Set(files.map((f) => (f.meta.target.startsWith('embedded reference server') ? 'embedded reference server (one per shard)' : f.meta.target))),
  ];
  const runIds = [...new Set(files.map((f) => f.meta.runId))];
  // The worst preflight of the shards (each shard probes the target itself): dead, nonsense, alive.
  const order = { misconfigured: 0, dead: 1, nonsense: 2, alive: 3 } as const;
  const preflight = files
    .map((f) => f.meta.preflight)
    .filter((p) => !!p)
    .sort((a, b) => order[a!.state] - order[b!.state])[0];
  // The depth of the shards (CRM_DEPTH): the verdict names it; shards at different depths say so.
  const depthOf = (f: OutcomeFile) => f.meta.depth ?? 'standard';
  const depths = [...new Set(files.map(depthOf))];
  const report = buildReport(outcomes, {
    target: targets.join(' + '),
    runId: runIds.join('+'),
    depth: depths.join('+'),
    warnings: [
      ...(targets.length > 1 ? [`the shards ran against different targets: ${targets.join(', ')}`] : []),
      ...(depths.length > 1
        ? [
            `the shards ran at different depths (${files.map((f) => `${f.meta.shard ?? 'a shard'}: ${depthOf(f)}`).join(', ')}): set the same CRM_DEPTH on every shard`,
          ]
        : []),
      ...runWarnings(outcomes, targets.length === 1 && /^https?:\/\/[^\s]+$/.test(targets[0]) ? targets[0] : undefined),
    ],
    expectations: files.find((f) => f.meta.expectations)?.meta.expectations,
    shards: shards.length ? shards : undefined,
    partial,
    incomplete,
    specUrl: first.specUrl,
    durationMs: Math.max(...files.map((f) => f.meta.durationMs ?? 0)),
    preflight,
    // A shard run with CRM_STRICT or CRM_CERTIFY judges the whole run so.
    ...(files.some((f) => f.meta.strict) ? { strict: true } : {}),
    ...(files.some((f) => f.meta.certify) ? { certify: true } : {}),
  });
  return { report, outcomes, files };
}

function copyAllureResults(dirs: string[], target: string): number {
  // Results of an earlier run in the output directory would mix in: start clean, unless the
  // output directory is itself one of the shards.
  if (!dirs.some((d) => resolve(d, 'allure-results') === resolve(target))) rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  let n = 0;
  for (const dir of dirs) {
    const src = resolve(dir, 'allure-results');
    if (!existsSync(src) || resolve(src) === resolve(target)) continue;
    for (const f of readdirSync(src)) {
      const from = join(src, f);
      if (!statSync(from).isFile()) continue;
      copyFileSync(from, join(target, f));
      n++;
    }
  }
  return n;
}

/** Playwright's own HTML report from the shards' blob reports (kept when a run is sharded). */
function mergePlaywrightHtml(dirs: string[], outDir: string): { ok: boolean; output: string } | undefined {
  const blobs = dirs.flatMap((d) => {
    const dir = resolve(d, 'blob-report');
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith('.zip'))
          .map((f) => join(dir, f))
      : [];
  });
  if (!blobs.length) return undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'crm-blobs-'));
  try {
    for (const b of blobs) copyFileSync(b, join(tmp, `${blobs.indexOf(b)}-${b.split('/').pop()}`));
    const res = spawnSync(process.execPath, [require.resolve('@playwright/test/cli'), 'merge-reports', '--reporter', 'html', tmp], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, PLAYWRIGHT_HTML_OUTPUT_DIR: resolve(outDir, 'html'), PLAYWRIGHT_HTML_OPEN: 'never' },
    });
    return { ok: res.status === 0, output: `${res.stdout ?? ''}${res.stderr ?? ''}` };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The shards' coverage maps summed (reporting/coverage/map.ts); a shard without a readable map is left out and said. */
function mergeCoverage(dirs: string[], report: ConformanceReport): { map?: SpecCoverage; missing: string[] } {
  const maps: SpecCoverage[] = [];
  const missing: string[] = [];
  for (const dir of dirs) {
    let m: SpecCoverage | undefined;
    try {
      m = readCoverageMap(dir);
    } catch {
      m = undefined;
    }
    if (m) maps.push(m);
    else missing.push(relative(process.cwd(), dir) || dir);
  }
  const meta = { runId: report.runId, target: report.target, shards: report.shards, depth: report.depth };
  return { map: maps.length ? mergeCoverageMaps(maps, meta) : undefined, missing };
}

export function merge(dirs: string[], outDir: string, options: { allure?: boolean } = {}): MergeResult {
  const { report, outcomes } = mergeOutcomes(dirs);
  report.calibration = readCalibration(outDir, ...dirs);
  // Read before writing: the output directory may be one of the shards.
  const coverage = mergeCoverage(dirs, report);
  writeReport(outDir, report, outcomes, report.runId, coverage.map);
  const file: OutcomeFile = {
    version: 1,
    meta: {
      target: report.target,
      runId: report.runId,
      warnings: report.warnings,
      shards: report.shards,
      specUrl: report.specUrl,
      generatedAt: report.generatedAt,
      preflight: report.preflight,
      depth: report.depth,
    },
    outcomes,
  };
  writeFileSync(resolve(outDir, OUTCOMES_FILE), JSON.stringify(file));
  const resultsDir = resolve(outDir, 'allure-results');
  const copiedAllureFiles = copyAllureResults(dirs, resultsDir);
  const result: MergeResult = { report, outcomes, copiedAllureFiles, coverageMissing: coverage.missing };
  if (options.allure !== false) result.allure = buildAllure([resultsDir], resolve(outDir, 'allure-report'));
  result.playwrightHtml = mergePlaywrightHtml(dirs, outDir);
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === __filename) {
  const args = process.argv.slice(2);
  let out = 'reports';
  let allure = true;
  const dirs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = args[++i] ?? out;
    else if (args[i].startsWith('--out=')) out = args[i].slice(6);
    else if (args[i] === '--no-allure') allure = false;
    else dirs.push(args[i]);
  }
  try {
    const started = Date.now();
    const res = merge(
      dirs.map((d) => resolve(d)),
      resolve(out),
      { allure },
    );
    console.log(
      `Merged ${dirs.length} shard report(s) (${res.report.shards?.join(', ') ?? 'no shard labels'}): ${res.outcomes.length} tests, ${res.copiedAllureFiles} Allure result files.`,
    );
    console.log(summaryLines(res.report, relative(process.cwd(), resolve(out, 'conformance.html'))).join('\n'));
    if (res.coverageMissing.length) console.log(`Spec coverage: no coverage map in ${res.coverageMissing.join(', ')}: the merged map leaves them out.`);
    if (res.allure)
      console.log(
        res.allure.ok
          ? `Allure report: ${relative(process.cwd(), res.allure.file)} (single file, opens offline)`
          : `Allure report not built: ${res.allure.output.trim()}`,
      );
    if (res.playwrightHtml)
      console.log(
        res.playwrightHtml.ok
          ? `Playwright HTML report: ${relative(process.cwd(), resolve(out, 'html'))}`
          : `Playwright HTML report not merged: ${res.playwrightHtml.output.trim().slice(0, 500)}`,
      );
    console.log(`(${Date.now() - started} ms)`);
    process.exit(mergeExitCode(res.report, res.outcomes));
  } catch (err) {
    if (err instanceof MergeError) {
      console.error(`merge: ${err.message}\nusage: ${command('merge', '<shard report dir> … [--out reports] [--no-allure]')}`);
      process.exit(2);
    }
    throw err;
  }
}
