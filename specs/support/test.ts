/**
 * The suite's `test` and `expect`: fixtures (target configuration, profile, API client with
 * recorded exchanges, a namespace per test) and `rule`, which ties each test to a rule of
 * the catalog and turns SHOULD/MAY failures into warnings.
 */
import { test as base, expect as baseExpect, type TestInfo } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { AREAS, getRule, sectionAnchor, type Rule } from '../../rules/index.js';
import { ApiClient, Recorder, describeExchange, type ApiResponse } from './api.js';
import { loadConfig, type Expectation, type TargetConfig } from './config.js';
import { redactText } from './redact.js';
import type { TargetProfile } from '../../contracts/profile.js';

/** The specification's address (CRM_SPEC_URL; default: the spec file of this checkout). */
export const SPEC_URL = loadConfig().specUrl;

/** A namespace of one test: a unique tag and name prefix so parallel tests never collide. */
export interface Namespace {
  /** Unique id of this test's namespace, e.g. `cc3f9a1b2w0t7`. */
  id: string;
  /** The run's tag, carried by every record the suite creates. */
  runTag: string;
  /** Tags to put on every record this test creates: [runTag, id]. */
  tags: string[];
  /** A unique name inside the namespace. */
  name(label: string): string;
}

export interface Fixtures {
  target: TargetConfig;
  profile: TargetProfile;
  ns: Namespace;
  recorder: Recorder;
  /** Client with the configured credentials. */
  api: ApiClient;
}

let nsCounter = 0;

export const test = base.extend<Fixtures>({
  target: async ({}, use) => { await use(loadConfig()); },
  profile: async ({ target }, use) => { await use(target.profile); },
  ns: async ({ target }, use, testInfo) => {
    const id = `cc${target.runId}w${testInfo.workerIndex}t${++nsCounter}${randomBytes(2).toString('hex')}`;
    const runTag = `crm-conformance-${target.runId}`;
    let n = 0;
    await use({ id, runTag, tags: [runTag, id], name: (label) => `${id} ${label} ${++n}` });
  },
  recorder: async ({}, use, testInfo) => {
    const recorder = new Recorder();
    await use(recorder);
    await attachEvidence(testInfo, recorder);
  },
  // The client brings its own connection pool (undici): no APIRequestContext per test.
  api: async ({ recorder }, use) => {
    await use(new ApiClient(undefined, recorder));
  },
});

async function attachEvidence(testInfo: TestInfo, recorder: Recorder): Promise<void> {
  if (recorder.exchanges.length) {
    // By path: only the file name travels to the runner (a body would be sent base64 over IPC
    // and kept in memory by every reporter).
    const file = testInfo.outputPath('exchanges.json');
    writeFileSync(file, JSON.stringify(recorder.exchanges, null, 2));
    await testInfo.attach('exchanges.json', { path: file, contentType: 'application/json' });
    const failed = testInfo.status !== testInfo.expectedStatus || testInfo.annotations.some((a) => a.type === 'warning' || a.type === 'expected-failure');
    if (failed) {
      const lines = ['#!/bin/sh', '# Replays the requests of this test; export the CRM_* variables first.', ...recorder.exchanges.map((x) => x.curl)];
      await testInfo.attach('replay.sh', { body: lines.join('\n') + '\n', contentType: 'text/x-shellscript' });
    }
  }
  if (recorder.created.length) {
    testInfo.annotations.push({ type: 'created', description: JSON.stringify(recorder.created) });
  }
}

type TestBody = Parameters<typeof test>[2];
type Details = { tag: string[]; annotation: { type: string; description: string }[] };

export interface RuleTestOptions {
  /** Further rules this test also checks. */
  also?: string[];
  tag?: string[];
  timeout?: number;
}

function detailsFor(rule: Rule, also: string[] = [], tags: string[] = []): Details {
  const rules = [rule, ...also.map(getRule)];
  return {
    tag: [...rules.map((r) => `@${r.id}`), `@${rule.level}`, `@${rule.area}`, ...tags],
    annotation: [
      ...rules.map((r) => ({ type: 'rule', description: r.id })),
      { type: 'level', description: rule.level },
      { type: 'area', description: rule.area },
      { type: 'spec', description: `${rule.section} (#${sectionAnchor(rule.section)})` },
    ],
  };
}

/**
 * The arguments of a conformance test of `ruleId`, to spread into `test`:
 *
 *     test(...rule('UPSERT-4', 'more than one match answers 422 with the matching ids', async ({ api }) => { … }));
 *
 * The title is `<ruleId> <behaviour>`; tags and annotations carry the rule, its level and area.
 * A failing SHOULD or MAY test does not fail the run: the failure is recorded as a `warning`
 * annotation (and attachment) and the verdict of its rule becomes WARN. With CRM_STRICT=1,
 * SHOULD failures fail like MUST failures. (`test` must be called in the spec file itself so
 * that Playwright reports the spec's own line.)
 */
