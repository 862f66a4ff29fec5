/**
 * The conformance reporter: maps test results to rule verdicts and writes, under its output
 * directory (CRM_REPORT_DIR, default `reports`):
 *
 * - `conformance.json` and `conformance.html` (the verdict per rule, failures with exchanges);
 * - `conformance-outcomes.json`, the raw outcome of every test: `npm run merge` rebuilds one
 *   report from the outcome files of several shards;
 * - `ctrf-report.json`, the same run as CTRF (reporting/ctrf.ts);
 * - `spec-coverage.json` and `spec-coverage.html`, the map of the spec's surface the run exercised
 *   (reporting/coverage/: each test's exchanges, notifications and OAuth steps counted as it ends);
 * - `created-records.json`.
 *
 * A MUST failure fails the run (Playwright's own status already says so); SHOULD/MAY failures
 * are warnings; failures listed in the CRM_EXPECTATIONS baseline are reported, not fatal.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { getRule, hasRule, ruleIdOfTitle, type Level } from '../rules/index.js';
import { loadConfig, ROOT } from '../specs/support/core/config.js';
import { measuredLatencyMs, PREFLIGHT_FILE, readPreflight, type PreflightResult } from '../specs/support/core/preflight.js';
import { redactText, stripAnsi } from '../specs/support/core/redact.js';
import { SHOWN_FAILURES } from '../specs/support/core/repeats.js';
import { renderHtml } from './html.js';
import { CTRF_FILE, ctrfReport } from './ctrf.js';
import { buildReport, failed, runWarnings, type ConformanceReport, type ReportMeta, type TestOutcome } from './verdict.js';
import { command, runCommand } from '../specs/support/core/replay.js';
import { OAUTH_STEPS_ATTACHMENT, type OAuthStep } from '../specs/support/core/oauth-steps.js';
import { CoverageCollector, type RecordedExchange } from './coverage/collector.js';
import { buildCoverageMap, coverageLine, coverageSummary, writeCoverageMap, type SpecCoverage } from './coverage/map.js';

export { runWarnings };

/** What one run (or shard) leaves for the merge: every test outcome and the run's metadata. */
export interface OutcomeFile {
  version: 1;
  meta: ReportMeta & { shard?: string; generatedAt: string };
  outcomes: TestOutcome[];
}

export const OUTCOMES_FILE = 'conformance-outcomes.json';

/**
 * Why a test whose time limit ran out is not judged: how long it took, the target's answer time
 * the preflight measured, and this machine's own load (a busy machine is slow too, the target
 * need not be).
 */
export function timeLimitNote(
  durationMs: number,
  latencyMs: number | undefined = measuredLatencyMs(),
  load: number = loadavg()[0],
  cores: number = availableParallelism(),
): string {
  const target = latencyMs === undefined ? "the target's answer time was not measured" : `the target answered the preflight in ${latencyMs} ms`;
  const busy = load > cores ? `; this machine was busy (load ${load.toFixed(1)} on ${cores} cores): its own slowness may be the cause` : '';
  return `not judged: the test's time limit ran out after ${(durationMs / 1000).toFixed(1)} s (${target}${busy}); a time limit is no verdict on the server: run it again, or with fewer workers (CRM_WORKERS)`;
}

type Annotation = TestCase['annotations'][number];

