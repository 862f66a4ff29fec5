/**
 * The check a replay script makes of the answers it gets again (specs/support/core/body-check.cjs,
 * issue 42, item 4): the Lead an upsert should answer, the records a search should find, the
 * contract an answer should match. The contract check is Zod's contract as a JSON Schema: over
 * every case of contracts/cases it passes what Zod passes (a replay never says FAILURE AGAIN of a
 * conformant answer), and fails what Zod fails but for formats and refinements, which JSON Schema
 * does not carry (the suite then lets the test itself decide: core/replay-script.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import * as contracts from '../contracts/index.js';
import { standaloneJsonSchema } from '../contracts/openapi.js';
import { problemsOf } from '../specs/support/core/body-check.cjs';
import { BODY_CHECK_SOURCE } from '../specs/support/core/replay-script.js';
import { ROOT } from './helpers.js';

// As the suite writes it into a replay script (fixtures/matchers.ts).
const schemaOf = (schema: z.ZodType) => standaloneJsonSchema({ name: 'contract', schema, io: 'output' });

test('an id check passes the record with that id, a string id and a number alike, and names what came instead', () => {
  assert.deepEqual(problemsOf([{ id: 1006 }], { kind: 'id', equals: '1006' }), []);
  assert.deepEqual(problemsOf([{ id: 1007 }], { kind: 'id', equals: '1006' }), ['expected the record 1006, got 1007']);
  assert.match(problemsOf([{ message: 'no' }], { kind: 'id', equals: '1006' })[0], /an answer without an id/);
});

test('an ids check passes exactly these records over every page, each once, and names the missing, the extra and the repeated', () => {
  const expect = { kind: 'ids', equals: ['1', '2', '3'] } as const;
  assert.deepEqual(problemsOf([[{ id: 1 }, { id: 2 }], [{ id: 3 }]], expect), []);
  assert.deepEqual(problemsOf([[{ id: 1 }, { id: 4 }], [{ id: 1 }]], expect), [
    'records found twice: 1',
    'records not found: 2, 3',
    'records found that should not be: 4',
  ]);
  assert.match(problemsOf([{ message: 'x' }], expect)[0], /answer 1 is no list of records/);
});

test('a contract check passes every answer its contract passes and fails what it fails, but formats and refinements', () => {
  const falseFailures: string[] = [];
  const missed: string[] = [];
  for (const area of ['resources', 'errors', 'shared', 'oauth']) {
    const groups = JSON.parse(readFileSync(`${ROOT}/contracts/cases/${area}.json`, 'utf8')) as {
      contract: string;
      tests: { description: string; data: unknown }[];
    }[];
    for (const g of groups) {
      const schema = (contracts as unknown as Record<string, z.ZodType>)[g.contract];
      const json = schemaOf(schema);
      for (const t of g.tests) {
        const problems = problemsOf([t.data], { kind: 'schema', name: g.contract, schema: json });
        const zod = schema.safeParse(t.data);
        if (zod.success && problems.length) falseFailures.push(`${g.contract}: ${t.description}: ${problems.join('; ')}`);
        const beyond = zod.error?.issues.every((i) => i.code === 'invalid_format' || i.code === 'custom');
        if (!zod.success && !problems.length && !beyond) missed.push(`${g.contract}: ${t.description}`);
      }
    }
  }
  assert.deepEqual(falseFailures, [], 'a conformant answer never fails the check');
  assert.deepEqual(missed, [], 'every failure Zod sees, but formats and refinements');
});

test('a contract check names the member at fault by its path', () => {
  const json = schemaOf(contracts.Company);
  const problems = problemsOf([{ id: 1, name: 'Acme', date_created: 1.5 }], { kind: 'schema', name: 'Company', schema: json });
  assert.ok(
    problems.some((p) => /^\$\.date_created: expected integer, got number 1\.5/.test(p)),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => /^\$\.address: missing/.test(p)),
    problems.join('\n'),
  );
});

test('its code carries no single quote: a replay script carries it in single quotes', () => {
  assert.doesNotMatch(BODY_CHECK_SOURCE, /'/);
  assert.match(BODY_CHECK_SOURCE, /^function pathText/, 'without its comments');
});
