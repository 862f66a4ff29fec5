/**
 * The profile shapes the self-tests run the suite in (selftest/profile-shapes.json, issue 48): every
 * capability the profile schema allows is a factor, every pair of levels of any two factors is in
 * some row, each row's profile is one the suite takes, and its fault sample is of the catalog.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetProfile } from '../contracts/profile.js';
import { faultCatalog } from '../reference/server.js';
import { EXTENSIONS, FACTORS, profileOf, readShapes, sampleOf, shapeName, type Shape } from './profile-shapes.js';

type Keyed = { shape: Record<string, unknown> };
const inner = (schema: unknown) => (schema as { unwrap(): Keyed }).unwrap();

test('every capability of the profile schema, and every extension, is a factor of the shapes', () => {
  const capabilities = inner(TargetProfile.shape.capabilities);
  const extensions = Object.keys(inner(capabilities.shape.extensions).shape);
  const wanted = [...Object.keys(capabilities.shape).filter((k) => k !== 'extensions'), ...extensions];
  assert.deepEqual(
    wanted.filter((k) => !(k in FACTORS)),
    [],
    'a capability the profile may declare that no shape varies: add it to FACTORS and the rows',
  );
  assert.deepEqual(Object.keys(EXTENSIONS).sort(), [...extensions].sort(), 'the extensions a shape can switch on');
});

test('every pair of levels of any two factors is in some row (pairwise)', () => {
  const rows = readShapes();
  const names = Object.keys(FACTORS) as (keyof Shape)[];
  const missing: string[] = [];
  for (const [i, a] of names.entries())
    for (const b of names.slice(i + 1))
      for (const x of FACTORS[a])
        for (const y of FACTORS[b]) if (!rows.some((r) => r[a] === x && r[b] === y)) missing.push(`${a}=${String(x)} with ${b}=${String(y)}`);
  assert.deepEqual(missing, []);
});

test("each row's profile is one the suite takes, named for what it leaves out", () => {
  const rows = readShapes();
  for (const s of rows) {
    const parsed = TargetProfile.safeParse(profileOf(s));
    assert.ok(parsed.success, `${shapeName(s)}: ${parsed.success ? '' : parsed.error.message}`);
  }
  assert.equal(new Set(rows.map(shapeName)).size, rows.length, 'no two rows alike');
});

test("each row's fault sample is of the reference's catalog", () => {
  const catalog = new Set(faultCatalog().map((f) => f.name));
  for (const s of readShapes())
    assert.deepEqual(
      sampleOf(s).filter((f) => !catalog.has(f)),
      [],
      shapeName(s),
    );
});
