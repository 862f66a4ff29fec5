/**
 * The spread of the faults (issue 42): a fault of the reference fails only the rules it names, and
 * its report's first root cause is one of them. The measurement (every test against every fault,
 * `npm run calibrate -- --scope spread --record`) is recorded in
 * selftest/fault-spread.json; this test holds it: every fault of the catalog is measured (a new
 * fault needs a new measurement), and a fault whose spread is wider is listed in KNOWN_SPREADS with
 * the reason. selftest/fault-spread.test.ts measures a sample of faults live.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { faultCatalog } from '../reference/server.js';
import { SPREAD_FILE, type SpreadRecord } from '../scripts/calibrate.js';
import { KNOWN_SPREADS } from './known-spreads.js';

const record = (): SpreadRecord => JSON.parse(readFileSync(SPREAD_FILE, 'utf8')) as SpreadRecord;

test('every fault of the catalog has a recorded spread, with the rules it names', () => {
  assert.ok(existsSync(SPREAD_FILE), `${SPREAD_FILE}: measure it (npm run calibrate -- --scope spread --record)`);
  const recorded = new Map(record().faults.map((f) => [f.name, f]));
  const stale = faultCatalog().filter((f) => recorded.get(f.name)?.rules.join() !== f.rules.join());
  assert.deepEqual(
    stale.map((f) => f.name),
    [],
    'faults added, or whose names changed, since the spread was recorded: measure it again (npm run calibrate -- --scope spread --record)',
  );
});

test('every fault fails only rules it names (a wider spread is listed with its rules and reason)', () => {
  const wide = record()
    .faults.map((f) => ({ ...f, outside: f.outside.filter((id) => !KNOWN_SPREADS[f.name]?.rules.includes(id)) }))
    .filter((f) => f.outside.length)
    .map((f) => `${f.name} (names ${f.rules.join(', ')}) also fails ${f.outside.join(', ')}`);
  assert.deepEqual(wide, []);
});

test("every caught fault's first root cause is a rule it names", () => {
  const elsewhere = record()
    .faults.filter((f) => f.rootCause && !f.rules.includes(f.rootCause) && !KNOWN_SPREADS[f.name])
    .map((f) => `${f.name} (names ${f.rules.join(', ')}): starts with ${f.rootCause}`);
  assert.deepEqual(elsewhere, []);
});

test('every listed wider spread names a fault of the catalog and rules its recorded spread still shows', () => {
  const recorded = new Map(record().faults.map((f) => [f.name, f]));
  const stale = Object.values(KNOWN_SPREADS).flatMap((k) => {
    const f = recorded.get(k.fault);
    if (!f) return [`${k.fault}: no such fault in the record`];
    const gone = k.rules.filter((id) => !f.outside.includes(id));
    return gone.length ? [`${k.fault}: ${gone.join(', ')} no longer failed (remove from selftest/known-spreads.json)`] : [];
  });
  assert.deepEqual(stale, []);
});
