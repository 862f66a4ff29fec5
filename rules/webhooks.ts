import { rule, type Rule } from './types.js';

const pending = { pending: 'issue 5 (auth, OAuth, webhooks)' };
const w = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', endpoint: string, text: string, section = 'Webhook subscriptions') =>
  rule(id, level, 'webhooks', section, text, { endpoint, ...pending });
const e = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string) => rule(id, level, 'events', 'Events', text, { ...pending });

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
  e('EVENT-3', 'MUST', 'a delete event of the subscribed type sends a notification to target'),
  e('EVENT-4', 'MUST', 'every notification carries the secret key/value pairs unchanged'),
  e('EVENT-5', 'MUST', 'with custom_field_computed_values true, notifications carry option names instead of option ids'),
  e('EVENT-6', 'MUST', 'a subscription names one type and one event: other types and events are not sent to it'),
  e('EVENT-7', 'MUST', 'after DELETE /webhooks/{id} no further notification is sent to that subscription'),
];
