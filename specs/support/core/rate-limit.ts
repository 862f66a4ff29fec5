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
import { retryAfterMs, type ApiClient, type ApiResponse } from './http.js';
import { loadConfig } from './config.js';
import { loopbackJson } from './loopback.js';
import { breaks } from './attribution.js';
import { BULK_PATH, BulkSchedule, COORDINATOR_ENV, PER_WINDOW, RETRY_MS, WINDOW_MS, type Quiet, type ScheduleEntry } from './bulk-schedule.js';
import { workerGate } from './gate.js';
import { describeExchange } from './recorder.js';

export * from './bulk-schedule.js';
export { BULK_SCHEDULE_FILE, startBulkCoordinator, writeBulkSchedule, type BulkScheduleFile } from './bulk-coordinator.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

let local: BulkSchedule | undefined;

/** One message to the run's coordinator (`base`) about this target's schedule: its JSON answer. */
async function tell<T>(base: string, path: 'slot' | 'reserve' | 'answered' | 'release' | 'recent', params: Record<string, string> = {}): Promise<T> {
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

/** A slot of the bulk schedule, taken: its number, whether the run-wide schedule granted it, and how to report its answer. */
export interface BulkSlot {
  slot?: number;
  /** Granted by the run's coordinator: the schedule then proves the pace of the whole run, not just this worker's. */
  paced: boolean;
  answered(): Promise<void>;
}

/**
 * Waits for this worker's next bulk slot of the run-wide schedule; call `answered()` as soon as
 * the target has answered the request sent in it (not after a request that got no answer).
 */
export async function acquireBulkSlot(): Promise<BulkSlot> {
  const { slot } = await granted('slot');
  const base = process.env[COORDINATOR_ENV];
  return {
    slot,
    paced: !!base && slot !== undefined,
    answered: async () => {
      if (slot === undefined) return;
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

/** How recently a 429 of a general limit in this worker makes a 429 to a paced bulk call that limit's (not a finding). */
export const GENERAL_LIMIT_MEMORY_MS = 5_000;

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 23);
const describeEntry = (e: ScheduleEntry, mine: number) =>
  e.kind === 'slot'
    ? `  slot ${e.slot} at ${clock(e.at)}${e.answeredAt !== undefined ? `, answered by ${clock(e.answeredAt)}` : ', answer not reported'}${e.slot === mine ? '  <- this request' : ''}`
    : `  exclusive window ${e.token} (a burst test) from ${clock(e.from)} until ${clock(e.releasedAt ?? e.until)}`;

/**
 * The finding a 429 to a paced bulk call makes (spec § Limits: "Request rate | bulk interfaces | 3
 * per second, in addition to any general limit; excess may get 429": only the excess may be
 * refused), with the schedule that proves the pace: the slot of the request and every slot and
 * window of the seconds before it, as the run's coordinator granted them (bulk-schedule.json).
 */
export async function pacedRefusal(slot: BulkSlot, sentAt: number, res: ApiResponse): Promise<string> {
  const base = process.env[COORDINATOR_ENV];
  const entries = base && slot.slot !== undefined ? await tell<ScheduleEntry[]>(base, 'recent', { slot: String(slot.slot) }).catch(() => []) : [];
  const slots = entries.filter((e) => e.kind === 'slot').map((e) => e.at);
  const busiest = Math.max(0, ...slots.map((at) => slots.filter((t) => t <= at && at - t < WINDOW_MS).length));
  return [
    `a bulk request the suite paced within ${PER_WINDOW} a second was refused with 429${breaks(['BULK-12'])}: only the excess over ${PER_WINDOW} a second may be refused`,
    `("Request rate | bulk interfaces | ${PER_WINDOW} per second, in addition to any general limit; excess may get 429"), and no request of this worker met a general limit in the last ${GENERAL_LIMIT_MEMORY_MS / 1000} s.`,
    `The run-wide schedule of bulk calls (every worker's; bulk-schedule.json) granted this request slot ${slot.slot}, sent at ${clock(sentAt)};`,
    `the slots and windows of the ${PER_WINDOW} seconds before it (at most ${busiest} slots within any second; a slot follows the one ${PER_WINDOW} before it only a second after that one's answer):`,
    ...entries.map((e) => describeEntry(e, slot.slot ?? -1)),
    describeExchange(res.exchange),
  ].join('\n');
}

/**
 * Is `res` a 429 to a bulk request the run-wide schedule paced (a slot or the start of an exclusive
 * window), which no general limit met by this worker just before explains? Then it is a finding.
 */
export function refusedWithinPace(res: ApiResponse): boolean {
  return res.status === 429 && !!process.env[COORDINATOR_ENV] && !workerGate.limitedWithin(GENERAL_LIMIT_MEMORY_MS);
}

/**
 * `POST /opportunities/bulk_create` within the run-wide limit: takes a slot, sends, and returns the
 * answer. A 429 to a request the run-wide schedule paced is a finding (BULK-12, {@link pacedRefusal}),
 * thrown, not retried away; unless this worker met a general limit just before (its 429s count
 * bulk calls too, "in addition to any general limit"), or the schedule is only this worker's (no
 * coordinator): then the client waits Retry-After (either form; 1 s when absent) and takes a new
 * slot before trying again, until `deadlineMs`. The retries go through the schedule too, so they
 * never add to a burst.
 */
export async function bulkCreate<T = unknown>(api: ApiClient, body: unknown, options: { deadlineMs?: number } = {}): Promise<ApiResponse<T>> {
  const deadline = Date.now() + (options.deadlineMs ?? 25_000);
  for (;;) {
    // A general limit closed the worker's gate: bulk calls count towards it too.
    await workerGate.pass(deadline);
    const slot = await acquireBulkSlot();
    const sentAt = Date.now();
    const res = await api.post<T>(BULK_PATH, body, { honour429: false });
    await slot.answered();
    if (res.status !== 429) return res;
    if (slot.paced && refusedWithinPace(res)) throw new Error(await pacedRefusal(slot, sentAt, res));
    if (Date.now() >= deadline) return res;
    await sleep(Math.min(retryAfterMs(res.headers['retry-after']) || 1000, 10_000, deadline - Date.now()));
  }
}