export function rule(ruleId: string, behaviour: string, body: TestBody, options: RuleTestOptions = {}): [string, Details, TestBody] {
  const r = getRule(ruleId);
  const details = detailsFor(r, options.also, options.tag);
  const cfg = loadConfig();
  const soft = r.level !== 'MUST' && !(r.level === 'SHOULD' && cfg.strict);
  const title = `${r.id} ${behaviour}`;
  const known = knownFailure(cfg.expectations, title, [r.id, ...(options.also ?? [])]);
  const wrapped = async (fixtures: unknown, testInfo: TestInfo) => {
    if (options.timeout) testInfo.setTimeout(options.timeout);
    await labelForAllure(r);
    try {
      // Inside one step: Playwright then finds the parent of each expect step at once, instead
      // of scanning every earlier step (quadratic: 5,000 expects cost 6 s of CPU, 1.6 s here).
      await test.step(`${r.level} ${r.id}`, () => (body as (f: unknown, t: TestInfo) => Promise<void>)(fixtures, testInfo));
    } catch (err) {
      if (testInfo.expectedStatus === 'skipped') throw err;
      const problem = nameTheProblems(err, fixtures);
      const message = redactText(err instanceof Error ? err.message : String(err));
      const full = redactText(err instanceof Error ? err.stack ?? message : message);
      if (known) {
        // Listed in the CRM_EXPECTATIONS baseline: recorded, but it does not fail the run.
        testInfo.annotations.push({ type: 'expected-failure', description: `${known.reason} (${describeExpectation(known)}): ${summarize(message)}` });
        await testInfo.attach('expected-failure.txt', { body: `Known failure, CRM_EXPECTATIONS ${describeExpectation(known)}: ${known.reason}\n\n${full}`, contentType: 'text/plain' });
        await allureTag('known-failure');
        return;
      }
      if (!soft) throw err;
      testInfo.annotations.push({ type: 'warning', description: `${r.level} ${r.id} not met: ${summarize(message)}${problem ? ` (target problem: ${problem})` : ''}` });
      await testInfo.attach('warning.txt', { body: full, contentType: 'text/plain' });
      return;
    }
    if (known) {
      testInfo.annotations.push({ type: 'unexpected-pass', description: `passed although CRM_EXPECTATIONS lists it (${describeExpectation(known)}: ${known.reason}): remove the entry` });
      await allureTag('unexpected-pass');
    }
  };
  // Playwright reads the fixture names from the body's parameter list: show it the original.
  wrapped.toString = () => body.toString();
  return [title, details, wrapped as unknown as TestBody];
}

/** The baseline entry that covers a test: by its full title, or by one of its rules. */
export function knownFailure(expectations: readonly Expectation[], title: string, rules: readonly string[]): Expectation | undefined {
  return expectations.find((e) => e.title === title) ?? expectations.find((e) => e.rule !== undefined && rules.includes(e.rule));
}

/** One line of a failure: its first line and, for an expect, what was expected and received. */
function summarize(message: string): string {
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean);
  const detail = lines.filter((l) => /^(Expected|Received)( value| array| string)?:/.test(l)).slice(0, 2);
  return [lines[0] ?? '', ...detail].join(' — ').slice(0, 500);
}

const describeExpectation = (e: Expectation) => (e.title !== undefined ? `title "${e.title}"` : `rule ${e.rule}`);

/**
 * A plain `expect` on a body field says nothing of why the field is missing. When the test's
 * requests had visible problems (no answer, invalid JSON, not JSON), they are appended to the
 * error so the failure names the cause. Returns the first problem the message did not name yet.
 */
function nameTheProblems(err: unknown, fixtures: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const f = fixtures as { api?: ApiClient; recorder?: Recorder } | undefined;
  const recorder = f?.recorder ?? f?.api?.recorder;
  if (!recorder) return undefined;
  const troubled = recorder.exchanges.filter((x) => (x.error || x.problem) && !err.message.includes((x.error ?? x.problem)!));
  if (!troubled.length) return undefined;
  const first = `${troubled[0].method} ${troubled[0].url} → ${troubled[0].error ? troubled[0].error : `${troubled[0].status}: ${troubled[0].problem}`}`;
  const lines = [...new Set(troubled.map((x) => `  ${x.method} ${x.url} → ${x.error ? `no usable answer: ${x.error}` : `${x.status}: ${x.problem}`}`))];
  const more = lines.length > 3 ? ` (${lines.length} in all; the last 3)` : '';
  const note = `\n\nProblems with the target's answers in this test${more}:\n${lines.slice(-3).join('\n')}`;
  const before = err.message;
  err.message += note;
  if (err.stack?.includes(before)) err.stack = err.stack.replace(before, err.message);
  return first;
}

