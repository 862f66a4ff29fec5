/**
 * The suite's `test` and `expect`: fixtures (target configuration, profile, API client with
 * recorded exchanges, a namespace per test) and `rule`, which ties each test to a rule of
 * the catalog and turns SHOULD/MAY failures into warnings.
 */
import { _baseTest as base, expect as baseExpect, type TestInfo } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { getRule, sectionAnchor, type Rule } from '../../rules/index.js';
import { ApiClient, Recorder, describeExchange, type ApiResponse } from './api.js';
import { loadConfig, useEndpoint, type Endpoint, type Expectation, type TargetConfig } from './config.js';
import { redactText } from './redact.js';
import type { TargetProfile } from '../../contracts/profile.js';
import type { Browser } from '@playwright/test';
import type { WorkerResource } from './browser.js';
import type { CallbackReceiver } from './callback-receiver.js';
import type { WebhookReceiver } from './webhook-receiver.js';

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
  /** Client with the configured credentials; `api.recorder` keeps the test's exchanges. */
  api: ApiClient;
}

/**
 * Worker fixtures of every kind of test, created lazily by the first test that asks for them.
 * They are declared here, in the one base `test`, because Playwright gives each set of worker
 * fixtures its own workers: declared in the OAuth and webhook `test`s, they made a run start
 * three phases of workers, one after the other. Their set-up code is imported on first use.
 */
export interface WorkerFixtures {
  /** The running test's namespace (see the fixture): unique tags and names, so parallel tests never collide. */
  ns: Namespace;
  /** The run's configuration (environment variables and target profile). */
  target: TargetConfig;
  /** The target profile: fixtures, capabilities, OAuth screens. */
  profile: TargetProfile;
  /** Chromium for the OAuth screens, or why there is none (specs/support/browser.ts). */
  oauthBrowser: WorkerResource<Browser>;
  /** The OAuth callback receiver of this worker (specs/support/callback-receiver.ts). */
  callbackReceiver: WorkerResource<CallbackReceiver>;
  /** The webhook receiver of this worker (specs/support/webhook-receiver.ts). */
  webhookReceiver: WebhookReceiver;
  /**
   * An option, set only by the fault matrix (scripts/matrix.config.ts): the project's own target
   * instance. Undefined ⇒ the configured target.
   */
  instance: Instance | undefined;
  /** Points the worker at its project's instance before anything reads the target. */
  _instance: void;
}

/** A project's own target instance (the fault matrix: one project per fault, one instance each). */
export interface Instance extends Endpoint {
  /**
   * The instance is tested for one question, "does some test fail or warn?": a MUST failure is
   * recorded (annotation `failure`, a failed outcome for the conformance reporter) without
   * failing the test, so the worker is not replaced, and once a test failed or warned the later
   * tests of the worker skip. Verdicts of the rules that ran are the same as in a run of their own.
   */
  firstFlagDecides?: boolean;
}

/** This worker's instance mode and the first test that failed or warned in it (Instance.firstFlagDecides). */
const decided: { on: boolean; by?: string } = { on: false };

let nsCounter = 0;

/** A fresh namespace: a unique id, the run's tag, and names numbered within it. */
function makeNamespace(target: TargetConfig, workerIndex: number): Namespace {
  const id = `cc${target.runId}w${workerIndex}t${++nsCounter}${randomBytes(2).toString('hex')}`;
  const runTag = `crm-conformance-${target.runId}`;
  let n = 0;
  return { id, runTag, tags: [runTag, id], name: (label) => `${id} ${label} ${++n}` };
}

