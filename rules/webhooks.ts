import { rule, type Level, type Rule, type Source } from './types.js';

const HOOKS = 'Webhook subscriptions';
const w = (id: string, level: Level, endpoint: string, source: Source, text: string) => rule(id, level, 'webhooks', source, text, { endpoint });
const e = (id: string, level: Level, source: Source, text: string, extra: Partial<Rule> = {}) => rule(id, level, 'events', source, text, extra);

const RULE1: Source = {
  section: 'Events', item: 'rule 1',
  quote: 'A subscription names one entity type and one event kind; the service sends a notification to `target` when that event occurs for that type.',
};
const REMOVED = 'DELETE webhooks/{webhook_id} | subscription exists | subscription removed | response carries `id`';

/**
 * Webhook subscriptions and notifications. The Events rules 1-3 are EVENT-1 (with EVENT-2, EVENT-3
 * and EVENT-6), EVENT-4 and EVENT-5 (ids are never renumbered; `source.item` says which).
 */
export const webhookRules: Rule[] = [
  w('HOOK-1', 'MUST', 'POST /webhooks', {
    section: 'States and transitions', item: 'Webhook subscription (POST webhooks)', quote: 'POST webhooks | valid input | subscription exists | response carries `id` and `created_at`',
  }, 'POST /webhooks with valid input answers a Webhook subscription carrying id and created_at'),
  w('HOOK-2', 'MUST', 'POST /webhooks', {
    section: HOOKS, item: 'POST /webhooks', quote: 'POST | `/webhooks` | parameters below | Webhook subscription',
    reading: 'the subscription answered is the one asked for: it carries the parameters sent',
  }, 'the subscription carries the target, type, event, secret and custom_field_computed_values sent'),
  w('HOOK-3', 'MUST', 'POST /webhooks', {
    section: 'Errors', item: 'Webhook create with an invalid target URL', quote: 'Webhook create with an invalid target URL | 422 | `{ success: false, status: 422, message: <text> }`',
  }, 'an invalid target URL answers 422 { success: false, status: 422, message }'),
  w('HOOK-4', 'MUST', 'POST /webhooks', {
    section: HOOKS, item: 'target, type, event', quote: 'target | string | yes | valid URL of the receiving endpoint',
    reading: 'target, type and event are required ("yes"): a subscription without one is refused (the status is not shown)',
  }, 'a subscription without target, type or event is refused'),
  w('HOOK-5', 'MUST', 'POST /webhooks', { section: HOOKS, item: 'type', quote: 'type | string | yes | `lead`, `person`, `company`, `opportunity`, `project`, `task`' },
    'a type outside lead, person, company, opportunity, project, task is refused'),
  w('HOOK-6', 'MUST', 'POST /webhooks', { section: HOOKS, item: 'event', quote: 'event | string | yes | `new`, `update`, `delete`' }, 'an event outside new, update, delete is refused'),
  w('HOOK-7', 'MUST', 'GET /webhooks/{webhook_id}', { section: HOOKS, item: 'GET /webhooks/{webhook_id}', quote: 'GET | `/webhooks/{webhook_id}` | none | Webhook subscription' },
    'GET /webhooks/{id} answers the subscription'),
  w('HOOK-8', 'MUST', 'DELETE /webhooks/{webhook_id}', { section: HOOKS, item: 'DELETE /webhooks/{webhook_id}', quote: 'DELETE | `/webhooks/{webhook_id}` | none | `{ id }`' },
    'DELETE /webhooks/{id} answers { id }'),
  w('HOOK-9', 'MUST', 'DELETE /webhooks/{webhook_id}', { section: 'States and transitions', item: 'Webhook subscription (DELETE webhooks/{webhook_id})', quote: REMOVED },
    'after DELETE the subscription no longer exists'),

  e('EVENT-1', 'MUST', RULE1, 'a new event of the subscribed type sends a notification to target'),
  e('EVENT-2', 'MUST', RULE1, 'an update event of the subscribed type sends a notification to target'),
  e('EVENT-3', 'MUST', RULE1, 'a delete event of the subscribed type sends a notification to target', {
    untestable: 'the spec offers no endpoint that deletes a record; the one removal it shows, lead conversion, is not stated to be a delete event and is judged under EVENT-8 (SHOULD)',
  }),
  e('EVENT-4', 'MUST', {
    section: 'Events', item: 'rule 2', quote: 'The `secret` object of the subscription is sent unchanged with every notification, so the receiver can check that the request is genuine.',
  }, 'every notification carries the secret key/value pairs unchanged'),
  e('EVENT-5', 'MUST', {
    section: 'Events', item: 'rule 3', quote: 'When `custom_field_computed_values` is true, notifications carry option names instead of option ids for dropdown custom fields.',
  }, 'with custom_field_computed_values true, notifications carry option names instead of option ids'),
  e('EVENT-6', 'MUST', RULE1, 'a subscription names one type and one event: other types and events are not sent to it'),
  e('EVENT-7', 'MUST', {
    section: 'States and transitions', item: 'Webhook subscription (DELETE webhooks/{webhook_id})', quote: REMOVED,
    reading: 'a removed subscription is no longer sent notifications',
  }, 'after DELETE /webhooks/{id} no further notification is sent to that subscription'),
  e('EVENT-8', 'SHOULD', {
    section: 'States and transitions', item: 'Lead', quote: 'Convert a Lead (POST leads/{lead_id}/convert) | Lead exists | Lead no longer exists',
    reading: 'a converted Lead "no longer exists", which lead delete subscribers would want to hear; whether conversion is a delete event is not stated, hence SHOULD',
  }, 'a converted Lead, which "no longer exists", is announced to lead delete subscriptions (whether conversion is a delete event is not stated)'),
  e('EVENT-9', 'SHOULD', {
    section: 'Events', quote: 'Delivery retries, time-outs and any signature other than `secret`: not shown.',
    reading: 'notifications are sent when an event occurs, not as part of the call that caused it: a slow receiver neither holds up nor fails that call (time-outs are not shown, hence SHOULD)',
  }, 'delivery is not part of the API call: a receiver that has not answered yet neither holds up nor fails the call that caused the event (time-outs: not shown)'),
];
