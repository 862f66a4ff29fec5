/**
 * From test outcomes to rule verdicts: the data behind conformance.json and conformance.html.
 * Pure functions, shared by the reporter and the shard merge (reporting/merge.ts).
 */
import { RULES, type Level, type Rule } from '../rules/index.js';
import type { PreflightResult } from '../specs/support/core/preflight.js';

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
    title: string; file: string; line: number; status: TestStatus; warnings: string[]; durationMs?: number;
    error?: string; replay?: string; counterexample?: string; exchanges?: unknown[]; expectedFailure?: string; unexpectedPass?: string;
    /** A held failure: why (Playwright reports this test as skipped); a repeat names the test that failed first. */
    held?: string; repeatOf?: string;
  }[];
}

/**
 * CONFORMANT: no MUST rule fails and the target could be judged. NOT CONFORMANT: a MUST rule
 * fails. INCONCLUSIVE: no MUST rule fails, but the target could not be judged (dead at the
 * preflight, or it stopped answering and tests were skipped; or a test could not be judged because
 * an observation it needs never came): never CONFORMANT then.
 */
export type OverallVerdict = 'CONFORMANT' | 'NOT CONFORMANT' | 'INCONCLUSIVE';

export interface ConformanceReport {
  generatedAt: string;
  target: string;
  runId: string;
  verdict: OverallVerdict;
  /** Why the verdict is INCONCLUSIVE or rests on the preflight (one line). */
  verdictReason?: string;
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
    /** Entries that matched no test of this run (stale, or filtered out). */
    unmatched: string[];
  };
  /** Shards merged into this report ("1/3", …), when it comes from reporting/merge.ts or one shard. */
  shards?: string[];
  /** This report covers one shard only: its verdict is partial until the shards are merged. */
  partial?: string;
  calibration?: { score: number; caught: number; faults: number; date: string };
  /** Where the spec is published; rule sections link to it. */
  specUrl?: string;
  durationMs?: number;
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
  expectations?: { source: string; entries: { rule?: string; title?: string; reason: string }[] };
  shards?: string[];
  partial?: string;
  specUrl?: string;
  durationMs?: number;
  preflight?: PreflightResult;
}

export function buildReport(outcomes: TestOutcome[], meta: ReportMeta): ConformanceReport {
  const byRule = new Map<string, TestOutcome[]>();
  const untraced: string[] = [];
  const knownIds = new Set(RULES.map((r) => r.id));
  for (const t of outcomes) {
    if (!t.rules.length) untraced.push(t.title);
    for (const id of t.rules) {
      if (!knownIds.has(id)) untraced.push(`${t.title} (unknown rule ${id})`);
      byRule.set(id, [...(byRule.get(id) ?? []), t]);
    }
  }
  const preflightFindings = new Map((meta.preflight?.state === 'nonsense' ? meta.preflight.findings : []).map((f) => [f.rule, `${f.message}; replay: ${f.replay}`]));
  const rules: RuleVerdict[] = RULES.map((rule) => {
    const tests = byRule.get(rule.id) ?? [];
    let { verdict, reasons, known: isKnown } = verdictFor(rule, tests);
    // A MUST rule the preflight saw broken fails, its tests skipped with the rest of the run.
    const finding = preflightFindings.get(rule.id);
    if (finding && verdict !== 'FAIL') { verdict = 'FAIL'; reasons = [`preflight: ${finding}`, ...reasons]; isKnown = undefined; }
    const keepDetail = verdict === 'FAIL' || verdict === 'WARN';
    return {
      id: rule.id, level: rule.level, area: rule.area, section: rule.section, ...(rule.endpoint ? { endpoint: rule.endpoint } : {}),
      text: rule.text, verdict, ...(isKnown ? { known: true } : {}), reasons,
      tests: tests.map((t) => ({
        title: t.title, file: t.file, line: t.line, status: testStatus(t), warnings: t.warnings, durationMs: t.durationMs,
        ...(t.unexpectedPass ? { unexpectedPass: t.unexpectedPass } : {}),
        ...(t.held && failed(t) ? { held: t.held, ...(t.repeatOf ? { repeatOf: t.repeatOf } : {}) } : {}),
        ...(keepDetail && (failed(t) || t.warnings.length || t.expectedFailure)
          ? { error: t.error, replay: t.replay, counterexample: t.counterexample, exchanges: t.exchanges, expectedFailure: t.expectedFailure }
          : {}),
      })),
    };
  });
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
  const byStatus: Record<string, number> = {};
  let requests = 0;
  for (const t of outcomes) {
    requests += t.requests ?? 0;
    for (const [s, n] of Object.entries(t.statuses ?? {})) byStatus[s] = (byStatus[s] ?? 0) + n;
  }
  const report: ConformanceReport = {
    generatedAt: new Date().toISOString(),
    target: meta.target,
    runId: meta.runId,
    verdict,
    ...(verdictReason ? { verdictReason } : {}),
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
  };
  if (meta.expectations) {
    const matched = (e: { rule?: string; title?: string }) => outcomes.some((t) => (e.title !== undefined ? t.title === e.title : t.rules.includes(e.rule!)));
    report.expectations = {
      source: meta.expectations.source,
      entries: meta.expectations.entries.length,
      knownFailures: outcomes.filter(known).map((t) => ({ title: t.title, reason: t.expectedFailure! })),
      unexpectedPasses: outcomes.filter((t) => t.unexpectedPass).map((t) => ({ title: t.title, file: t.file, line: t.line, reason: t.unexpectedPass! })),
      unmatched: meta.expectations.entries.filter((e) => !matched(e)).map((e) => (e.title !== undefined ? `title "${e.title}"` : `rule ${e.rule}`)),
    };
  }
  if (meta.shards?.length) report.shards = meta.shards;
  if (meta.partial) report.partial = meta.partial;
  if (meta.specUrl) report.specUrl = meta.specUrl;
  if (meta.durationMs !== undefined) report.durationMs = meta.durationMs;
  return report;
}

