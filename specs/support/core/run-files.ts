/**
 * Small files a run's processes share (runner, workers, a replaced worker): one per run and
 * target, in the temporary directory. Playwright replaces a worker after a failed test, so what a
 * run learns about its target (it stopped answering; a failure already seen; how fast it delivers
 * notifications) must outlive the process that learned it. The fault matrix tests many targets in
 * one run, hence one file per target.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.js';

/** `silence` (core/http.ts), `failures` (core/repeats.ts), `latency` (core/latency.ts). */
export type RunFile = 'silence' | 'failures' | 'latency';

/** The path of this run's file of that kind for the configured target. */
export function runFile(kind: RunFile): string {
  const cfg = loadConfig();
  return join(tmpdir(), `crm-conformance-${cfg.runId}-${createHash('sha256').update(cfg.baseUrl).digest('hex').slice(0, 8)}.${kind}.${kind === 'failures' ? 'jsonl' : 'json'}`);
}

/** Forgets what an earlier run with the same run id learned (the global set-up, before any test). */
export function forgetRunFiles(): void {
  for (const kind of ['silence', 'failures', 'latency'] as const) rmSync(runFile(kind), { force: true });
}
