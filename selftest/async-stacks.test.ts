/**
 * The workers run without V8's async stack traces unless CRM_ASYNC_STACKS=1 (fixtures/test.ts):
 * Playwright captures a stack for every `expect` and step, and the frames past an `await` cost
 * CPU for nothing. Checked on a real failure (the reference with `upsert-422-without-ids`, a 422
 * naming no ids): the error's location and snippet are the same either way, and only with
 * CRM_ASYNC_STACKS=1 does its stack go on to the rule's wrapper that awaited the test body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printedReport, runPlaywright, specsOf, type ReportSuite } from './helpers.js';

interface TestError { message?: string; stack?: string; location?: { file: string; line: number } }
interface Spec { title: string; tests: { results?: { status: string; error?: TestError; errorLocation?: { file: string; line: number } }[] }[] }

/** The error of the one test run (`UPSERT-4 two Leads matching by name …`), with its location. */
async function failure(name: string, env: Record<string, string>): Promise<TestError> {
  const res = await runPlaywright(['specs/leads/upsert.spec.ts', '--grep', 'UPSERT-4 two Leads matching by name', '--reporter=json'],
    { REFERENCE_FAULTS: 'upsert-422-without-ids', CRM_REPORT_DIR: `reports/runs/selftest-async-stacks-${name}`, ...env }, 120_000);
  const errors = specsOf(printedReport<{ suites: ReportSuite<Spec>[] }>(res, name))
    .flatMap((spec) => spec.tests.flatMap((t) => (t.results ?? []).flatMap((r) => (r.error ? [{ ...r.error, location: r.errorLocation }] : []))));
  assert.ok(errors[0], `${name}: the test fails on the fault (exit ${res.code})`);
  return errors[0];
}

test('the workers stop stack traces at the first await unless CRM_ASYNC_STACKS=1; the failure\'s location is the same', async () => {
  const [off, on] = await Promise.all([failure('off', {}), failure('on', { CRM_ASYNC_STACKS: '1' })]);
  assert.match(off.message ?? '', /the 422 carries the ids/);
  assert.deepEqual({ file: off.location?.file.replace(/^.*[\\/]specs[\\/]/, 'specs/'), line: off.location?.line }, { file: on.location?.file.replace(/^.*[\\/]specs[\\/]/, 'specs/'), line: on.location?.line }, 'the error is located at the same line');
  assert.match(off.stack ?? '', /specs[\\/]leads[\\/]upsert\.spec\.ts:\d+/, 'the stack names the spec line that called the failing check');
  assert.doesNotMatch(off.stack ?? '', /fixtures[\\/]rule\.ts/, 'by default the stack ends before the rule wrapper that awaited the test body');
  assert.match(on.stack ?? '', /fixtures[\\/]rule\.ts/, 'with CRM_ASYNC_STACKS=1 it goes on to the wrapper');
});
