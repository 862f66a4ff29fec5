/**
 * `npm run bench:ab` (scripts/bench-ab.ts): the settings are read as NAME=value words, a side's
 * Node is this one or the binary named (a version comes from the npm registry: not tried here), and a
 * comparison counts the pairs B won and takes each side's medians, whichever ran first. Both
 * benches read a run's timeline from its own results.json only, and its bulk calls from its own
 * bulk-schedule.json (scripts/bench.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare, nodeOf, parseEnv, shownSettings } from '../scripts/bench-ab.js';
import { bulkLine, bulkOf, timeline } from '../scripts/bench.js';
import { scratchDir } from './helpers.js';

test('bench:ab prints and keeps a secret setting as redacted', () => {
  assert.deepEqual(shownSettings({ CRM_PREFORK: '0', CRM_ACCESS_TOKEN: 'tok-123', CRM_CLIENT_SECRET: 's', CRM_LOGIN_PASSWORD: '' }), {
    CRM_PREFORK: '0',
    CRM_ACCESS_TOKEN: '«redacted»',
    CRM_CLIENT_SECRET: '«redacted»',
    CRM_LOGIN_PASSWORD: '',
  });
});

test('bench:ab runs a side on this Node, or on the binary --a-node names, with its version', () => {
  assert.deepEqual(nodeOf(undefined), { path: process.execPath, version: process.version });
  assert.deepEqual(nodeOf(process.execPath), { path: process.execPath, version: process.version });
});

test('bench:ab reads its settings as NAME=value words', () => {
  assert.deepEqual(parseEnv(''), {});
  assert.deepEqual(parseEnv(' CRM_PREFORK=0  CRM_WORKERS=3 '), { CRM_PREFORK: '0', CRM_WORKERS: '3' });
  assert.deepEqual(parseEnv('CRM_FLAG='), { CRM_FLAG: '' });
  assert.throws(() => parseEnv('CRM_PREFORK'), /not NAME=value/);
});

test('bench:ab takes the medians of each side and counts the pairs B won', () => {
  const run = (wallMs: number, startupMs: number, cpuMs = 18_000, failed = 0) => ({ wallMs, startupMs, cpuMs, failed });
  const c = compare([
    { a: run(11_800, 2_600), b: run(11_300, 2_200), bFirst: false },
    { a: run(12_000, 2_500), b: run(12_400, 2_300, 19_000), bFirst: true },
    { a: run(11_500, 2_700), b: run(11_100, 2_800, 17_000, 1), bFirst: false },
  ]);
  assert.deepEqual(c.a, { wallMs: 11_800, startupMs: 2_600, cpuMs: 18_000, failed: 0 });
  assert.deepEqual(c.b, { wallMs: 11_300, startupMs: 2_300, cpuMs: 18_000, failed: 1 });
  assert.equal(c.bShorter, 2);
  assert.equal(c.bStartsSooner, 2);
  assert.equal(c.pairs, 3);
  const unknown = compare([{ a: { wallMs: 10_000, failed: 0 }, b: { wallMs: 9_000, failed: 0 }, bFirst: false }]);
  assert.equal(unknown.b.startupMs, undefined, 'a figure no run has stays unknown');
  assert.equal(unknown.bStartsSooner, 0);
});

test("a run's timeline is never an earlier run's results.json (a run with minimal reporters writes none)", () => {
  const dir = scratchDir('bench-timeline-');
  const file = join(dir, 'results.json');
  const startTime = '2026-11-24T21:00:02.000Z';
  const result = (lane: string, at: string, duration: number) => ({ tests: [{ projectName: lane, results: [{ startTime: at, duration, workerIndex: 0 }] }] });
  writeFileSync(
    file,
    JSON.stringify({ config: { workers: 1 }, suites: [{ specs: [result('api', startTime, 500), result('api', '2026-11-24T21:00:03.000Z', 1000)] }] }),
  );
  const spawned = Date.parse('2026-11-24T21:00:00.000Z');
  assert.equal(timeline(file, spawned)?.first, Date.parse(startTime), 'a results.json of this run is read');
  assert.equal(timeline(file, spawned)?.lanes.api.tests, 2);
  assert.equal(timeline(file, spawned + 60_000), undefined, "one whose tests began before the run was spawned is an earlier run's");
  assert.equal(timeline(join(dir, 'none.json'), spawned), undefined);
});

test("a run's bulk calls: read from its bulk-schedule.json, after its spawn, with the least time the limit allows", () => {
  const dir = scratchDir('bench-bulk-');
  const file = join(dir, 'bulk-schedule.json');
  const spawned = 1_000_000;
  const summary = { slots: 19, windows: 1, firstAt: spawned + 2_200, lastAt: spawned + 9_900, busiest: 3, floorMs: 7_190 };
  writeFileSync(
    file,
    JSON.stringify({ version: 1, limit: { perWindow: 3, windowMs: 1000 }, targets: [{ target: 'http://127.0.0.1:1', summary, entries: [] }] }),
  );
  const bulk = bulkOf(file, spawned);
  assert.deepEqual(bulk, { slots: 19, windows: 1, fromMs: 2_200, toMs: 9_900, floorMs: 7_190 });
  assert.match(
    bulkLine(bulk!),
    /bulk calls 19 and 1 burst window, 2\.2 s → 9\.9 s: .* at least 7\.2 s after the first, so this run could not have ended before 9\.4 s/,
  );
  assert.equal(bulkOf(file, spawned + 5_000), undefined, "an earlier run's file is not this run's");
  assert.equal(bulkOf(join(dir, 'none.json'), spawned), undefined);
});
