/**
 * The run-wide bulk schedule (specs/support/core/rate-limit.ts), property-based: whatever the requests
 * and reservations, the granted slots never put more than 3 bulk requests in any window of one
 * second plus the margin, no slot falls inside an active reservation, and a reservation starts
 * only when the target would accept one more request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BulkSchedule, PER_WINDOW, WINDOW_MS, type Quiet } from '../specs/support/core/rate-limit.js';

type Op =
  | { kind: 'slot'; gap: number }
  | { kind: 'reserve'; gap: number; ms: number; releaseAfter: number; quietAfter: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('slot' as const), gap: fc.integer({ min: 0, max: 700 }) }) },
  { weight: 1, arbitrary: fc.record({
    kind: fc.constant('reserve' as const), gap: fc.integer({ min: 0, max: 700 }), ms: fc.integer({ min: 500, max: 9_000 }),
    releaseAfter: fc.integer({ min: 0, max: 3_000 }), quietAfter: fc.option(fc.integer({ min: 0, max: 2_500 }), { nil: null }),
  }) },
);

for (const margin of [100, 250]) {
  test(`bulk schedule (margin ${margin} ms): at most ${PER_WINDOW} requests in any ${WINDOW_MS + margin} ms, none inside a reservation`, () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const schedule = new BulkSchedule(margin);
      const span = WINDOW_MS + margin;
      /** Requests the target sees: granted slots, the burst holder's last accepted request, and bursts. */
      const sent: { t: number; burst: boolean }[] = [];
      const reservations: [number, number][] = [];
      let now = 0;
      for (const o of ops) {
        now += o.gap;
        if (o.kind === 'slot') {
          for (;;) {
            const g = schedule.slot(now);
            if ('at' in g) { assert.ok(g.at >= now); sent.push({ t: g.at, burst: false }); break; }
            assert.ok(g.retryAt > now);
            now = g.retryAt;
          }
        } else {
          let g = schedule.reserve(o.ms, now);
          while (!('at' in g)) { now = g.retryAt; g = schedule.reserve(o.ms, now); }
          const start = g.at;
          // It starts when the target accepts one more: fewer than PER_WINDOW sent within a span before it.
          assert.ok(sent.filter((x) => !x.burst && x.t > start - span && x.t <= start).length < PER_WINDOW, 'the reservation starts with room for one more request');
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
          sent.push({ t: end, burst: false });
          sent.push({ t: start, burst: true });
          now = end;
        }
      }
      // Slots never fall inside a reservation.
      for (const { t } of sent) for (const [a, b] of reservations) assert.ok(!(t > a && t < b), `a request at ${t} inside the reservation ${a}-${b}`);
      // Outside the bursts (the requests the schedule answers for), at most PER_WINDOW in any span.
      const slots = sent.filter((x) => !x.burst).map((x) => x.t).sort((x, y) => x - y);
      for (let i = PER_WINDOW; i < slots.length; i++) assert.ok(slots[i] - slots[i - PER_WINDOW] >= span, `more than ${PER_WINDOW} slots within ${span} ms around ${slots[i]}`);
    }), { numRuns: 300 });
  });
}
