/**
 * WIRE-3 ("lists as `[]`", never null) can only be judged on lists that are empty. Every record
 * the suite creates carries its tags, so before specs/wire/empty-lists.spec.ts no test ever saw
 * an empty `tags` list, and a server answering `tags: null` for one passed the whole suite.
 *
 * This self-test keeps that from happening again, systematically: it enumerates every list
 * field of every response contract (contracts/lists.ts walks the Zod schemas), runs the specs
 * that record the empty lists they see (specs/wire/*.spec.ts, annotation `observed-empty`)
 * against the reference server, and fails when a list field is never observed empty and
 * selftest/unobservable-empty-lists.json states no reason why it cannot be. A reason for a field
 * that is observed after all, or that no contract has any more, fails too (stale).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { contractListFields, emptyListPaths, listPaths, wireProblems } from '../contracts/lists.js';
import { printedReport, readJson, runPlaywright, specsOf, type ReportSuite } from './helpers.js';

const OBSERVING_SPECS = ['specs/wire/empty-lists.spec.ts', 'specs/wire/listed-records.spec.ts'];
const REASONS = 'selftest/unobservable-empty-lists.json';

test('the walk finds list fields through wrappers, objects, records and list elements, not in unions with non-list alternatives', () => {
  const schema = z.looseObject({
    tags: z.array(z.string()),
    maybe: z.array(z.string()).nullable().optional(),
    value: z.union([z.string(), z.array(z.string()), z.null()]),
    person: z.looseObject({ emails: z.array(z.looseObject({ email: z.string() })) }).nullable(),
    message: z.record(z.string(), z.array(z.string())),
    stages: z.array(z.looseObject({ ids: z.array(z.int()) })),
    either: z.union([z.looseObject({ a: z.array(z.int()) }), z.null()]),
  });
  assert.deepEqual(listPaths(schema), ['tags', 'maybe', 'person.emails', 'message.*', 'stages', 'stages[].ids', 'either.a']);
  assert.deepEqual(listPaths(z.array(z.looseObject({ tags: z.array(z.string()) }))), ['', '[].tags']);
  const value = { tags: [], maybe: null, value: [], person: { emails: [] }, message: { x: [] }, stages: [{ ids: [] }, { ids: [1] }], either: { a: [] } };
  assert.deepEqual(emptyListPaths(schema, value), ['either.a', 'message.*', 'person.emails', 'stages[].ids', 'tags']);
  assert.deepEqual(emptyListPaths(schema, { tags: null }), [], 'a null list is not observed empty (the contract fails it)');
});

test('the wire check names null or left-out lists and left-out members, and nothing else', () => {
  const schema = z.looseObject({
    id: z.int(),
    details: z.string().nullable(),
    extra: z.string().optional(),
    tags: z.array(z.string()),
    company: z.looseObject({ websites: z.array(z.string()) }).nullable(),
  });
  assert.deepEqual(wireProblems(schema, { id: 1, details: null, tags: [], company: null }), []);
  assert.deepEqual(
    wireProblems(schema, { id: 'not a number', details: 5, tags: ['a'], company: { websites: [] } }),
    [],
    "wrong types are the contract check's business",
  );
  assert.deepEqual(wireProblems(schema, { id: 1, tags: null, company: { websites: undefined } }), [
    '$.details: left out, where an absent field is returned as null',
    '$.tags: null, where a list is [] and never null',
    '$.company.websites: left out, where a list is [] and never null',
  ]);
  assert.deepEqual(wireProblems(z.array(schema), null), ['$: null, where a list is [] and never null']);
});

test("the enumeration covers the list fields of the spec's resources", () => {
  const keys = new Set(contractListFields().map((f) => f.key));
  for (const k of [
    'Project.tags',
    'Project.custom_fields',
    'Task.tags',
    'Person.emails',
    'Person.websites',
    'Company.phone_numbers',
    'Lead.socials',
    'BulkOpportunity.leads_converted_from',
    'Pipeline.stages',
    'ProjectList',
    'TaskList[].tags',
    'ConvertResponse.person.tags',
  ]) {
    assert.ok(keys.has(k), `${k} is enumerated`);
  }
  assert.ok(![...keys].some((k) => k.includes('value')), 'a custom field value (a list only for multi-select, else text, number… or null) is not a list field');
});

test('every list field of every response contract is observed empty by a test against the reference server, or has a stated reason', async (t) => {
  const res = await runPlaywright([...OBSERVING_SPECS, '--reporter=json'], { CRM_REPORT_DIR: 'reports/runs/selftest-empty-lists' }, 180_000);
  const report = printedReport<{ suites: ReportSuite<Spec>[]; stats: { unexpected: number } }>(res, 'the observing specs');
  assert.equal(res.code, 0, `the observing specs pass the reference server (${report.stats.unexpected} failed):\n${res.stderr.slice(-2000)}`);

  const observed = new Set<string>();
  const skipped: string[] = [];
  for (const spec of specsOf(report)) {
    for (const tst of spec.tests) {
      for (const r of tst.results ?? []) {
        if (r.status === 'skipped') skipped.push(spec.title);
        for (const a of [...(r.annotations ?? []), ...(tst.annotations ?? [])]) if (a.type === 'observed-empty' && a.description) observed.add(a.description);
      }
    }
  }
  assert.deepEqual(skipped, [], 'no observing test skips against the reference server (it allows writes and has the task extension)');

  const reasons = readJson<Record<string, string>>(REASONS);
  const fields = contractListFields().map((f) => f.key);
  const blind = fields.filter((k) => !observed.has(k) && !reasons[k]);
  assert.deepEqual(
    blind,
    [],
    `list fields no test observes empty, and no reason in ${REASONS} says why (a server answering null for them would pass the suite): observe them in specs/wire/empty-lists.spec.ts or state the reason`,
  );
  const stale = Object.keys(reasons).filter((k) => !fields.includes(k) || observed.has(k));
  assert.deepEqual(stale, [], `${REASONS} gives reasons for fields that are observed empty after all, or that no contract has: remove them`);
  for (const [k, why] of Object.entries(reasons)) assert.ok(why.trim().length > 20, `the reason for ${k} says why`);
  t.diagnostic(`${fields.length} list fields: ${observed.size} observed empty, ${Object.keys(reasons).length} with a reason (${(res.ms / 1000).toFixed(1)} s)`);
});

interface Annotation {
  type: string;
  description?: string;
}
interface Spec {
  title: string;
  tests: { annotations?: Annotation[]; results?: { status: string; annotations?: Annotation[] }[] }[];
}
