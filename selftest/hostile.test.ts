/**
 * Hostile and broken targets: the suite stays calm and says plainly what is wrong. For each small
 * hostile server (never answers, one byte a second, 10 MB body, invalid JSON, wrong Content-Type,
 * connection resets, 500/401/404 to everything) a few specs run against it: the run ends within a
 * bound, nothing crashes or hangs, the conformance report is written, and every failed, warned or
 * skipped test names the problem. A dead target (no usable answer) and one answering nonsense get
 * one banner before any test (the preflight) and a verdict that is never CONFORMANT: INCONCLUSIVE
 * when nothing could be judged, NOT CONFORMANT when the preflight saw a MUST rule broken. The
 * whole suite runs against a target that never answers and one answering `200 {}` to everything,
 * with the default request deadline: within 60 s each, and no MUST test passes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import type { TargetState } from '../specs/support/core/preflight.js';
import { readJson, ROOT, runPlaywright } from './helpers.js';
import { startHostile, type HostileKind } from '../scripts/hostile-servers.js';

const SPECS = ['specs/account', 'specs/pipelines'];
/** A short request deadline keeps the self-test quick; the messages name it. */
const TIMEOUT_MS = 2_000;

interface Case {
  kind: HostileKind;
  what: string;
  /** What the preflight finds: dead and nonsense targets get a banner and skip their tests. */
  state: TargetState;
  /** Every failed, warned or skipped test's message, and the banner, must match. */
  problem: RegExp;
  /** Bound on the whole run (Playwright start-up included), ms. */
  bound: number;
  /** A run warning the report must carry. */
  warning?: RegExp;
}

const cases: Case[] = [
  { kind: 'silent', what: 'never answers', state: 'dead', problem: /no answer within 2 s/, bound: 90_000 },
  { kind: 'trickle', what: 'answers one byte a second', state: 'dead', problem: /no answer within 2 s/, bound: 90_000 },
  {
    kind: 'slow-body',
    what: 'sends its body one byte a second',
    state: 'dead',
    problem: /answer incomplete after 2 s: status 200, then only \d+ bytes? of the body/,
    bound: 90_000,
  },
  { kind: 'huge', what: 'sends a 10 MB body', state: 'dead', problem: /body larger than 5242880 bytes/, bound: 90_000 },
  { kind: 'invalid-json', what: 'answers invalid JSON', state: 'nonsense', problem: /invalid JSON with Content-Type application\/json/, bound: 90_000 },
  {
    kind: 'wrong-type',
    what: 'answers HTML with Content-Type text/html',
    state: 'nonsense',
    problem: /Content-Type text\/html; charset=utf-8 where the API answers application\/json|Content-Type of GET/,
    bound: 90_000,
  },
  {
    kind: 'reset',
    what: 'resets every connection',
    state: 'dead',
    problem: /connection reset by the target \(ECONNRESET\)|connection closed by the target/,
    bound: 90_000,
  },
  {
    kind: 'error500',
    what: 'answers 500 to everything',
    state: 'alive',
    problem: /got 500/,
    bound: 90_000,
    warning: /5xx server errors: the target is failing/,
  },
  {
    kind: 'unauthorized',
    what: 'answers 401 to everything',
    state: 'misconfigured',
    problem: /refuses the configured credentials: GET .* answered 401/,
    bound: 90_000,
  },
  {
    kind: 'not-found',
    what: 'answers 404 to everything',
    state: 'misconfigured',
    problem: /no API at the configured base URL: GET .* answered 404/,
    bound: 90_000,
  },
];

const BANNER = /crm-conformance preflight: /g;
const env = (url: string, dir: string, extra: Record<string, string> = {}) => ({
  CRM_BASE_URL: url,
  CRM_ACCESS_TOKEN: 'hostile-token-0000',
  CRM_USER_EMAIL: 'hostile@example.com',
  CRM_REPORT_DIR: dir,
  CRM_REPORTERS: 'minimal',
  ...extra,
});

