/**
 * Which record a notification is about, for the tests that show a notification was *not* sent
 * (EVENT-6, EVENT-7: specs/events/routing.spec.ts). The payload is "not shown" and ids are not
 * unique across kinds on every server (REFERENCE_CHOICES=ids.sequence=per-kind): a bare id that
 * equals a subscription id, a count or another kind's id must not make a notification about the
 * record, while the shapes a conformant server may send (the record, an envelope, ids only) are
 * still read, and an envelope with ids of its own above the record's (issue 33: the record's id
 * found only at the shallowest level missed a removed subscription that kept notifying).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { concerns, identifies, identityPaths } from '../specs/support/resources/webhook-receiver.js';

const project = { id: 3, name: 'p' };

test("the record's own id is read from the record, envelope and ids-only shapes", () => {
  assert.ok(identifies({ subscription_id: 9, event: 'new', type: 'project', ids: [3], record: { id: 3, name: 'p' } }, project.id, 'project'));
  assert.ok(identifies({ webhook_id: 9, notification: { kind: 'project.new', records: [{ id: 3, name: 'p' }] } }, project.id, 'project'));
  assert.ok(identifies({ ids: ['3'], type: 'project', event: 'new', subscription_id: 9 }, project.id, 'project'));
  assert.ok(identifies({ id: 3, name: 'p', related_resource: { id: 7, type: 'person' } }, project.id, 'project'), 'a bare record');
});

test('a number equal to the id elsewhere in the payload is not the record', () => {
  assert.ok(!identifies({ ids: [2], type: 'project', event: 'new', subscription_id: 3 }, project.id, 'project'), 'the subscription id');
  assert.ok(
    !identifies({ id: 8, name: 'q', interaction_count: 3, related_resource: { id: 3, type: 'person' } }, project.id, 'project'),
    'a count and a related record',
  );
  assert.ok(!identifies({ webhook_id: 3, notification: { kind: 'project.new', records: [{ id: 5 }] } }, project.id, 'project'), 'the webhook id');
});

test('a record of another kind with the same id is not the record', () => {
  assert.ok(!identifies({ ids: [3], type: 'company', event: 'new', subscription_id: 1 }, project.id, 'project'));
  assert.ok(!identifies({ webhook_id: 1, notification: { kind: 'company.new', records: [{ id: 3, name: 'c' }] } }, project.id, 'project'));
  assert.ok(identifies({ ids: [3], type: 'project', event: 'new' }, project.id, 'project'), 'the same id with its own kind is');
});

test('a kind named in the plural, as the paths name it, is read', () => {
  assert.ok(!identifies({ ids: [3], type: 'companies', event: 'new' }, project.id, 'project'));
  assert.ok(identifies({ ids: [3], type: 'projects', event: 'new' }, project.id, 'project'));
});

/** REFERENCE_CHOICES=webhook.payload=nested-envelope: a delivery id, the subscription's and the event's above the record's. */
const nested = (delivery: number, sub: number, event: number, record: number, type = 'project', subscribed = 'project') => ({
  id: delivery,
  subscription: { id: sub, type: subscribed, event: 'new' },
  event: { id: event, type, action: 'new', occurred_at: 1_700_000_000 },
  data: { records: [{ id: record }] },
});

test("the record's id is found below the envelope's own shallower ids", () => {
  assert.ok(identifies(nested(1, 2, 4, 3), project.id, 'project'), 'data.records[].id, three levels down');
  assert.ok(identifies({ subscription: { id: 9 }, data: { records: [{ id: 3 }] } }, project.id, 'project'), 'the shape of issue 33');
  assert.ok(identifies({ delivery: { id: 1 }, payload: { object: { id: 3, object: 'project' } } }, project.id, 'project'));
});

test("the envelope's own ids are not the record, even when equal to a record's id", () => {
  assert.ok(!identifies(nested(3, 5, 6, 8), project.id, 'project'), 'the delivery id');
  assert.ok(!identifies(nested(5, 3, 6, 8), project.id, 'project'), 'the subscription id');
  assert.ok(!identifies(nested(5, 6, 3, 8), project.id, 'project'), 'the event id');
  assert.ok(identifies(nested(3, 3, 3, 8), 8, 'project'), 'the record below three ids equal to one another');
  const ping = { id: 3, subscription: { id: 3, type: 'project', event: 'new' }, event: { id: 3, type: 'ping' } };
  assert.ok(!identifies(ping, project.id, 'project'), 'a verification notification about no record');
  assert.ok(!concerns(ping, project, 'project'), 'concerns: not by the id, and the name is not there');
  assert.ok(concerns({ ping: true, subscription_id: 3, note: 'p' }, { id: 99, name: 'p' }, 'project'), 'concerns: the unique name anywhere');
});

test("the kind is the event's, not the subscription's (a notification sent to a subscription of another type)", () => {
  const sent = nested(1, 2, 4, 3, 'project', 'company');
  assert.ok(identifies(sent, 3, 'project'));
  assert.ok(!identifies(sent, 3, 'company'), 'the company subscription is told of project 3, not of company 3');
});

test('the paths learned from a notification known to be about its record read the others', () => {
  const bound = nested(1, 2, 4, 5);
  assert.deepEqual(identityPaths(bound, 5, 'project'), ['data.records[].id']);
  const at = identityPaths(bound, 5, 'project');
  assert.ok(identifies(nested(9, 2, 10, 3), 3, 'project', at));
  assert.ok(!identifies({ trace: { id: 3 }, something: { id: 3 }, data: { records: [{ id: 8 }] } }, 3, 'project', at), 'an unknown member holding the id');
  assert.deepEqual(identityPaths({ subscription_id: 9, type: 'project', ids: [5], record: { id: 5 } }, 5, 'project').sort(), ['ids[]', 'record.id']);
});
