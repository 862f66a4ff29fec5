/**
 * The notification deadline (specs/support/core/latency.ts): the longest wait until a wait of the
 * run for that kind of notification has lasted it in vain, then 20 × the slowest arrival, at
 * least 5 s, at most the longest wait; shared by the run's processes through its run file.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig } from '../specs/support/core/config.js';
import { RUN_PROCESS_ENV } from '../specs/support/core/embedded.js';
import {
  LEARNED_FACTOR,
  LEARNED_FLOOR_MS,
  SILENT_FLOOR_MS,
  notificationArrived,
  notificationDeadline,
  notificationMissed,
  resetLatencyMemo,
} from '../specs/support/core/latency.js';
import { forgetRunFiles } from '../specs/support/core/run-files.js';

const env = { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'selftest-token', CRM_USER_EMAIL: 'a@b.example' };
/** A new run (its own CRM_RUN_ID), seen afresh: nothing of an earlier test's run is remembered. */
const newRun = () => {
  Object.assign(process.env, { ...env, CRM_RUN_ID: randomBytes(4).toString('hex') });
  resetLatencyMemo();
};

const UPDATE = 'lead/update';
const NEW = 'person/new';
const deadline = (kind = UPDATE, optional = false) => notificationDeadline(kind, { optional });

test('a target that delivers every notification gets the longest wait, however fast it has been', () => {
  newRun();
  try {
    assert.deepEqual({ ms: deadline().ms, longest: deadline().longest }, { ms: 20_000, longest: true }, 'nothing learned yet: the longest wait');
    for (let i = 0; i < 50; i++) notificationArrived(10);
    // A conformant target may deliver one notification in 8 s after fifty in 10 ms: the wait stays whole.
    assert.equal(deadline().ms, 20_000);
    assert.match(deadline().why, /waits for lead\/update notifications are shortened only once one has lasted it in vain/);
    // A notification whose absence judges nothing waits the learned wait at once, and teaches no miss.
    assert.deepEqual({ ms: deadline(UPDATE, true).ms, longest: deadline(UPDATE, true).longest }, { ms: LEARNED_FLOOR_MS, longest: false });
  } finally {
    forgetRunFiles();
  }
});

test('after a wait of a kind that lasted the longest wait in vain, waits of that kind last 20 times the slowest arrival, between 5 s and the longest wait', () => {
  newRun();
  try {
    notificationMissed(UPDATE, 'naming the updated lead 7');
    assert.equal(deadline().ms, SILENT_FLOOR_MS, 'a miss and no arrival: a target that delivers nothing, the floor of silence');
    notificationArrived(12);
    assert.equal(deadline().ms, LEARNED_FLOOR_MS, 'a fast server: the floor');
    assert.equal(deadline().longest, false);
    assert.match(deadline().why, /lead\/update notification naming the updated lead 7 did not come within the longest wait/);
    assert.match(deadline().why, /set CRM_NOTIFICATION_TIMEOUT_MS/);
    // Another kind keeps the longest wait: the target may deliver those late, not never.
    assert.deepEqual({ ms: deadline(NEW).ms, longest: deadline(NEW).longest }, { ms: 20_000, longest: true });
    notificationArrived(400);
    notificationMissed(UPDATE, 'naming the updated lead 9');
    notificationMissed(NEW, 'naming the new person 3');
    assert.equal(deadline().ms, LEARNED_FACTOR * 400, 'the slowest arrival, 20 times');
    assert.match(deadline().why, /lead 7 .*slowest of the 2 notification\(s\) of this run so far \(400 ms\)/, 'the first miss of the kind is named');
    assert.match(deadline(NEW).why, /person\/new notification naming the new person 3/);
    notificationArrived(3_000);
    assert.equal(deadline().ms, 20_000, 'a slow server: never more than the longest wait');
    assert.equal(deadline().longest, true);
  } finally {
    forgetRunFiles();
  }
});

test('CRM_NOTIFICATION_TIMEOUT_MS, when set, is the wait for every notification: nothing is learned', () => {
  const cfg = loadConfig({ ...env, CRM_NOTIFICATION_TIMEOUT_MS: '7000' } as NodeJS.ProcessEnv);
  assert.equal(cfg.notificationTimeoutMs, 7_000);
  assert.equal(cfg.notificationTimeoutFixed, true);
  assert.equal(loadConfig(env as NodeJS.ProcessEnv).notificationTimeoutFixed, false);
});

test('two runs with one CRM_RUN_ID started by two processes at once (shards on one machine) keep their run files apart', () => {
  const runProcess = process.env[RUN_PROCESS_ENV];
  // Two processes in one: the in-process memo of what was read is forgotten at every switch.
  const as = (pid: string) => {
    process.env[RUN_PROCESS_ENV] = pid;
    resetLatencyMemo();
  };
  newRun();
  try {
    as('101');
    notificationArrived(10);
    notificationMissed(UPDATE, 'naming the updated lead 7');
    assert.equal(deadline().ms, LEARNED_FLOOR_MS, 'the first run learned that lead/update notifications are left unsent');
    as('202');
    assert.deepEqual({ ms: deadline().ms, longest: deadline().longest }, { ms: 20_000, longest: true }, 'the other run learned nothing');
    forgetRunFiles(); // the other run's set-up or teardown
    as('101');
    assert.equal(deadline().ms, LEARNED_FLOOR_MS, 'what the first run learned is still there');
  } finally {
    as('101');
    forgetRunFiles();
    as('202');
    forgetRunFiles();
    if (runProcess === undefined) delete process.env[RUN_PROCESS_ENV];
    else process.env[RUN_PROCESS_ENV] = runProcess;
  }
});

test('a target that has delivered nothing at all: after one wait of any kind lasted the longest wait in vain, every kind waits the floor of silence', () => {
  newRun();
  try {
    assert.equal(deadline(NEW).ms, 20_000, 'nothing learned yet: the longest wait');
    notificationMissed(UPDATE, 'naming the updated lead 7');
    assert.deepEqual(
      { ms: deadline(NEW).ms, longest: deadline(NEW).longest },
      { ms: SILENT_FLOOR_MS, longest: false },
      'another kind, nothing ever arrived: the floor of silence',
    );
    assert.match(deadline(NEW).why, /no notification of any kind has arrived in this run/);
    assert.equal(deadline(NEW, true).ms, SILENT_FLOOR_MS, 'an optional wait too');
    assert.equal(deadline(NEW).silent, true, 'a target that delivers nothing: its misses are one problem');
    notificationArrived(10);
    // Once something has arrived, the target is known to deliver: other kinds get the longest wait again.
    assert.equal(deadline(NEW).ms, 20_000);
    assert.equal(deadline(UPDATE).ms, LEARNED_FLOOR_MS);
    assert.equal(deadline(UPDATE).silent, false);
  } finally {
    forgetRunFiles();
  }
});