/**
 * Built on Playwright's bare test (`_baseTest`), not on the `test` of @playwright/test: that one
 * sets up some thirty browser-option fixtures for every test (each a reported step with a captured
 * stack, about 10 ms a test here) for a page these tests never open. The OAuth specs launch their
 * own Chromium (specs/support/browser.ts). Traces, screenshots and videos do not exist here at all.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
  oauthBrowser: [async ({}, use) => {
    await (await import('./browser.js')).launchOAuthBrowser(use);
  }, { scope: 'worker', timeout: 60_000 }],
  callbackReceiver: [async ({}, use) => {
    await (await import('./browser.js')).startCallbackReceiver(use);
  }, { scope: 'worker', timeout: 30_000 }],
  webhookReceiver: [async ({}, use) => {
    await (await import('./webhook-receiver.js')).startWebhookReceiver(use);
  }, { scope: 'worker' }],
  instance: [undefined, { scope: 'worker', option: true }],
  _instance: [async ({ instance }, use) => {
    if (instance) useEndpoint(instance);
    decided.on = !!instance?.firstFlagDecides;
    await use();
  }, { scope: 'worker', auto: true }],
  // The same for every test: worker-scoped, so a test sets up two fixtures (ns, api), not five.
  target: [async ({ _instance }, use) => { await use(loadConfig()); }, { scope: 'worker' }],
  profile: [async ({ target }, use) => { await use(target.profile); }, { scope: 'worker' }],
  // Worker-scoped, yet the namespace of the running test: its members resolve, on first use in a
  // test, to a namespace made for that test (attempt). A test-scoped fixture would cost every
  // test two reported steps (set-up, teardown) for an object that needs no teardown.
  ns: [async ({ target }, use) => {
    let current: { key: string; ns: Namespace } | undefined;
    const now = (): Namespace => {
      const info = base.info();
      const key = `${info.testId}#${info.retry}#${info.repeatEachIndex}`;
      if (current?.key !== key) current = { key, ns: makeNamespace(target, info.workerIndex) };
      return current.ns;
    };
    await use({
      get id() { return now().id; },
      get runTag() { return now().runTag; },
      get tags() { return now().tags; },
      name: (label) => now().name(label),
    });
  }, { scope: 'worker' }],
  // The client brings its own connection pool (undici): no APIRequestContext per test. Its
  // recorder keeps the test's exchanges, attached at the end as evidence.
  api: async ({}, use, testInfo) => {
    const recorder = new Recorder();
    await use(new ApiClient(undefined, recorder));
    await attachEvidence(testInfo, recorder);
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
      const lines = ['#!/bin/sh', '# Replays the requests of this test; export the CRM_* variables first.', ...recorder.exchanges.map((x) => x.curl).filter(Boolean)];
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
    testInfo.skip(decided.on && !!decided.by, `the fault matrix: "${decided.by}" already failed or warned on this instance`);
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
      if (decided.on) decided.by = title;
      if (!soft && decided.on) {
        testInfo.annotations.push({ type: 'failure', description: full });
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
  const recorder = (fixtures as { api?: ApiClient } | undefined)?.api?.recorder;
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

/** Extra top-level members a looseObject contract let through (reported as notes). */
function extraMembers(schema: z.ZodType, value: unknown): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape || !value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !(k in shape));
}

/** Notes (once per test) the extra members a looseObject contract let through. */
function noteExtraMembers(schema: z.ZodType, value: unknown, label: string): void {
  const extra = extraMembers(schema, value);
  if (!extra.length) return;
  const description = `extra members beyond ${label}: ${extra.join(', ')}`;
  try {
    const notes = base.info().annotations;
    if (!notes.some((a) => a.type === 'note' && a.description === description)) notes.push({ type: 'note', description });
  } catch { /* outside a test */ }
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
    if (result.success && !this.isNot) noteExtraMembers(schema, value, label);
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

/*
 * Quick checks for hot paths. Each `expect` is a reported step (a captured, source-mapped stack,
 * a message to the runner, a node in every report): a search property makes thousands. Where a
 * check repeats (every page of every search, every record a helper creates) it is first made
 * quietly with one of these, and the `expect` runs only when the quick check fails, so the failure
 * reads exactly as before and `expect` stays the judge. Each quick check passes only when its
 * `expect` would pass.
 */

/** Quick form of `toHaveStatus`. */
export const hasStatus = (res: ApiResponse, expected: number | number[]): boolean => (Array.isArray(expected) ? expected : [expected]).includes(res.status);

/** Quick form of `not.toBeRefused`: a 2xx answer. */
export const isAccepted = (res: ApiResponse): boolean => res.status >= 200 && res.status < 300;

/** Quick form of `expectJson`. */
export const isJsonAnswer = (res: ApiResponse): boolean => /^application\/json\b/i.test(res.headers['content-type'] ?? '') && res.isJson;

/** Quick form of `toMatchContract` (a response or a value); notes extra members as the matcher does, once per test. */
export function conforms(received: unknown, schema: z.ZodType, name?: string): boolean {
  const value = isResponse(received) ? received.body : received;
  if (!schema.safeParse(value).success) return false;
  noteExtraMembers(schema, value, name ?? schema.description ?? 'the contract');
  return true;
}

/** Checks the answer is JSON with Content-Type application/json (WIRE-1). */
export function expectJson(res: ApiResponse): void {
  expect(res.headers['content-type'] ?? '', `Content-Type of ${res.exchange.method} ${res.exchange.url}\n${describeExchange(res.exchange)}`).toMatch(/^application\/json\b/i);
  expect(res.isJson, `the body of ${res.exchange.method} ${res.exchange.url} is JSON\n${describeExchange(res.exchange)}`).toBe(true);
}