async function allureTag(tag: string): Promise<void> {
  try { await allure.tag(tag); } catch { /* allure reporter not active */ }
}

/**
 * Allure labels of a conformance test: epic = area, feature = endpoint (or spec section),
 * story = rule id, severity from the level, and a link to the rule's spec section. Two runtime
 * messages per test; none when only the minimal reporters run (CRM_REPORTERS=minimal).
 */
async function labelForAllure(rule: Rule): Promise<void> {
  if (process.env.CRM_REPORTERS === 'minimal') return;
  try {
    await allure.labels(
      { name: 'epic', value: AREAS[rule.area] },
      { name: 'feature', value: rule.endpoint ?? rule.section },
      { name: 'story', value: rule.id },
      { name: 'severity', value: rule.level === 'MUST' ? 'critical' : rule.level === 'SHOULD' ? 'normal' : 'minor' },
      { name: 'rule', value: rule.id },
      { name: 'level', value: rule.level },
    );
    await allure.links({ url: `${SPEC_URL}#${sectionAnchor(rule.section)}`, name: `spec § ${rule.section}`, type: 'link' });
  } catch {
    /* allure reporter not active */
  }
}

/** Extra top-level members a looseObject contract let through (reported as notes). */
function extraMembers(schema: z.ZodType, value: unknown): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape || !value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !(k in shape));
}

function formatIssues(issues: z.core.$ZodIssue[]): string {
  return issues.slice(0, 25).map((i) => `  at $${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${i.message}`).join('\n') + (issues.length > 25 ? `\n  … ${issues.length - 25} more` : '');
}

const isResponse = (v: unknown): v is ApiResponse => !!v && typeof v === 'object' && 'exchange' in v && 'status' in v;

export const expect = baseExpect.extend({
  /** `expect(value).toMatchContract(Schema)`: each issue with its JSON path. Accepts an ApiResponse (checks its body). */
  toMatchContract(received: unknown, schema: z.ZodType, name?: string) {
    const value = isResponse(received) ? received.body : received;
    const result = schema.safeParse(value);
    const label = name ?? schema.description ?? 'the contract';
    const where = isResponse(received) ? `\n${describeExchange(received.exchange)}` : '';
    if (result.success) {
      const extra = extraMembers(schema, value);
      if (extra.length && !this.isNot) {
        try { base.info().annotations.push({ type: 'note', description: `extra members beyond ${label}: ${extra.join(', ')}` }); } catch { /* outside a test */ }
      }
    }
    return {
      pass: result.success,
      name: 'toMatchContract',
      message: () => (result.success ? `expected the value not to match ${label}${where}` : `expected the value to match ${label}:\n${formatIssues(result.error.issues)}${where}`),
    };
  },
  /** `expect(res).toHaveStatus(200)` or a list of acceptable statuses; prints the exchange. */
  toHaveStatus(received: ApiResponse, expected: number | number[]) {
    const list = Array.isArray(expected) ? expected : [expected];
    const pass = list.includes(received.status);
    return {
      pass,
      name: 'toHaveStatus',
      message: () => `expected status ${this.isNot ? 'not ' : ''}${list.join(' or ')}, got ${received.status}\n${describeExchange(received.exchange)}`,
    };
  },
  /** A refusal: any status outside 2xx (the spec shows no status for most refusals). */
  toBeRefused(received: ApiResponse) {
    const pass = received.status < 200 || received.status >= 300;
    return {
      pass,
      name: 'toBeRefused',
      message: () => (this.isNot ? `expected a 2xx answer, got ${received.status}` : `expected a refusal (any status outside 2xx), got ${received.status}`) + `\n${describeExchange(received.exchange)}`,
    };
  },
  /** Client error, never a server error: 4xx. */
  toBeClientError(received: ApiResponse) {
    const pass = received.status >= 400 && received.status < 500;
    return {
      pass,
      name: 'toBeClientError',
      message: () => `expected ${this.isNot ? 'no ' : 'a '}4xx status, got ${received.status}\n${describeExchange(received.exchange)}`,
    };
  },
});

/** Checks the answer is JSON with Content-Type application/json (WIRE-1). */
export function expectJson(res: ApiResponse): void {
  expect(res.headers['content-type'] ?? '', `Content-Type of ${res.exchange.method} ${res.exchange.url}\n${describeExchange(res.exchange)}`).toMatch(/^application\/json\b/i);
  expect(res.isJson, `the body of ${res.exchange.method} ${res.exchange.url} is JSON\n${describeExchange(res.exchange)}`).toBe(true);
}
