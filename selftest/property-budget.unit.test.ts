/**
 * A property stopped by its time budget (specs/support/property.ts `timeLimitMs`) passes with the
 * runs it made, its note says how many, and the conformance report's run warnings
 * (reporting/verdict.ts) read that note: the two ends of one message, kept in step here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { checkProperty } from '../specs/support/property.js';
import type { TargetConfig } from '../specs/support/core/config.js';
import { runWarnings, type TestOutcome } from '../reporting/verdict.js';

const target = { fc: { runs: 300 } } as unknown as TargetConfig;
const infoOf = () => ({ annotations: [] as { type: string; description?: string }[], file: 'specs/search/x.property.spec.ts', line: 1 });

async function noteOf(msPerRun: number, timeLimitMs: number): Promise<string> {
  const info = infoOf();
  await checkProperty(info as unknown as TestInfo, target, fc.integer(), () => new Promise((r) => setTimeout(r, msPerRun)), {
    name: 'slow probe',
    seed: 42,
    numRuns: 300,
    timeLimitMs,
  });
  return info.annotations.find((a) => a.type === 'note')?.description ?? '';
}

const outcome = (note: string) => ({ title: 'SEARCH-4 property: a slow probe', notes: [note], statuses: {} }) as unknown as TestOutcome;

test('a property past its time budget passes with fewer runs, and the report warns of it', async () => {
  const note = await noteOf(10, 150);
  const m = /^property "slow probe": (\d+) runs of 300 \(time limit reached\), seed 42$/.exec(note);
  assert.ok(m, note);
  assert.ok(Number(m[1]) < 300);
  assert.deepEqual(runWarnings([outcome(note)]), [
    `1 property stopped at its time budget, the target answering too slowly for all its runs (SEARCH-4 (slow probe) ${m[1]} of 300 runs): its rules were judged on fewer random inputs than against a fast target; CRM_FC_RUNS raises runs and budgets together`,
  ]);
});

test('a property within its budget makes every run, and no warning', async () => {
  const note = await noteOf(0, 10_000);
  assert.equal(note, 'property "slow probe": 300 runs of 300, seed 42');
  assert.deepEqual(runWarnings([outcome(note)]), []);
});
