import { rule, type Rule } from './types.js';

const w = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', endpoint: string, text: string, section = 'Webhook subscriptions') =>
  rule(id, level, 'webhooks', section, text, { endpoint });
const e = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string, extra: Partial<Rule> = {}) => rule(id, level, 'events', 'Events', text, extra);

/** Webhook subscriptions and notifications. */
export const webhookRules: Rule[] = [
  w('HOOK-1', 'MUST', 'POST /webhooks', 'POST /webhooks with valid input answers a Webhook subscription carrying id and created_at'),
  w('HOOK-2', 'MUST', 'POST /webhooks', 'the subscription carries the target, type, event, secret and custom_field_computed_values sent'),
  w('HOOK-3', 'MUST', 'POST /webhooks', 'an invalid target URL answers 422 { success: false, status: 422, message }', 'Errors'),
  w('HOOK-4', 'MUST', 'POST /webhooks', 'a subscription without target, type or event is refused'),
  w('HOOK-5', 'MUST', 'POST /webhooks', 'a type outside lead, person, company, opportunity, project, task is refused'),
  w('HOOK-6', 'MUST', 'POST /webhooks', 'an event outside new, update, delete is refused'),
  w('HOOK-7', 'MUST', 'GET /webhooks/{webhook_id}', 'GET /webhooks/{id} answers the subscription'),
  w('HOOK-8', 'MUST', 'DELETE /webhooks/{webhook_id}', 'DELETE /webhooks/{id} answers { id }'),
  w('HOOK-9', 'MUST', 'DELETE /webhooks/{webhook_id}', 'after DELETE the subscription no longer exists'),

  e('EVENT-1', 'MUST', 'a new event of the subscribed type sends a notification to target'),
  e('EVENT-2', 'MUST', 'an update event of the subscribed type sends a notification to target'),
  e('EVENT-3', 'MUST', 'a delete event of the subscribed type sends a notification to target', {
    untestable: 'the spec offers no endpoint that deletes a record; the one removal it shows, lead conversion, is not stated to be a delete event and is judged under EVENT-8 (SHOULD)',
  }),
  e('EVENT-4', 'MUST', 'every notification carries the secret key/value pairs unchanged'),
  e('EVENT-5', 'MUST', 'with custom_field_computed_values true, notifications carry option names instead of option ids'),
  e('EVENT-6', 'MUST', 'a subscription names one type and one event: other types and events are not sent to it'),
  e('EVENT-7', 'MUST', 'after DELETE /webhooks/{id} no further notification is sent to that subscription'),
  e('EVENT-8', 'SHOULD', 'a converted Lead, which "no longer exists", is announced to lead delete subscriptions (whether conversion is a delete event is not stated)'),
  e('EVENT-9', 'SHOULD', 'delivery is not part of the API call: a receiver that has not answered yet neither holds up nor fails the call that caused the event (time-outs: not shown)'),
];
