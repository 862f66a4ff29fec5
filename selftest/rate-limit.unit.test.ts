/**
 * The run-wide bulk schedule (specs/support/core/rate-limit.ts), property-based: whatever the requests,
 * their answers and reservations, the target never counts more than 3 bulk requests in any window
 * of one second, wherever between its arrival and its answer it counts one (an answered request
 * whose answer was reported: up to its answer; any other: up to the margin after its slot), no
 * slot falls inside an active reservation, and a reservation starts only when the target would
 * accept one more request. The schedule's record of what it granted (bulk-schedule.json) says
 * the same, and its least time for them is what the limit allows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ANSWERED_MARGIN_MS,
  BulkSchedule,
  PER_WINDOW,
  summarizeSchedule,
  WINDOW_MS,
  writeBulkSchedule,
  type BulkScheduleFile,
  type Quiet,
} from '../specs/support/core/rate-limit.js';
import { scratchDir } from './helpers.js';

type Op =
  // `answerMs`: the answer comes that long after the slot and is reported (the worker waits for it);
  // null: in flight in another worker, never reported.
  { kind: 'slot'; gap: number; answerMs: number | null } | { kind: 'reserve'; gap: number; ms: number; releaseAfter: number; quietAfter: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('slot' as const),
      gap: fc.integer({ min: 0, max: 700 }),
      answerMs: fc.option(fc.integer({ min: 0, max: 1_500 }), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      gap: fc.integer({ min: 0, max: 700 }),
      ms: fc.integer({ min: 500, max: 9_000 }),
      releaseAfter: fc.integer({ min: 0, max: 3_000 }),
      quietAfter: fc.option(fc.integer({ min: 0, max: 2_500 }), { nil: null }),
    }),
  },
);

for (const margin of [100, 250]) {
  test(`bulk schedule (margin ${margin} ms): at most ${PER_WINDOW} requests counted in any ${WINDOW_MS} ms, none inside a reservation`, () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const schedule = new BulkSchedule(margin);
        /**
         * Requests the target sees, in the order granted: granted slots, the burst holder's last
         * accepted request, and bursts; each counted by the target at some time from `t` to `latest`.
         */
        const sent: { t: number; latest: number; burst: boolean }[] = [];
        const reservations: [number, number][] = [];
        let now = 0;
        for (const o of ops) {
          now += o.gap;
          if (o.kind === 'slot') {
            for (;;) {
              const g = schedule.slot(now);
              if ('at' in g) {
                assert.ok(g.at >= now);
                if (o.answerMs === null) sent.push({ t: g.at, latest: g.at + margin, burst: false });
                else {
                  // The worker sends at its slot, waits for the answer and reports it.
                  sent.push({ t: g.at, latest: g.at + o.answerMs, burst: false });
                  now = g.at + o.answerMs;
                  schedule.answered(g.slot!, now);
                }
                break;
              }
              assert.ok(g.retryAt > now);
              now = g.retryAt;
            }
          } else {
            let g = schedule.reserve(o.ms, now);
            while (!('at' in g)) {
              now = g.retryAt;
              g = schedule.reserve(o.ms, now);
            }
            const start = g.at;
            // It starts when the target accepts one more: fewer than PER_WINDOW it may still count then.
            assert.ok(
              sent.filter((x) => !x.burst && x.latest + WINDOW_MS > start && x.t <= start).length < PER_WINDOW,
              'the reservation starts with room for one more request',
            );
            const end = Math.min(start + o.ms, start + o.releaseAfter);
            let quiet: Quiet | undefined;
            if (o.quietAfter !== null && end - o.quietAfter >= start) {
              // The burst ended at `start`; the last accepted poll was sent at end - quietAfter.
              quiet = { burstEndedAt: start, acceptedSentAt: end - o.quietAfter };
            }
            schedule.release(g.token!, end, quiet);
            reservations.push([start, end]);
            // The holder's last accepted request counts at the target (at the latest, at the release);
            // its burst is accepted at most up to the target's limit, at `start`.
            sent.push({ t: end, latest: end, burst: false });
            sent.push({ t: start, latest: start, burst: true });
            now = end;
          }
        }
        // Slots never fall inside a reservation.
        for (const { t } of sent) for (const [a, b] of reservations) assert.ok(!(t > a && t < b), `a request at ${t} inside the reservation ${a}-${b}`);
        // Outside the bursts (the requests the schedule answers for): in the order granted, never
        // earlier than the one before; and a request is sent a window after the latest the target
        // may have counted the one PER_WINDOW before it, so no window of the target holds more.
        const slots = sent.filter((x) => !x.burst);
        for (let i = 1; i < slots.length; i++)
          assert.ok(slots[i].t >= slots[i - 1].t, `slot at ${slots[i].t} before the one granted earlier at ${slots[i - 1].t}`);
        for (let i = PER_WINDOW; i < slots.length; i++)
          assert.ok(
            slots[i].t - slots[i - PER_WINDOW].latest >= WINDOW_MS,
            `more than ${PER_WINDOW} requests counted within ${WINDOW_MS} ms around ${slots[i].t}`,
          );
        // Its record: every slot and window granted, never more than PER_WINDOW slots in a window,
        // and from the first to the last at least the least time it names.
        const summary = summarizeSchedule(schedule.log);
        assert.equal(summary.slots, ops.filter((o) => o.kind === 'slot').length);
        assert.equal(summary.windows, reservations.length);
        assert.ok(summary.busiest <= PER_WINDOW, `the record has ${summary.busiest} slots within ${WINDOW_MS} ms`);
        if (summary.firstAt !== undefined)
          assert.ok(
            summary.lastAt! - summary.firstAt >= summary.floorMs,
            `${summary.lastAt! - summary.firstAt} ms from the first to the last, under the least ${summary.floorMs} ms`,
          );
      }),
      { numRuns: 300 },
    );
  });
}

