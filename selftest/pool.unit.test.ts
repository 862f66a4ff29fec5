/**
 * Bounded concurrency (specs/support/core/pool.ts), property-based: whatever the items, the limit
 * and how long each takes, every item is worked on once, the results come in the order of the
 * items, never more than the limit are in flight, and a failure rejects the whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { inPool } from '../specs/support/core/pool.js';

/** Lets `n` turns of the event loop pass (work that takes a while, without a timer): the items finish out of order. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

test('inPool works on each item once, answers in item order and keeps at most the limit in flight', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 30 }), fc.integer({ min: 1, max: 10 }), async (delays, limit) => {
      let inFlight = 0;
      let most = 0;
      const seen: number[] = [];
      const out = await inPool(delays, limit, async (n, i) => {
        inFlight++;
        most = Math.max(most, inFlight);
        seen.push(i);
        await turns(n);
        inFlight--;
        return `r${i}`;
      });
      assert.deepEqual(
        out,
        delays.map((_, i) => `r${i}`),
      );
      assert.deepEqual(
        [...seen].sort((a, b) => a - b),
        delays.map((_, i) => i),
      );
      assert.ok(most <= limit, `${most} in flight with a limit of ${limit}`);
      if (delays.length >= limit) assert.equal(most, limit, 'the limit is used');
    }),
    { numRuns: 60 },
  );
});

test('inPool rejects with the first failure', async () => {
  await assert.rejects(
    inPool([1, 2, 3], 2, async (n) => {
      if (n === 2) throw new Error('item 2');
      return n;
    }),
    /item 2/,
  );
});
