/**
 * Helpers for the project's own tests. Running the suite and reading what it wrote belong to the
 * layers below, which the tooling of scripts/ and rules/ shares: specs/support/core/suite-run.ts
 * (cleanEnv, runProcess, runPlaywright, listTests, specsOf, readJson) and reporting/outcomes.ts
 * (readOutcomes). They are re-exported here for the self-tests.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { ConformanceReport } from '../reporting/verdict.js';
import { ROOT } from '../specs/support/core/config.js';
import { cleanEnv, readJson, runProcess, type RunResult } from '../specs/support/core/suite-run.js';

export { ROOT };
export {
  cleanEnv,
  listTests,
  readJson,
  runPlaywright,
  runProcess,
  specsOf,
  type ListedTest,
  type ReportSuite,
  type RunResult,
} from '../specs/support/core/suite-run.js';
export { readOutcomes } from '../reporting/outcomes.js';

/** The rules a conformance report fails, each with its reasons: what a self-test expecting CONFORMANT prints when it is not. */
export const failedRules = (report: ConformanceReport): string[] =>
  report.rules.filter((r) => r.verdict === 'FAIL').map((r) => `${r.id}: ${r.reasons.join('; ')}`);

const scratch = new Set<string>();
/** A fresh directory under the temporary directory, removed when the test process exits. */
export function scratchDir(prefix: string): string {
  if (scratch.size === 0)
    process.once('exit', () => {
      for (const d of scratch) rmSync(d, { recursive: true, force: true });
    });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.add(dir);
  return dir;
}

/** Runs the `crm-conformance` command of this checkout (what `npx crm-conformance` runs) with a clean environment. */
export function runCli(args: string[], env: Record<string, string>, o: { cwd?: string; timeoutMs?: number } = {}): Promise<RunResult> {
  return runProcess(process.execPath, [resolve(ROOT, 'cli/bin.mjs'), ...args], { cwd: o.cwd, env: cleanEnv({ CI: '', ...env }), timeoutMs: o.timeoutMs });
}

/** The JSON report a run printed (`--reporter=json`); fails naming the run, with its output's end, when there is none. */
export function printedReport<T>(res: RunResult, name: string): T {
  const start = res.stdout.search(/^\{/m);
  if (start < 0) throw new Error(`${name}: no JSON report from the run (exit ${res.code}):\n${res.stdout.slice(-2000)}${res.stderr.slice(-2000)}`);
  return JSON.parse(res.stdout.slice(start)) as T;
}

/**
 * The records of a catalog of rules/ (rules.json, choices.json) as written, each asserted valid
 * against `schema` and with its keys in the schema's order.
 */
export function assertCatalogFile(path: string, schema: z.ZodObject): Record<string, unknown>[] {
  const raw = readJson<Record<string, unknown>[]>(path);
  assert.ok(Array.isArray(raw), `${path} is a list of records`);
  const order = Object.keys(schema.shape);
  for (const [i, record] of raw.entries()) {
    const parsed = schema.safeParse(record);
    assert.ok(parsed.success, `${path} record ${i} (${String(record.id)}): ${parsed.success ? '' : parsed.error.message}`);
    const keys = Object.keys(record);
    assert.deepEqual(
      keys,
      order.filter((k) => keys.includes(k)),
      `${path} record ${i} (${String(record.id)}): keys in the order ${order.join(', ')}`,
    );
  }
  return raw;
}
