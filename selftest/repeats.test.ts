/**
 * Repeats of a failure (specs/support/core/repeats.ts): a test failing with only problems an
 * earlier test already failed on is held, a FAIL in the conformance report, skipped in
 * Playwright's (no new worker). Both ways: what is a repeat and what is not, and a faulty run
 * whose conformance verdicts are exactly those of a run where every failure fails.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { failureKinds, holdFailure, noteContractFailure, SHOWN_FAILURES } from '../specs/support/core/repeats.js';
import { forgetRunFiles } from '../specs/support/core/run-files.js';
import { readJson, runPlaywright } from './helpers.js';

const status = (got: number, method: string, path: string) =>
  `expected a refusal (any status outside 2xx), got ${got}\n${method} http://127.0.0.1:4010/developer_api/v1${path} → ${got}\n  got: {"id":12}\n  replay: curl …`;

test("a failure's kinds are its rule, its first line and its Expected/Received lines, without ids and numbers", () => {
  // One server that checks no credentials: AUTH-3 fails the same way on every endpoint.
  assert.deepEqual(failureKinds(status(200, 'GET', '/people/12'), 't1', 'AUTH-3'), failureKinds(status(200, 'POST', '/companies'), 't2', 'AUTH-3'));
  assert.notDeepEqual(
    failureKinds(status(200, 'GET', '/people/12'), 't1', 'AUTH-3'),
    failureKinds(status(200, 'GET', '/people/12'), 't1', 'AUTH-4'),
    'another rule',
  );
  assert.notDeepEqual(
    failureKinds('expected status 404, got 500', 't1', 'PEOPLE-2'),
    failureKinds('expected status 404, got 200', 't1', 'PEOPLE-2'),
    'another status',
  );
  const generic = (e: string, r: string) => `expect(received).toBe(expected) // Object.is equality\n\nExpected: ${e}\nReceived: ${r}`;
  assert.notDeepEqual(failureKinds(generic('"open"', '"closed"'), 't1', 'X-1'), failureKinds(generic('true', 'false'), 't1', 'X-1'));
  // A target that delivers nothing: misses of two kinds of notification are one problem of a rule (core/latency.ts).
  const silent = (what: string) =>
    `no notification arrived: the target has delivered none in this run\nno notification ${what} arrived at http://127.0.0.1:5001/hooks/ab12/x within 1000 ms (…); nothing arrived there`;
  assert.deepEqual(failureKinds(silent('naming the new person 3'), 't1', 'EVENT-1'), failureKinds(silent('naming the new company 9'), 't2', 'EVENT-1'));
  assert.notDeepEqual(
    failureKinds(silent('naming the new person 3'), 't1', 'EVENT-1'),
    failureKinds(silent('naming the updated lead 7'), 't3', 'EVENT-2'),
    'another rule',
  );
});

const secondsOf = (field: string) => `${field} is an integer number of seconds\n\nExpected: 1700000000\nReceived: 1700000000123`;

test("identifiers written as strings and the suite's names are left out like numbers", () => {
  // A server whose ids are strings (the spec leaves them open) fails AUTH-3 the same way on every record.
  assert.deepEqual(
    failureKinds(status(200, 'GET', '/people/person_8f3a2c'), 't1', 'AUTH-3'),
    failureKinds(status(200, 'GET', '/people/person_17bd04'), 't2', 'AUTH-3'),
  );
  const uuid = (id: string) => `expected status 404, got 200\nGET http://127.0.0.1:4010/developer_api/v1/leads/${id} → 200`;
  assert.deepEqual(
    failureKinds(uuid('8f3a2c1e-1b2c-4d5e-9f00-aabbccddeeff'), 't1', 'LEADS-1'),
    failureKinds(uuid('0b7c1e2d-aaaa-4bbb-8ccc-dddddddddddd'), 't2', 'LEADS-1'),
  );
  // Names made by two tests' namespaces (their random part may be letters only after the counter).
  const named = (name: string) => `the created entries in the order of the request\n\nExpected: ["${name}"]\nReceived: []`;
  assert.deepEqual(failureKinds(named('cc1a2bw0t7f3e9 bulk 1'), 't1', 'BULK-3'), failureKinds(named('cc1a2bw1t12abcd bulk 2'), 't2', 'BULK-3'));
  // Words without digits stay: another field is another failure.
  assert.notDeepEqual(failureKinds(secondsOf('date_created'), 't1', 'WIRE-2'), failureKinds(secondsOf('date_modified'), 't2', 'WIRE-2'));
});

test("a contract failure's kinds are its issues, wherever they are in the record", () => {
  const message = 'expected the value to match the contract:\n  at $.date_created: a timestamp after 2286 is implausible';
  noteContractFailure('t9', message, [{ code: 'too_big', message: 'a timestamp after 2286 is implausible' }]);
  const kinds = failureKinds(`entry 3 is created\n\n${message}`, 't9', 'BULK-2');
  noteContractFailure('t10', message.replace('date_created', '[0].activity_date'), [{ code: 'too_big', message: 'a timestamp after 2286 is implausible' }]);
  assert.deepEqual(failureKinds(message.replace('date_created', '[0].activity_date'), 't10', 'ACT-1'), kinds, 'whatever the rule');
  // Another test's contract failure does not lend its kinds.
  assert.notDeepEqual(failureKinds('expected status 200, got 404', 't9', 'BULK-2'), kinds);
});

test('a failure is held when an earlier test failed with every one of its kinds, or past the first ten failures of the run', () => {
  process.env.CRM_RUN_ID = randomBytes(4).toString('hex');
  process.env.CRM_BASE_URL ??= 'http://127.0.0.1:1';
  process.env.CRM_ACCESS_TOKEN ??= 'selftest-token';
  process.env.CRM_USER_EMAIL ??= 'a@b.example';
  forgetRunFiles();
  assert.equal(holdFailure(['a'], 'first'), undefined);
  assert.deepEqual(holdFailure(['a'], 'second'), { repeat: true, firstTitle: 'first', why: 'a repeat of the failure of "first" (a)' });
  assert.equal(holdFailure(['a', 'b'], 'third'), undefined, 'a new kind beside a known one fails');
  assert.equal(holdFailure(['b', 'a'], 'fourth')?.firstTitle, 'third');
  assert.equal(holdFailure([], 'fifth'), undefined);
  for (let i = 3; i < SHOWN_FAILURES; i++) assert.equal(holdFailure([`new ${i}`], `failure ${i}`), undefined, `failure ${i} of ${SHOWN_FAILURES} is shown`);
  const past = holdFailure(['yet another'], 'eleventh');
  assert.equal(past?.repeat, false);
  assert.match(past?.why ?? '', /the run already shows 10 failed tests in Playwright's reports \(the first: "first"\)/);
  assert.equal(holdFailure(['yet another'], 'twelfth')?.firstTitle, 'eleventh', "a held failure's repeats name it");
  forgetRunFiles();
  assert.equal(holdFailure(['a'], 'next run'), undefined, 'a new run starts with no failure');
  forgetRunFiles();
});

test('a faulty server: held repeats keep every conformance verdict of a run where each failure fails, with far fewer failed Playwright tests', async (t) => {
  const specs = ['specs/people'];
  const run = async (mode: string) => {
    const dir = `reports/runs/selftest-repeats-${mode}`;
    const res = await runPlaywright([...specs, '--project', 'api'], {
      REFERENCE_FAULTS: 'timestamps-in-ms',
      CRM_REPEATS: mode,
      CRM_REPORT_DIR: dir,
      CRM_REPORTERS: 'minimal',
    });
    const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
    const { outcomes } = readJson<OutcomeFile>(`${dir}/conformance-outcomes.json`);
    return { res, report, outcomes };
  };
  const [hold, fail] = [await run('hold'), await run('fail')];
  for (const r of [hold, fail]) assert.equal(r.res.code, 1, 'the run fails');
  assert.equal(hold.report.verdict, 'NOT CONFORMANT');
  assert.deepEqual(
    hold.report.rules.map((r) => `${r.id} ${r.verdict}`),
    fail.report.rules.map((r) => `${r.id} ${r.verdict}`),
    'the same verdict for every rule',
  );
  assert.equal(hold.report.tests.failed, fail.report.tests.failed, 'the same failed tests in the conformance report');
  const held = hold.outcomes.filter((o) => o.held);
  const shown = hold.outcomes.filter((o) => !o.held && o.status === 'failed');
  t.diagnostic(
    `${shown.length} failed in Playwright, ${held.length} held; the run took ${(hold.res.ms / 1000).toFixed(1)} s, against ${(fail.res.ms / 1000).toFixed(1)} s with CRM_REPEATS=fail`,
  );
  assert.ok(held.length >= 3 && shown.length <= 2, `${shown.length} failed in Playwright, ${held.length} held`);
  for (const r of held) {
    // Held as a repeat of an earlier test's problem, or as blocked by the rules of a step that failed,
    // among them the records' timestamps' (WIRE-2, reporting/blame.ts); a step may name its own rule
    // beside it (a taken Person that breaks its contract: PEOPLE-1, WIRE-2).
    if (r.repeatOf) {
      assert.ok(
        shown.some((s) => s.title === r.repeatOf),
        `"${r.title}" names a test that failed: "${r.repeatOf}"`,
      );
      assert.match(r.skipReason ?? '', /a repeat of the failure of/);
    } else assert.match(r.held ?? '', /^blocked by (?:[A-Z]+-\d+, )*WIRE-2[,:]/, `"${r.title}": ${r.held}`);
    assert.ok(r.error && r.replay, 'a held failure keeps its error and replay');
  }
});
