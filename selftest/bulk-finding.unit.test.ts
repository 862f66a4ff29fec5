/**
 * Safety that does not hide (issue 33): a 429 to a bulk call the run-wide schedule paced within 3 a
 * second is a finding on BULK-12, thrown with the schedule that proves the pace, not retried away
 * (core/rate-limit.ts bulkCreate); a 429 this worker can put down to a general limit met just
 * before is still waited out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../specs/support/core/config.js';
import { brokenRulesOf } from '../specs/support/core/attribution.js';
import { workerGate } from '../specs/support/core/gate.js';
import { ApiClient } from '../specs/support/core/http.js';
import { bulkCreate, COORDINATOR_ENV, startBulkCoordinator } from '../specs/support/core/rate-limit.js';
import { Recorder } from '../specs/support/core/recorder.js';
import { scratchDir } from './helpers.js';

/** A target whose bulk interface answers 429 to its first `refusals` requests (Retry-After 1), then 200. */
async function target(refusals: number) {
  let seen = 0;
  const server = createServer((req, res) => {
    req.resume();
    const refuse = ++seen <= refusals;
    res.writeHead(refuse ? 429 : 200, { 'content-type': 'application/json', ...(refuse ? { 'retry-after': '1' } : {}) });
    res.end(refuse ? '{"message":"rate limit"}' : '[]');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, { CRM_BASE_URL: base, CRM_ACCESS_TOKEN: 'bulk-test-token', CRM_USER_EMAIL: 'a@b.example' });
  const api = new ApiClient(new Recorder(), {}, parseConfig(process.env, scratchDir('crm-bulk-')));
  return { api, seen: () => seen, close: () => new Promise((ok) => server.close(ok)) };
}

test('a 429 to a bulk call paced by the run-wide schedule fails on BULK-12 with the schedule, at once', async () => {
  const coordinator = await startBulkCoordinator(100);
  process.env[COORDINATOR_ENV] = coordinator.url;
  const t = await target(1);
  try {
    const started = Date.now();
    const err = await bulkCreate(t.api, { opportunities: [] }, { deadlineMs: 3_000 }).then(
      (res) => assert.fail(`no finding: the 429 was retried away (${t.seen()} requests, last ${res.status})`),
      (e: Error) => e,
    );
    assert.deepEqual(brokenRulesOf(err.message), ['BULK-12'], err.message);
    assert.match(err.message, /granted this request slot 1, sent at/);
    assert.match(err.message, /slot 1 at .* <- this request/);
    assert.equal(t.seen(), 1, 'not retried');
    assert.ok(Date.now() - started < 1_000, 'reported at once');
  } finally {
    delete process.env[COORDINATOR_ENV];
    await t.close();
    await coordinator.close();
  }
});

test('a 429 to a paced bulk call just after a general limit answered 429 is waited out', async () => {
  const coordinator = await startBulkCoordinator(100);
  process.env[COORDINATOR_ENV] = coordinator.url;
  const t = await target(1);
  workerGate.last429At = Date.now();
  try {
    const res = await bulkCreate(t.api, { opportunities: [] }, { deadlineMs: 5_000 });
    assert.equal(res.status, 200);
    assert.equal(t.seen(), 2);
  } finally {
    workerGate.last429At = 0;
    workerGate.until = 0;
    delete process.env[COORDINATOR_ENV];
    await t.close();
    await coordinator.close();
  }
});
