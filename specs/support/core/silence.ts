/**
 * The run-wide "target is dead" latch of the API client (core/http.ts). Requests in a row that got
 * no answer at all are shared by the run's workers through a small file per target (Playwright
 * replaces a worker after each failed test, so memory alone would forget).
 */
import { readFileSync } from 'node:fs';
import { runFile, writeRunFile } from './run-files.js';
import { seconds } from './transport.js';

/**
 * Requests in a row that got no answer at all, shared by the run's workers through a small file
 * per target (Playwright replaces a worker after each failed test, so memory alone would forget). After
 * SILENT_LIMIT of them the target is taken as down: further requests fail at once, one probe
 * is still sent every PROBE_EVERY_MS, and tests that start later skip naming the first
 * unanswered request (targetSilence(), asked by the preflight's skipReason()), so a target that
 * dies mid-run costs seconds, not one full timeout per test.
 */
export const SILENT_LIMIT = 3;
export const PROBE_EVERY_MS = 10_000;
/** Forgotten when nobody refreshed it for this long (probes refresh it every 10 s). */
const SILENCE_MEMORY_MS = 60_000;
interface Silence {
  count: number;
  timeoutMs: number;
  lastProbe: number;
  at?: number;
  /** The first unanswered request of the streak (redacted), named by the tests skipped after it. */
  first?: string;
}
export const silence = {
  state: { count: 0, timeoutMs: 0, lastProbe: 0 } as Silence,
  readAt: 0,
  // Per target: a run of the fault matrix tests many instances at once (scripts/matrix.config.ts).
  file: () => runFile('silence'),
  current(): Silence {
    if (Date.now() - this.readAt > 500) {
      this.readAt = Date.now();
      try {
        const read = JSON.parse(readFileSync(this.file(), 'utf8')) as Silence;
        // A state nobody refreshed for a minute is forgotten (probes refresh it every 10 s).
        this.state = Date.now() - (read.at ?? 0) < SILENCE_MEMORY_MS ? read : { count: 0, timeoutMs: 0, lastProbe: 0 };
      } catch {
        /* none yet */
      }
    }
    return this.state;
  },
  save(next: Silence): void {
    next.at = Date.now();
    this.state = next;
    this.readAt = Date.now();
    try {
      writeRunFile('silence', JSON.stringify(next));
    } catch {
      /* best effort */
    }
  },
  noAnswer(timeoutMs: number, what: string): void {
    const now = this.current();
    this.save({ ...now, count: now.count + 1, timeoutMs, first: now.count ? (now.first ?? what) : what });
  },
  answered(): void {
    if (this.current().count) this.save({ count: 0, timeoutMs: 0, lastProbe: 0 });
  },
};

/**
 * The run-wide "target is dead" latch, for the tests: when the last SILENT_LIMIT requests of the
 * run (all workers) got no answer at all, the reason later tests give for skipping, naming the
 * first unanswered request; undefined while the target answers. The latch is forgotten a minute
 * after its last refresh, so a target that comes back is tested again.
 */
export function targetSilence(): string | undefined {
  const s = silence.current();
  if (s.count < SILENT_LIMIT) return undefined;
  return `the target stopped answering: the last ${s.count} requests of this run got no answer within ${seconds(s.timeoutMs)}; the first: ${s.first ?? '(unknown)'}`;
}
