/**
 * From test outcomes to rule verdicts: the data behind conformance.json and conformance.html.
 * Pure functions, shared by the reporter and the shard merge.
 */
import { RULES, type Level, type Rule } from '../rules/index.js';

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
  /** First error message, redacted. */
  error?: string;
  /** Replay lines (curl) of the failing test's requests. */
  replay?: string;
  /** fast-check seed/path line when the test is property-based. */
  counterexample?: string;
  /** The recorded exchanges (redacted), kept for failed and warned tests. */
  exchanges?: unknown[];
  created?: { path: string; id: unknown }[];
}

export interface RuleVerdict {
  id: string;
  level: Level;
  area: string;
  section: string;
  text: string;
  verdict: Verdict;
  reasons: string[];
  tests: { title: string; file: string; line: number; status: string; warnings: string[]; error?: string; replay?: string; counterexample?: string; exchanges?: unknown[] }[];
}

export interface ConformanceReport {
  generatedAt: string;
  target: string;
  runId: string;
  verdict: 'CONFORMANT' | 'NOT CONFORMANT';
  counts: Record<Level, Record<Verdict, number>>;
  tests: { total: number; passed: number; failed: number; skipped: number; warned: number };
  rules: RuleVerdict[];
  /** Tests that name no rule (should not exist) or an unknown rule. */
  untraced: string[];
  warnings: string[];
  calibration?: { score: number; caught: number; faults: number; date: string };
}

const failed = (t: TestOutcome) => t.status !== 'skipped' && t.status !== t.expectedStatus;

export function verdictFor(rule: Rule, tests: TestOutcome[]): { verdict: Verdict; reasons: string[] } {
  if (tests.length === 0) {
    if (rule.untestable) return { verdict: 'UNTESTED', reasons: [`untestable: ${rule.untestable}`] };
    if (rule.pending) return { verdict: 'UNTESTED', reasons: [`pending: ${rule.pending}`] };
    return { verdict: 'UNTESTED', reasons: ['no test ran for this rule'] };
  }
  const bad = tests.filter(failed);
  if (bad.length) {
    const reasons = bad.map((t) => `${t.title}: ${(t.error ?? t.status).split('\n')[0]}`);
    // A SHOULD test only fails outright in strict mode (CRM_STRICT=1); otherwise it warns.
    return { verdict: 'FAIL', reasons };
  }
  const warned = tests.filter((t) => t.warnings.length);
  if (warned.length) return { verdict: 'WARN', reasons: warned.flatMap((t) => t.warnings) };
  if (tests.some((t) => t.status === 'passed')) return { verdict: 'PASS', reasons: [] };
  return { verdict: 'SKIP', reasons: [...new Set(tests.map((t) => t.skipReason ?? 'skipped'))] };
}

export function buildReport(outcomes: TestOutcome[], meta: { target: string; runId: string; warnings?: string[] }): ConformanceReport {
  const byRule = new Map<string, TestOutcome[]>();
  const untraced: string[] = [];
  const known = new Set(RULES.map((r) => r.id));
  for (const t of outcomes) {
    if (!t.rules.length) untraced.push(t.title);
    for (const id of t.rules) {
      if (!known.has(id)) untraced.push(`${t.title} (unknown rule ${id})`);
      byRule.set(id, [...(byRule.get(id) ?? []), t]);
    }
  }
  const rules: RuleVerdict[] = RULES.map((rule) => {
    const tests = byRule.get(rule.id) ?? [];
    const { verdict, reasons } = verdictFor(rule, tests);
    const keepDetail = verdict === 'FAIL' || verdict === 'WARN';
    return {
      id: rule.id, level: rule.level, area: rule.area, section: rule.section, text: rule.text, verdict, reasons,
      tests: tests.map((t) => ({
        title: t.title, file: t.file, line: t.line, status: failed(t) ? 'failed' : t.warnings.length ? 'warned' : t.status, warnings: t.warnings,
        ...(keepDetail && (failed(t) || t.warnings.length) ? { error: t.error, replay: t.replay, counterexample: t.counterexample, exchanges: t.exchanges } : {}),
      })),
    };
  });
  const zero = (): Record<Verdict, number> => ({ PASS: 0, FAIL: 0, WARN: 0, SKIP: 0, UNTESTED: 0 });
  const counts: Record<Level, Record<Verdict, number>> = { MUST: zero(), SHOULD: zero(), MAY: zero() };
  for (const r of rules) counts[r.level][r.verdict]++;
  const mustFailed = rules.some((r) => r.level === 'MUST' && r.verdict === 'FAIL');
  return {
    generatedAt: new Date().toISOString(),
    target: meta.target,
    runId: meta.runId,
    verdict: mustFailed ? 'NOT CONFORMANT' : 'CONFORMANT',
    counts,
    tests: {
      total: outcomes.length,
      passed: outcomes.filter((t) => t.status === 'passed' && !t.warnings.length).length,
      failed: outcomes.filter(failed).length,
      skipped: outcomes.filter((t) => t.status === 'skipped').length,
      warned: outcomes.filter((t) => !failed(t) && t.warnings.length > 0).length,
    },
    rules,
    untraced,
    warnings: meta.warnings ?? [],
  };
}