/** The checks of every run against a dead or nonsense target: one banner, the verdict, no MUST pass. */
function assertJudgedHonestly(out: string, dir: string, state: TargetState, problem: RegExp): ConformanceReport {
  const banners = out.match(BANNER) ?? [];
  assert.equal(banners.length, 1, `one banner in the output (${banners.length})\n${out.slice(0, 3000)}`);
  const bannerText = out.slice(out.search(BANNER), out.search(BANNER) + 3000);
  assert.match(
    bannerText,
    { dead: /THE TARGET DOES NOT ANSWER/, nonsense: /THE TARGET ANSWERS NONSENSE/, misconfigured: /THE SET-UP IS WRONG/, alive: /^$/ }[state],
  );
  assert.match(bannerText, problem, `the banner says what came back:\n${bannerText}`);
  assert.doesNotMatch(out, /hostile-token-0000/, 'the token is redacted');
  const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
  assert.equal(report.preflight?.state, state);
  assert.equal(report.verdict, state === 'nonsense' ? 'NOT CONFORMANT' : 'INCONCLUSIVE', `verdict (${report.verdictReason})`);
  assert.match(out, new RegExp(`Conformance: ${report.verdict}`), 'the verdict is printed');
  const { outcomes } = readJson<OutcomeFile>(`${dir}/conformance-outcomes.json`);
  const mustPassed = outcomes.filter((o) => o.level === 'MUST' && o.status === 'passed');
  assert.deepEqual(
    mustPassed.map((o) => o.title),
    [],
    'no MUST test passes against a dead or nonsense target',
  );
  const html = readFileSync(resolve(ROOT, dir, 'conformance.html'), 'utf8');
  assert.match(html, new RegExp(`data-preflight="${state}"`), 'the HTML report shows the preflight');
  return report;
}

// Two runs at a time: most cases spend their time waiting on the hostile server.
describe('hostile targets', { concurrency: 2 }, () => {
  for (const c of cases) {
    test(`a target that ${c.what}: the run ends, the report is written, ${c.state === 'alive' ? 'failures name the problem' : 'one banner names the problem, no MUST test passes'}`, async (t) => {
      const server = await startHostile(c.kind);
      const dir = `reports/runs/hostile-${c.kind}`;
      rmSync(resolve(ROOT, dir), { recursive: true, force: true });
      try {
        const res = await runPlaywright(SPECS, env(server.url, dir, { CRM_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }), c.bound + 30_000);
        const out = res.stdout + res.stderr;
        t.diagnostic(`${c.kind}: exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s`);
        assert.ok(res.ms < c.bound, `the run took ${res.ms} ms (bound ${c.bound} ms)\n${out.slice(-3000)}`);
        assert.equal(res.code, 1, `the run fails, and does not crash (exit ${res.code})\n${out.slice(-3000)}`);
        assert.doesNotMatch(
          out,
          /worker process exited unexpectedly|Error in reporter|UnhandledPromiseRejection|Unhandled error|out of memory/i,
          out.slice(-3000),
        );
        assert.ok(existsSync(resolve(ROOT, dir, 'conformance.html')), 'conformance.html is written');
        const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
        const flagged = report.rules.flatMap((r) => r.tests.filter((x) => x.status === 'failed' || x.status === 'warned').map((x) => ({ rule: r.id, ...x })));
        for (const x of flagged) {
          const text = [x.error ?? '', ...x.warnings].join('\n');
          assert.match(text, c.problem, `${x.title} names the problem:\n${text.slice(0, 1500)}`);
          assert.doesNotMatch(text, /hostile-token-0000/, 'the token is redacted');
        }
        if (c.state === 'alive') {
          assert.equal(report.verdict, 'NOT CONFORMANT');
          assert.equal((out.match(BANNER) ?? []).length, 0, 'no banner: the target answers, the tests judge it');
          assert.ok(flagged.length >= 5, `most tests fail or warn (${flagged.length})`);
        } else {
          assertJudgedHonestly(out, dir, c.state, c.problem);
          // Nothing runs: the report records the MUST rules a nonsense target broke in the preflight.
          assert.equal(flagged.length, 0, `failed or warned tests: ${flagged.map((x) => x.title).join(' | ')}`);
          if (c.state === 'nonsense') {
            const account = report.rules.find((r) => r.id === 'ACCOUNT-1')!;
            assert.equal(account.verdict, 'FAIL');
            assert.match(account.reasons.join('\n'), c.problem, 'the rule names the problem');
            assert.match(account.reasons.join('\n'), /replay: curl /, 'and how to replay it');
          }
          const { outcomes } = readJson<OutcomeFile>(`${dir}/conformance-outcomes.json`);
          for (const o of outcomes.filter((x) => x.status === 'skipped'))
            assert.match(o.skipReason ?? '', c.problem, `${o.title} is skipped naming the problem: ${o.skipReason}`);
          assert.ok(outcomes.filter((x) => x.status === 'skipped').length >= 5, 'the other tests are skipped');
        }
        if (c.warning) assert.match(report.warnings.join('\n'), c.warning, `run warnings: ${report.warnings.join(' | ')}`);
        if (c.warning) assert.match(out, c.warning, 'the warning is printed');
      } finally {
        await server.close();
      }
    });
  }
});