/** The note of a property stopped by its time budget (specs/support/property.ts): `property "<name>": <n> runs of <m> (time limit reached), seed <s>`. */
const BUDGET_NOTE = /^property "(.+)": (\d+) runs of (\d+) \(time limit reached\)/;

/**
 * Warns when the verdicts look meaningless: most answers of the whole run (every test, passed
 * or not) are 401/403 (credentials), 404 (base URL), 5xx or no answer at all; and when properties
 * made fewer random runs than asked because the target answered too slowly for their time budget.
 */
export function runWarnings(outcomes: TestOutcome[], baseUrl?: string): string[] {
  const cut = outcomes.flatMap((o) => o.notes.map((n) => BUDGET_NOTE.exec(n)).filter((m) => m !== null).map((m) => `${o.title.split(' ')[0]} (${m[1].split(' ').slice(0, 3).join(' ')}) ${m[2]} of ${m[3]}`));
  const budgetWarning = cut.length
    ? [`${cut.length} propert${cut.length === 1 ? 'y' : 'ies'} stopped at ${cut.length === 1 ? 'its' : 'their'} time budget, the target answering too slowly for all ${cut.length === 1 ? 'its' : 'their'} runs (${cut.join(', ')} runs): ${cut.length === 1 ? 'its' : 'their'} rules were judged on fewer random inputs than against a fast target; CRM_FC_RUNS raises runs and budgets together`]
    : [];
  return [...meaningless(outcomes, baseUrl), ...budgetWarning];
}

function meaningless(outcomes: TestOutcome[], baseUrl?: string): string[] {
  const by: Record<string, number> = {};
  let total = 0;
  for (const o of outcomes) {
    for (const [s, n] of Object.entries(o.statuses ?? {})) { by[s] = (by[s] ?? 0) + n; total += n; }
  }
  if (total < 5) return [];
  const sum = (pred: (s: number) => boolean) => Object.entries(by).filter(([s]) => pred(Number(s))).reduce((a, [, n]) => a + n, 0);
  const pct = (n: number) => `${Math.round((100 * n) / total)}%`;
  const auth = sum((s) => s === 401 || s === 403);
  const missing = sum((s) => s === 404);
  const none = sum((s) => s === 0);
  const server = sum((s) => s >= 500);
  const out: string[] = [];
  const tail = 'the verdicts of this run say little about the target';
  if (auth / total > 0.5) out.push(`${auth} of ${total} answers (${pct(auth)}) are 401/403: check the credentials (CRM_ACCESS_TOKEN and CRM_USER_EMAIL, or CRM_BEARER_TOKEN); ${tail}`);
  else if (missing / total > 0.5) out.push(`${missing} of ${total} answers (${pct(missing)}) are 404: check CRM_BASE_URL (requests go to ${baseUrl ? `${baseUrl}/developer_api/v1` : '{CRM_BASE_URL}/developer_api/v1'}); ${tail}`);
  else if ((auth + missing) / total > 0.5) out.push(`${auth + missing} of ${total} answers (${pct(auth + missing)}) are 401/403/404: check CRM_BASE_URL and the credentials; ${tail}`);
  if (none / total > 0.5) out.push(`${none} of ${total} requests (${pct(none)}) got no usable answer (timeouts, resets, refused connections, oversized bodies): the target is unreachable or failing; ${tail}`);
  if (server / total > 0.5) out.push(`${server} of ${total} answers (${pct(server)}) are 5xx server errors: the target is failing; ${tail}`);
  return out;
}
