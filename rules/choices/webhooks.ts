/**
 * Open choices of webhook subscriptions and notifications (spec § Webhook subscriptions,
 * § Events). Usage: see rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const WEBHOOKS_CHOICES = defineChoices([
  {
    id: 'webhook.payload',
    section: 'Events',
    source: 'Payload of a notification: not shown.',
    alternatives: [
      { name: 'record', description: '{ subscription_id, event, type, ids: [id], record: <the record as presented> }' },
      { name: 'envelope', description: '{ webhook_id, notification: { kind: "<type>.<event>", records: [<record>] } }' },
      { name: 'ids-only', description: '{ ids: [id], type, event, subscription_id }; an update also carries updated_attributes: only the attributes that changed (custom field values only when they changed, with option names when computed values are on)' },
      { name: 'ids-with-changes', description: '{ ids: [id], type, event, subscription_id }; an update also carries changes: each changed attribute as the pair [old, new], a custom field as custom_field_<id> (option names when computed values are on)' },
    ],
  },
  {
    id: 'webhook.payload-secret',
    section: 'Events',
    source: 'The `secret` object of the subscription is sent unchanged with every notification. (Where in the payload: not shown.)',
    alternatives: [
      { name: 'nested', description: 'the secret object is the payload member `secret`' },
      { name: 'top-level', description: 'the secret pairs are members of the payload itself' },
      { name: 'header', description: 'the secret object travels as JSON in the header X-Webhook-Secret, not in the body' },
    ],
  },
  {
    id: 'webhook.no-secret',
    section: 'Webhook subscriptions',
    source: 'secret | JSON object | no | custom key/value pairs sent unchanged with every notification (the value answered when none was sent: not shown)',
    alternatives: [
      { name: 'null', description: 'a subscription created without secret answers secret: null' },
      { name: 'empty-object', description: 'a subscription created without secret answers secret: {}' },
    ],
  },
  {
    id: 'webhook.delete-body',
    section: 'Webhook subscriptions',
    source: 'DELETE | `/webhooks/{webhook_id}` | none | `{ id }` (further members: not stated)',
    alternatives: [
      { name: 'id', description: '{ id }' },
      { name: 'id-deleted', description: '{ id, deleted: true }' },
    ],
  },
  {
    id: 'webhook.delivery',
    section: 'Events',
    source: 'Delivery retries, time-outs and any signature other than `secret`: not shown.',
    alternatives: [
      { name: 'once', description: 'one attempt; a failed delivery is dropped' },
      { name: 'retry', description: 'a delivery that fails (no answer or a 5xx) is tried once more after a short delay' },
    ],
  },
  {
    id: 'webhook.timing',
    section: 'Events',
    source: 'Delivery retries, time-outs and any signature other than `secret`: not shown. (How soon a notification is sent: not stated.)',
    alternatives: [
      { name: 'prompt', description: 'every notification is sent as soon as its change is made' },
      { name: 'lagging', description: 'most notifications are sent at once, but one in twenty is sent 6 s late (a queue busy with other work), even after hundreds of prompt ones' },
    ],
  },
  {
    id: 'webhook.listing',
    section: 'Webhook subscriptions',
    source: 'Listing or updating subscriptions: not shown.',
    alternatives: [
      { name: 'none', description: 'GET /webhooks is not served' },
      { name: 'list', description: 'GET /webhooks answers the subscriptions, oldest first' },
    ],
  },
]);