/** The test's and the result's annotations, each once. */
function annotationsOf(test: TestCase, result: TestResult): Annotation[] {
  const annotations = [...test.annotations, ...((result as unknown as { annotations?: Annotation[] }).annotations ?? [])];
  const seen = new Set<string>();
  return annotations.filter((a) => {
    const k = `${a.type}\u0000${a.description}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** An attachment's text (its body, or the file it names), or undefined. */
function attachmentText(result: TestResult, name: string): string | undefined {
  const a = result.attachments.find((x) => x.name === name);
  if (!a) return undefined;
  try {
    if (a.body) return a.body.toString('utf8');
    if (a.path && existsSync(a.path)) return readFileSync(a.path, 'utf8');
  } catch {
    /* unreadable: no evidence */
  }
  return undefined;
}

const parsed = new WeakMap<TestResult, { all: RecordedExchange[]; statuses: Record<string, number> }>();

/**
 * The test's exchanges (every test's: the request count and statuses feed the run warnings and the
 * benchmark, the exchanges the coverage map), read once per result.
 */
function exchangesOf(result: TestResult): { all: RecordedExchange[]; statuses: Record<string, number> } {
  const known = parsed.get(result);
  if (known) return known;
  let all: RecordedExchange[] = [];
  try {
    all = JSON.parse(attachmentText(result, 'exchanges.json') ?? '[]');
  } catch {
    all = [];
  }
  const statuses: Record<string, number> = {};
  for (const x of all) statuses[String(x.status ?? 0)] = (statuses[String(x.status ?? 0)] ?? 0) + 1;
  parsed.set(result, { all, statuses });
  return { all, statuses };
}

/** An attachment's JSON, or undefined (none, or unreadable). */
function attachmentJson<T>(result: TestResult, name: string): T | undefined {
  try {
    const text = attachmentText(result, name);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** The records the test made (its `created` annotations). */
const createdOf = (unique: Annotation[]) =>
  unique
    .filter((a) => a.type === 'created')
    .flatMap((a) => {
      try {
        return JSON.parse(a.description ?? '[]');
      } catch {
        return [];
      }
    });

/** The evidence of a failed or warned test: its replay script (and the line that runs it), counterexample and last exchanges. */
function evidenceOf(result: TestResult, all: unknown[]): Pick<TestOutcome, 'replay' | 'replayCommand' | 'counterexample' | 'exchanges'> {
  const script = result.attachments.find((x) => x.name === 'replay.sh');
  const replay = attachmentText(result, 'replay.sh');
  return {
    replay,
    ...(replay && script?.path ? { replayCommand: `bash ${relative(process.cwd(), script.path)}` } : {}),
    counterexample: attachmentText(result, 'counterexample.txt'),
    exchanges: all.slice(-10),
  };
}

export function outcomeOf(test: TestCase, result: TestResult, rootDir: string): TestOutcome {
  const unique = annotationsOf(test, result);
  const rules = unique.filter((a) => a.type === 'rule').map((a) => a.description ?? '');
  const titleRule = ruleIdOfTitle(test.title);
  if (!rules.length && titleRule) rules.push(titleRule);
  const level =
    (unique.find((a) => a.type === 'level')?.description as Level | undefined) ?? (titleRule && hasRule(titleRule) ? getRule(titleRule).level : undefined);
  const annotation = (type: string) => unique.find((a) => a.type === type)?.description;
  // A run of many instances (the fault matrix: specs/support/fixtures/instances.ts): the test's instance.
  const project = annotation('instance') ?? test.parent.project()?.name;
  const expectedFailure = annotation('expected-failure');
  const unexpectedPass = annotation('unexpected-pass');
  // A MUST failure recorded without failing the test (specs/support/fixtures/rule.ts: the fault matrix, a held failure).
  const held = annotation('failure');
  const failedOrWarned = result.status !== test.expectedStatus || unique.some((a) => a.type === 'warning') || !!expectedFailure || !!held;
  const { all, statuses } = exchangesOf(result);
  // A time limit that ran out is no verdict on the target (a slow but conformant server): not judged, and why.
  const ranOut = result.status === 'timedOut' ? timeLimitNote(result.duration) : undefined;
  const error = [...result.errors.map((e) => e.message ?? e.value ?? ''), ...(held ? [held] : [])].map(stripAnsi).join('\n---\n');
  const detail = failedOrWarned ? (attachmentText(result, 'expected-failure.txt') ?? undefined) : undefined;
  // The rules the failure names (`[breaks …]` that a step of the test made, as rule() found them:
  // specs/support/core/attribution.ts): it counts against these only.
  const brokenRules = failedOrWarned ? (annotation('breaks')?.split(', ') ?? []).filter(hasRule) : [];
  return {
    title: test.title,
    // Relative to the project root (specs/…), as `npx playwright test <file>:<line>` takes it.
    file: relative(ROOT, test.location.file) || relative(rootDir, test.location.file),
    line: test.location.line,
    rules,
    level,
    status: held ? 'failed' : ranOut ? 'skipped' : result.status,
    // A held failure's test was skipped in Playwright's eyes (specs/support/core/repeats.ts): it failed.
    expectedStatus: held ? 'passed' : ranOut ? 'skipped' : test.expectedStatus,
    ...(held && annotation('held') ? { held: annotation('held') } : {}),
    ...(held && annotation('repeat-of') ? { repeatOf: annotation('repeat-of') } : {}),
    durationMs: result.duration,
    warnings: unique.filter((a) => a.type === 'warning').map((a) => redactText(a.description ?? '')),
    notes: unique.filter((a) => a.type === 'note').map((a) => a.description ?? ''),
    skipReason: unique.find((a) => a.type === 'skip')?.description,
    ...(result.status === 'skipped' && annotation('target-down') ? { targetDown: redactText(annotation('target-down')!) } : {}),
    ...(result.status === 'skipped' && annotation('not-judged') ? { notJudged: redactText(annotation('not-judged')!) } : {}),
    ...(ranOut ? { notJudged: ranOut, skipReason: ranOut } : {}),
    error: error ? redactText(error).slice(0, 4000) : detail ? redactText(detail).slice(0, 4000) : undefined,
    ...(failedOrWarned ? evidenceOf(result, all) : {}),
    created: createdOf(unique),
    requests: all.length,
    statuses,
    ...(expectedFailure ? { expectedFailure: redactText(expectedFailure) } : {}),
    ...(unexpectedPass ? { unexpectedPass } : {}),
    ...(project ? { project } : {}),
    ...(brokenRules.length ? { brokenRules } : {}),
    ...(annotation('rests-on') ? { restsOn: annotation('rests-on')!.split(', ') } : {}),
  };
}

/** Reads reports/calibration.json (written by `npm run calibrate`): { summary: { score, caught, faults, date } }. */
export function readCalibration(...dirs: string[]): ConformanceReport['calibration'] {
  for (const dir of [...dirs, resolve(ROOT, 'reports')]) {
    const file = resolve(dir, 'calibration.json');
    if (!existsSync(file)) continue;
    try {
      const s = JSON.parse(readFileSync(file, 'utf8')).summary;
      if (s && typeof s.score === 'number') return { score: s.score, caught: s.caught, faults: s.faults, date: s.date };
    } catch {
      /* ignore a half-written file */
    }
  }
  return undefined;
}

/**
 * Writes conformance.json, conformance.html and created-records.json for a report; with the run's
 * coverage map, spec-coverage.json and spec-coverage.html too (the conformance page links it).
 */
export function writeReport(outputDir: string, report: ConformanceReport, outcomes: TestOutcome[], runId: string, coverage?: SpecCoverage): void {
  mkdirSync(outputDir, { recursive: true });
  if (coverage) {
    writeCoverageMap(outputDir, coverage);
    report.specCoverage = coverageSummary(coverage);
  }
  writeFileSync(resolve(outputDir, 'conformance.json'), JSON.stringify(report, null, 2));
  writeFileSync(resolve(outputDir, 'conformance.html'), renderHtml(report));
  writeFileSync(resolve(outputDir, CTRF_FILE), JSON.stringify(ctrfReport(report, outcomes), null, 2));
  const created = outcomes.flatMap((o) => (o.created ?? []).map((c) => ({ ...c, test: o.title })));
  writeFileSync(resolve(outputDir, 'created-records.json'), JSON.stringify({ runId, tag: `crm-conformance-${runId}`, records: created }, null, 2));
}

const runsInFlight = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/**
 * The power of the properties next to the verdict: runs made of runs planned, those a time budget
 * cut short; against a far target, the runs in flight and the bound their budgets put on the run.
 */
function powerLines(report: ConformanceReport): string[] {
  const lines: string[] = [];
  const power = report.power ?? [];
  const cut = power.filter((p) => p.cut);
  const far = power.filter((p) => p.budgetS !== undefined || p.inFlight !== undefined);
  const made = `${power.reduce((a, p) => a + p.runs, 0)} of ${power.reduce((a, p) => a + p.planned, 0)} runs`;
  const farText = far.length
    ? `; against this target ${runsInFlight(Math.max(...far.map((p) => p.inFlight ?? 1)))} in flight, the property budgets ${far.map((p) => p.budgetS ?? 0).reduce((a, b) => a + b, 0)} s in all (the bound of the properties' runs)`
    : '';
  if (cut.length)
    lines.push(
      `Power: ${cut.length} propert${cut.length === 1 ? 'y' : 'ies'} cut short by ${cut.length === 1 ? 'its' : 'their'} time budget: ${cut.map((p) => `${p.rule} (${p.property}) ${p.runs} of ${p.planned} runs`).join(', ')}; every other property made all its runs (${made} in all${farText}).`,
    );
  const quick = power.filter((p) => p.quickBudget !== undefined);
  if (!cut.length && far.length) lines.push(`Power: every property${quick.length ? ' but those below' : ''} made all its runs (${made}${farText}).`);
  if (quick.length)
    lines.push(
      `Power: at quick depth, ${quick.map((p) => `${p.rule} (${p.property}) ${p.runs} of ${p.planned} runs`).join(', ')}: ${quick.length === 1 ? 'its' : 'their'} budget of ${quick[0].quickBudget} requests reached (a quick run stays within 1,000 requests).`,
    );
  return lines;
}

/** The baseline's known failures, unexpected passes, stale and expired entries. */
function expectationLines(report: ConformanceReport): string[] {
  const lines: string[] = [];
  const e = report.expectations;
  if (e) {
    const source = relative(process.cwd(), e.source).startsWith('..') ? e.source : relative(process.cwd(), e.source);
    lines.push(`Known failures (CRM_EXPECTATIONS ${source}): ${e.knownFailures.length} test(s) failed as expected and do not fail the run.`);
    if (e.unexpectedPasses.length) {
      lines.push(`UNEXPECTED PASS: ${e.unexpectedPasses.length} test(s) listed as known failures passed; remove them from the baseline:`);
      for (const u of e.unexpectedPasses) lines.push(`  ${u.title} (${u.file}:${u.line})`);
    }
    if (e.unmatched.length) lines.push(`Baseline entries that matched no test of this run: ${e.unmatched.join(', ')}`);
    if (e.stale?.length)
      lines.push(
        `${e.failOnStale ? 'STALE BASELINE (CRM_EXPECTATIONS_STRICT=1 fails the run)' : 'Stale baseline entries'}: ${e.stale.length} entr${e.stale.length === 1 ? 'y' : 'ies'} whose failure no longer happens (every test of theirs that ran passed); remove ${e.stale.length === 1 ? 'it' : 'them'}: ${e.stale.map((x) => x.entry).join(', ')}`,
      );
    if (e.expired?.length)
      lines.push(
        `Expired baseline entries, counted as no entry: ${e.expired.map((x) => `${x.entry} (expired ${x.expires}${x.issue ? `, ${x.issue}` : ''})`).join(', ')}`,
      );
  }
  return lines;
}

/** The failed rules, likeliest root cause first, and the rules they block. */
function failureLines(report: ConformanceReport): string[] {
  const lines: string[] = [];
  const failedRules = (report.rootCauses ?? [])
    .map((id) => report.rules.find((r) => r.id === id)!)
    .filter((r) => r && r.verdict === 'FAIL' && (r.level === 'MUST' || (report.strict && r.level === 'SHOULD')) && !r.known);
  if (failedRules.length) {
    const [first, ...rest] = failedRules;
    lines.push(
      `Failed ${report.strict ? 'MUST and SHOULD' : 'MUST'} rules, likeliest root cause first: ${first.id} (${first.text})${
        rest.length
          ? `, then ${rest
              .slice(0, 12)
              .map((r) => r.id)
              .join(', ')}${rest.length > 12 ? ` and ${rest.length - 12} more` : ''}`
          : ''
      }`,
    );
  }
  const blocked = report.rules.filter((r) => r.verdict === 'BLOCKED');
  if (blocked.length) {
    const by = [...new Set(blocked.flatMap((r) => r.tests.flatMap((t) => t.blockedBy ?? [])))];
    lines.push(
      `Blocked, not judged until ${by.join(', ')} ${by.length === 1 ? 'is' : 'are'} fixed (a step their tests rely on failed): ${blocked
        .slice(0, 12)
        .map((r) => r.id)
        .join(', ')}${blocked.length > 12 ? ` and ${blocked.length - 12} more` : ''}`,
    );
  }
  return lines;
}

/** Why the verdict is what it is, when it needs a reason. */
function reasonLines(report: ConformanceReport): string[] {
  const lines: string[] = [];
  if (report.verdictReason) {
    const where =
      report.preflight && report.preflight.state !== 'alive'
        ? ' (what was tried and what came back: the banner at the start of the run, and preflight.json)'
        : '';
    const inconclusive =
      report.scope === 'none'
        ? 'INCONCLUSIVE, nothing was judged'
        : report.notJudged && !report.targetDown && !where
          ? 'INCONCLUSIVE, not every test could be judged'
          : report.targetDown || where
            ? 'INCONCLUSIVE, nothing could be judged'
            : 'INCONCLUSIVE';
    lines.push(`${report.verdict === 'INCONCLUSIVE' ? inconclusive : 'Target'}: ${report.verdictReason}${where}`);
  }
  return lines;
}

/** The console summary: verdict, counts, known failures, unexpected passes, warnings. */
export function summaryLines(report: ConformanceReport, htmlPath: string, status?: string): string[] {
  const c = report.counts;
  const lines = [
    `Conformance: ${report.verdictLine ?? report.verdict}${report.partial ? ` (${report.partial})` : ''} — MUST ${c.MUST.PASS} pass / ${c.MUST.FAIL} fail${c.MUST.BLOCKED ? ` / ${c.MUST.BLOCKED} blocked` : ''} / ${c.MUST.SKIP} skip / ${c.MUST.UNTESTED} untested; ` +
      `SHOULD ${c.SHOULD.PASS} pass / ${report.strict ? `${c.SHOULD.FAIL} fail / ${c.SHOULD.WARN} warn` : `${c.SHOULD.WARN + c.SHOULD.FAIL} warn`}${c.SHOULD.BLOCKED ? ` / ${c.SHOULD.BLOCKED} blocked` : ''}; MAY ${c.MAY.PASS} pass / ${c.MAY.WARN} warn; ` +
      `${report.tests.total} tests, ${report.requests.total} requests${report.depth ? `, depth ${report.depth}` : ''}. Report: ${htmlPath}${status ? ` (run status ${status})` : ''}`,
  ];
  const cov = report.specCoverage;
  if (cov) lines.push(coverageLine(cov, join(dirname(htmlPath), cov.file)));
  lines.push(...powerLines(report), ...expectationLines(report), ...failureLines(report), ...reasonLines(report));
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  // Last: what the verdict covers, when it is not the whole catalog.
  const judged = report.coverage;
  if (judged && report.scope === 'partial') {
    lines.push(
      `Partial run: ${judged.judged} of ${judged.judgeable} rules judged, ${judged.notJudged} not judged (no test of theirs ran in this run${judged.notApplicable ? `; ${judged.notApplicable} not applicable to this target` : ''}). ` +
        `${report.verdict === 'CONFORMANT' ? 'This is no verdict on the rules not judged: run' : 'Run'} the whole suite (${runCommand()}, or merge every shard) for a verdict on every rule; conformance.json lists them (verdict UNTESTED).`,
    );
  }
  return lines;
}

export default class ConformanceReporter implements Reporter {
  private outcomes = new Map<string, TestOutcome>();
  private rootDir = process.cwd();
  private outputDir: string;
  private shard?: string;
  private started = Date.now();
  /** Errors outside any test (global set-up, webServer, a spec file that does not load). */
  private errors: string[] = [];
  /** The coverage map's counts (reporting/coverage/), made at the first test's end. */
  private coverage?: CoverageCollector;
  private coverageBroken?: string;

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = resolve(options.outputDir ?? 'reports');
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
    this.started = Date.now();
    if (config.shard) this.shard = `${config.shard.current}/${config.shard.total}`;
  }

  onError(error: TestError): void {
    let text: string[];
    try {
      text = redactText(stripAnsi(error.message ?? error.value ?? ''))
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    } catch {
      // No configuration to redact with (the error may be that very configuration): not repeated here.
      text = ['an error before any test (printed above)'];
    }
    // "No tests found" is a filter that selected nothing, not a run that stopped: the verdict says so (reporting/verdict.ts).
    if (text.length && !/^(Error: )?No tests found/.test(text[0])) this.errors.push(text.slice(0, 2).join(' ').slice(0, 400));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // The last attempt decides (retries are off by default).
    const outcome = outcomeOf(test, result, this.rootDir);
    if (this.shard) outcome.shard = this.shard;
    this.outcomes.set(test.id, outcome);
    const endpoints = this.cover(outcome.file, result);
    if (endpoints?.length) outcome.endpoints = endpoints;
  }

  /**
   * Counts the test's exchanges, notifications and OAuth steps into the coverage map (each test
   * once, as it ends), under its spec file; the spec's endpoints it sent requests to.
   */
  private cover(file: string, result: TestResult): string[] | undefined {
    if (this.coverageBroken) return undefined;
    try {
      this.coverage ??= new CoverageCollector();
      return this.coverage.addTest({
        file: file.split(sep).join('/'),
        exchanges: exchangesOf(result).all,
        notifications: attachmentJson(result, 'notifications.json'),
        oauthSteps: attachmentJson<OAuthStep[]>(result, OAUTH_STEPS_ATTACHMENT),
      });
    } catch (err) {
      // The map is no verdict: a fault of its own is said once and never stops the run.
      this.coverageBroken = `the coverage map was not made: ${(err as Error).message}`;
      return undefined;
    }
  }

  /** The run's coverage map, or none when it could not be made (said in the console). */
  private coverageMap(runId: string, target: string, depth: string): SpecCoverage | undefined {
    if (this.coverageBroken) {
      console.log(this.coverageBroken);
      return undefined;
    }
    const c = this.coverage ?? new CoverageCollector();
    const counts: Record<string, number> = {};
    c.surface.classes.forEach((k, i) => {
      if (c.counts[i]) counts[k.id] = c.counts[i];
    });
    return buildCoverageMap({ counts, tallies: c.tallies }, { runId, target, shards: this.shard ? [this.shard] : undefined, depth });
  }

  /** The run fails (exit code 1) when the target could not be judged, even with no failed test. */
  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | void> {
    // `playwright test --list` runs nothing: keep the reports of the last real run.
    if (process.argv.includes('--list') && this.outcomes.size === 0) return;
    const cfg = loadConfig();
    const outcomes = [...this.outcomes.values()];
    const meta: ReportMeta = {
      target: cfg.embedded ? `embedded reference server (${cfg.baseUrl})` : cfg.baseUrl,
      runId: cfg.runId,
      warnings: runWarnings(outcomes, cfg.baseUrl),
      expectations: cfg.expectationsSource
        ? { source: cfg.expectationsSource, entries: cfg.expectations, expired: cfg.expectationsExpired, failOnStale: cfg.expectationsStrict }
        : undefined,
      shards: this.shard ? [this.shard] : undefined,
      partial: this.shard ? `shard ${this.shard} only: merge the shards (${command('merge', '<shard dirs>')}) for the verdict of the whole suite` : undefined,
      specUrl: cfg.specUrl,
      durationMs: Date.now() - this.started,
      preflight: this.preflight(cfg.runId),
      depth: cfg.depth,
      ...(cfg.strict ? { strict: true } : {}),
      ...(cfg.certify ? { certify: true } : {}),
      ...(this.errors.length ? { stopped: this.errors[0] } : {}),
    };
    const report = buildReport(outcomes, meta);
    report.calibration = readCalibration(this.outputDir);
    writeReport(this.outputDir, report, outcomes, cfg.runId, this.coverageMap(cfg.runId, meta.target, cfg.depth));
    const file: OutcomeFile = { version: 1, meta: { ...meta, shard: this.shard, generatedAt: report.generatedAt }, outcomes };
    writeFileSync(resolve(this.outputDir, OUTCOMES_FILE), JSON.stringify(file));
    const unjudged = result.status === 'passed' && (report.verdict === 'INCONCLUSIVE' || (report.preflight && report.preflight.state !== 'alive'));
    // Held failures are skipped in Playwright's eyes: the run still fails on them.
    const held = outcomes.filter((o) => o.held && failed(o));
    const heldOnly = result.status === 'passed' && held.length > 0;
    const staleFails = result.status === 'passed' && !!report.expectations?.failOnStale && !!report.expectations.stale?.length;
    if (held.length) {
      const repeats = held.filter((o) => o.repeatOf).length;
      const blocked = held.filter((o) => o.held?.startsWith('blocked by ')).length;
      const parts = [
        repeats ? `${repeats} repeat(s) of an earlier test's problem` : '',
        blocked ? `${blocked} blocked by a failed step of another rule` : '',
        held.length - repeats - blocked ? `${held.length - repeats - blocked} past the ${SHOWN_FAILURES} failures a run shows` : '',
      ].filter(Boolean);
      console.log(
        `\n${held.length} failed test(s) held (${parts.join(', ')}): Playwright's reports show them as skipped with the reason, the conformance report as failed, with their evidence. CRM_REPEATS=fail fails them all.`,
      );
    }
    const status = unjudged
      ? report.scope === 'none'
        ? 'failed: nothing was judged'
        : 'failed: the target could not be judged'
      : heldOnly
        ? 'failed: held failures'
        : staleFails
          ? 'failed: stale baseline entries'
          : result.status;
    console.log('\n' + summaryLines(report, relative(process.cwd(), resolve(this.outputDir, 'conformance.html')), status).join('\n'));
    if (unjudged || heldOnly || staleFails) return { status: 'failed' };
  }

  /** This run's preflight result (written by the global set-up), when there is one. */
  private preflight(runId: string): PreflightResult | undefined {
    const r = readPreflight() ?? readPreflight(resolve(this.outputDir, PREFLIGHT_FILE));
    return r?.runId === runId ? r : undefined;
  }

  printsToStdio(): boolean {
    return true;
  }
}
