/**
 * Workers loaded while the runner starts (scripts/prefork.cjs): a run of the whole suite gets
 * them, a filtered run does not (it starts fewer workers); a run with them hands Playwright's
 * worker forks to them and passes as without; a fork that does not match Playwright's worker
 * exactly (here: its stderr not piped, PW_RUNNER_DEBUG=1) is Playwright's own; a zygote never
 * handed over ends with the runner.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { PreforkReport } from '../scripts/prefork.cjs';
import { argvOf } from '../scripts/proc-tree.js';
import { printedReport, ROOT, runPlaywright, specsOf, type ReportSuite } from './helpers.js';

const { wholeSuiteRun } = createRequire(import.meta.url)('../scripts/prefork.cjs') as typeof import('../scripts/prefork.cjs');

test('zygotes are for runs of the whole suite: `test` with options that start the same workers', () => {
  for (const argv of [['test'], ['test', '--reporter=dot'], ['test', '--reporter', 'list,json'], ['test', '-x', '--retries=1', '-c', 'playwright.config.ts']]) {
    assert.equal(wholeSuiteRun(argv), true, argv.join(' '));
  }
  for (const argv of [['test', 'specs/account'], ['test', '--grep', 'AUTH'], ['test', '--workers=1'], ['test', '--list'], ['test', '--ui'], ['test', '--project=api'], ['test', '--shard=1/2'], ['show-report'], []]) {
    assert.equal(wholeSuiteRun(argv), false, argv.join(' '));
  }
});

interface Spec { title: string; tests: { results?: { status: string }[] }[] }

/** Runs two small spec files with zygotes forced on; what the runner did with them and the tests' statuses. */
async function run(name: string, env: Record<string, string> = {}) {
  const dir = resolve(ROOT, `reports/runs/selftest-prefork-${name}`);
  mkdirSync(dir, { recursive: true });
  const reportFile = resolve(dir, 'prefork.json');
  const res = await runPlaywright(['specs/account', 'specs/wire/conventions.spec.ts', '--reporter=json'],
    { CRM_PREFORK: '1', CRM_PREFORK_REPORT: reportFile, CRM_REPORT_DIR: `reports/runs/selftest-prefork-${name}`, ...env }, 120_000);
  const statuses = specsOf(printedReport<{ suites: ReportSuite<Spec>[] }>(res, name)).flatMap((s) => s.tests.flatMap((t) => (t.results ?? []).map((r) => r.status)));
  return { res, statuses, prefork: JSON.parse(readFileSync(reportFile, 'utf8')) as PreforkReport };
}

/** Whether the zygote `pid` has ended (its pid may have gone to another process since). */
const gone = (pid: number) => !argvOf(pid).some((a) => a.includes('worker-zygote'));

test('a run hands its worker forks to the zygotes, passes as without them, and leaves none running', async () => {
  const [used, fallback] = await Promise.all([run('used'), run('fallback', { PW_RUNNER_DEBUG: '1' })]);
  for (const { res, statuses } of [used, fallback]) {
    assert.equal(res.code, 0, res.stderr.slice(-2000));
    assert.ok(statuses.length >= 5 && statuses.every((s) => s === 'passed'), `every test passed: ${statuses.join(', ')}`);
  }
  assert.equal(used.prefork.reason, undefined, `zygotes started: ${used.prefork.reason}`);
  assert.ok(used.prefork.started >= 2, `zygotes started: ${used.prefork.started}`);
  assert.ok(used.prefork.handedOver >= 1 && used.prefork.forkedByPlaywright === 0, `every worker was a zygote: ${JSON.stringify(used.prefork)}`);
  assert.equal(fallback.prefork.handedOver, 0, 'a fork with other stdio is not handed a zygote');
  assert.ok(fallback.prefork.forkedByPlaywright >= 1, 'Playwright forked its own workers');
  const pids = [...used.prefork.pids, ...fallback.prefork.pids];
  for (let i = 0; i < 50 && !pids.every(gone); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(pids.filter((p) => !gone(p)), [], 'no zygote outlives its runner');
});