test('a burst window whose coordinator is gone is released without an error: it ends at its own time limit', async () => {
  const { COORDINATOR_ENV, reserveBulkWindow, startBulkCoordinator } = await import('../specs/support/core/rate-limit.js');
  // The schedule is the target's: a configuration to name it (loaded from these variables).
  const env: Record<string, string> = {
    [COORDINATOR_ENV]: '',
    CRM_BASE_URL: 'http://127.0.0.1:1',
    CRM_ACCESS_TOKEN: 't0ken-value',
    CRM_USER_EMAIL: 'a@b.example',
  };
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const coordinator = await startBulkCoordinator(100);
  let open = true;
  try {
    Object.assign(process.env, env, { [COORDINATOR_ENV]: coordinator.url });
    const window = await reserveBulkWindow(500);
    await coordinator.close();
    open = false;
    await assert.doesNotReject(window.release({ acceptedSentAt: Date.now(), burstEndedAt: Date.now() - 1_000 }), 'a release the coordinator never hears of');
    // The coordinator's record: the window, never released, held until its own limit (500 ms after it began).
    const [w, ...rest] = Object.values(coordinator.logs()).flat();
    assert.equal(rest.length, 0, JSON.stringify(coordinator.logs()));
    assert.ok(w.kind === 'window' && w.releasedAt === undefined && w.until - w.from === 500, JSON.stringify(w));
  } finally {
    if (open) await coordinator.close();
    for (const [k, v] of Object.entries(before))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  // What an unreleased window means to the schedule: no slot until its limit, then one a window and the margin later.
  const schedule = new BulkSchedule(100);
  const held = schedule.reserve(500, 0);
  assert.ok('at' in held && held.at === 0);
  const during = schedule.slot(499);
  assert.ok('retryAt' in during && during.retryAt <= 500, `no slot inside the window: ${JSON.stringify(during)}`);
  assert.ok('at' in schedule.reserve(500, 500), 'at its limit the window is over: another may be reserved');
  const after = new BulkSchedule(100);
  after.reserve(500, 0);
  const next = after.slot(500);
  assert.ok('at' in next && next.at === 500 + WINDOW_MS + 100, `the next slot a window and the margin after the limit: ${JSON.stringify(next)}`);
});

test("the schedule's record: slots and windows, the busiest window, and the least time the limit allows them", () => {
  const schedule = new BulkSchedule(100);
  const g = schedule.reserve(2_000, 0);
  assert.ok('at' in g);
  schedule.release(g.token!, 1_200, { burstEndedAt: 0, acceptedSentAt: 1_100 });
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const s = schedule.slot(times.at(-1) ?? 1_200);
    assert.ok('at' in s);
    schedule.answered(s.slot!, s.at + 5);
    times.push(s.at + 5);
  }
  const summary = summarizeSchedule(schedule.log);
  assert.deepEqual({ slots: summary.slots, windows: summary.windows, busiest: summary.busiest }, { slots: 7, windows: 1, busiest: PER_WINDOW });
  assert.equal(summary.firstAt, 0);
  assert.equal(summary.lastAt, times.at(-1));
  // The window as held (1.2 s), then 7 slots: three groups, two windows and their margins apart.
  assert.equal(summary.floorMs, 1_200 + 2 * (WINDOW_MS + ANSWERED_MARGIN_MS));
  const window = schedule.log[0];
  assert.ok(window.kind === 'window' && window.releasedAt === 1_200 && window.quiet === true, JSON.stringify(window));
  assert.deepEqual(summarizeSchedule([]), { slots: 0, windows: 0, firstAt: undefined, lastAt: undefined, busiest: 0, floorMs: 0 });
});

test('a window between two groups of slots parts them: the least time counts no second window for it', () => {
  // Two slots, a burst window at once (the target accepts one more), released quiet, two slots.
  const schedule = new BulkSchedule(100);
  let now = 0;
  const slot = () => {
    const g = schedule.slot(now);
    assert.ok('at' in g);
    now = g.at + 5;
    schedule.answered(g.slot!, now);
  };
  slot();
  slot();
  const w = schedule.reserve(3_000, now);
  assert.ok('at' in w);
  const end = w.at + 1_500;
  schedule.release(w.token!, end, { burstEndedAt: w.at, acceptedSentAt: end - 100 });
  now = end;
  slot();
  slot();
  const summary = summarizeSchedule(schedule.log);
  assert.equal(summary.floorMs, 1_500, 'the window as held; each stretch of two slots needs no window of its own');
  assert.ok(summary.lastAt! - summary.firstAt! >= summary.floorMs, JSON.stringify(summary));
});

test('bulk-schedule.json names a target without the user and password of its URL', () => {
  const file = join(scratchDir('bulk-schedule-'), 'bulk-schedule.json');
  writeBulkSchedule(file, { 'https://integrator:s3cret-pass@crm.example/api': [{ kind: 'slot', slot: 1, askedAt: 0, at: 0, answeredAt: 5 }] });
  const text = readFileSync(file, 'utf8');
  assert.ok(!text.includes('s3cret-pass') && !text.includes('integrator'), text);
  assert.equal((JSON.parse(text) as BulkScheduleFile).targets[0].target, 'https://crm.example/api');
});
