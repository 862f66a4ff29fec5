/**
 * The coordinator of the run-wide bulk limiter (core/rate-limit.ts explains the whole): an HTTP
 * server on loopback, started by the global setup, that keeps one {@link BulkSchedule} per target
 * for the run's workers, and the file that records what it granted (bulk-schedule.json).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { redactText } from './redact.js';
import { BulkSchedule, MARGIN_MS, PER_WINDOW, summarizeSchedule, WINDOW_MS, type Grant, type ScheduleEntry, type ScheduleSummary } from './bulk-schedule.js';

/** Starts the coordinator (global setup); its address goes to the workers through the environment. */
export async function startBulkCoordinator(marginMs = MARGIN_MS): Promise<{ url: string; close(): Promise<void>; logs(): Record<string, ScheduleEntry[]> }> {
  // One schedule per target (`?target=`): the limit is each target's, and a run of the fault
  // matrix tests many instances at once (scripts/matrix.config.ts).
  const schedules = new Map<string, BulkSchedule>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://coordinator.invalid');
    const key = url.searchParams.get('target') ?? '';
    let schedule = schedules.get(key);
    if (!schedule) schedules.set(key, (schedule = new BulkSchedule(marginMs)));
    const now = Date.now();
    // Times travel as delays (coordinator and workers share the machine's clock anyway).
    const wire = (g: Grant) => ('at' in g ? { delayMs: g.at - now, slot: g.slot, token: g.token } : { retryMs: g.retryAt - now });
    let body: unknown;
    if (req.method === 'POST' && url.pathname === '/slot') body = wire(schedule.slot(now));
    else if (req.method === 'POST' && url.pathname === '/answered') {
      // Told after the answer came: the target counted the request by then.
      schedule.answered(Number(url.searchParams.get('slot')), now);
      body = { answered: true };
    } else if (req.method === 'POST' && url.pathname === '/reserve')
      body = wire(schedule.reserve(Math.min(Number(url.searchParams.get('ms')) || 0, 30_000), now));
    else if (req.method === 'POST' && url.pathname === '/release') {
      const sent = Number(url.searchParams.get('acceptedSentAt'));
      const ended = Number(url.searchParams.get('burstEndedAt'));
      schedule.release(url.searchParams.get('token') ?? '', now, sent && ended ? { acceptedSentAt: sent, burstEndedAt: ended } : undefined);
      body = { released: true };
    } else if (req.method === 'POST' && url.pathname === '/recent') body = schedule.around(Number(url.searchParams.get('slot')));
    req.resume();
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'unknown' }));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
    logs: () => Object.fromEntries([...schedules].map(([target, schedule]) => [target, schedule.log])),
  };
}

/** The run's record of its bulk calls, beside the conformance report. */
export const BULK_SCHEDULE_FILE = 'bulk-schedule.json';

/** What `bulk-schedule.json` holds: per target, every slot and window granted, and their summary. */
export interface BulkScheduleFile {
  version: 1;
  limit: { perWindow: number; windowMs: number };
  targets: { target: string; summary: ScheduleSummary; entries: ScheduleEntry[] }[];
}

/** A target's base URL as the file shows it: without user and password, known secrets redacted. */
function shownTarget(target: string): string {
  try {
    const u = new URL(target);
    u.username = '';
    u.password = '';
    return redactText(u.href.replace(/\/$/, ''));
  } catch {
    return redactText(target);
  }
}

/** Writes the schedules of a run (the coordinator's `logs()`, global teardown). */
export function writeBulkSchedule(file: string, logs: Record<string, ScheduleEntry[]>): void {
  const out: BulkScheduleFile = {
    version: 1,
    limit: { perWindow: PER_WINDOW, windowMs: WINDOW_MS },
    targets: Object.entries(logs).map(([target, entries]) => ({ target: shownTarget(target), summary: summarizeSchedule(entries), entries })),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(out, null, 2));
}
