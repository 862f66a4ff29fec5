/**
 * The run-wide limiter of bulk calls (spec § Limits: "Request rate | bulk interfaces | 3 per
 * second"). Every bulk request of the suite, in every worker, takes a slot from one schedule so
 * that the run never sends more than 3 bulk requests in any second to a target, whatever the
 * number of workers (a schedule per target: the fault matrix tests many instances in one run).
 *
 * The schedule lives in a tiny coordinator: an HTTP server on loopback started by the global
 * setup (`startBulkCoordinator`), whose address the workers get through
 * `CONFORMANCE_BULK_COORDINATOR` (set in the runner's environment before the workers start).
 * A worker asks it for a slot (`POST /slot` → `{ delayMs, slot }`, or `{ retryMs }` while a
 * reservation is active), waits that long, sends (or asks again), and once the target has answered
 * says so (`POST /answered?slot=`). Slots are spaced so that the target never counts more than
 * {@link PER_WINDOW} in any {@link WINDOW_MS}, wherever between the request's arrival and its answer
 * it counts one (its clock, not ours, decides): a request may follow the request
 * {@link PER_WINDOW} before it once that one has been *answered* for a window
 * ({@link ANSWERED_MARGIN_MS} more for clocks that count in whole milliseconds), since the target
 * counted it before it answered and counts the new one after it was sent, whatever the network
 * or the target's event loop add. Until that answer is known (a call still in flight in another
 * worker, one that got no answer) the window starts at the slot, plus a margin for the arrival
 * ({@link marginFor}: 250 ms for a target across a network, 100 ms for one on loopback, where only
 * event-loop delays on a busy machine remain). On loopback an answer takes a few milliseconds, so
 * the bulk calls of a run follow each other some 80 ms a window sooner than with the margin, and a
 * busy target's event loop can no longer make them too close.
 *
 * The burst tests (MAY/SHOULD) take an exclusive window (`POST /reserve`): it starts when a slot
 * would (the target then accepts one more request), and nobody else gets a slot until it is
 * released, so the burst neither disturbs the other bulk tests nor is disturbed by them. After
 * the release slots resume one window later, or at once when the burst test saw the target
 * accept a request a whole window after the burst (its count then holds that request only).
 *
 * Without a coordinator (a worker started some other way) the schedule is kept in-process: it
 * then limits each worker, not the run; the other bulk tests still honour 429 answers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname } from 'node:path';
import type { AddressInfo } from 'node:net';
import { retryAfterMs, type ApiClient, type ApiResponse } from './http.js';
import { loadConfig } from './config.js';
import { loopbackJson } from './loopback.js';
import { redactText } from './redact.js';

export const COORDINATOR_ENV = 'CONFORMANCE_BULK_COORDINATOR';
export const BULK_PATH = '/opportunities/bulk_create';
/** Bulk requests allowed per window (spec § Limits). */
export const PER_WINDOW = 3;
export const WINDOW_MS = 1000;
/** Extra spacing beyond the window: the arrival order at the target may differ by this much from the send order. */
export const MARGIN_MS = 250;
/** The margin for a target on this machine: no network between the send and the arrival. */
export const LOOPBACK_MARGIN_MS = 100;
/** After an answer: a window and this much (timestamps in whole milliseconds, ours and the target's). */
export const ANSWERED_MARGIN_MS = 10;

