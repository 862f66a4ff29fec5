/**
 * Writes Allure results (allure-results/<uuid>-result.json and its attachments) for every test,
 * with the conformance labels: epic = area, feature = endpoint (or spec section), story = rule
 * id, severity from the level (MUST critical, SHOULD normal, MAY minor), `rule` and `level`
 * labels, and a link to the rule's section of the spec. They are derived from the rule tags
 * every conformance test carries (`@UPSERT-4 @MUST @leads`).
 *
 * A reporter of its own rather than allure-playwright: that one spent about a second of the
 * runner's CPU per run (per-test metadata, every step, an fsync per file), on the thread that also
 * hands tests to the workers. This one writes one result per finished test from what Playwright
 * reports anyway, each file to a temporary name renamed into place (a reader never sees half a
 * file), attachments hard-linked where they can be.
 *
 * The status is the conformance status: a failure held as a skip for Playwright
 * (specs/support/core/repeats.ts, annotation `held`) is a failed result here, with its error,
 * as in conformance.json.
 */
import type { FullConfig, Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { extname, join, relative, sep } from 'node:path';
import { AREAS, getRule, hasRule, ruleLink } from '../rules/index.js';
import { writeWhole } from '../specs/support/core/write-whole.cjs';
import { loadConfig } from '../specs/support/core/config.js';
import { stripAnsi } from '../specs/support/core/redact.js';

export type AllureStatus = 'passed' | 'failed' | 'broken' | 'skipped';
export interface AllureLabel {
  name: string;
  value: string;
}
export interface AllureLink {
  url: string;
  name?: string;
  type?: string;
}
export interface AllureAttachment {
  name: string;
  source: string;
  type: string;
}
export interface AllureStatusDetails {
  message?: string;
  trace?: string;
}
export interface AllureStep {
  name: string;
  status: AllureStatus;
  statusDetails: AllureStatusDetails;
  stage: 'finished';
  start: number;
  stop: number;
  steps: AllureStep[];
  attachments: AllureAttachment[];
  parameters: { name: string; value: string }[];
}
export interface AllureResult extends AllureStep {
  uuid: string;
  historyId: string;
  testCaseId: string;
  fullName: string;
  description?: string;
  labels: AllureLabel[];
  links: AllureLink[];
}

/** Annotations that are labels already (rule(), specs/support/fixtures/rule.ts): not repeated in the description. */
const LABEL_ANNOTATIONS = new Set(['rule', 'level', 'area', 'spec', 'skip', 'fixme']);
/** Annotations that tag the result. */
const TAG_ANNOTATIONS: Record<string, string> = { 'expected-failure': 'known-failure', 'unexpected-pass': 'unexpected-pass', held: 'held' };

/** The test's annotations: the static ones and those its run added (deduplicated). */
function annotationsOf(test: Pick<TestCase, 'annotations'>, result: Pick<TestResult, 'annotations'>): TestCase['annotations'] {
  const seen = new Set<string>();
  return [...test.annotations, ...(result.annotations ?? [])].filter((a) => {
    const key = `${a.type}\u0000${a.description ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Adds the conformance labels and the spec link of the result's first rule tag (none without one). */
export function labelResult(result: AllureResult, specUrl: string): AllureResult {
  const id = result.labels.find((l) => l.name === 'tag' && hasRule(l.value))?.value;
  if (!id) return result;
  const rule = getRule(id);
  const add = [
    { name: 'epic', value: AREAS[rule.area] },
    { name: 'feature', value: rule.endpoint ?? rule.section },
    { name: 'story', value: rule.id },
    { name: 'severity', value: rule.level === 'MUST' ? 'critical' : rule.level === 'SHOULD' ? 'normal' : 'minor' },
    { name: 'rule', value: rule.id },
    { name: 'level', value: rule.level },
  ];
  const names = new Set(add.map((l) => l.name));
  result.labels = [...result.labels.filter((l) => !names.has(l.name)), ...add];
  result.links = [...result.links, { url: ruleLink(specUrl, rule), name: `spec § ${rule.section}`, type: 'link' }];
  return result;
}

/** Playwright's outcome as Allure's status: a held failure is a failure (annotation `held`). */
export function allureStatus(test: Pick<TestCase, 'annotations' | 'expectedStatus'>, result: Pick<TestResult, 'status' | 'annotations'>): AllureStatus {
  const annotations = annotationsOf(test, result);
  if (annotations.some((a) => a.type === 'held')) return 'failed';
  if (result.status === 'timedOut' || result.status === 'interrupted') return 'broken';
  if (result.status === 'skipped') return 'skipped';
  return result.status === test.expectedStatus ? 'passed' : 'failed';
}

function statusDetails(test: TestCase, result: TestResult, status: AllureStatus, annotations: TestCase['annotations']): AllureStatusDetails {
  const held = annotations.find((a) => a.type === 'failure' && annotations.some((b) => b.type === 'held'));
  if (held?.description) return { message: stripAnsi(held.description).split('\n')[0], trace: stripAnsi(held.description) };
  const error = result.errors[0] ?? result.error;
  if (error && status !== 'passed')
    return { message: stripAnsi(error.message ?? String(error.value ?? '')), trace: error.stack ? stripAnsi(error.stack) : undefined };
  if (status === 'skipped') return { message: annotations.find((a) => a.type === 'skip')?.description ?? 'skipped' };
  return {};
}

function stepOf(step: TestStep): AllureStep {
  const start = step.startTime.getTime();
  return {
    name: step.title,
    // A skip inside a step (testInfo.skip()) ends it with Playwright's "Test is skipped" error.
    status: !step.error ? 'passed' : /^(Error: )?Test is skipped/.test(step.error.message ?? '') ? 'skipped' : 'failed',
    statusDetails: step.error ? { message: stripAnsi(step.error.message ?? '') } : {},
    stage: 'finished',
    start,
    stop: start + Math.max(0, step.duration),
    steps: step.steps.filter((s) => s.category === 'test.step').map(stepOf),
    attachments: [],
    parameters: [],
  };
}

/** The Allure result of one finished test, with its attachments as the reporter stored them. */
export function allureResult(test: TestCase, result: TestResult, rootDir: string, specUrl: string, attachments: AllureAttachment[] = []): AllureResult {
  const annotations = annotationsOf(test, result);
  const project = test.parent.project()?.name ?? '';
  const file = relative(rootDir, test.location.file).split(sep).join('/');
  const fullName = `${file} › ${test.titlePath().slice(3).join(' › ') || test.title}`;
  const parameters = project ? [{ name: 'Project', value: project }] : [];
  const testCaseId = md5(`${file}#${test.titlePath().slice(3).join('#')}`);
  const status = allureStatus(test, result);
  const start = result.startTime.getTime();
  const tags = [...test.tags.map((t) => t.replace(/^@/, '')), ...annotations.flatMap((a) => (TAG_ANNOTATIONS[a.type] ? [TAG_ANNOTATIONS[a.type]] : []))];
  const notes = annotations.filter((a) => !LABEL_ANNOTATIONS.has(a.type) && a.description).map((a) => `**${a.type}**: ${stripAnsi(a.description!)}`);
  const labels: AllureLabel[] = [
    { name: 'language', value: 'javascript' },
    { name: 'framework', value: 'playwright' },
    { name: 'package', value: file.replace(/\//g, '.') },
    ...(project ? [{ name: 'parentSuite', value: project }] : []),
    { name: 'suite', value: file },
    ...[...new Set(tags)].map((value) => ({ name: 'tag', value })),
    { name: 'host', value: hostname() },
    { name: 'thread', value: `worker-${result.parallelIndex}` },
  ];
  return labelResult(
    {
      uuid: randomUUID(),
      historyId: `${testCaseId}:${md5(JSON.stringify(parameters))}`,
      testCaseId,
      name: test.title,
      fullName,
      ...(notes.length ? { description: notes.join('\n\n') } : {}),
      status,
      statusDetails: statusDetails(test, result, status, annotations),
      stage: 'finished',
      start,
      stop: start + Math.max(0, result.duration),
      steps: result.steps.filter((s) => s.category === 'test.step').map(stepOf),
      attachments,
      parameters,
      labels,
      links: [],
    },
    specUrl,
  );
}

/** Extension of an attachment file: the path's own, else from the content type. */
function extensionOf(a: TestResult['attachments'][number]): string {
  if (a.path && extname(a.path)) return extname(a.path);
  const type = a.contentType.split(';')[0].trim();
  return (
    (
      {
        'application/json': '.json',
        'text/plain': '.txt',
        'text/html': '.html',
        'text/x-shellscript': '.sh',
        'image/png': '.png',
        'application/zip': '.zip',
      } as Record<string, string>
    )[type] ?? ''
  );
}

export default class AllureResultsReporter implements Reporter {
  private readonly resultsDir: string;
  private specUrl = '';
  private rootDir = process.cwd();
  private made = false;

  /** `specUrl`: where rules are linked (the configuration's: CRM_SPEC_URL, or the rule pages the suite carries). */
  constructor(private readonly options: { resultsDir?: string; specUrl?: string } = {}) {
    this.resultsDir = options.resultsDir ?? './allure-results';
  }

  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig): void {
    this.rootDir = config.rootDir;
    this.specUrl = this.options.specUrl ?? loadConfig().specUrl;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const attachments: AllureAttachment[] = [];
    for (const a of result.attachments) {
      if (!a.path && !a.body) continue;
      const source = `${randomUUID()}-attachment${extensionOf(a)}`;
      try {
        this.publish(source, (tmp) => {
          if (a.path) {
            // A hard link where it can (the same file system): a test's files are written once and never changed.
            try {
              linkSync(a.path, tmp);
            } catch {
              copyFileSync(a.path, tmp);
            }
          } else writeFileSync(tmp, a.body!);
        });
        attachments.push({ name: a.name, source, type: a.contentType });
      } catch {
        /* a file the test removed: the result is still written */
      }
    }
    const res = allureResult(test, result, this.rootDir, this.specUrl, attachments);
    this.publish(`${res.uuid}-result.json`, (tmp) => writeFileSync(tmp, JSON.stringify(res), 'utf8'));
  }

  private publish(name: string, write: (tmp: string) => void): void {
    if (!this.made) {
      mkdirSync(this.resultsDir, { recursive: true });
      this.made = true;
    }
    writeWhole(join(this.resultsDir, name), write);
  }
}
