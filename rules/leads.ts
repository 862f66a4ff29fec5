import { rule, type Rule } from './types.js';

const U = 'PUT /leads/upsert';
const C = 'POST /leads/{lead_id}/convert';
const B = 'POST /opportunities/bulk_create';
const up = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string) => rule(id, level, 'upsert', 'Lead upsert', text, { endpoint: U });
const cv = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string) => rule(id, level, 'convert', 'Lead conversion', text, { endpoint: C });
const bk = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string, section = 'Bulk create of Opportunities') =>
  rule(id, level, 'bulk', section, text, { endpoint: B });

/** Lead upsert, lead conversion, opportunity bulk create. */
export const leadRules: Rule[] = [
  up('UPSERT-1', 'MUST', 'the check, then update or create, is atomic: concurrent identical upserts that match nothing create one Lead'),
  up('UPSERT-2', 'MUST', 'no match creates a new Lead from properties'),
  up('UPSERT-3', 'MUST', 'exactly one match updates that Lead with properties'),
  up('UPSERT-4', 'MUST', 'more than one match answers 422 with the ids of the matching Leads'),
  up('UPSERT-5', 'MUST', 'more than 30 matches answer 422 without the ids'),
  up('UPSERT-6', 'MUST', 'a Lead created by upsert has status New'),
  up('UPSERT-7', 'MUST', 'name is a supported match criterion'),
  up('UPSERT-8', 'MUST', 'email is a supported match criterion'),
  up('UPSERT-9', 'MUST', 'a Lead custom field is a supported match criterion'),
  up('UPSERT-10', 'MUST', 'the upsert answer carries computed custom field values: option names instead of option ids'),
  up('UPSERT-11', 'MUST', 'a successful upsert answers a Lead'),
  up('UPSERT-12', 'MUST', 'an update by upsert leaves the fields not in properties as they were'),
  up('UPSERT-13', 'MUST', 'an upsert answered 422 (more than one match) neither updates nor creates a Lead: the outcome of several matches is the 422 alone'),

  cv('CONVERT-1', 'MUST', 'the answer has person (Person), company (Company) and opportunity (Opportunity) only when one was created'),
  cv('CONVERT-2', 'MUST', 'after conversion the Lead no longer exists'),
  cv('CONVERT-3', 'MUST', 'conversion creates a Person honouring the person members name, contact_type_id and assignee_id'),
  cv('CONVERT-4', 'MUST', 'company.id makes the new Person join that Company'),
  cv('CONVERT-5', 'MUST', 'the name of an existing Company makes the Person join it without creating a second one'),
  cv('CONVERT-6', 'MUST', 'a new company name creates a Company with that name and the Person joins it'),
  cv('CONVERT-7', 'MUST', 'an empty company name creates no Company'),
  cv('CONVERT-8', 'SHOULD', 'company id and name are mutually exclusive: both together are refused or not both honoured'),
  cv('CONVERT-9', 'MAY', 'without exact_match, fuzzy matching may return candidate companies (recorded, never judged)'),
  cv('CONVERT-10', 'MUST', 'without opportunity no Opportunity is created'),
  cv('CONVERT-11', 'MUST', 'an opportunity without pipeline_stage_id is placed in the first stage of its pipeline'),
  cv('CONVERT-12', 'MUST', 'the opportunity members sent (name, pipeline_id, monetary_value) come back on the created Opportunity'),
  cv('CONVERT-13', 'MUST', 'the convert answer carries computed custom field values: option names instead of option ids'),
  cv('CONVERT-14', 'MUST', 'converting a Lead that does not exist (e.g. already converted) fails'),
  cv('CONVERT-15', 'MUST', 'an upsert matching a converted Lead by e-mail creates a new Lead'),

  bk('BULK-1', 'MUST', 'a request with more than 10 entries gets status 422', 'Errors'),
  bk('BULK-2', 'MUST', 'the 422 body is { error } stating the request is too large and the limit is 10', 'Errors'),
  bk('BULK-3', 'MUST', 'a well-formed request of 0 to 10 entries gets 200 with an array in the order of the request entries'),
  bk('BULK-4', 'MUST', 'a created entry is the Opportunity object with a numeric id and the bulk-create fields'),
  bk('BULK-5', 'MUST', 'a failed entry is { success: false, message: { <field>: [ { error } ] } } and the other entries are still created', 'Errors'),
  bk('BULK-6', 'MUST', 'close_date of a created entry is a slash-separated date string', 'Opportunity'),
  bk('BULK-7', 'MUST', 'an entry without pipeline_stage_id is placed in the first stage of its pipeline', 'Opportunity'),
  bk('BULK-8', 'MUST', 'the bulk answer carries computed custom field values: option names instead of option ids', 'Shared shapes'),
  bk('BULK-9', 'MAY', 'above 3 bulk requests per second the service may refuse, and a refusal is status 429', 'Limits'),
  bk('BULK-10', 'SHOULD', 'after a burst the bulk interface accepts requests again within a few seconds', 'Limits'),
  bk('BULK-11', 'MUST', 'a created entry carries the members sent for it (name, pipeline_id, monetary_value, details, priority, win_probability, assignee_id, tags)'),
];