/** The spacing margin for a target: {@link LOOPBACK_MARGIN_MS} on loopback, else {@link MARGIN_MS}. */
export const marginFor = (loopback: boolean): number => (loopback ? LOOPBACK_MARGIN_MS : MARGIN_MS);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** An answer of the schedule: a time to go at (a slot's number, or a reservation's token), or (during someone's reservation) a time to ask again. */
export type Grant = { at: number; slot?: number; token?: string } | { retryAt: number };

/** A slot granted: when it may be sent and, once reported, when its answer came. */
interface Granted {
  at: number;
  id: number;
  answeredAt?: number;
}

/** What a burst test saw before releasing its window (see BulkSchedule.release). */
export interface Quiet {
  acceptedSentAt: number;
  burstEndedAt: number;
}

/** How often a waiting worker asks again while a reservation is active. */
const RETRY_MS = 200;

/**
 * What the schedule granted, in order (epoch ms, the coordinator's clock, which the workers
 * share): a slot, sent by its worker at `at` and answered by `answeredAt` (when reported), or an
 * exclusive window for a burst, from `from` until its release (`releasedAt`) or its time limit.
 */
export type ScheduleEntry =
  | { kind: 'slot'; slot: number; askedAt: number; at: number; answeredAt?: number }
  | { kind: 'window'; token: string; askedAt: number; from: number; until: number; releasedAt?: number; quiet?: boolean };

/** What a run's bulk calls took, from a schedule's log (bulk-schedule.json; the benchmark). */
export interface ScheduleSummary {
  slots: number;
  windows: number;
  /** The first slot or window (epoch ms), the last answer or release. */
  firstAt?: number;
  lastAt?: number;
  /** The most slots granted within any WINDOW_MS, exclusive windows aside: at most PER_WINDOW. */
  busiest: number;
  /**
   * The least time from the first to the last that the limit allows for these slots and windows,
   * however fast the tests between them: the windows as long as they were held, and between them
   * (before the first, after the last) PER_WINDOW slots a window, each group a window and
   * {@link ANSWERED_MARGIN_MS} after the one before (a window between two groups already parts them).
   */
  floorMs: number;
}

export function summarizeSchedule(log: readonly ScheduleEntry[]): ScheduleSummary {
  const slots = log.filter((e): e is Extract<ScheduleEntry, { kind: 'slot' }> => e.kind === 'slot');
  const windows = log.filter((e): e is Extract<ScheduleEntry, { kind: 'window' }> => e.kind === 'window');
  const starts = [...slots.map((e) => e.at), ...windows.map((e) => e.from)];
  const ends = [...slots.map((e) => e.answeredAt ?? e.at), ...windows.map((e) => e.releasedAt ?? e.until)];
  const ats = slots.map((e) => e.at).sort((a, b) => a - b);
  let busiest = 0;
  for (let i = 0, j = 0; i < ats.length; i++) {
    while (ats[i] - ats[j] >= WINDOW_MS) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  const held = windows.reduce((t, e) => t + Math.max(0, Math.min(e.releasedAt ?? e.until, e.until) - e.from), 0);
  // The slots of each stretch between windows (no slot falls inside one).
  const froms = windows.map((e) => e.from).sort((a, b) => a - b);
  const perStretch = new Map<number, number>();
  for (const at of ats) {
    const stretch = froms.filter((f) => f <= at).length;
    perStretch.set(stretch, (perStretch.get(stretch) ?? 0) + 1);
  }
  const apart = [...perStretch.values()].reduce((t, n) => t + Math.max(0, Math.ceil(n / PER_WINDOW) - 1), 0);
  return {
    slots: slots.length,
    windows: windows.length,
    firstAt: starts.length ? Math.min(...starts) : undefined,
    lastAt: ends.length ? Math.max(...ends) : undefined,
    busiest,
    floorMs: held + apart * (WINDOW_MS + ANSWERED_MARGIN_MS),
  };
}

/** The schedule of bulk slots: at most PER_WINDOW slots the target can count within any WINDOW_MS. */
export class BulkSchedule {
  private grants: Granted[] = [];
  /** Every slot and window granted, in order (the run's bulk-schedule.json). */
  readonly log: ScheduleEntry[] = [];
  /** Slots not yet answered are spaced by the window plus this margin. */
  constructor(private readonly marginMs = MARGIN_MS) {}
  private blockedUntil = 0;
  private reservation?: { token: string; until: number };
  private seq = 0;

  private active(now: number): boolean {
    if (this.reservation && this.reservation.until <= now) this.reservation = undefined;
    return !!this.reservation;
  }

  /** The next slot (recorded as granted), or when to ask again while a reservation is active. */
  slot(now = Date.now()): Grant {
    if (this.active(now)) return { retryAt: Math.min(this.reservation!.until, now + RETRY_MS) };
    const t = this.nextFree(now);
    const id = ++this.seq;
    this.keep({ at: t, id });
    this.log.push({ kind: 'slot', slot: id, askedAt: now, at: t });
    return { at: t, slot: id };
  }

  /** The target answered the request of slot `id` (at `now` at the latest): it counted it by then. */
  answered(id: number, now = Date.now()): void {
    const g = this.grants.find((x) => x.id === id);
    if (g && g.answeredAt === undefined) g.answeredAt = Math.max(now, g.at);
    const e = this.log.find((x) => x.kind === 'slot' && x.slot === id);
    if (e?.kind === 'slot' && e.answeredAt === undefined) e.answeredAt = Math.max(now, e.at);
  }

  private keep(g: Granted): void {
    this.grants.push(g);
    if (this.grants.length > PER_WINDOW) this.grants.splice(0, this.grants.length - PER_WINDOW);
  }

  /** When a slot's request no longer counts at the target: a window after its answer, or after its slot and the margin. */
  private freeAfter(g: Granted): number {
    return g.answeredAt !== undefined ? g.answeredAt + WINDOW_MS + ANSWERED_MARGIN_MS : g.at + WINDOW_MS + this.marginMs;
  }

  /** When the next slot would be granted (nothing recorded). */
  private nextFree(now: number): number {
    const last = this.grants[this.grants.length - 1]?.at ?? 0;
    const third = this.grants.length >= PER_WINDOW ? this.freeAfter(this.grants[this.grants.length - PER_WINDOW]) : 0;
    return Math.max(now, this.blockedUntil, last, third);
  }

  /**
   * An exclusive window of `ms`: it starts when the next slot would (the target accepts one more
   * request then); no slot is granted until it ends or is released. While another reservation
   * is active: when to ask again.
   */
  reserve(ms: number, now = Date.now()): Grant {
    if (this.active(now)) return { retryAt: Math.min(this.reservation!.until, now + RETRY_MS) };
    const start = this.nextFree(now);
    const token = `r${++this.seq}`;
    this.reservation = { token, until: start + ms };
    this.log.push({ kind: 'window', token, askedAt: now, from: start, until: start + ms });
    // Unless released earlier, a whole window passes after the reservation before the next slot.
    this.blockedUntil = start + ms + WINDOW_MS + this.marginMs;
    return { at: start, token };
  }

  /**
   * Ends a reservation. Slots resume one window later (the target may still count the burst), or
   * at once when `quiet` says the holder's last request, sent at `acceptedSentAt`, a whole window
   * after its burst's last answer (`burstEndedAt`), was accepted: the target then no longer counts
   * the burst, only that request (recorded as a slot granted now, which is later than it arrived)
   * and the slots granted before the window, until a window plus the margin has passed. Both times are
   * the client's: the burst arrived before its answers, the request after it was sent, so their
   * distance at the target is at least as long, whatever the network adds.
   */
  release(token: string, now = Date.now(), quiet?: Quiet): void {
    if (this.reservation?.token !== token) return;
    this.reservation = undefined;
    const e = this.log.find((x) => x.kind === 'window' && x.token === token);
    const isQuiet = !!quiet && quiet.acceptedSentAt - quiet.burstEndedAt >= WINDOW_MS && quiet.acceptedSentAt <= now;
    if (e?.kind === 'window') Object.assign(e, { releasedAt: now, quiet: isQuiet });
    const span = WINDOW_MS + this.marginMs;
    if (isQuiet) {
      // The burst no longer counts; the slots granted before it still may (a slot sent as the
      // window began can reach the target after the burst, by up to the margin). The holder's
      // accepted request was answered by now.
      this.keep({ at: now, id: ++this.seq, answeredAt: now });
      this.blockedUntil = 0;
    } else {
      this.grants = [];
      this.blockedUntil = Math.min(this.blockedUntil, now + span);
    }
  }
}

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
    }
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

let local: BulkSchedule | undefined;

/** One message to the run's coordinator (`base`) about this target's schedule: its JSON answer. */
async function tell<T>(base: string, path: 'slot' | 'reserve' | 'answered' | 'release', params: Record<string, string> = {}): Promise<T> {
  const q = new URLSearchParams({ target: loadConfig().baseUrl, ...params });
  return (await loopbackJson<T>(`${base}/${path}?${q.toString()}`)).body;
}

/** Asks the schedule (the coordinator, or the in-process fallback) until it grants; waits until then. */
async function granted(kind: 'slot' | 'reserve', ms = 0): Promise<{ slot?: number; token?: string }> {
  const base = process.env[COORDINATOR_ENV];
  for (;;) {
    let delayMs: number | undefined;
    let retryMs: number | undefined;
    let slot: number | undefined;
    let token: string | undefined;
    if (base) {
      ({ delayMs, retryMs, slot, token } = await tell<{ delayMs?: number; retryMs?: number; slot?: number; token?: string }>(
        base,
        kind,
        kind === 'reserve' ? { ms: String(ms) } : {},
      ));
    } else {
      local ??= new BulkSchedule();
      const now = Date.now();
      const g = kind === 'slot' ? local.slot(now) : local.reserve(ms, now);
      if ('at' in g) {
        delayMs = g.at - now;
        slot = g.slot;
        token = g.token;
      } else retryMs = g.retryAt - now;
    }
    if (delayMs !== undefined) {
      await sleep(delayMs);
      return { slot, token };
    }
    await sleep(retryMs ?? RETRY_MS);
  }
}

/**
 * Waits for this worker's next bulk slot of the run-wide schedule; call `answered()` as soon as
 * the target has answered the request sent in it (not after a request that got no answer).
 */
export async function acquireBulkSlot(): Promise<{ answered(): Promise<void> }> {
  const { slot } = await granted('slot');
  return {
    answered: async () => {
      if (slot === undefined) return;
      const base = process.env[COORDINATOR_ENV];
      if (!base) return local?.answered(slot, Date.now());
      // Unreported, the slot keeps the margin: slower, never closer.
      await tell(base, 'answered', { slot: String(slot) }).catch(() => undefined);
    },
  };
}

/**
 * Takes an exclusive window of `ms` for a burst (no other bulk call of the run is sent meanwhile);
 * resolves when the window starts. Release it as soon as the burst and its aftermath are done.
 */
export async function reserveBulkWindow(ms: number): Promise<{ release(quiet?: Quiet): Promise<void> }> {
  const token = (await granted('reserve', ms)).token ?? '';
  const base = process.env[COORDINATOR_ENV];
  return {
    release: async (quiet) => {
      // Unreleased (the coordinator gone with its runner), the window ends at its own time limit:
      // later slots, never closer ones.
      if (base)
        await tell(base, 'release', {
          token,
          ...(quiet ? { acceptedSentAt: String(quiet.acceptedSentAt), burstEndedAt: String(quiet.burstEndedAt) } : {}),
        }).catch(() => undefined);
      else local?.release(token, Date.now(), quiet);
    },
  };
}

/**
 * `POST /opportunities/bulk_create` within the run-wide limit: takes a slot, sends, and after a
 * 429 waits Retry-After (1 s when absent) and takes a new slot before trying again, until
 * `deadlineMs`. The retries go through the schedule too, so they never add to a burst.
 */
export async function bulkCreate<T = unknown>(api: ApiClient, body: unknown, options: { deadlineMs?: number } = {}): Promise<ApiResponse<T>> {
  const deadline = Date.now() + (options.deadlineMs ?? 25_000);
  for (;;) {
    const slot = await acquireBulkSlot();
    const res = await api.post<T>(BULK_PATH, body, { honour429: false });
    await slot.answered();
    if (res.status !== 429 || Date.now() >= deadline) return res;
    await sleep(Math.min(retryAfterMs(res.headers['retry-after']) || 1000, 10_000, deadline - Date.now()));
  }
}
