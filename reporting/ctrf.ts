/**
 * The run as CTRF, the Common Test Report Format (https://ctrf.io), beside Playwright's JUnit:
 * `ctrf-report.json` of the report directory, built with `ctrf`, the format's reference
 * implementation (its builders, its deterministic test ids; its validator checks the document
 * against the schema it ships). Each test carries its rules, level and area as labels (and its
 * rules as tags), the report the run id (CRM_RUN_ID, one for every shard of a run). Written
 * with conformance.json from the same outcomes (reporting/conformance-reporter.ts, writeReport),
 * so a merge of shards (reporting/merge.ts) writes the merged one too.
 *
 * Statuses follow the gate: `failed` is a test that fails the run; a known failure (the
 * baseline lists it) and a warned test (a SHOULD or MAY rule) are `other`, with `rawStatus`
 * saying which; a test that could not judge its rule is `skipped` with `rawStatus` `not-judged`.
 */
import { ReportBuilder, TestBuilder, generateReportId, generateTestId, type CTRFReport, type LabelValue, type Test } from 'ctrf';
import { AREAS, getRule, hasRule } from '../rules/index.js';
import { failed, type ConformanceReport, type TestOutcome } from './verdict.js';

export const CTRF_FILE = 'ctrf-report.json';

function statusOf(t: TestOutcome): { status: Test['status']; raw: string } {
  if (failed(t)) return { status: 'failed', raw: t.held ? 'failed (held)' : t.status };
  if (t.expectedFailure) return { status: 'other', raw: 'known-failure' };
  if (t.status === 'skipped') return { status: 'skipped', raw: t.notJudged ? 'not-judged' : t.targetDown ? 'target-down' : 'skipped' };
  if (t.warnings.length) return { status: 'other', raw: 'warned' };
  return { status: t.status === 'passed' ? 'passed' : 'other', raw: t.status };
}

function messageOf(t: TestOutcome): string | undefined {
  if (failed(t)) return t.error?.split('\n')[0];
  if (t.expectedFailure) return `known failure (CRM_EXPECTATIONS): ${t.expectedFailure.split('\n')[0]}`;
  if (t.status === 'skipped') return t.notJudged ?? t.targetDown ?? t.skipReason;
  if (t.warnings.length) return t.warnings.join('\n');
  return undefined;
}

/** CI's own description of the build, where the environment says it (GitHub Actions, GitLab CI). */
function buildEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const gh = env.GITHUB_ACTIONS === 'true';
  const pick = {
    commit: gh ? env.GITHUB_SHA : env.CI_COMMIT_SHA,
    branchName: gh ? env.GITHUB_REF_NAME : env.CI_COMMIT_REF_NAME,
    buildId: gh ? env.GITHUB_RUN_ID : env.CI_PIPELINE_ID,
    buildUrl: gh && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : env.CI_PIPELINE_URL,
    repositoryName: gh ? env.GITHUB_REPOSITORY : env.CI_PROJECT_PATH,
  };
  return Object.fromEntries(Object.entries(pick).filter((e): e is [string, string] => !!e[1]));
}

/** A label's list is never empty (the schema's `minItems: 1`). */
const list = (xs: string[] | undefined): LabelValue | undefined => (xs?.length ? (xs as [string, ...string[]]) : undefined);

function labelsOf(t: TestOutcome, first: string | undefined, level: string | undefined, area: string | undefined): Record<string, LabelValue> {
  const labels: Record<string, LabelValue | undefined> = { rule: first, rules: list(t.rules), level: t.level ?? level, area, breaks: list(t.brokenRules) };
  return Object.fromEntries(Object.entries(labels).filter((e): e is [string, LabelValue] => e[1] !== undefined));
}

export function ctrfReport(report: ConformanceReport, outcomes: TestOutcome[], env: NodeJS.ProcessEnv = process.env): CTRFReport {
  const stop = Date.parse(report.generatedAt) || Date.now();
  const builder = new ReportBuilder()
    .tool({ name: 'crm-conformance', ...(report.suiteVersion ? { version: report.suiteVersion } : {}) })
    .reportId(generateReportId())
    .runId(report.runId)
    .timestamp(report.generatedAt)
    .generatedBy('crm-conformance')
    .environment({
      reportName: 'CRM Developer API conformance',
      testEnvironment: report.target,
      ...buildEnvironment(env),
      extra: { verdict: report.verdict, verdictLine: report.verdictLine, ...(report.depth ? { depth: report.depth } : {}) },
    })
    .summaryOverrides({ start: Math.round(stop - (report.durationMs ?? 0)), stop })
    .extra({
      verdict: report.verdict,
      verdictLine: report.verdictLine,
      ...(report.shards?.length ? { shards: report.shards } : {}),
      ...(report.partial ? { partial: report.partial } : {}),
    });
  for (const t of outcomes) {
    const first = t.rules.find(hasRule);
    const rule = first ? getRule(first) : undefined;
    const suite = [rule ? AREAS[rule.area] : 'untraced', t.file];
    const { status, raw } = statusOf(t);
    const message = messageOf(t);
    const b = new TestBuilder()
      .name(t.title)
      .status(status)
      .duration(Math.max(0, Math.round(t.durationMs)))
      .testId(generateTestId({ name: t.title, suite, filePath: t.file }))
      .suite(suite)
      .filePath(t.file)
      .line(t.line)
      .rawStatus(raw)
      .type('api')
      .tags([...t.rules, ...(t.level ? [t.level] : [])])
      .labels(labelsOf(t, first, rule?.level, rule?.area));
    if (message) b.message(message.slice(0, 2000));
    if (failed(t) && t.error) b.trace(t.error);
    if (t.project || t.shard) b.extra({ ...(t.project ? { project: t.project } : {}), ...(t.shard ? { shard: t.shard } : {}) });
    builder.addTest(b.build());
  }
  return builder.build();
}
