/**
 * The schedule of the run-wide bulk limiter (core/rate-limit.ts explains the whole): the slots and
 * exclusive windows it grants so that a target never counts more than {@link PER_WINDOW} bulk
 * requests in any {@link WINDOW_MS}, and the summary of what it granted (bulk-schedule.json).
 */
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
export const RETRY_MS = 200;

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

  /**
   * What the schedule granted around slot `id`: that slot and every slot or window of the
   * {@link PER_WINDOW} windows before it (the evidence that its request kept the pace).
   */
  around(id: number): ScheduleEntry[] {
    const e = this.log.find((x) => x.kind === 'slot' && x.slot === id);
    if (e?.kind !== 'slot') return [];
    const since = e.at - PER_WINDOW * WINDOW_MS;
    return this.log.filter((x) => x === e || (x.kind === 'slot' ? x.at >= since && x.at <= e.at : (x.releasedAt ?? x.until) >= since && x.from <= e.at));
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
