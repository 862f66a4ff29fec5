/**
 * The conformance reporter: maps test results to rule verdicts and writes
 * `conformance.json`, `conformance.html` and `created-records.json`. A MUST failure fails the
 * run (Playwright's own status already says so); SHOULD/MAY failures are warnings.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { getRule, hasRule, ruleIdOfTitle, type Level } from '../rules/index.js';
import { loadConfig } from '../specs/support/config.js';
import { redactText } from '../specs/support/redact.js';
import { renderHtml } from './html.js';
import { buildReport, type ConformanceReport, type TestOutcome } from './verdict.js';

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

export function outcomeOf(test: TestCase, result: TestResult, rootDir: string): TestOutcome {
  const annotations = [...test.annotations, ...((result as unknown as { annotations?: TestCase['annotations'] }).annotations ?? [])];
  const seen = new Set<string>();
  const unique = annotations.filter((a) => { const k = `${a.type}\u0000${a.description}`; if (seen.has(k)) return false; seen.add(k); return true; });
  const rules = unique.filter((a) => a.type === 'rule').map((a) => a.description ?? '');
  const titleRule = ruleIdOfTitle(test.title);
  if (!rules.length && titleRule) rules.push(titleRule);
  const level = (unique.find((a) => a.type === 'level')?.description as Level | undefined) ?? (titleRule && hasRule(titleRule) ? getRule(titleRule).level : undefined);
  const attachment = (name: string) => {
    const a = result.attachments.find((x) => x.name === name);
    if (!a) return undefined;
    if (a.body) return a.body.toString('utf8');
    if (a.path && existsSync(a.path)) return readFileSync(a.path, 'utf8');
    return undefined;
  };
  const failedOrWarned = result.status !== test.expectedStatus || unique.some((a) => a.type === 'warning');
  let exchanges: unknown[] | undefined;
  if (failedOrWarned) {
    try { exchanges = JSON.parse(attachment('exchanges.json') ?? '[]').slice(-10); } catch { exchanges = undefined; }
  }
  const created = unique.filter((a) => a.type === 'created').flatMap((a) => { try { return JSON.parse(a.description ?? '[]'); } catch { return []; } });
  const error = result.errors.map((e) => stripAnsi(e.message ?? e.value ?? '')).join('\n---\n');
  return {
    title: test.title,
    file: relative(rootDir, test.location.file),
    line: test.location.line,
    rules,
    level,
    status: result.status,
    expectedStatus: test.expectedStatus,
    durationMs: result.duration,
    warnings: unique.filter((a) => a.type === 'warning').map((a) => redactText(a.description ?? '')),
    notes: unique.filter((a) => a.type === 'note').map((a) => a.description ?? ''),
    skipReason: unique.find((a) => a.type === 'skip')?.description,
    error: error ? redactText(error).slice(0, 4000) : undefined,
    replay: failedOrWarned ? attachment('replay.sh')?.split('\n').filter((l) => l.startsWith('curl')).slice(-5).join('\n') : undefined,
    counterexample: failedOrWarned ? attachment('counterexample.txt') : undefined,
    exchanges,
    created,
  };
}

export default class ConformanceReporter implements Reporter {
  private outcomes = new Map<string, TestOutcome>();
  private rootDir = process.cwd();
  private outputDir: string;

  constructor(options: { outputDir?: string } = {}) {
    this.outputDir = resolve(options.outputDir ?? 'reports');
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // The last attempt decides (retries are off by default).
    this.outcomes.set(test.id, outcomeOf(test, result, this.rootDir));
  }

  async onEnd(result: FullResult): Promise<void> {
    const cfg = loadConfig();
    const outcomes = [...this.outcomes.values()];
    const report: ConformanceReport = buildReport(outcomes, {
      target: cfg.embedded ? `embedded reference server (${cfg.baseUrl})` : cfg.baseUrl,
      runId: cfg.runId,
      warnings: runWarnings(outcomes),
    });
    const calibration = resolve(this.outputDir, 'calibration.json');
    if (existsSync(calibration)) {
      try { report.calibration = JSON.parse(readFileSync(calibration, 'utf8')).summary; } catch { /* ignore */ }
    }
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(resolve(this.outputDir, 'conformance.json'), JSON.stringify(report, null, 2));
    writeFileSync(resolve(this.outputDir, 'conformance.html'), renderHtml(report));
    const created = outcomes.flatMap((o) => (o.created ?? []).map((c) => ({ ...c, test: o.title })));
    writeFileSync(resolve(this.outputDir, 'created-records.json'), JSON.stringify({ runId: cfg.runId, tag: `crm-conformance-${cfg.runId}`, records: created }, null, 2));
    const c = report.counts;
    console.log(
      `\nConformance: ${report.verdict} — MUST ${c.MUST.PASS} pass / ${c.MUST.FAIL} fail / ${c.MUST.SKIP} skip / ${c.MUST.UNTESTED} untested; ` +
        `SHOULD ${c.SHOULD.PASS} pass / ${c.SHOULD.WARN + c.SHOULD.FAIL} warn; MAY ${c.MAY.PASS} pass / ${c.MAY.WARN} warn. ` +
        `Report: ${relative(process.cwd(), resolve(this.outputDir, 'conformance.html'))} (run status ${result.status})`,
    );
    for (const w of report.warnings) console.log(`warning: ${w}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** Warns when the verdicts look meaningless (wrong credentials or base URL). */
export function runWarnings(outcomes: TestOutcome[]): string[] {
  const statuses: number[] = [];
  for (const o of outcomes) for (const x of (o.exchanges ?? []) as { status?: number }[]) if (x.status) statuses.push(x.status);
  const out: string[] = [];
  const failedCount = outcomes.filter((o) => o.status !== o.expectedStatus && o.status !== 'skipped').length;
  if (outcomes.length >= 10 && failedCount / outcomes.length > 0.6) {
    const authLike = outcomes.filter((o) => /→ (401|403|404)\b/.test(o.error ?? '')).length;
    if (authLike / Math.max(1, failedCount) > 0.5) {
      out.push(`${authLike} of ${failedCount} failures are answers 401/403/404: check CRM_BASE_URL and the credentials before reading the verdicts`);
    }
  }
  return out;
}
