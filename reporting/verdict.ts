/**
 * From test outcomes to rule verdicts: the data behind conformance.json and conformance.html.
 * Pure functions, shared by the reporter and the shard merge (reporting/merge.ts).
 */
import { RULES, ruleIdOfTitle, type Level, type Rule } from '../rules/index.js';
import type { PreflightResult } from '../specs/support/core/preflight.js';
import { runCommand } from '../specs/support/core/replay.js';
import { suiteVersion } from './runs.js';
import { describeExpectation } from '../specs/support/core/expectations.js';

export type Verdict = 'PASS' | 'FAIL' | 'WARN' | 'SKIP' | 'UNTESTED';

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
  /** Replay lines (curl) of the failing test's requests. */
  replay?: string;
  /** fast-check seed/path line when the test is property-based. */
  counterexample?: string;
  /** The recorded exchanges (redacted), kept for failed and warned tests. */
  exchanges?: unknown[];
  created?: { path: string; id: unknown }[];
  /** Requests the test sent (every test, from its exchanges). */
  requests?: number;
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
    counterexample?: string;
    exchanges?: unknown[];
    expectedFailure?: string;
    unexpectedPass?: string;
    /** A held failure: why (Playwright reports this test as skipped); a repeat names the test that failed first. */
    held?: string;
    repeatOf?: string;
    /** Status `not-judged`: the test failed on these rules (its failure names them) before judging this one. */
    failedOn?: string[];
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
    /** CRM_EXPECTATIONS_STALE=fail: a stale entry fails the run. */
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
}

/** A property's runs: `runs` made of `planned`; `cut`: its time budget stopped it; `inFlight` and `budgetS` when the latency raised them. */
export interface PropertyPower {
  rule: string;
  property: string;
  runs: number;
  planned: number;
  cut: boolean;
  inFlight?: number;
  budgetS?: number;
}

/** A failure that fails the run. */
export const failed = (t: Pick<TestOutcome, 'status' | 'expectedStatus'>) => t.status !== 'skipped' && t.status !== t.expectedStatus;
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
}

/**
 * The rules a failed (or known-failed) test's failure is credited to; undefined: every rule of the
 * test (the failure names none). A failure that names several rules (a prediction that rests on
 * each of them: "one match by e-mail updates that Lead" on UPSERT-3 and UPSERT-8) counts against
 * those whose own tests (titled with the rule) did not all pass in this run; when each one's own
 * tests passed, or none ran, against all of them.
 */
function attributed(t: TestOutcome, knownIds: Set<string>, ownTests: Map<string, TestOutcome[]>): string[] | undefined {
  if (!(failed(t) || t.expectedFailure) || !t.brokenRules?.length) return undefined;
  const ids = [...new Set(t.brokenRules.filter((id) => knownIds.has(id)))];
  if (ids.length < 2) return ids.length ? ids : undefined;
  const cleared = (id: string) => {
    const own = (ownTests.get(id) ?? []).filter((o) => o !== t && o.status !== 'skipped');
    return own.length > 0 && own.every((o) => o.status === 'passed' && !failed(o) && !o.expectedFailure && !o.warnings.length);
  };
  const left = ids.filter((id) => !cleared(id));
  return left.length ? left : ids;
}

