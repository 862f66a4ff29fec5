/**
 * spec § Limits ("Request rate | bulk interfaces | 3 per second … excess may get 429"), § Errors
 * ("Bulk create over 3 requests per second | 429"). Optional behaviour (MAY/SHOULD).
 *
 * Each test takes an exclusive window of the run-wide bulk limiter (no other bulk call of the run
 * is sent meanwhile, and the window starts when the target accepts one more request),
 * then sends one empty bulk request (it must be accepted alone) and a burst of BURST more at once — above 3 per second, past the limiter,
 * without honouring 429 — and polls (with a deadline, honouring Retry-After) until the interface
 * accepts a request again before giving the window back. The requests carry no entries: nothing
 * is created. When the profile says the target limits bulk calls (`capabilities.bulk_rate_limit`)
 * the burst must meet at least one 429.
 */
import type { ApiClient, ApiResponse } from '../support/core/http.js';
import { describeExchange } from '../support/core/recorder.js';
import { BULK_PATH, reserveBulkWindow, type Quiet } from '../support/core/rate-limit.js';
import { expect, rule, test } from '../support/fixtures/test.js';

const BURST = 8;
/** How long the interface may take to accept requests again after the burst. */
const RECOVERY_MS = 6_000;
const empty = { opportunities: [] };

/**
 * The burst is made of requests the target accepts when sent alone; otherwise a refusal would say
 * nothing about the rate. A first empty request checks that (and counts towards the burst).
 */
async function burst(api: ApiClient): Promise<{ answers: ApiResponse[]; spreadMs: number; endedAt: number }> {
  const alone = await api.post(BULK_PATH, empty, { honour429: false });
  // A 429 here is the rate limit itself (still counting earlier requests): the test goes on.
  test.skip(alone.status !== 429 && (alone.status < 200 || alone.status >= 300), `an empty bulk request sent alone is refused (${alone.status}; see BULK-3): a burst of them cannot show a rate limit`);
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: BURST }, () => api.post(BULK_PATH, empty, { honour429: false })));
  const endedAt = Date.now();
  return { answers, spreadMs: endedAt - started, endedAt };
}

/** Polls with empty bulk requests until one is accepted or the deadline passes. */
async function untilAccepted(api: ApiClient, deadlineMs: number): Promise<{ last: ApiResponse; elapsedMs: number; polls: number; sentAt: number }> {
  const started = Date.now();
  const end = started + deadlineMs;
  for (let polls = 1; ; polls++) {
    const sentAt = Date.now();
    const last = await api.post(BULK_PATH, empty, { honour429: false });
    if ((last.status >= 200 && last.status < 300) || Date.now() >= end) return { last, elapsedMs: Date.now() - started, polls, sentAt };
    const after = Number(last.headers['retry-after']);
    // Retry-After when given; otherwise 400 ms, which keeps the polls themselves under 3 per second.
    const wait = last.status === 429 && Number.isFinite(after) && after > 0 ? after * 1000 : 400;
    await new Promise((r) => setTimeout(r, Math.max(0, Math.min(wait, end - Date.now()))));
  }
}

/** What the window's release may tell the schedule: the last poll was accepted (see BulkSchedule.release). */
function quietAfter(after: { last: ApiResponse; sentAt: number } | undefined, burstEndedAt: number | undefined): Quiet | undefined {
  if (!after || burstEndedAt === undefined || after.last.status < 200 || after.last.status >= 300) return undefined;
  return { acceptedSentAt: after.sentAt, burstEndedAt };
}

test(...rule('BULK-9', `a burst of ${BURST} bulk requests at once is refused, if at all, with status 429`, async ({ api, profile }, testInfo) => {
  const reserved = await reserveBulkWindow(RECOVERY_MS + 3_000);
  let burstEndedAt: number | undefined;
  try {
    const { answers, spreadMs, endedAt } = await burst(api);
    burstEndedAt = endedAt;
    const statuses = answers.map((r) => r.status);
    testInfo.annotations.push({ type: 'note', description: `burst of ${BURST} in ${spreadMs} ms: statuses ${statuses.join(', ')}` });
    const wrong = answers.filter((r) => !(r.status >= 200 && r.status < 300) && r.status !== 429);
    expect(wrong.map((r) => r.status), `every refusal of the burst is 429${wrong[0] ? `\n${describeExchange(wrong[0].exchange)}` : ''}`).toEqual([]);
    if (profile.capabilities.bulk_rate_limit) {
      expect(statuses.filter((s) => s === 429).length, `the profile says the target limits bulk calls: ${BURST} requests within ${spreadMs} ms meet at least one 429`).toBeGreaterThan(0);
    }
  } finally {
    // Leave the interface usable for the rest of the run before giving the window back.
    const after = burstEndedAt === undefined ? undefined : await untilAccepted(api, RECOVERY_MS).catch(() => undefined);
    await reserved.release(quietAfter(after, burstEndedAt));
  }
}, { timeout: 60_000 }));

test(...rule('BULK-10', 'after a burst the bulk interface accepts requests again within a few seconds', async ({ api }, testInfo) => {
  const reserved = await reserveBulkWindow(RECOVERY_MS + 3_000);
  let quiet: Quiet | undefined;
  try {
    const { answers, endedAt } = await burst(api);
    const refused = answers.filter((r) => r.status === 429).length;
    const after = await untilAccepted(api, RECOVERY_MS);
    quiet = quietAfter(after, endedAt);
    testInfo.annotations.push({ type: 'note', description: `${refused} of ${BURST} refused; accepted again after ${after.elapsedMs} ms (${after.polls} polls)` });
    expect(after.last, `a bulk request is accepted within ${RECOVERY_MS / 1000} s after the burst`).not.toBeRefused();
  } finally {
    await reserved.release(quiet);
  }
}, { timeout: 60_000 }));
