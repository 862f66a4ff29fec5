/**
 * Blame (reporting/blame.ts): a failure counts against the rule whose own check failed; a test
 * that stopped at a step of another rule is blocked by it. The scenarios are the upsert faults of
 * the reference, in the shape their tests fail: one broken rule beneath many failures is blamed once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RULES } from '../rules/index.js';
import { blame, type Blamable } from '../reporting/blame.js';
import { breaks, namedByTheTest, takeRestedOn } from '../specs/support/core/attribution.js';

const known = new Set(RULES.map((r) => r.id));
const t = (title: string, status: 'passed' | 'failed', breaks: string[] = [], rules = [title.split(' ')[0]]): Blamable => ({
  title,
  rules,
  status,
  expectedStatus: 'passed',
  warnings: [],
  ...(breaks.length ? { brokenRules: breaks } : {}),
});
const credited = (outcomes: Blamable[]) => {
  const c = blame(outcomes, known);
  return Object.fromEntries(outcomes.filter((o) => c.has(o)).map((o) => [o.title, c.get(o) ?? o.rules]));
};

test('one match creating a new Lead: every failure that rests on the update counts against UPSERT-3 alone', () => {
  const got = credited([
    t('UPSERT-3 by name', 'failed', ['UPSERT-3', 'UPSERT-7']),
    t('UPSERT-7 name matches', 'passed'),
    t('UPSERT-8 by e-mail', 'failed', ['UPSERT-3', 'UPSERT-8']),
    t('UPSERT-9 by custom field', 'failed', ['UPSERT-3', 'UPSERT-9']),
    t('UPSERT-1 racing', 'failed', ['UPSERT-1', 'UPSERT-3', 'UPSERT-7']),
    t('UPSERT-1 racing updates', 'failed', ['UPSERT-1', 'UPSERT-3', 'UPSERT-8']),
    t('EVENT-2 update notification', 'failed', ['UPSERT-3', 'UPSERT-7']),
    t('WIRE-3 lead lists', 'failed', ['UPSERT-3', 'UPSERT-7']),
  ]);
  for (const [title, rules] of Object.entries(got)) assert.deepEqual(rules, ['UPSERT-3'], title);
});

test('e-mail ignored as a criterion: the e-mail checks count against UPSERT-8, the update by name clears UPSERT-3', () => {
  const got = credited([
    t('UPSERT-3 by name', 'passed'),
    t('UPSERT-8 by e-mail', 'failed', ['UPSERT-3', 'UPSERT-8']),
    t('UPSERT-13 read by e-mail', 'failed', ['UPSERT-3', 'UPSERT-8']),
  ]);
  assert.deepEqual(got, { 'UPSERT-8 by e-mail': ['UPSERT-8'], 'UPSERT-13 read by e-mail': ['UPSERT-8'] });
});

test('an upsert that is not atomic: the races count against UPSERT-1, the sequential update is fine', () => {
  const got = credited([
    t('UPSERT-3 by name', 'passed'),
    t('UPSERT-7 name matches', 'passed'),
    t('UPSERT-8 by e-mail', 'passed'),
    t('UPSERT-1 racing', 'failed', ['UPSERT-1', 'UPSERT-3', 'UPSERT-7']),
    t('UPSERT-1 racing updates', 'failed', ['UPSERT-1', 'UPSERT-3', 'UPSERT-8']),
  ]);
  assert.deepEqual(got, { 'UPSERT-1 racing': ['UPSERT-1'], 'UPSERT-1 racing updates': ['UPSERT-1'] });
});

test('name ignored as a criterion: the rule every failure names is the one blamed', () => {
  const got = credited([
    t('UPSERT-7 name matches', 'failed', ['UPSERT-7', 'UPSERT-4']),
    t('UPSERT-4 two by name', 'failed', ['UPSERT-4', 'UPSERT-7']),
    t('UPSERT-4 two by e-mail', 'passed'),
    t('UPSERT-3 by name', 'failed', ['UPSERT-3', 'UPSERT-7']),
    t('EVENT-2 update notification', 'failed', ['UPSERT-3', 'UPSERT-7']),
  ]);
  for (const [title, rules] of Object.entries(got)) assert.deepEqual(rules, ['UPSERT-7'], title);
});

test('a failure that names no rule counts against every rule of its test; one naming rules the run cannot tell apart counts against all of them', () => {
  const plain = t('UPSERT-3 model', 'failed', [], ['UPSERT-3', 'UPSERT-8']);
  assert.equal(blame([plain], known).get(plain), undefined);
  const alone = t('UPSERT-3 model', 'failed', ['UPSERT-3', 'UPSERT-8'], ['UPSERT-3', 'UPSERT-8']);
  assert.deepEqual(blame([alone], known).get(alone), ['UPSERT-3', 'UPSERT-8']);
});

test('a rule a passing test rested on for a step is cleared: e-mail ignored, with no test of UPSERT-3 of its own in the run', () => {
  const passedOn = (title: string, restsOn: string[]): Blamable => ({ ...t(title, 'passed'), restsOn });
  const got = credited([
    t('UPSERT-8 by e-mail', 'failed', ['UPSERT-3', 'UPSERT-8']),
    t('UPSERT-3 model', 'failed', ['UPSERT-3', 'UPSERT-8']),
    passedOn('EVENT-2 update notification', ['UPSERT-3', 'UPSERT-7']),
  ]);
  assert.deepEqual(got, { 'UPSERT-8 by e-mail': ['UPSERT-8'], 'UPSERT-3 model': ['UPSERT-8'] });
});

test("a marker only the target's answer carries is no attribution: rule() keeps those a step of the test named", () => {
  takeRestedOn();
  const step = `the upsert matched the Lead${breaks(['UPSERT-3'])}`;
  const message = `Error: ${step}\n  got: {"name":"[breaks WIRE-5]"}`;
  assert.deepEqual(namedByTheTest(message), ['UPSERT-3'], 'WIRE-5 came in the answer: a SHOULD rule there would turn a MUST failure into a warning');
  takeRestedOn();
  assert.deepEqual(namedByTheTest(message), [], 'the next test named none');
});

test("rules the run cannot tell apart go to the failing test's own rule; one that held elsewhere does not clear it", () => {
  // upsert-update-not-atomic, the tests of UPSERT-1 alone: the read-back that lost an update rests on UPSERT-12 too.
  const racing = t('UPSERT-1 racing updates', 'failed', ['UPSERT-1', 'UPSERT-12']);
  const passedOn = { ...t('UPSERT-1 racing creates', 'passed'), restsOn: ['UPSERT-1', 'UPSERT-3', 'UPSERT-7'] };
  assert.deepEqual(credited([racing, passedOn]), { 'UPSERT-1 racing updates': ['UPSERT-1'] });
});

test('a generic step every failure names (criteria combining with AND) is blamed only on evidence: each test keeps its own check', () => {
  // search-max-bound-exclusive, the tests of its rules alone: each names its own rule and SEARCH-5.
  const got = credited([
    t('TSEARCH-6 due date bounds', 'failed', ['TSEARCH-6', 'SEARCH-5']),
    t('SEARCH-10 task created bounds', 'failed', ['SEARCH-10', 'SEARCH-5']),
    t('SEARCH-10 project created bounds', 'failed', ['SEARCH-10', 'SEARCH-5']),
  ]);
  assert.deepEqual(got, {
    'TSEARCH-6 due date bounds': ['TSEARCH-6'],
    'SEARCH-10 task created bounds': ['SEARCH-10'],
    'SEARCH-10 project created bounds': ['SEARCH-10'],
  });
  // search-criteria-or: SEARCH-5's own test fails on its own check, and the others follow it.
  const or = credited([
    t('SEARCH-5 criteria AND', 'failed'),
    t('SEARCH-10 task created bounds', 'failed', ['SEARCH-10', 'SEARCH-5']),
    t('SEARCH-14 ids', 'failed', ['SEARCH-14', 'SEARCH-5']),
  ]);
  assert.deepEqual(or, { 'SEARCH-5 criteria AND': ['SEARCH-5'], 'SEARCH-10 task created bounds': ['SEARCH-5'], 'SEARCH-14 ids': ['SEARCH-5'] });
});

test('a warning that names its rule counts against that rule alone (a paced bulk call refused inside a bulk property)', () => {
  const warned: Blamable = {
    ...t('BULK-3 random mixes', 'passed', ['BULK-12'], ['BULK-3', 'BULK-4', 'BULK-5']),
    warnings: ['SHOULD BULK-12 not met: a bulk request the suite paced within 3 a second was refused with 429'],
  };
  const plain: Blamable = { ...t('BULK-12 paced calls', 'passed'), warnings: ['SHOULD BULK-12 not met'] };
  const c = blame([warned, plain, t('BULK-4 fields', 'passed')], known);
  assert.deepEqual(c.get(warned), ['BULK-12']);
  assert.equal(c.has(plain), false, 'a warning that names no rule is its own rule’s, as before');
});
