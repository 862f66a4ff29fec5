/**
 * From test outcomes to rule verdicts: the data behind conformance.json and conformance.html.
 * Pure functions, shared by the reporter and the shard merge (reporting/merge.ts).
 */
import { RULES, ruleIdOfTitle, type Level, type Rule } from '../rules/index.js';
import type { PreflightResult } from '../specs/support/core/preflight.js';
import { runCommand } from '../specs/support/core/replay.js';
import { blame, failed } from './blame.js';
import { suiteVersion } from './runs.js';
import { describeExpectation } from '../specs/support/core/expectations.js';

/** BLOCKED: every test that would judge the rule stopped at a failed step of another rule (reporting/blame.ts). */
export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'BLOCKED' | 'SKIP' | 'UNTESTED';

export interface TestOutcome {
  title: string;
  file: string;
  line: number;
  rules: string[];
  level: Level | undefined;
  /** Playwright's status: passed, failed, timedOut, skipped, interrupted. */
  status: string;
  expectedStatus: string;
  durationMs: number;
  warnings: string[];
  notes: string[];
  skipReason?: string;
  /** A held failure (specs/support/core/repeats.ts): why; Playwright reports this test as skipped. */
  held?: string;
  /** A held repeat: the title of the test that failed first with the same problem. */
  repeatOf?: string;
  /** Skipped because the target was dead, answered nonsense or stopped answering (the reason). */
  targetDown?: string;
  /** Skipped because an observation the test needs never came (the reason): not judged either way. */
  notJudged?: string;
  /** First error message, redacted. */
  error?: string;
  /** The replay script of the failing test (specs/support/core/replay-script.ts), whole. */
  replay?: string;
  /** The line that runs it, as the console named it: `bash test-results/replay/<rule>-<test>.sh`. */
  replayCommand?: string;
  /** fast-check seed/path line when the test is property-based. */
  counterexample?: string;
  /** The recorded exchanges (redacted), kept for failed and warned tests. */
  exchanges?: unknown[];
  created?: { path: string; id: unknown }[];
  /** Requests the test sent (every test, from its exchanges). */
  requests?: number;
  /** The spec's endpoints it sent requests to (`POST /projects/search`), sorted: what scripts/quick-selection.ts covers a rule on. */
  endpoints?: string[];
  /** Answers by status code ("0" = no usable answer), every test. */
  statuses?: Record<string, number>;
  /** The test failed and the CRM_EXPECTATIONS baseline lists it: reason and failure. */
  expectedFailure?: string;
  /** The test passed although the baseline lists it. */
  unexpectedPass?: string;
  /** Playwright project name and shard ("1/3") of the run that produced the outcome. */
  shard?: string;
  /** The Playwright project that ran the test, or its instance in a run of many (the fault matrix: the fault's name). */
  project?: string;
  /** The rules the test's steps rested on (`[breaks …]` of the checks it made): a passed test shows them holding. */
  restsOn?: string[];
  /**
   * The rules whose prediction the failure broke (`[breaks …]` in the failure, specs/support/core/attribution.ts):
   * the failure counts against these only; the test's other rules are not judged by it.
   */
  brokenRules?: string[];
}

export type TestStatus = 'passed' | 'failed' | 'warned' | 'known-failure' | 'skipped' | string;

export interface RuleVerdict {
  id: string;
  level: Level;
  area: string;
  section: string;
  endpoint?: string;
  text: string;
  verdict: Verdict;
  /** Every failure of the rule is listed in the known-failure baseline. */
  known?: boolean;
  reasons: string[];
  tests: {
    title: string;
    file: string;
    line: number;
    status: TestStatus;
    warnings: string[];
    durationMs?: number;
    error?: string;
    replay?: string;
    replayCommand?: string;
    counterexample?: string;
    exchanges?: unknown[];
    expectedFailure?: string;
    unexpectedPass?: string;
    /** A held failure: why (Playwright reports this test as skipped); a repeat names the test that failed first. */
    held?: string;
    repeatOf?: string;
    /** Status `blocked`: the test failed at a step of these rules (its failure names them) before judging this one. */
    blockedBy?: string[];
    /** The rules the test's failure names (`[breaks …]`): it counts against these only. */
    breaks?: string[];
    /** A failed test that covers several rules (a combined or model-based test): all of them. */
    covers?: string[];
  }[];
}

/**
 * What a run judged. `judgeable`: the catalog's rules less the untestable ones. `judged`: a test
 * of the rule passed, failed or warned. `notApplicable`: every test of the rule was skipped for
 * the target (a capability its profile does not declare, a heavy spec left out): the verdict is
 * still complete. `notJudged`: no test of the rule ran (a subset run: a spec directory, --grep,
 * one shard), or its tests could not judge it.
 */
