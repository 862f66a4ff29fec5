/**
 * The problems of a read over records others may change (generators/window-model.ts), which the
 * read-only checks assert only when every round shows them (specs/search/readonly.ts): each
 * discrepancy is an item naming its record, so that another round can show it again or not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderProblems, partitionProblems, selectionProblems } from '../generators/window-model.js';

const task = (id: number, rest: Record<string, unknown> = {}) => ({ id, name: `t${id}`, status: 'Open', due_date: id * 10, ...rest });
const open = (t: { status?: unknown }) => t.status === 'Open';

test('a selection names the records answered that do not satisfy it, those that do and were not answered, and those answered twice', () => {
  const window = [task(1), task(2, { status: 'Completed' }), task(3), task(4)];
  assert.deepEqual(selectionProblems(window, [task(1), task(3), task(4)], open), []);
  assert.deepEqual(selectionProblems(window, [task(1), task(2, { status: 'Completed' }), task(3), task(3)], open), ['wrong 2', 'missing 4', 'twice 3']);
});

test('a record answered that the window did not hold is judged by its own members only (it may have appeared meanwhile)', () => {
  assert.deepEqual(selectionProblems([task(1)], [task(1), task(9)], open), []);
  assert.deepEqual(selectionProblems([task(1)], [task(1), task(9, { status: 'Completed' })], open), ['wrong 9']);
});

test('a partition names the records in both answers and those of the window in neither', () => {
  const window = [task(1), task(2), task(3)];
  assert.deepEqual(partitionProblems(window, [task(1)], [task(2), task(3), task(8)]), []);
  assert.deepEqual(partitionProblems(window, [task(1), task(2)], [task(2)]), ['both 2', 'neither 3']);
  assert.deepEqual(partitionProblems(window, [task(1), task(1)], [task(2), task(3)]), ['twice 1']);
});

test('a fixed order names each adjacent pair out of order, by ids; ties and null keys are not judged', () => {
  const window = [task(1), task(2), task(3)];
  assert.deepEqual(orderProblems(window, [task(1), task(2), task(3)], 'due_date', 'asc'), []);
  assert.deepEqual(orderProblems(window, [task(3), task(2), task(1)], 'due_date', 'desc'), []);
  assert.deepEqual(orderProblems(window, [task(2), task(1), task(3)], 'due_date', 'asc'), ['order 2 before 1']);
  assert.deepEqual(orderProblems(window, [task(1), task(2, { due_date: null }), task(3, { due_date: 10 })], 'due_date', 'asc'), []);
});

test('an open order between keys names a group met again, by the record that starts its second run', () => {
  const s = (id: number, status: string) => task(id, { status });
  const window = [s(1, 'Open'), s(2, 'Completed'), s(3, 'Open')];
  assert.deepEqual(orderProblems(window, [s(2, 'Completed'), s(1, 'Open'), s(3, 'Open')], 'status', 'asc'), []);
  assert.deepEqual(orderProblems(window, [s(1, 'Open'), s(2, 'Completed'), s(3, 'Open')], 'status', 'asc'), ['split Open at 3']);
});

test('pages of a sort whose order is not judged name only the records missing or twice', () => {
  const window = [task(1), task(2), task(3)];
  assert.deepEqual(orderProblems(window, [task(3), task(1), task(1)], undefined, 'asc'), ['missing 2', 'twice 1']);
});
