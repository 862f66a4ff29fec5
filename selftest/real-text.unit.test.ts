/**
 * The text real users send (generators/real-text.ts), which the record factory and the generators
 * put into names and free text: it must stay what its header promises, or tests would judge what the
 * spec leaves open. Every value is in normalization form C (a server that normalizes keeps it); no
 * two differ only by case or accents (a server whose matches fold them merges none); the names hold
 * letters outside ASCII, a combining mark, a character beyond the BMP and a space.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REAL_NAMES, REAL_TEXTS, isNfc } from '../generators/real-text.js';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

test('every value is in normalization form C, and stays so', () => {
  assert.deepEqual(
    [...REAL_NAMES, ...REAL_TEXTS].filter((s) => !isNfc(s)),
    [],
  );
});

test('no two names differ only by case or accents', () => {
  const folded = REAL_NAMES.map(fold);
  assert.equal(new Set(folded).size, folded.length, folded.join(' | '));
});

test('the names hold what real users send: outside ASCII, a combining mark, beyond the BMP, a space', () => {
  const all = REAL_NAMES.join('\n');
  assert.match(all, /[^\x00-\x7f]/);
  assert.match(all, /\p{M}/u, 'a combining mark');
  assert.match(all, /[\u{10000}-\u{10FFFF}]/u, 'a character beyond the BMP');
  assert.ok(
    REAL_NAMES.every((n) => n.includes(' ')),
    'every name has a space',
  );
});
