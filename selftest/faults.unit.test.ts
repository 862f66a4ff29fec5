/**
 * The faults of the reference server live outside its handlers (reference/faults/): each one
 * hooks in through route post-processors, named hook points (`app.at`) or seams (`app.seam`).
 * Fast checks that every fault has such a hook and that every point or seam it names is one a
 * handler passes through (a misspelt point would leave the fault without effect).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALL_FAULTS } from '../reference/faults/index.js';
import { ROOT } from './helpers.js';

/** The source of the reference server outside reference/faults/. */
function handlerSource(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (e.name !== 'faults') walk(join(dir, e.name));
      } else if (e.name.endsWith('.ts')) out.push(readFileSync(join(dir, e.name), 'utf8'));
    }
  };
  walk(resolve(ROOT, 'reference'));
  return out.join('\n');
}

test('every fault hooks in from outside the handlers (post-processor, hook point or seam)', () => {
  const bare = ALL_FAULTS.filter((f) => !f.routes?.length && !Object.keys(f.at ?? {}).length && !Object.keys(f.seam ?? {}).length).map((f) => f.name);
  assert.deepEqual(bare, [], 'faults without a hook');
});

test('every hook point and seam a fault names is passed through by a handler', () => {
  const src = handlerSource();
  const unreached = ALL_FAULTS.flatMap((f) => [
    ...Object.keys(f.at ?? {})
      .filter((p) => !new RegExp(`\\.at\\(\\s*'${p.replace(/[.]/g, '\\.')}'`).test(src))
      .map((p) => `${f.name}: at '${p}'`),
    ...Object.keys(f.seam ?? {})
      .filter((s) => !new RegExp(`\\.seam\\(\\s*'${s.replace(/[.]/g, '\\.')}'`).test(src))
      .map((s) => `${f.name}: seam '${s}'`),
  ]);
  assert.deepEqual(unreached, [], 'points no handler passes through');
});

test('no handler asks whether a fault is on or tests a variant flag', () => {
  const src = handlerSource();
  assert.doesNotMatch(src, /app\.fault\(|\.variant\b/);
});
