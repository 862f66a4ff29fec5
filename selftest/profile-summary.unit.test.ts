/**
 * The profile summary of `npm run bench:profile` (scripts/profile-summary.ts): a small V8 CPU
 * profile made by hand, whose every sample's place is known, is summarised to the millisecond:
 * the process's part, the busy time (idle left out), self time by package, inclusive time by
 * mechanism, the pid and thread from V8's file name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packageOf, summarizeProfile, type CpuProfile } from '../scripts/profile-summary.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });
const PW = 'file:///p/node_modules/playwright/lib/worker/workerProcessEntry.js';
const CORE = 'file:///p/node_modules/playwright-core/lib/utilsBundle.js';

/** root → idle; root → worker entry → Module._load → zod; → captureRawStack → prepareStackTrace; → send (child_process); root → GC. */
const profile: CpuProfile = {
  startTime: 0,
  endTime: 2_000_000,
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 9] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('runTest', PW), children: [4, 6, 8] },
    { id: 4, callFrame: frame('Module._load', 'node:internal/modules/cjs/loader'), children: [5] },
    { id: 5, callFrame: frame('object', 'file:///p/node_modules/zod/v4/classic/schemas.js') },
    { id: 6, callFrame: frame('captureRawStack', 'file:///p/node_modules/playwright-core/lib/coreBundle.js'), children: [7] },
    { id: 7, callFrame: frame('prepareStackTrace', CORE) },
    { id: 8, callFrame: frame('target._send', 'node:internal/child_process') },
    { id: 9, callFrame: frame('(garbage collector)') },
  ],
  // Deltas in microseconds: idle 500 ms, zod 300, stack 200, send 100, GC 50, the worker entry itself 10.
  samples: [2, 5, 7, 8, 9, 3],
  timeDeltas: [500_000, 300_000, 200_000, 100_000, 50_000, 10_000],
};

test('a hand-made profile is summarised to the millisecond: part, busy time, packages, mechanisms, pid and thread', () => {
  const s = summarizeProfile(profile, '/x/CPU.20261124.150006.18438.0.001.cpuprofile');
  assert.equal(s.part, 'worker');
  assert.equal(s.pid, 18438);
  assert.equal(s.thread, 0);
  assert.equal(s.wallMs, 2000);
  assert.equal(s.busyMs, 660, 'idle is not busy');
  assert.deepEqual(s.packages, { zod: 300, Playwright: 210, 'Node.js': 100, 'garbage collector': 50 });
  assert.deepEqual(s.mechanisms, { 'loading code': 300, 'stack traces (step locations)': 200, 'runner-worker messages': 100, 'garbage collector': 50 });
});

test("the reference's bundle and the sources are told apart", () => {
  assert.equal(packageOf(frame('f', 'file:///w/specs/support/core/http.ts')), 'suite: specs');
  assert.equal(packageOf(frame('f', 'file:///w/node_modules/.cache/crm-conformance/main.mjs')), 'reference server');
  assert.equal(packageOf(frame('f', 'file:///w/reporting/conformance-reporter.ts')), 'suite: reporters');
  assert.equal(packageOf(frame('f', 'file:///w/node_modules/@playwright/test/cli.js')), 'Playwright');
  assert.equal(packageOf(frame('f', 'file:///w/node_modules/fast-check/lib/fast-check.js')), 'fast-check');
  assert.equal(packageOf(frame('writev')), 'native code and syscalls');
});

test("a frame of Playwright's bundled runner counts as a reporter when its part of the bundle is one of Playwright's reporters", () => {
  const RUNNER = 'file:///p/node_modules/playwright/lib/runner/index.js';
  const bundle = [
    '"use strict";',
    '// packages/playwright/src/runner/dispatcher.ts',
    'var Dispatcher = class {',
    '};',
    '// packages/playwright/src/reporters/html.ts',
    'var HtmlReporter = class {',
    '  onEnd() {}',
    '};',
  ].join('\n');
  const runner: CpuProfile = {
    startTime: 0,
    endTime: 1_000_000,
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3] },
      { id: 2, callFrame: { functionName: '_scheduleJob', url: RUNNER, lineNumber: 2 } },
      { id: 3, callFrame: { functionName: 'onEnd', url: RUNNER, lineNumber: 6 }, children: [4] },
      { id: 4, callFrame: frame('writeFileUtf8') },
    ],
    samples: [2, 4],
    timeDeltas: [100_000, 40_000],
  };
  const s = summarizeProfile(runner, 'CPU.1.2.7.0.1.cpuprofile', (url) => (url === RUNNER ? bundle : undefined));
  assert.deepEqual(s.mechanisms, { reporters: 40 }, "the HTML reporter's onEnd and what it calls; the dispatcher is not a reporter");
  assert.deepEqual(summarizeProfile(runner, 'CPU.1.2.7.0.1.cpuprofile', () => undefined).mechanisms, {}, 'an unreadable bundle places no frame');
});
