/**
 * How the API client (core/http.ts) lives with a target's rate limits: a 429 (RFC 6585 §4) with
 * Retry-After in either of its forms (RFC 9110 §10.2.3). The spec leaves a general limit open
 * ("General rate limits for non-bulk calls | all | not shown"), so every 429 to a request that
 * honours it is waited out, within a bounded total wait per request ({@link MAX_429_WAIT_MS}), and
 * the worker's gate closes until the Retry-After has passed: the worker's other requests wait too,
 * instead of each one meeting the limit on its own (a run of several workers under a limit of a few
 * requests a second would otherwise retry in lockstep until their budgets ran out). After the bounded
 * wait the 429 is returned and judged like any other answer.
 */

/**
 * The wait a Retry-After header asks for, in milliseconds: delta-seconds or an HTTP-date (RFC 9110
 * §10.2.3); undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The most one request waits for 429s (its own Retry-Afters and the gate's) before its 429 is returned. */
export const MAX_429_WAIT_MS = 30_000;
/** One Retry-After is honoured up to this long (a larger one counts as this much). */
export const MAX_RETRY_AFTER_MS = 10_000;
/** The wait after a 429 without a readable Retry-After: 400 ms, doubling with each retry. */
export const backoffMs = (attempt: number): number => 400 * 2 ** Math.min(attempt, 4);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** The worker's gate: closed until `until` (epoch ms) after a 429; `last429At` for the bulk client. */
export class RateGate {
  until = 0;
  /** When a request that honours 429 last got one (a general limit at work). */
  last429At = 0;

  /** A 429 asked for `waitMs`: the worker's new requests wait until then. */
  close(waitMs: number, now = Date.now()): void {
    this.last429At = now;
    this.until = Math.max(this.until, now + Math.min(waitMs, MAX_RETRY_AFTER_MS));
  }

  /** Waits while the gate is closed, never past `deadline` (epoch ms); resolves at once when open. */
  async pass(deadline: number): Promise<void> {
    for (let now = Date.now(); this.until > now && now < deadline; now = Date.now()) await sleep(Math.min(this.until, deadline) - now);
  }

  /** Has a general limit answered 429 in this worker within `ms`? */
  limitedWithin(ms: number, now = Date.now()): boolean {
    return this.last429At > 0 && now - this.last429At <= ms;
  }
}

/** The gate of this worker process (every ApiClient of the worker shares it). */
export const workerGate = new RateGate();

/**
 * Sends with `once` until the answer is not a 429 or the total wait would pass `maxWaitMs`:
 * before each attempt the gate is passed, after each 429 it closes for the Retry-After (or a
 * back-off). The last answer is returned, a 429 included.
 */
export async function honouring429<R extends { status: number; headers: Record<string, string> }>(
  once: () => Promise<R>,
  gate: RateGate = workerGate,
  maxWaitMs = MAX_429_WAIT_MS,
): Promise<R> {
  const deadline = Date.now() + maxWaitMs;
  for (let attempt = 0; ; attempt++) {
    await gate.pass(deadline);
    const res = await once();
    if (res.status !== 429) return res;
    // No Retry-After, an unreadable one or none to wait (0, a date past): the back-off, so that a retry is never at once.
    const waitMs = Math.min(retryAfterMs(res.headers['retry-after']) || backoffMs(attempt), MAX_RETRY_AFTER_MS);
    gate.close(waitMs);
    if (Date.now() + waitMs > deadline) return res;
  }
}