export interface Coverage {
  judgeable: number;
  judged: number;
  notApplicable: number;
  notJudged: number;
  /** Rules whose every test stopped at a failed step of another rule (verdict BLOCKED): not judged, but not left out of the run. */
  blocked: number;
  untestable: number;
}

/** `complete`: every judgeable rule was judged or is not applicable; `partial`: some were not judged; `none`: none was judged. */
export type Scope = 'complete' | 'partial' | 'none';

/**
 * CONFORMANT: no MUST rule fails and the target could be judged. NOT CONFORMANT: a MUST rule
 * fails. INCONCLUSIVE: no MUST rule fails, but the target could not be judged (dead at the
 * preflight, or it stopped answering and tests were skipped; or a test could not be judged because
 * an observation it needs never came): never CONFORMANT then.
 */
export type OverallVerdict = 'CONFORMANT' | 'NOT CONFORMANT' | 'INCONCLUSIVE';

export interface ConformanceReport {
  generatedAt: string;
  /** The version of the suite that made the report (package.json): `crm-conformance diff` says when two runs' differ. */
  suiteVersion?: string;
  target: string;
  runId: string;
  verdict: OverallVerdict;
  /**
   * The verdict as a user reads it, qualified by what was judged: `CONFORMANT` only when the run
   * judged every judgeable rule; `CONFORMANT for the 37 rules judged (108 rules not judged in this run)` otherwise.
   */
  verdictLine: string;
  /** What the verdict covers (see {@link Coverage}). */
  scope: Scope;
  coverage: Coverage;
  /** Why the verdict is INCONCLUSIVE or rests on the preflight (one line). */
  verdictReason?: string;
  /** The failed and warned rules, the likeliest root cause first (the order of the page's cards). */
  rootCauses: string[];
  /** The preflight (specs/support/core/preflight.ts): what was tried before any test, what came back. */
  preflight?: PreflightResult;
  /** Tests skipped because the target was dead or stopped answering, and the first reason. */
  targetDown?: { tests: number; reason: string };
  /** Tests that could not be judged (an observation they need never came), and the first reason. */
  notJudged?: { tests: number; reason: string };
  counts: Record<Level, Record<Verdict, number>>;
  tests: { total: number; passed: number; failed: number; skipped: number; warned: number; knownFailures: number; unexpectedPasses: number };
  /** Requests sent in the run and answers by status ("0" = no usable answer). */
  requests: { total: number; byStatus: Record<string, number> };
  rules: RuleVerdict[];
  /** Tests that name no rule (should not exist) or an unknown rule. */
  untraced: string[];
  warnings: string[];
  /** The known-failure baseline (CRM_EXPECTATIONS), when one was given. */
  expectations?: {
    source: string;
    entries: number;
    knownFailures: { title: string; reason: string }[];
    unexpectedPasses: { title: string; file: string; line: number; reason: string }[];
    /** Entries that matched no test of this run (filtered out, or their tests are gone). */
    unmatched: string[];
    /** Entries whose failure no longer happens: their tests ran and passed. */
    stale?: { entry: string; reason: string; issue?: string }[];
    /** Entries past their expiry date: they counted as no entry. */
    expired?: { entry: string; reason: string; expires: string; issue?: string }[];
    /** CRM_EXPECTATIONS_STRICT=1: a stale entry fails the run. */
    failOnStale?: boolean;
  };
  /** Shards merged into this report ("1/3", …), when it comes from reporting/merge.ts or one shard. */
  shards?: string[];
  /** This report covers one shard only: its verdict is partial until the shards are merged. */
  partial?: string;
  calibration?: { score: number; caught: number; faults: number; date: string };
  /** Where the spec is published; rule sections link to it. */
  specUrl?: string;
  durationMs?: number;
  /** CRM_DEPTH of the run: `quick`, `standard` or `deep` (the verdict names it). */
  depth?: string;
  /** Each property's power: runs made of runs planned, `cut` when its time budget stopped it (notes of specs/support/property.ts). */
  power?: PropertyPower[];
  /** CRM_STRICT=1 was set: SHOULD failures count as failures. */
  strict?: boolean;
  /** CRM_CERTIFY=1 was set: every judgeable MUST rule must be judged. */
  certify?: boolean;
  /** The map of the spec's surface the run exercised (reporting/coverage/), when one was written: its page and its counts. */
  specCoverage?: SpecCoverageSummary;
}

/** What conformance.json and conformance.html say of the coverage map (spec-coverage.json has the whole of it). */
export interface SpecCoverageSummary {
  /** The map's page, beside conformance.html. */
  file: string;
  endpoints: { exercised: number; total: number };
  classes: { exercised: number; total: number };
  gaps: { total: number; explained: number; unexplained: number };
}

