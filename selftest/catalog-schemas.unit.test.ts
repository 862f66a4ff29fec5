/**
 * The catalogs' JSON Schemas (rules/rules.schema.json, rules/choices.schema.json and the coverage
 * map's gap reasons, rules/coverage-reasons.schema.json: rules/json-schema.ts)
 * are what `z.toJSONSchema()` makes of rules/schema.ts today (not stale), the catalogs validate
 * against them with a JSON Schema validator of its own (Ajv, draft 2020-12), a broken record does
 * not, and the package exports the four files by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { catalogJsonSchemas, schemaText } from '../rules/json-schema.js';
import { readJson, ROOT } from './helpers.js';

const SCHEMAS = catalogJsonSchemas();

test('the committed schemas are what rules/schema.ts makes of the catalogs today', () => {
  assert.deepEqual(Object.keys(SCHEMAS).sort(), ['choices.schema.json', 'coverage-reasons.schema.json', 'rules.schema.json']);
  for (const [file, { schema }] of Object.entries(SCHEMAS))
    assert.equal(readFileSync(join(ROOT, 'rules', file), 'utf8'), schemaText(schema), `rules/${file} is stale: run npm run rules:schemas`);
});

test('each catalog validates against its committed schema; a broken record does not', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  for (const [file, { catalog }] of Object.entries(SCHEMAS)) {
    const validate = ajv.compile(readJson<object>(`rules/${file}`));
    const records = readJson<Record<string, unknown>[]>(`rules/${catalog}`);
    assert.ok(validate(records), `rules/${catalog} against rules/${file}: ${ajv.errorsText(validate.errors)}`);
    const broken: Record<string, unknown>[][] = [
      [{ ...records[0], unknown_key: 1 }],
      [{ ...records[0], id: 'not an id' }],
      [{ ...records[0], since: undefined }].map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>),
    ];
    for (const b of broken) assert.equal(validate(b), false, `rules/${file} refuses ${JSON.stringify(b).slice(0, 120)}`);
  }
});

test('the package exports the catalogs and their schemas by name', () => {
  const req = createRequire(join(ROOT, 'package.json'));
  for (const name of ['rules.json', 'choices.json', 'rules.schema.json', 'choices.schema.json'])
    assert.equal(req.resolve(`crm-conformance/rules/${name}`), join(ROOT, 'rules', name));
});
