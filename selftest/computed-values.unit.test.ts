/**
 * The EVENT-5 judgement (specs/events/computed.ts) on payloads of the shapes a conformant server
 * may choose (the payload is "not shown"): the whole record, an envelope, ids only with the
 * changed attributes of an update, or ids only. Values carried must be option names; nothing
 * carried is a skip, never a failure.
 *
 * Issue 11, item 1: EVENT-5 used to require every option name in the `new` notification, so a
 * server sending only ids failed it; the last test shows that rule against the same payloads.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carriedValues, judgeComputedValues, valueProblem, type OptionField, type ReceivedNotification } from '../specs/events/computed.js';
import { mentions } from '../specs/support/resources/webhook-receiver.js';

const DROPDOWN: OptionField = {
  id: 201,
  multi: false,
  options: [
    { id: 2011, name: 'North' },
    { id: 2012, name: 'South' },
    { id: 2013, name: 'East' },
  ],
};
const MULTI: OptionField = {
  id: 202,
  multi: true,
  options: [
    { id: 2021, name: 'Email' },
    { id: 2022, name: 'Phone' },
    { id: 2023, name: 'Chat' },
  ],
};
const FIELDS = [DROPDOWN, MULTI];
const HELD = ['East', 'Email', 'Chat', 'North', 'Phone'];
const secret = { conformance_key: 'k-1' };

const record = (dropdown: unknown, multi: unknown) => ({
  id: 7,
  name: 'lead 7',
  tags: [],
  custom_fields: [
    { custom_field_definition_id: 201, value: dropdown },
    { custom_field_definition_id: 202, value: multi },
  ],
});
const idsOnlyNew: ReceivedNotification = { event: 'new', body: { ids: [7], type: 'lead', event: 'new', subscription_id: 3, secret } };
const idsOnlyUpdate = (dropdown: unknown, multi: unknown): ReceivedNotification => ({
  event: 'update',
  body: {
    ids: [7],
    type: 'lead',
    event: 'update',
    subscription_id: 4,
    secret,
    updated_attributes: {
      custom_fields: [
        { custom_field_definition_id: 201, value: dropdown },
        { custom_field_definition_id: 202, value: multi },
      ],
    },
  },
});

test('the whole record with option names passes; with option ids it fails, naming the id and its name', () => {
  assert.equal(
    judgeComputedValues(
      [{ event: 'new', body: { subscription_id: 1, event: 'new', type: 'lead', ids: [7], record: record('East', ['Email', 'Chat']), secret } }],
      FIELDS,
      HELD,
    ).verdict,
    'pass',
  );
  const bad = judgeComputedValues([{ event: 'new', body: { record: record(2013, [2021, 2023]) } }], FIELDS, HELD);
  assert.equal(bad.verdict, 'fail');
  assert.match(
    bad.verdict === 'fail' ? bad.problems.join('\n') : '',
    /option id 2013 instead of its name "East"[\s\S]*option id 2021 instead of its name "Email"/,
  );
  assert.equal(judgeComputedValues([{ event: 'new', body: { record: record('2013', ['2021']) } }], FIELDS, HELD).verdict, 'fail', 'ids as strings are ids');
});

test("an envelope with the secret pairs at the top level passes (the variant's shape)", () => {
  const body = { webhook_id: 3, notification: { kind: 'lead.new', records: [record('East', ['Email', 'Chat'])] }, ...secret };
  assert.equal(judgeComputedValues([{ event: 'new', body }], FIELDS, HELD).verdict, 'pass');
});

test("ids only: values carried by the update's changed attributes are judged; the new notification carrying none is no failure", () => {
  assert.equal(judgeComputedValues([idsOnlyNew, idsOnlyUpdate('North', ['Phone'])], FIELDS, HELD).verdict, 'pass');
  assert.equal(judgeComputedValues([idsOnlyNew, idsOnlyUpdate(2011, [2022])], FIELDS, HELD).verdict, 'fail');
});

test('ids only and nothing carried anywhere: skip with the reason, never fail', () => {
  const j = judgeComputedValues(
    [idsOnlyNew, { event: 'update', body: { ids: [7], type: 'lead', event: 'update', subscription_id: 4, secret, updated_attributes: { details: 'x' } } }],
    FIELDS,
    HELD,
  );
  assert.equal(j.verdict, 'skip');
  assert.match(j.verdict === 'skip' ? j.reason : '', /no notification carries a value of custom fields 201, 202 \(notifications received: new, update\)/);
  assert.equal(judgeComputedValues([], FIELDS, HELD).verdict, 'skip');
});

test('values keyed by the definition are found; null is no value; names of other options are names', () => {
  assert.deepEqual(carriedValues({ a: { custom_field_201: 'North', cf_202: ['Chat'], address_line_201: 5 } }, 201), [
    { at: '$.a.custom_field_201', value: 'North' },
  ]);
  assert.deepEqual(carriedValues({ custom_fields: { 202: [2021] } }, 202), [{ at: '$.custom_fields.202', value: [2021] }]);
  assert.equal(judgeComputedValues([{ event: 'new', body: { custom_fields: { 201: 2011 } } }], FIELDS, HELD).verdict, 'fail');
  assert.equal(judgeComputedValues([{ event: 'new', body: { record: record(null, null) } }], FIELDS, HELD).verdict, 'skip', 'null values carry nothing');
  assert.equal(judgeComputedValues([{ event: 'new', body: { records: [record('South', [])] } }], FIELDS, HELD).verdict, 'pass');
  assert.equal(
    judgeComputedValues([{ event: 'new', body: { record: record('East', 'Email') } }], FIELDS, HELD).verdict,
    'fail',
    'a multi-select carries a list',
  );
});

test('names in a shape of their own (no entries, no keyed members) pass', () => {
  assert.equal(judgeComputedValues([{ event: 'new', body: { ids: [7], labels: { Region: 'East' } } }], FIELDS, HELD).verdict, 'pass');
});

test('the old rule (every option name in the new notification) failed a conformant ids-only server; the judgement does not', () => {
  const oldRule = (n: ReceivedNotification) => ['East', 'Email', 'Chat'].every((name) => mentions(n.body, name));
  assert.equal(oldRule(idsOnlyNew), false, 'the old EVENT-5 failed here');
  assert.notEqual(judgeComputedValues([idsOnlyNew], FIELDS, HELD).verdict, 'fail');
  assert.notEqual(judgeComputedValues([idsOnlyNew, idsOnlyUpdate('North', ['Phone'])], FIELDS, HELD).verdict, 'fail');
});

test('an update carrying a change as the pair [old, new] is judged on both values', () => {
  assert.equal(valueProblem(DROPDOWN, ['North', 'South']), undefined);
  assert.equal(valueProblem(DROPDOWN, [null, 'East']), undefined);
  assert.match(valueProblem(DROPDOWN, [2011, 'South']) ?? '', /option id 2011/);
  assert.equal(valueProblem(MULTI, [['Email'], ['Email', 'Phone']]), undefined);
  assert.equal(valueProblem(MULTI, [null, ['Chat']]), undefined);
  assert.match(valueProblem(MULTI, [['Email'], [2022]]) ?? '', /option id 2022/);
  assert.equal(valueProblem(MULTI, ['Email', 'Phone']), undefined, 'a plain list is still a list of names');
});