export function buildReport(outcomes: TestOutcome[], meta: ReportMeta): ConformanceReport {
  const byRule = new Map<string, TestOutcome[]>();
  // Tests that cover a rule but failed on another one their failure names: they did not judge it.
  const spared = new Map<string, { test: TestOutcome; on: string[] }[]>();
  const untraced: string[] = [];
  const knownIds = new Set(RULES.map((r) => r.id));
  // Each rule's own tests: those titled with it (`rule('UPSERT-8', …)`).
  const ownTests = new Map<string, TestOutcome[]>();
  for (const t of outcomes) {
    const id = ruleIdOfTitle(t.title);
    if (id) ownTests.set(id, [...(ownTests.get(id) ?? []), t]);
  }
  const credit = new Map(outcomes.map((t) => [t, attributed(t, knownIds, ownTests)]));
  for (const t of outcomes) {
    if (!t.rules.length) untraced.push(t.title);
    for (const id of t.rules) if (!knownIds.has(id)) untraced.push(`${t.title} (unknown rule ${id})`);
    const broken = credit.get(t);
    for (const id of broken ? [...new Set([...t.rules, ...broken])] : t.rules) {
      if (broken && !broken.includes(id)) spared.set(id, [...(spared.get(id) ?? []), { test: t, on: broken }]);
      else byRule.set(id, [...(byRule.get(id) ?? []), t]);
    }
  }
  const preflightFindings = new Map(
    (meta.preflight?.state === 'nonsense' ? meta.preflight.findings : []).map((f) => [f.rule, `${f.message}; replay: ${f.replay}`]),
  );
  const rules: RuleVerdict[] = RULES.map((rule) => {
    const tests = byRule.get(rule.id) ?? [];
    const others = spared.get(rule.id) ?? [];
    let { verdict, reasons, known: isKnown } = verdictFor(rule, tests);
    if (!tests.length && others.length)
      reasons = others.map(
        (o) =>
          `not judged: "${o.test.title}" failed on ${o.on.join(', ')} (its failure names ${o.on.length === 1 ? 'that rule' : 'those rules'}) before it could judge this one`,
      );
    // A MUST rule the preflight saw broken fails, its tests skipped with the rest of the run.
    const finding = preflightFindings.get(rule.id);
    if (finding && verdict !== 'FAIL') {
      verdict = 'FAIL';
      reasons = [`preflight: ${finding}`, ...reasons];
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
      tests: tests
        .map((t) => ({
          title: t.title,
          file: t.file,
          line: t.line,
          status: testStatus(t),
          warnings: t.warnings,
          durationMs: t.durationMs,
          ...(t.unexpectedPass ? { unexpectedPass: t.unexpectedPass } : {}),
          ...(t.held && failed(t) ? { held: t.held, ...(t.repeatOf ? { repeatOf: t.repeatOf } : {}) } : {}),
          ...(credit.get(t) ? { breaks: credit.get(t) } : {}),
          ...(failed(t) && t.rules.length > 1 ? { covers: t.rules } : {}),
          ...(keepDetail && (failed(t) || t.warnings.length || t.expectedFailure)
            ? { error: t.error, replay: t.replay, counterexample: t.counterexample, exchanges: t.exchanges, expectedFailure: t.expectedFailure }
            : {}),
        }))
        .concat(
          others.map(({ test: t, on }) => ({
            title: t.title,
            file: t.file,
            line: t.line,
            status: 'not-judged',
            warnings: [],
            durationMs: t.durationMs,
            failedOn: on,
          })),
        ),
    };
  });
  const coverage = coverageOf(rules, byRule);
  const scope: Scope = coverage.judged === 0 ? 'none' : coverage.notJudged > 0 ? 'partial' : 'complete';
  const zero = (): Record<Verdict, number> => ({ PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, UNTESTED: 0 });
  const counts: Record<Level, Record<Verdict, number>> = { MUST: zero(), SHOULD: zero(), MAY: zero() };
  for (const r of rules) counts[r.level][r.verdict]++;
  const mustFailed = rules.some((r) => r.level === 'MUST' && r.verdict === 'FAIL');
  const down = outcomes.filter((t) => t.status === 'skipped' && t.targetDown);
  const pre = meta.preflight;
  let verdict: OverallVerdict = mustFailed ? 'NOT CONFORMANT' : 'CONFORMANT';
  let verdictReason: string | undefined;
  if (pre && pre.state !== 'alive') verdictReason = pre.headline;
  else if (down.length) verdictReason = `${down.length} test(s) skipped: ${down[0].targetDown}`;
  if (verdict === 'CONFORMANT' && (down.length || (pre && pre.state !== 'alive'))) verdict = 'INCONCLUSIVE';
  // A test that could not be judged is no pass: with no MUST failure, the run is not CONFORMANT either.
  const unjudged = outcomes.filter((t) => t.status === 'skipped' && t.notJudged);
  if (verdict === 'CONFORMANT' && unjudged.length) {
    verdict = 'INCONCLUSIVE';
    verdictReason = `${unjudged.length} test(s) could not be judged: ${unjudged[0].notJudged}`;
  }
  // A run that judged no rule (no test ran, or every test was skipped) is never CONFORMANT.
  if (verdict === 'CONFORMANT' && scope === 'none') {
    verdict = 'INCONCLUSIVE';
    verdictReason = nothingJudged(outcomes, meta.stopped);
  }
  // A merge missing a shard: the rules of that shard were never tried.
  if (verdict === 'CONFORMANT' && meta.incomplete) {
    verdict = 'INCONCLUSIVE';
    verdictReason = meta.incomplete;
  }
  const byStatus: Record<string, number> = {};
  let requests = 0;
  for (const t of outcomes) {
    requests += t.requests ?? 0;
    for (const [s, n] of Object.entries(t.statuses ?? {})) byStatus[s] = (byStatus[s] ?? 0) + n;
  }
  const version = suiteVersion();
  const report: ConformanceReport = {
    generatedAt: new Date().toISOString(),
    ...(version ? { suiteVersion: version } : {}),
    target: meta.target,
    runId: meta.runId,
    verdict,
    verdictLine: verdictLineOf(verdict, scope, coverage),
    scope,
    coverage,
    ...(verdictReason ? { verdictReason } : {}),
    rootCauses: rootCauseOrder(rules),
    ...(pre ? { preflight: pre } : {}),
    ...(down.length ? { targetDown: { tests: down.length, reason: down[0].targetDown! } } : {}),
    ...(unjudged.length ? { notJudged: { tests: unjudged.length, reason: unjudged[0].notJudged! } } : {}),
    counts,
    tests: {
      total: outcomes.length,
      passed: outcomes.filter((t) => t.status === 'passed' && !t.warnings.length && !t.expectedFailure).length,
      failed: outcomes.filter(failed).length,
      skipped: outcomes.filter((t) => t.status === 'skipped').length,
      warned: outcomes.filter((t) => !failed(t) && !t.expectedFailure && t.warnings.length > 0).length,
      knownFailures: outcomes.filter(known).length,
      unexpectedPasses: outcomes.filter((t) => t.unexpectedPass).length,
    },
    requests: { total: requests, byStatus },
    rules,
    untraced,
    warnings: meta.warnings ?? [],
    ...(meta.depth ? { depth: meta.depth } : {}),
    ...(propertyPower(outcomes).length ? { power: propertyPower(outcomes) } : {}),
  };
  if (meta.expectations) {
    const matched = (e: { rule?: string; title?: string }) => outcomes.some((t) => (e.title !== undefined ? t.title === e.title : t.rules.includes(e.rule!)));
    report.expectations = {
      source: meta.expectations.source,
      entries: meta.expectations.entries.length,
      knownFailures: outcomes.filter(known).map((t) => ({ title: t.title, reason: t.expectedFailure! })),
      unexpectedPasses: outcomes.filter((t) => t.unexpectedPass).map((t) => ({ title: t.title, file: t.file, line: t.line, reason: t.unexpectedPass! })),
      unmatched: meta.expectations.entries.filter((e) => !matched(e)).map(describeExpectation),
      stale: staleEntries(meta.expectations.entries, outcomes),
      expired: (meta.expectations.expired ?? []).map((e) => ({
        entry: describeExpectation(e),
        reason: e.reason,
        expires: e.expires ?? '',
        ...(e.issue ? { issue: e.issue } : {}),
      })),
      ...(meta.expectations.failOnStale ? { failOnStale: true } : {}),
    };
  }
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

/** Counts what the run judged (see {@link Coverage}). */
function coverageOf(rules: RuleVerdict[], byRule: Map<string, TestOutcome[]>): Coverage {
  const c: Coverage = { judgeable: 0, judged: 0, notApplicable: 0, notJudged: 0, untestable: 0 };
  const untestable = new Set(RULES.filter((r) => r.untestable).map((r) => r.id));
  for (const r of rules) {
    if (untestable.has(r.id)) {
      c.untestable++;
      continue;
    }
    c.judgeable++;
    if (r.verdict === 'PASS' || r.verdict === 'FAIL' || r.verdict === 'WARN') c.judged++;
    // Skipped for the target (a capability it lacks): not applicable. Skipped because the target went
    // down or an observation never came: not judged.
    else if (r.verdict === 'SKIP' && (byRule.get(r.id) ?? []).every((t) => !t.targetDown && !t.notJudged)) c.notApplicable++;
    else c.notJudged++;
  }
  return c;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The verdict as a user reads it: qualified unless the run judged every judgeable rule. */
export function verdictLineOf(verdict: OverallVerdict, scope: Scope, c: Coverage): string {
  if (verdict === 'INCONCLUSIVE' || scope === 'complete') return verdict;
  if (verdict === 'CONFORMANT') return `CONFORMANT for the ${plural(c.judged, 'rule')} judged (${plural(c.notJudged, 'rule')} not judged in this run)`;
  return `${verdict} (${plural(c.judged, 'rule')} judged, ${c.notJudged} not judged in this run)`;
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
 * Failed and warned rules, the likeliest root cause first: a rule with both its own failing test
 * (a test written for that rule alone) and a failure that names it, then its own failing test, then
 * a failure naming it, then a failing combined test written for it (`rule(id, …, { also })`),
 * then a rule failed only as one of the rules a combined test covers. Then FAIL before WARN, known
 * failures after, MUST before SHOULD and MAY, catalog order.
 */
export function rootCauseOrder(rules: RuleVerdict[]): string[] {
  const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY'];
  const flagged = rules.map((r, i) => ({ r, i })).filter(({ r }) => r.verdict === 'FAIL' || r.verdict === 'WARN');
  const evidence = (r: RuleVerdict) => {
    const bad = r.tests.filter((t) => t.status === 'failed' || t.status === 'known-failure' || t.status === 'warned');
    const mine = bad.filter((t) => ruleIdOfTitle(t.title) === r.id);
    const own = mine.some((t) => !t.covers || t.covers.length < 2);
    const named = bad.some((t) => t.breaks?.includes(r.id));
    return own && named ? 0 : own ? 1 : named ? 2 : mine.length ? 3 : 4;
  };
  const key = ({ r, i }: { r: RuleVerdict; i: number }) => [r.verdict === 'FAIL' ? 0 : 1, r.known ? 1 : 0, evidence(r), LEVELS.indexOf(r.level), i];
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
/** The note of every property: `property "<name>": <n> runs of <m>[ (time limit reached)], seed <s>[ (<k> in flight at <l> ms, budget <b> s)]`. */
const POWER_NOTE = /^property "(.+)": (\d+) runs of (\d+)( \(time limit reached\))?, seed -?\d+(?: \((\d+) in flight at [\d.]+ ms(?:, budget (\d+) s)?\))?/;

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
        ...(m[5] ? { inFlight: Number(m[5]) } : {}),
        ...(m[6] ? { budgetS: Number(m[6]) } : {}),
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
