/**
 * How long to wait for a webhook notification. The spec leaves delivery time-outs open ("not
 * shown"), so the longest wait is generous: CRM_NOTIFICATION_TIMEOUT_MS, default 20 s. But a
 * server that never sends one kind of notification made every test that waits for it wait the
 * whole 20 s (a run 2-4 times as long as a conformant one). So the run learns how fast the target
 * delivers: every notification that arrives while its test waits records how long the test
 * waited (one that was there before the wait began says nothing about delivery time, and is not
 * counted), for the whole run (a file per run and target). Once one has arrived, a wait lasts
 * {@link LEARNED_FACTOR} times the slowest so far, at least {@link LEARNED_FLOOR_MS}, never more
 * than the configured longest wait. Before any notification has arrived, the longest wait
 * applies. A server that takes 1 s to deliver gets the whole 20 s; the reference server, which
 * delivers in milliseconds, gets 5 s. A server whose delivery time varies more than that sets
 * CRM_NOTIFICATION_TIMEOUT_MS: then every wait lasts that long and nothing is learned.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from './config.js';
import { runFile, writeRunFile } from './run-files.js';

export const LEARNED_FACTOR = 20;
export const LEARNED_FLOOR_MS = 5_000;

interface Learned { slowestMs: number; arrivals: number }

const memo = { at: 0, value: undefined as Learned | undefined };

function learned(): Learned | undefined {
  if (Date.now() - memo.at < 250) return memo.value;
  memo.at = Date.now();
  try { memo.value = JSON.parse(readFileSync(runFile('latency'), 'utf8')) as Learned; } catch { memo.value = undefined; }
  return memo.value;
}

/** The wait for one notification now, and why (for the failure message). */
export function notificationDeadline(): { ms: number; why: string } {
  const { notificationTimeoutMs: max, notificationTimeoutFixed: fixed } = loadConfig();
  if (fixed) return { ms: max, why: 'CRM_NOTIFICATION_TIMEOUT_MS, set for every wait' };
  const l = learned();
  if (!l?.arrivals) return { ms: max, why: `CRM_NOTIFICATION_TIMEOUT_MS; no notification of this run had arrived yet` };
  const ms = Math.min(max, Math.max(LEARNED_FLOOR_MS, LEARNED_FACTOR * l.slowestMs));
  return { ms, why: `${LEARNED_FACTOR} × the slowest of the ${l.arrivals} notification(s) of this run so far (${l.slowestMs} ms), at least ${LEARNED_FLOOR_MS} ms, at most CRM_NOTIFICATION_TIMEOUT_MS (${max} ms)` };
}

/** A notification arrived `waitedMs` after its test began waiting for it. */
export function notificationArrived(waitedMs: number): void {
  const l = learned() ?? { slowestMs: 0, arrivals: 0 };
  const next = { slowestMs: Math.max(l.slowestMs, Math.round(waitedMs)), arrivals: l.arrivals + 1 };
  memo.value = next;
  memo.at = Date.now();
  try { writeRunFile('latency', JSON.stringify(next)); } catch { /* best effort: the longest wait applies */ }
}
