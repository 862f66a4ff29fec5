/**
 * The learned notification deadline (specs/support/core/latency.ts): the longest wait until a
 * notification of the run has arrived, then 20 × the slowest arrival, at least 5 s, at most the
 * configured longest wait; shared by the run's processes through its run file.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig } from '../specs/support/core/config.js';
import { LEARNED_FACTOR, LEARNED_FLOOR_MS, notificationArrived, notificationDeadline } from '../specs/support/core/latency.js';
import { forgetRunFiles } from '../specs/support/core/run-files.js';

test('a wait lasts the longest wait until a notification arrived, then 20 times the slowest, between 5 s and the longest wait', async () => {
  Object.assign(process.env, { CRM_RUN_ID: randomBytes(4).toString('hex'), CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'selftest-token', CRM_USER_EMAIL: 'a@b.example' });
  const pause = () => new Promise((r) => setTimeout(r, 300));
  try {
    assert.equal(notificationDeadline().ms, 20_000, 'nothing learned yet: the longest wait');
    assert.match(notificationDeadline().why, /no notification of this run had arrived yet/);
    notificationArrived(12);
    assert.equal(notificationDeadline().ms, LEARNED_FLOOR_MS, 'a fast server: the floor');
    notificationArrived(400);
    await pause();
    assert.equal(notificationDeadline().ms, LEARNED_FACTOR * 400, 'the slowest arrival, 20 times');
    assert.match(notificationDeadline().why, /slowest of the 2 notification\(s\) of this run so far \(400 ms\)/);
    notificationArrived(3_000);
    assert.equal(notificationDeadline().ms, 20_000, 'a slow server: never more than the longest wait');
  } finally {
    forgetRunFiles();
  }
});

test('CRM_NOTIFICATION_TIMEOUT_MS, when set, is the wait for every notification: nothing is learned', () => {
  const cfg = loadConfig({ CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'selftest-token', CRM_USER_EMAIL: 'a@b.example', CRM_NOTIFICATION_TIMEOUT_MS: '7000' } as NodeJS.ProcessEnv);
  assert.equal(cfg.notificationTimeoutMs, 7_000);
  assert.equal(cfg.notificationTimeoutFixed, true);
  assert.equal(loadConfig({ CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'selftest-token', CRM_USER_EMAIL: 'a@b.example' } as NodeJS.ProcessEnv).notificationTimeoutFixed, false);
});
