/**
 * Which record a notification is about, for the tests that show a notification was *not* sent
 * (EVENT-6, EVENT-7: specs/events/routing.spec.ts). The payload is "not shown" and ids are not
 * unique across kinds on every server (REFERENCE_CHOICES=ids.sequence=per-kind): a bare id that
 * equals a subscription id, a count or another kind's id must not make a notification about the
 * record, while the shapes a conformant server may send (the record, an envelope, ids only) are
 * still read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { identifies } from '../specs/support/resources/webhook-receiver.js';

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
