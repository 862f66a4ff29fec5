/**
 * Small files a run's processes share (runner, workers, a replaced worker): one per run and
 * target, in a directory of the run under the temporary directory. Playwright replaces a worker
 * after a failed test, so what a run learns about its target (it stopped answering; a failure
 * already seen; how fast it delivers notifications) must outlive the process that learned it. The
 * fault matrix tests many targets in one run, hence one file per target. The global teardown
 * removes the run's directory (forgetRunFiles), so nothing is left behind. Runs at the same time
 * never share a directory, even with one CRM_RUN_ID (below).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.js';
import { RUN_PROCESS_ENV } from './embedded.js';

/** `silence` (core/http.ts), `failures` (core/repeats.ts), `latency` (core/latency.ts). */
export type RunFile = 'silence' | 'failures' | 'latency';

/**
 * The run's directory: by run id and the process that started the run (inherited by its workers),
 * so that two runs with one CRM_RUN_ID on one machine (shards of one CI job, say) never read,
 * overwrite or remove each other's files.
 */
const runDir = () => join(tmpdir(), `crm-conformance-${loadConfig().runId}-${process.env[RUN_PROCESS_ENV] ?? process.pid}`);

/** The path of this run's file of that kind for the configured target (read it; write with {@link writeRunFile}). */
export function runFile(kind: RunFile): string {
  const cfg = loadConfig();
  return join(runDir(), `${createHash('sha256').update(cfg.baseUrl).digest('hex').slice(0, 8)}.${kind}.${kind === 'silence' ? 'json' : 'jsonl'}`);
}

/**
 * Writes (or appends to) this run's file of that kind. The run's directory is made by the first
 * write: a process that only reads (a healthy target, the doctor) leaves nothing behind.
 */
export function writeRunFile(kind: RunFile, text: string, how: 'replace' | 'append' = 'replace'): void {
  mkdirSync(runDir(), { recursive: true });
  (how === 'append' ? appendFileSync : writeFileSync)(runFile(kind), text);
}

/** Forgets what the run learned: before any test (a run id given again starts afresh) and after the last. */
export function forgetRunFiles(): void {
  rmSync(runDir(), { recursive: true, force: true });
}
