/**
 * Contract unit tests as data (in the style of JSON-Schema-Test-Suite): every file
 * `contracts/cases/*.json` is a list of groups `{ description, contract, spec, rules, tests: [ { description, data, valid } ] }`.
 * This file checks the case files' own format, that every rule a group names exists in rules/,
 * that every exported schema has at least one valid and one invalid case, and runs every case
 * against its contract.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import * as contracts from '../contracts/index.js';
import { idsInBody } from '../contracts/index.js';
import { hasRule, SPEC_HEADINGS } from '../rules/index.js';
import { readJson } from './helpers.js';

const ROOT = resolve(__dirname, '..');
const CASES_DIR = resolve(ROOT, 'contracts/cases');
/** The spec's headings, from the catalog (rules/spec-headings.json, held equal to the spec's by selftest/rules.unit.test.ts). */
const HEADINGS = new Set(SPEC_HEADINGS);

/** Every export of contracts/index.ts that is a Zod schema, by name. */
const SCHEMAS: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(contracts as Record<string, unknown>).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType),
);

/**
 * Schemas that accept every JSON value on purpose, so no invalid case can exist. Each needs a
 * reason from the spec; the test below checks that they really accept anything.
 */
const UNRESTRICTED: Record<string, string> = {
  UpsertConflict: 'spec § Errors: upsert 422 "exact body shape: not shown"',
};

// ------------------------------------------------------------------ the case format
const CaseTest = z.strictObject({
  description: z.string().min(1),
  /** Any JSON value; must be present. */
  data: z.unknown(),
  valid: z.boolean(),
});
const CaseGroup = z
  .strictObject({
    description: z.string().min(1),
    contract: z.string().refine((n) => n in SCHEMAS, { error: (iss) => `"${String(iss.input)}" is not a Zod schema exported from contracts/index.ts` }),
    spec: z.string().refine((h) => HEADINGS.has(h), { error: (iss) => `"${String(iss.input)}" is not a heading of the specification` }),
    /** The ids of the rules whose verdicts rest on this contract (checked against rules/ below). */
    rules: z.array(z.string().regex(/^[A-Z]+-\d+$/, 'a rule id such as PEOPLE-3')),
    /** Why a group names no rule (the target profile is the suite's configuration, not the spec). */
    no_rule: z.string().min(1).optional(),
    tests: z.array(CaseTest).min(1),
  })
  .refine((g) => g.rules.length > 0 !== (g.no_rule !== undefined), { error: 'a group names its rules, or gives no_rule (a reason) and names none' });
const CaseFile = z.array(CaseGroup).min(1);
type CaseGroup = z.infer<typeof CaseGroup>;

interface Loaded {
  file: string;
  groups: CaseGroup[];
}

