/**
 * Hostile and broken targets: the suite stays calm. For each small hostile server (never
 * answers, one byte a second, 10 MB body, invalid JSON, wrong Content-Type, connection resets,
 * 500/401/404 to everything) a few specs run against it: the run ends within a bound, nothing
 * crashes or hangs, the conformance report is written, and every failed or warned test names
 * the problem. Runs whose answers are mostly 401/404 carry a warning that the verdicts mean little.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConformanceReport } from '../reporting/verdict.js';
import { readJson, ROOT, runPlaywright } from './helpers.js';
import { startHostile, type HostileKind } from './hostile-servers.js';

const SPECS = ['specs/account', 'specs/pipelines'];
/** A short request deadline keeps the self-test quick; the messages name it. */
const TIMEOUT_MS = 2_000;

interface Case {
  kind: HostileKind;
  what: string;
  /** Every failed or warned test's message must match. */
  problem: RegExp;
  /** Bound on the whole run (Playwright start-up included), ms. */
  bound: number;
  /** A run warning the report must carry. */
  warning?: RegExp;
}

const cases: Case[] = [
  { kind: 'silent', what: 'never answers', problem: /no answer within 2 s/, bound: 90_000, warning: /no usable answer/ },
  { kind: 'trickle', what: 'answers one byte a second', problem: /no answer within 2 s/, bound: 90_000 },
  { kind: 'slow-body', what: 'sends its body one byte a second', problem: /answer incomplete after 2 s: status 200, then only \d+ bytes? of the body/, bound: 90_000 },
  { kind: 'huge', what: 'sends a 10 MB body', problem: /body larger than 5242880 bytes/, bound: 90_000 },
  { kind: 'invalid-json', what: 'answers invalid JSON', problem: /invalid JSON with Content-Type application\/json/, bound: 90_000 },
  { kind: 'wrong-type', what: 'answers HTML with Content-Type text/html', problem: /Content-Type text\/html; charset=utf-8 where the API answers application\/json|Content-Type of GET/, bound: 90_000 },
  { kind: 'reset', what: 'resets every connection', problem: /connection reset by the target \(ECONNRESET\)|connection closed by the target/, bound: 90_000 },
  { kind: 'error500', what: 'answers 500 to everything', problem: /got 500/, bound: 90_000, warning: /5xx server errors: the target is failing/ },
  { kind: 'unauthorized', what: 'answers 401 to everything', problem: /got 401/, bound: 90_000, warning: /are 401\/403: check the credentials/ },
  { kind: 'not-found', what: 'answers 404 to everything', problem: /got 404/, bound: 90_000, warning: /are 404: check CRM_BASE_URL/ },
];

// Two runs at a time: most cases spend their time waiting on the hostile server.
describe('hostile targets', { concurrency: 2 }, () => {
  for (const c of cases) {
    test(`a target that ${c.what}: the run ends, the report is written, failures name the problem`, async (t) => {
      const server = await startHostile(c.kind);
      const dir = `reports/runs/hostile-${c.kind}`;
      rmSync(resolve(ROOT, dir), { recursive: true, force: true });
      try {
        const res = await runPlaywright(SPECS, {
          CRM_BASE_URL: server.url,
          CRM_ACCESS_TOKEN: 'hostile-token-0000',
          CRM_USER_EMAIL: 'hostile@example.com',
          CRM_REPORT_DIR: dir,
          CRM_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
          CRM_REPORTERS: 'minimal',
        }, c.bound + 30_000);
        const out = res.stdout + res.stderr;
        t.diagnostic(`${c.kind}: exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s`);
        assert.ok(res.ms < c.bound, `the run took ${res.ms} ms (bound ${c.bound} ms)\n${out.slice(-3000)}`);
        assert.equal(res.code, 1, `the run fails on MUST rules, and does not crash (exit ${res.code})\n${out.slice(-3000)}`);
        assert.doesNotMatch(out, /worker process exited unexpectedly|Error in reporter|UnhandledPromiseRejection|Unhandled error|out of memory/i, out.slice(-3000));
        assert.ok(existsSync(resolve(ROOT, dir, 'conformance.html')), 'conformance.html is written');
        const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
        assert.equal(report.verdict, 'NOT CONFORMANT');
        const flagged = report.rules.flatMap((r) => r.tests.filter((x) => x.status === 'failed' || x.status === 'warned').map((x) => ({ rule: r.id, ...x })));
        assert.ok(flagged.length >= 5, `most tests fail or warn (${flagged.length})`);
        for (const x of flagged) {
          const text = [x.error ?? '', ...x.warnings].join('\n');
          assert.match(text, c.problem, `${x.title} names the problem:\n${text.slice(0, 1500)}`);
          assert.doesNotMatch(text, /hostile-token-0000/, 'the token is redacted');
        }
        if (c.warning) assert.match(report.warnings.join('\n'), c.warning, `run warnings: ${report.warnings.join(' | ')}`);
        if (c.warning) assert.match(out, c.warning, 'the warning is printed');
      } finally {
        await server.close();
      }
    });
  }
});
