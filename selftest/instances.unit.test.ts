/**
 * A run of many instances (specs/support/fixtures/instances.ts, the fault matrix): a test is
 * registered once for each instance whose rules it checks, annotated with it, and for no other;
 * a bad CRM_INSTANCES stops with its name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSTANCES_ENV, perInstance, runInstances, type Instance } from '../specs/support/fixtures/instances.js';

const instances: Instance[] = [
  { name: 'fault-a', baseUrl: 'http://127.0.0.1:1', authUrl: 'http://localhost:2', rules: ['UPSERT-4'] },
  { name: 'fault-b', baseUrl: 'http://127.0.0.1:3', authUrl: 'http://localhost:4', rules: ['SEARCH-2', 'UPSERT-13'] },
  { name: 'fault-c', baseUrl: 'http://127.0.0.1:5', authUrl: 'http://localhost:6', rules: ['EVENT-1'] },
];

/** A stand-in for Playwright's `test`: records what is registered, inside which describe. */
function fakeTest() {
  const registered: { describe?: string; title: string; annotation: { type: string; description?: string }[] }[] = [];
  let current: string | undefined;
  const t = (title: string, details: { annotation: { type: string; description?: string }[] }, _body?: unknown) => {
    registered.push({ describe: current, title, annotation: details.annotation });
  };
  t.describe = (title: string, cb: () => void) => {
    current = title;
    cb();
    current = undefined;
  };
  t.skip = 'kept';
  return { t, registered };
}

const details = (...rules: string[]) => ({ tag: rules.map((r) => `@${r}`), annotation: rules.map((r) => ({ type: 'rule', description: r })) });

test('a test is registered once per instance whose rules it checks (its rule or an `also`), annotated with that instance', () => {
  const { t, registered } = fakeTest();
  const wrapped = perInstance(t, instances);
  wrapped('UPSERT-3 the model', details('UPSERT-3', 'UPSERT-4', 'UPSERT-13'), () => {});
  assert.deepEqual(
    registered.map((r) => [r.describe, r.title, r.annotation.at(-1)]),
    [
      ['fault-a', 'UPSERT-3 the model', { type: 'instance', description: 'fault-a' }],
      ['fault-b', 'UPSERT-3 the model', { type: 'instance', description: 'fault-b' }],
    ],
  );
  wrapped('PIPE-1 pipelines', details('PIPE-1'), () => {});
  assert.equal(registered.length, 2, "a test of no instance's rules is not registered");
  assert.equal((wrapped as unknown as { skip: string }).skip, 'kept', 'the rest of `test` is unchanged');
});

test('CRM_INSTANCES: absent is a run of one target; malformed stops naming the variable', () => {
  assert.equal(runInstances({}), undefined);
  assert.deepEqual(runInstances({ [INSTANCES_ENV]: JSON.stringify(instances) }), instances);
  assert.throws(() => runInstances({ [INSTANCES_ENV]: JSON.stringify([{ name: 'x' }]) }), /CRM_INSTANCES/);
});