const files = readdirSync(CASES_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const raw = files.map((file) => ({ file, json: readJson(resolve(CASES_DIR, file)) }));
/** Well-formed groups only (a malformed group fails the format test, not every other test of its file). */
const loaded: Loaded[] = raw.map(({ file, json }) => ({
  file,
  groups: (Array.isArray(json) ? json : []).flatMap((g) => {
    const parsed = CaseGroup.safeParse(g);
    return parsed.success ? [parsed.data] : [];
  }),
}));

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

describe('case files: format', () => {
  test('there are case files', () => {
    assert.ok(files.length >= 5, `contracts/cases/ holds ${files.length} JSON files`);
  });

  for (const { file, json } of raw) {
    test(`${file} is a list of groups { description, contract, spec, tests: [ { description, data, valid } ] }`, () => {
      const parsed = CaseFile.safeParse(json);
      assert.ok(parsed.success, parsed.success ? '' : `${file}:\n${z.prettifyError(parsed.error)}`);
    });
  }

  test('descriptions are unique: groups within a file, tests within a group', () => {
    const dupes: string[] = [];
    for (const { file, groups } of loaded) {
      const seen = new Set<string>();
      for (const g of groups) {
        if (seen.has(g.description)) dupes.push(`${file}: group "${g.description}"`);
        seen.add(g.description);
        const tests = new Set<string>();
        for (const t of g.tests) {
          if (tests.has(t.description)) dupes.push(`${file} › ${g.description}: test "${t.description}"`);
          tests.add(t.description);
        }
      }
    }
    assert.deepEqual(dupes, [], `duplicate descriptions:\n${dupes.join('\n')}`);
  });

  test('every rule a group names exists in rules/', () => {
    const unknown: string[] = [];
    let named = 0;
    for (const { file, groups } of loaded) {
      for (const g of groups) {
        for (const id of g.rules) {
          named++;
          if (!hasRule(id)) unknown.push(`${file} › ${g.description}: ${id}`);
        }
      }
    }
    assert.deepEqual(unknown, [], `unknown rule ids:\n${unknown.join('\n')}`);
    assert.ok(named > 0, 'groups name rules');
  });
});

describe('case files: coverage', () => {
  test('contracts/index.ts exports the expected kinds of schemas', () => {
    // A guard against the enumeration silently finding nothing.
    for (const name of ['identifier', 'timestamp', 'Person', 'Task', 'WebhookCreate', 'BulkFailedEntry', 'TargetProfile']) {
      assert.ok(name in SCHEMAS, `${name} is enumerated as a Zod schema`);
    }
  });

  test('every exported schema has at least one valid and one invalid case', () => {
    const count = new Map<string, { valid: number; invalid: number }>();
    for (const { groups } of loaded) {
      for (const g of groups) {
        const c = count.get(g.contract) ?? { valid: 0, invalid: 0 };
        for (const t of g.tests) t.valid ? c.valid++ : c.invalid++;
        count.set(g.contract, c);
      }
    }
    const missing: string[] = [];
    for (const name of Object.keys(SCHEMAS).sort()) {
      const c = count.get(name) ?? { valid: 0, invalid: 0 };
      if (c.valid === 0) missing.push(`${name}: no valid case`);
      if (c.invalid === 0 && !(name in UNRESTRICTED)) missing.push(`${name}: no invalid case`);
    }
    assert.deepEqual(missing, [], `schemas without cases:\n${missing.join('\n')}`);
  });

  test('schemas exempt from invalid cases really accept any JSON value', () => {
    const probes: unknown[] = [null, true, 0, -1.5, '', 'text', [], [1, 'a'], {}, { error: 'x', ids: [1] }];
    for (const [name, reason] of Object.entries(UNRESTRICTED)) {
      assert.ok(name in SCHEMAS, `${name} (${reason}) is an exported schema`);
      for (const p of probes) assert.ok(SCHEMAS[name].safeParse(p).success, `${name} accepts ${show(p)} (${reason})`);
    }
  });
});

describe('case files: every case', () => {
  for (const { file, groups } of loaded) {
    describe(file, () => {
      for (const g of groups) {
        test(`${g.contract}: ${g.description}`, () => {
          const schema = SCHEMAS[g.contract];
          const failures: string[] = [];
          for (const t of g.tests) {
            const res = schema.safeParse(t.data);
            if (res.success === t.valid) continue;
            const why = res.success ? 'accepted' : `rejected: ${res.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`;
            failures.push(`${file} › ${g.description} › ${t.description}: expected ${t.valid ? 'valid' : 'invalid'}, ${why}\n    data: ${show(t.data)}`);
          }
          assert.deepEqual(failures, [], `${failures.length} case(s) of ${g.contract} disagree with the contract (spec § ${g.spec}):\n${failures.join('\n')}`);
        });
      }
    });
  }

  test('totals', (t) => {
    let valid = 0;
    let invalid = 0;
    for (const { groups } of loaded) for (const g of groups) for (const c of g.tests) c.valid ? valid++ : invalid++;
    t.diagnostic(`${files.length} files, ${valid + invalid} cases (${valid} valid, ${invalid} invalid), ${Object.keys(SCHEMAS).length} schemas`);
    assert.ok(valid > 0 && invalid > 0);
  });
});

describe('idsInBody (upsert 422: the ids may be anywhere in the body)', () => {
  test('finds ids in a member list', () => {
    const ids = idsInBody({ error: 'More than one lead matched', ids: [12, 15] });
    assert.ok(ids.has('12') && ids.has('15'), [...ids].join(','));
  });

  test('finds ids nested in objects and lists', () => {
    const ids = idsInBody({ data: { leads: [{ id: 'lead-a' }, { id: 33 }] } });
    assert.ok(ids.has('lead-a') && ids.has('33'), [...ids].join(','));
  });

  test('finds ids embedded in a message text', () => {
    const ids = idsInBody({ message: 'Leads 12, 15 match the criteria' });
    assert.ok(ids.has('12') && ids.has('15'), [...ids].join(','));
    const fromString = idsInBody('matches: 41 and 42');
    assert.ok(fromString.has('41') && fromString.has('42'), [...fromString].join(','));
  });

  test('a bare identifier is found', () => {
    assert.deepEqual([...idsInBody(42)], ['42']);
  });

  test('a body without the ids does not report them', () => {
    const ids = idsInBody({ message: 'More than 30 leads match' });
    assert.ok(!ids.has('12') && !ids.has('15'), [...ids].join(','));
  });

  test('empty bodies yield no ids', () => {
    assert.equal(idsInBody(null).size, 0);
    assert.equal(idsInBody(undefined).size, 0);
    assert.equal(idsInBody('').size, 0);
    assert.equal(idsInBody({}).size, 0);
    assert.equal(idsInBody([]).size, 0);
  });

  test('does not find a different id that only shares digits', () => {
    const ids = idsInBody({ ids: [123] });
    assert.ok(ids.has('123'));
    assert.ok(!ids.has('12'), 'token matching is whole-word');
  });
});

test('the ids a 422 of the lead upsert names: whole numeric tokens, other ids as written, and not the numbers it has reasons of its own to carry', async () => {
  const { leakedIds, namesId } = await import('../contracts/errors.js');
  assert.ok(namesId({ ids: [12] }, 12));
  assert.ok(namesId({ message: 'matches 12 and 15' }, '12'));
  assert.ok(!namesId({ message: 'matches 123' }, '12'), 'a numeric id is a whole token');
  assert.ok(namesId({ message: 'matches lead:42, lead:43' }, 'lead:42'), 'a non-numeric id as written');
  const crowd = Array.from({ length: 31 }, (_, i) => 20 + i); // ids 20-50, as a server counting from 1 has them
  assert.deepEqual(
    leakedIds({ success: false, status: 422, message: 'more than 30 leads match (31)' }, crowd, 422),
    [],
    "the status, 30 and the count are the body's own",
  );
  assert.deepEqual(leakedIds({ message: 'matches 32 and 33' }, [30, 32, 33], 422), ['32', '33']);
});