/** A property's runs: `runs` made of `planned`; `cut`: its time budget stopped it; `inFlight` and `budgetS` when the latency raised them. */
export interface PropertyPower {
  rule: string;
  property: string;
  runs: number;
  planned: number;
  cut: boolean;
  /** A quick run's property stopped at its request budget (QUICK_PROPERTY_REQUESTS of specs/support/property.ts). */
  quickBudget?: number;
  inFlight?: number;
  budgetS?: number;
}

export { failed };
const known = (t: TestOutcome) => !failed(t) && !!t.expectedFailure;

export function verdictFor(rule: Rule, tests: TestOutcome[]): { verdict: Verdict; reasons: string[]; known?: boolean } {
  if (tests.length === 0) {
    if (rule.untestable) return { verdict: 'UNTESTED', reasons: [`untestable: ${rule.untestable}`] };
    return { verdict: 'UNTESTED', reasons: ['no test ran for this rule'] };
  }
  const bad = tests.filter(failed);
  if (bad.length) {
    // A SHOULD test only fails outright in strict mode (CRM_STRICT=1); otherwise it warns.
    return { verdict: 'FAIL', reasons: bad.map((t) => `${t.title}: ${(t.error ?? t.status).split('\n')[0]}`) };
  }
  const expected = tests.filter(known);
  if (expected.length) {
    // Known failures do not fail the run, but the rule is not met: the verdict stays honest.
    const reasons = expected.map((t) => `known failure (CRM_EXPECTATIONS): ${t.title}: ${t.expectedFailure}`);
    return { verdict: rule.level === 'MUST' ? 'FAIL' : 'WARN', reasons, known: true };
  }
  const warned = tests.filter((t) => t.warnings.length);
  if (warned.length) return { verdict: 'WARN', reasons: warned.flatMap((t) => t.warnings) };
  if (tests.some((t) => t.status === 'passed')) return { verdict: 'PASS', reasons: [] };
  return { verdict: 'SKIP', reasons: [...new Set(tests.map((t) => t.skipReason ?? 'skipped'))] };
}

function testStatus(t: TestOutcome): TestStatus {
  if (failed(t)) return 'failed';
  if (t.expectedFailure) return 'known-failure';
  if (t.warnings.length) return 'warned';
  return t.status;
}

export interface ReportMeta {
  target: string;
  runId: string;
  warnings?: string[];
  expectations?: {
    source: string;
    entries: { rule?: string; title?: string; reason: string; issue?: string }[];
    expired?: { rule?: string; title?: string; reason: string; expires?: string; issue?: string }[];
    failOnStale?: boolean;
  };
  shards?: string[];
  partial?: string;
  /**
   * The outcomes are known to be incomplete (a merge missing a shard): why, and the fix. A verdict
   * that would be CONFORMANT is INCONCLUSIVE.
   */
  incomplete?: string;
  /** The run's first error outside any test (global set-up, webServer, a spec that does not load), redacted. */
  stopped?: string;
  specUrl?: string;
  durationMs?: number;
  preflight?: PreflightResult;
  /** CRM_DEPTH of the run. */
  depth?: string;
  /** CRM_STRICT=1: a SHOULD failure fails the run (NOT CONFORMANT). */
  strict?: boolean;
  /** CRM_CERTIFY=1: a MUST rule not judged (skipped, blocked, untested) makes the run INCONCLUSIVE. */
  certify?: boolean;
}

/** A test whose failure counts against other rules than its own: its own rules are blocked by those. */
interface Blocked {
  test: TestOutcome;
  by: string[];
}

/** Each test under the rules it counts for: its own, or those its failure is blamed on (reporting/blame.ts). */
function assign(outcomes: TestOutcome[], credit: Map<TestOutcome, string[] | undefined>, knownIds: Set<string>) {
  const byRule = new Map<string, TestOutcome[]>();
  const blocked = new Map<string, Blocked[]>();
  const untraced: string[] = [];
  const push = <V>(m: Map<string, V[]>, id: string, v: V) => m.set(id, [...(m.get(id) ?? []), v]);
  for (const t of outcomes) {
    if (!t.rules.length) untraced.push(t.title);
    for (const id of t.rules) if (!knownIds.has(id)) untraced.push(`${t.title} (unknown rule ${id})`);
    const blamed = credit.get(t);
    for (const id of blamed ? [...new Set([...t.rules, ...blamed])] : t.rules) {
      if (blamed && !blamed.includes(id)) push(blocked, id, { test: t, by: blamed });
      else push(byRule, id, t);
    }
  }
  return { byRule, blocked, untraced };
}