test('a target that stops answering during the run: later tests skip naming the first unanswered request; never CONFORMANT', async (t) => {
  const server = await startHostile('dies');
  const dir = 'reports/runs/hostile-dies';
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  try {
    const res = await runPlaywright(
      [...SPECS, 'specs/authentication/header-credentials.spec.ts', '--workers=1'],
      env(server.url, dir, { CRM_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) }),
      120_000,
    );
    const out = res.stdout + res.stderr;
    t.diagnostic(`dies: exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s`);
    assert.equal(res.code, 1, out.slice(-3000));
    assert.equal((out.match(BANNER) ?? []).length, 0, 'the preflight found the target alive: no banner');
    const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
    assert.equal(report.preflight?.state, 'alive');
    assert.notEqual(report.verdict, 'CONFORMANT');
    const { outcomes } = readJson<OutcomeFile>(`${dir}/conformance-outcomes.json`);
    const down = outcomes.filter((o) => o.targetDown);
    assert.ok(down.length >= 3, `later tests are skipped (${down.length})`);
    for (const o of down)
      assert.match(
        o.skipReason ?? '',
        /the target stopped answering: the last 3 requests of this run got no answer within 2 s; the first: GET \S+: no answer within 2 s/,
        o.title,
      );
    assert.equal(report.targetDown?.tests, down.length);
    assert.ok(outcomes.filter((o) => o.status === 'failed').length <= 3, 'at most the tests that met the first unanswered requests fail');
  } finally {
    await server.close();
  }
});

/** The whole suite, with the default request deadline (15 s): a dead target and a `200 {}` target each cost under a minute. */
const WHOLE_SUITE_BOUND = 60_000;
const wholeSuite: { kind: HostileKind; what: string; state: TargetState; problem: RegExp }[] = [
  { kind: 'silent', what: 'never answers', state: 'dead', problem: /no answer within 15 s/ },
  { kind: 'ok-empty', what: 'answers 200 {} to everything', state: 'nonsense', problem: /answered 200 \{\}: the body has none of the members of an Account/ },
];

describe('the whole suite against a dead or nonsense target', { concurrency: 1 }, () => {
  for (const c of wholeSuite) {
    test(`a target that ${c.what}: one banner, within ${WHOLE_SUITE_BOUND / 1000} s, no MUST test passes, verdict ${c.state === 'dead' ? 'INCONCLUSIVE' : 'NOT CONFORMANT'}`, async (t) => {
      const server = await startHostile(c.kind);
      const dir = `reports/runs/hostile-suite-${c.kind}`;
      rmSync(resolve(ROOT, dir), { recursive: true, force: true });
      try {
        const res = await runPlaywright([], env(server.url, dir), WHOLE_SUITE_BOUND + 120_000);
        const out = res.stdout + res.stderr;
        const report = existsSync(resolve(ROOT, dir, 'conformance.json')) ? readJson<ConformanceReport>(`${dir}/conformance.json`) : undefined;
        t.diagnostic(
          `${c.kind}, whole suite: exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s; ${report?.tests.total} tests, ${report?.tests.failed} failed, ${report?.tests.skipped} skipped, ${report?.tests.passed} passed; ${report?.requests.total} requests`,
        );
        assert.ok(res.ms < WHOLE_SUITE_BOUND, `the run took ${res.ms} ms (bound ${WHOLE_SUITE_BOUND} ms)\n${out.slice(-3000)}`);
        assert.equal(res.code, 1, `the run exits 1 (exit ${res.code})\n${out.slice(-3000)}`);
        assert.doesNotMatch(
          out,
          /worker process exited unexpectedly|Error in reporter|UnhandledPromiseRejection|Unhandled error|out of memory/i,
          out.slice(-3000),
        );
        const r = assertJudgedHonestly(out, dir, c.state, c.problem);
        if (c.state === 'nonsense') {
          const failedRules = r.rules
            .filter((x) => x.verdict === 'FAIL')
            .map((x) => x.id)
            .sort();
          assert.deepEqual(failedRules, ['ACCOUNT-1', 'AUTH-3'], 'the rules the preflight saw broken fail');
        }
      } finally {
        await server.close();
      }
    });
  }
});