const firstLine = (s: string | undefined) =>
  (s ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim() ?? '';

/** Why a rule is blocked: the tests that relied on a rule that failed before they reached their own check. */
const blockedReason = (b: Blocked) =>
  `blocked by ${b.by.join(', ')}: "${b.test.title}" relies on ${b.by.length === 1 ? 'that rule' : 'those rules'} for a step, and the step failed before the test reached its own check${b.test.error ? ` (${firstLine(b.test.error).slice(0, 200)})` : ''}`;

function testEntry(t: TestOutcome, blamed: string[] | undefined, keepDetail: boolean): RuleVerdict['tests'][number] {
  return {
    title: t.title,
    file: t.file,
    line: t.line,
    status: testStatus(t),
    warnings: t.warnings,
    durationMs: t.durationMs,
    ...(t.unexpectedPass ? { unexpectedPass: t.unexpectedPass } : {}),
    ...(t.held && failed(t) ? { held: t.held, ...(t.repeatOf ? { repeatOf: t.repeatOf } : {}) } : {}),
    ...(blamed ? { breaks: blamed } : {}),
    ...(failed(t) && t.rules.length > 1 ? { covers: t.rules } : {}),
    ...(keepDetail && (failed(t) || t.warnings.length || t.expectedFailure)
      ? {
          error: t.error,
          replay: t.replay,
          replayCommand: t.replayCommand,
          counterexample: t.counterexample,
          exchanges: t.exchanges,
          expectedFailure: t.expectedFailure,
        }
      : {}),
  };
}

function ruleVerdict(
  rule: Rule,
  tests: TestOutcome[],
  blocked: Blocked[],
  credit: Map<TestOutcome, string[] | undefined>,
  preflightFinding: string | undefined,
): RuleVerdict {
  let { verdict, reasons, known: isKnown } = verdictFor(rule, tests);
  // Every test that would have judged the rule stopped at a step of another rule that failed.
  if (blocked.length && (verdict === 'UNTESTED' || verdict === 'SKIP')) {
    verdict = 'BLOCKED';
    reasons = blocked.map(blockedReason);
  }
  // A MUST rule the preflight saw broken fails, its tests skipped with the rest of the run.
  if (preflightFinding && verdict !== 'FAIL') {
    verdict = 'FAIL';
    reasons = [`preflight: ${preflightFinding}`, ...reasons];
    isKnown = undefined;
  }
  const keepDetail = verdict === 'FAIL' || verdict === 'WARN';
  return {
    id: rule.id,
    level: rule.level,
    area: rule.area,
    section: rule.section,
    ...(rule.endpoint ? { endpoint: rule.endpoint } : {}),
    text: rule.text,
    verdict,
    ...(isKnown ? { known: true } : {}),
    reasons,
    tests: [
      ...tests.map((t) => testEntry(t, credit.get(t), keepDetail)),
      ...blocked.map(({ test: t, by }) => ({
        title: t.title,
        file: t.file,
        line: t.line,
        status: 'blocked',
        warnings: [],
        durationMs: t.durationMs,
        blockedBy: by,
      })),
    ],
  };
}

export function buildReport(outcomes: TestOutcome[], meta: ReportMeta): ConformanceReport {
  const knownIds = new Set(RULES.map((r) => r.id));
  const credit = blame(outcomes, knownIds);
  const { byRule, blocked, untraced } = assign(outcomes, credit, knownIds);
  const preflightFindings = new Map(
    (meta.preflight?.state === 'nonsense' ? meta.preflight.findings : []).map((f) => [f.rule, `${f.message}; replay: ${f.replay}`]),
  );
  const rules = RULES.map((rule) => ruleVerdict(rule, byRule.get(rule.id) ?? [], blocked.get(rule.id) ?? [], credit, preflightFindings.get(rule.id)));
  const coverage = coverageOf(rules, byRule);
  const scope: Scope = coverage.judged === 0 ? 'none' : coverage.notJudged > 0 ? 'partial' : 'complete';
  const { verdict, verdictReason } = overallVerdict(rules, outcomes, meta, scope);
  const down = outcomes.filter((t) => t.status === 'skipped' && t.targetDown);
  const unjudged = outcomes.filter((t) => t.status === 'skipped' && t.notJudged);
  const version = suiteVersion();
  const report: ConformanceReport = {
    generatedAt: new Date().toISOString(),
    ...(version ? { suiteVersion: version } : {}),
    target: meta.target,
    runId: meta.runId,
    verdict,
    verdictLine: verdictLineOf(verdict, scope, coverage, rules, meta),
    scope,
    coverage,
    ...(verdictReason ? { verdictReason } : {}),
    rootCauses: rootCauseOrder(rules),
    ...(meta.preflight ? { preflight: meta.preflight } : {}),
    ...(down.length ? { targetDown: { tests: down.length, reason: down[0].targetDown! } } : {}),
    ...(unjudged.length ? { notJudged: { tests: unjudged.length, reason: unjudged[0].notJudged! } } : {}),
    counts: countsOf(rules),
    tests: testCounts(outcomes),
    requests: requestCounts(outcomes),
    rules,
    untraced,
    warnings: meta.warnings ?? [],
    ...(meta.depth ? { depth: meta.depth } : {}),
    ...(meta.strict ? { strict: true } : {}),
    ...(meta.certify ? { certify: true } : {}),
    ...(propertyPower(outcomes).length ? { power: propertyPower(outcomes) } : {}),
  };
  if (meta.expectations) report.expectations = expectationsOf(outcomes, meta.expectations);
  if (meta.shards?.length) report.shards = meta.shards;
  if (meta.partial) report.partial = meta.partial;
  if (meta.specUrl) report.specUrl = meta.specUrl;
  if (meta.durationMs !== undefined) report.durationMs = meta.durationMs;
  return report;
}

/** Baseline entries whose failure no longer happens: tests of theirs ran, and every one that ran passed. */
function staleEntries(entries: { rule?: string; title?: string; reason: string; issue?: string }[], outcomes: TestOutcome[]) {
  return entries
    .filter((e) => {
      const ran = outcomes.filter((t) => (e.title !== undefined ? t.title === e.title : t.rules.includes(e.rule!)) && t.status !== 'skipped');
      return ran.length > 0 && ran.every((t) => t.status === 'passed' && !failed(t) && !t.expectedFailure);
    })
    .map((e) => ({ entry: describeExpectation(e), reason: e.reason, ...(e.issue ? { issue: e.issue } : {}) }));
}

const zero = (): Record<Verdict, number> => ({ PASS: 0, FAIL: 0, WARN: 0, BLOCKED: 0, SKIP: 0, UNTESTED: 0 });

function countsOf(rules: RuleVerdict[]): Record<Level, Record<Verdict, number>> {
  const counts: Record<Level, Record<Verdict, number>> = { MUST: zero(), SHOULD: zero(), MAY: zero() };
  for (const r of rules) counts[r.level][r.verdict]++;
  return counts;
}

function testCounts(outcomes: TestOutcome[]): ConformanceReport['tests'] {
  return {
    total: outcomes.length,
    passed: outcomes.filter((t) => t.status === 'passed' && !t.warnings.length && !t.expectedFailure).length,
    failed: outcomes.filter(failed).length,
    skipped: outcomes.filter((t) => t.status === 'skipped').length,
    warned: outcomes.filter((t) => !failed(t) && !t.expectedFailure && t.warnings.length > 0).length,
    knownFailures: outcomes.filter(known).length,
    unexpectedPasses: outcomes.filter((t) => t.unexpectedPass).length,
  };
}

function requestCounts(outcomes: TestOutcome[]): ConformanceReport['requests'] {
  const byStatus: Record<string, number> = {};
  let total = 0;
  for (const t of outcomes) {
    total += t.requests ?? 0;
    for (const [s, n] of Object.entries(t.statuses ?? {})) byStatus[s] = (byStatus[s] ?? 0) + n;
  }
  return { total, byStatus };
}

function expectationsOf(outcomes: TestOutcome[], e: NonNullable<ReportMeta['expectations']>): NonNullable<ConformanceReport['expectations']> {
  const matched = (x: { rule?: string; title?: string }) => outcomes.some((t) => (x.title !== undefined ? t.title === x.title : t.rules.includes(x.rule!)));
  return {
    source: e.source,
    entries: e.entries.length,
    knownFailures: outcomes.filter(known).map((t) => ({ title: t.title, reason: t.expectedFailure! })),
    unexpectedPasses: outcomes.filter((t) => t.unexpectedPass).map((t) => ({ title: t.title, file: t.file, line: t.line, reason: t.unexpectedPass! })),
    unmatched: e.entries.filter((x) => !matched(x)).map(describeExpectation),
    stale: staleEntries(e.entries, outcomes),
    expired: (e.expired ?? []).map((x) => ({
      entry: describeExpectation(x),
      reason: x.reason,
      expires: x.expires ?? '',
      ...(x.issue ? { issue: x.issue } : {}),
    })),
    ...(e.failOnStale ? { failOnStale: true } : {}),
  };
}

/** The judgeable MUST rules this run did not judge, by why: skipped (not applicable), blocked, untested. */
export function mustNotJudged(rules: readonly Pick<RuleVerdict, 'id' | 'level' | 'verdict'>[]): { skipped: string[]; blocked: string[]; untested: string[] } {
  const untestable = new Set(RULES.filter((r) => r.untestable).map((r) => r.id));
  const must = rules.filter((r) => r.level === 'MUST' && !untestable.has(r.id));
  const ids = (v: Verdict) => must.filter((r) => r.verdict === v).map((r) => r.id);
  return { skipped: ids('SKIP'), blocked: ids('BLOCKED'), untested: ids('UNTESTED') };
}

/** "17 skipped: A, B, C and 14 more; 2 blocked: D, E": the MUST rules not judged, for a headline. */
export function notJudgedText(n: ReturnType<typeof mustNotJudged>, shown = 6): string {
  const part = (ids: string[], what: string) =>
    ids.length ? `${ids.length} ${what}: ${ids.slice(0, shown).join(', ')}${ids.length > shown ? ` and ${ids.length - shown} more` : ''}` : '';
  return [part(n.skipped, 'skipped'), part(n.blocked, 'blocked'), part(n.untested, 'untested')].filter(Boolean).join('; ');
}

/**
 * The run's verdict and why it is not plainly CONFORMANT. NOT CONFORMANT: a MUST rule failed (with
 * CRM_STRICT=1 a SHOULD rule too). INCONCLUSIVE: nothing failed, but the target could not be judged
 * (dead, nonsense, stopped answering), a test could not be judged, a MUST rule was blocked by a rule
 * of another level, nothing was judged, a shard is missing, or (CRM_CERTIFY=1) a MUST rule was not judged.
 */
function overallVerdict(rules: RuleVerdict[], outcomes: TestOutcome[], meta: ReportMeta, scope: Scope): { verdict: OverallVerdict; verdictReason?: string } {
  const failing = rules.some((r) => r.verdict === 'FAIL' && (r.level === 'MUST' || (meta.strict && r.level === 'SHOULD')));
  const down = outcomes.filter((t) => t.status === 'skipped' && t.targetDown);
  const pre = meta.preflight;
  let verdictReason: string | undefined;
  if (pre && pre.state !== 'alive') verdictReason = pre.headline;
  else if (down.length) verdictReason = `${down.length} test(s) skipped: ${down[0].targetDown}`;
  if (failing) return { verdict: 'NOT CONFORMANT', verdictReason };
  if (down.length || (pre && pre.state !== 'alive')) return { verdict: 'INCONCLUSIVE', verdictReason };
  // A test that could not be judged is no pass: with no MUST failure, the run is not CONFORMANT either.
  const unjudged = outcomes.filter((t) => t.status === 'skipped' && t.notJudged);
  if (unjudged.length) return { verdict: 'INCONCLUSIVE', verdictReason: `${unjudged.length} test(s) could not be judged: ${unjudged[0].notJudged}` };
  // A run that judged no rule (no test ran, or every test was skipped) is never CONFORMANT.
  if (scope === 'none') return { verdict: 'INCONCLUSIVE', verdictReason: nothingJudged(outcomes, meta.stopped) };
  // A merge missing a shard: the rules of that shard were never tried.
  if (meta.incomplete) return { verdict: 'INCONCLUSIVE', verdictReason: meta.incomplete };
  const missing = mustNotJudged(rules);
  if (missing.blocked.length) {
    const by = [...new Set(rules.flatMap((r) => (r.verdict === 'BLOCKED' ? r.tests.flatMap((t) => t.blockedBy ?? []) : [])))];
    return {
      verdict: 'INCONCLUSIVE',
      verdictReason: `${plural(missing.blocked.length, 'MUST rule')} could not be judged, blocked by ${by.join(', ')} (${missing.blocked.join(', ')})`,
    };
  }
  if (meta.certify && missing.skipped.length + missing.untested.length) {
    return {
      verdict: 'INCONCLUSIVE',
      verdictReason: `certification (CRM_CERTIFY=1) needs every MUST rule judged: ${notJudgedText(missing)}; conformance.json gives each one's reason`,
    };
  }
  return { verdict: 'CONFORMANT' };
}

/** Counts what the run judged (see {@link Coverage}). */
function coverageOf(rules: RuleVerdict[], byRule: Map<string, TestOutcome[]>): Coverage {
  const c: Coverage = { judgeable: 0, judged: 0, notApplicable: 0, notJudged: 0, blocked: 0, untestable: 0 };
  const untestable = new Set(RULES.filter((r) => r.untestable).map((r) => r.id));
  for (const r of rules) {
    if (untestable.has(r.id)) {
      c.untestable++;
      continue;
    }
    c.judgeable++;
    if (r.verdict === 'PASS' || r.verdict === 'FAIL' || r.verdict === 'WARN') c.judged++;
    else if (r.verdict === 'BLOCKED') c.blocked++;
    // Skipped for the target (a capability it lacks): not applicable. Skipped because the target went
    // down or an observation never came: not judged.
    else if (r.verdict === 'SKIP' && (byRule.get(r.id) ?? []).every((t) => !t.targetDown && !t.notJudged)) c.notApplicable++;
    else c.notJudged++;
  }
  return c;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The verdict as a user reads it: qualified unless the run judged every judgeable rule. A run that
 * judged only some rules (a subset) says how many; a whole run in which MUST rules were skipped
 * (a capability the profile does not declare) or blocked names them: `CONFORMANT for X of Y
 * MUST rules; N skipped: …` (untestable rules, which no test can observe, are left out of both).
 */
export function verdictLineOf(
  verdict: OverallVerdict,
  scope: Scope,
  c: Coverage,
  rules: readonly RuleVerdict[] = [],
  meta: Pick<ReportMeta, 'strict'> = {},
): string {
  if (verdict === 'INCONCLUSIVE') return verdict;
  if (scope !== 'complete') {
    if (verdict === 'CONFORMANT') return `CONFORMANT for the ${plural(c.judged, 'rule')} judged (${plural(c.notJudged, 'rule')} not judged in this run)`;
    return `${verdict} (${plural(c.judged, 'rule')} judged, ${c.notJudged} not judged in this run)`;
  }
  if (verdict !== 'CONFORMANT') {
    const must = rules.some((r) => r.level === 'MUST' && r.verdict === 'FAIL');
    return meta.strict && !must ? `${verdict} (CRM_STRICT=1: a SHOULD rule failed)` : verdict;
  }
  const missing = mustNotJudged(rules);
  const notJudged = missing.skipped.length + missing.blocked.length + missing.untested.length;
  if (!notJudged) return verdict;
  const untestable = new Set(RULES.filter((r) => r.untestable).map((r) => r.id));
  const judgeable = rules.filter((r) => r.level === 'MUST' && !untestable.has(r.id)).length;
  return `CONFORMANT for ${judgeable - notJudged} of ${judgeable} MUST rules; ${notJudgedText(missing)}`;
}

/** Why a run that judged no rule is INCONCLUSIVE, and the fix. */
function nothingJudged(outcomes: TestOutcome[], stopped: string | undefined): string {
  if (!outcomes.length && stopped) {
    return `no test ran: the run stopped before any test (${stopped}). Fix what that error names (the embedded reference server: its [WebServer] lines above; your server: CRM_BASE_URL and the other settings, \`npx crm-conformance doctor\`) and run again`;
  }
  if (!outcomes.length) {
    const list = `${runCommand()} --list`;
    return `no test ran: the filter of this run (--grep, a file or directory, --project, --shard) selected no test. Fix the filter; \`${list}\` with the same arguments lists what it selects`;
  }
  const skipped = outcomes.filter((t) => t.status === 'skipped');
  const first = skipped.find((t) => t.skipReason)?.skipReason;
  return `no rule was judged: ${outcomes.length === skipped.length ? `all ${plural(outcomes.length, 'test')} of this run were skipped` : 'no test of this run judged a rule'}${first ? ` (first reason: ${first})` : ''}. Run tests the target can answer (without --grep, or with a wider one)`;
}

/**
 * Failed and warned rules, the likeliest root cause first: a rule whose own test (a test written
 * for that rule alone) failed on its own check, then one whose own combined test (`rule(id, …,
 * { also })`) failed, then a rule only other tests' failures name (a step of theirs), then a rule
 * failed only as one of the rules a combined test covers. Within each: the rule that more failed
 * tests count against first (one broken rule beneath many failures; a combined or model test is
 * not counted: which of its rules its random path reaches first is chance), then FAIL before WARN,
 * known failures after, MUST before SHOULD and MAY, catalog order.
 */
export function rootCauseOrder(rules: RuleVerdict[]): string[] {
  const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY'];
  const flagged = rules.map((r, i) => ({ r, i })).filter(({ r }) => r.verdict === 'FAIL' || r.verdict === 'WARN');
  const badOf = (r: RuleVerdict) => r.tests.filter((t) => t.status === 'failed' || t.status === 'known-failure' || t.status === 'warned');
  const evidence = (r: RuleVerdict) => {
    const mine = badOf(r).filter((t) => ruleIdOfTitle(t.title) === r.id && (!t.breaks || t.breaks.includes(r.id)));
    if (mine.some((t) => !t.covers || t.covers.length < 2)) return 0;
    if (mine.length) return 1;
    return badOf(r).some((t) => t.breaks?.includes(r.id)) ? 2 : 3;
  };
  const key = ({ r, i }: { r: RuleVerdict; i: number }) => [
    r.verdict === 'FAIL' ? 0 : 1,
    r.known ? 1 : 0,
    evidence(r),
    -badOf(r).filter((t) => !t.covers || t.covers.length < 2).length,
    LEVELS.indexOf(r.level),
    i,
  ];
  return flagged
    .map((x) => ({ id: x.r.id, k: key(x) }))
    .sort((a, b) => {
      for (let j = 0; j < a.k.length; j++) if (a.k[j] !== b.k[j]) return a.k[j] - b.k[j];
      return 0;
    })
    .map((x) => x.id);
}

/** The note of a property stopped by its time budget (specs/support/property.ts): `property "<name>": <n> runs of <m> (time limit reached), seed <s>`. */
const BUDGET_NOTE = /^property "(.+)": (\d+) runs of (\d+) \(time limit reached\)/;
/**
 * The note of every property: `property "<name>": <n> runs of <m>[ (time limit reached)][ (quick's
 * budget of <r> requests reached)], seed <s>[ (<k> in flight at <l> ms, budget <b> s)]`.
 */
const POWER_NOTE =
  /^property "(.+)": (\d+) runs of (\d+)( \(time limit reached\))?(?: \(quick's budget of (\d+) requests reached\))?, seed -?\d+(?: \((\d+) in flight at [\d.]+ ms(?:, budget (\d+) s)?\))?/;

/** Each property's runs made of runs planned, from the notes of its test (see {@link PropertyPower}). */
export function propertyPower(outcomes: TestOutcome[]): PropertyPower[] {
  return outcomes.flatMap((o) =>
    o.notes
      .map((n) => POWER_NOTE.exec(n))
      .filter((m) => m !== null)
      .map((m) => ({
        rule: o.title.split(' ')[0],
        property: m[1],
        runs: Number(m[2]),
        planned: Number(m[3]),
        cut: !!m[4],
        ...(m[5] ? { quickBudget: Number(m[5]) } : {}),
        ...(m[6] ? { inFlight: Number(m[6]) } : {}),
        ...(m[7] ? { budgetS: Number(m[7]) } : {}),
      })),
  );
}

/**
 * Warns when the verdicts look meaningless: most answers of the whole run (every test, passed
 * or not) are 401/403 (credentials), 404 (base URL), 5xx or no answer at all; and when properties
 * made fewer random runs than asked because the target answered too slowly for their time budget.
 */
export function runWarnings(outcomes: TestOutcome[], baseUrl?: string): string[] {
  const cut = outcomes.flatMap((o) =>
    o.notes
      .map((n) => BUDGET_NOTE.exec(n))
      .filter((m) => m !== null)
      .map((m) => `${o.title.split(' ')[0]} (${m[1].split(' ').slice(0, 3).join(' ')}) ${m[2]} of ${m[3]}`),
  );
  const budgetWarning = cut.length
    ? [
        `${cut.length} propert${cut.length === 1 ? 'y' : 'ies'} stopped at ${cut.length === 1 ? 'its' : 'their'} time budget, the target answering too slowly for all ${cut.length === 1 ? 'its' : 'their'} runs (${cut.join(', ')} runs): ${cut.length === 1 ? 'its' : 'their'} rules were judged on fewer random inputs than against a fast target; CRM_FC_RUNS raises runs and budgets together`,
      ]
    : [];
  return [...meaningless(outcomes, baseUrl), ...budgetWarning];
}

function meaningless(outcomes: TestOutcome[], baseUrl?: string): string[] {
  const by: Record<string, number> = {};
  let total = 0;
  for (const o of outcomes) {
    for (const [s, n] of Object.entries(o.statuses ?? {})) {
      by[s] = (by[s] ?? 0) + n;
      total += n;
    }
  }
  if (total < 5) return [];
  const sum = (pred: (s: number) => boolean) =>
    Object.entries(by)
      .filter(([s]) => pred(Number(s)))
      .reduce((a, [, n]) => a + n, 0);
  const pct = (n: number) => `${Math.round((100 * n) / total)}%`;
  const auth = sum((s) => s === 401 || s === 403);
  const missing = sum((s) => s === 404);
  const none = sum((s) => s === 0);
  const server = sum((s) => s >= 500);
  const out: string[] = [];
  const tail = 'the verdicts of this run say little about the target';
  if (auth / total > 0.5)
    out.push(
      `${auth} of ${total} answers (${pct(auth)}) are 401/403: check the credentials (CRM_ACCESS_TOKEN and CRM_USER_EMAIL, or CRM_BEARER_TOKEN); ${tail}`,
    );
  else if (missing / total > 0.5)
    out.push(
      `${missing} of ${total} answers (${pct(missing)}) are 404: check CRM_BASE_URL (requests go to ${baseUrl ? `${baseUrl}/developer_api/v1` : '{CRM_BASE_URL}/developer_api/v1'}); ${tail}`,
    );
  else if ((auth + missing) / total > 0.5)
    out.push(`${auth + missing} of ${total} answers (${pct(auth + missing)}) are 401/403/404: check CRM_BASE_URL and the credentials; ${tail}`);
  if (none / total > 0.5)
    out.push(
      `${none} of ${total} requests (${pct(none)}) got no usable answer (timeouts, resets, refused connections, oversized bodies): the target is unreachable or failing; ${tail}`,
    );
  if (server / total > 0.5) out.push(`${server} of ${total} answers (${pct(server)}) are 5xx server errors: the target is failing; ${tail}`);
  return out;
}
