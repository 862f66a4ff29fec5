import { computedValues, rule, type Level, type Rule, type Source } from './types.js';

const U = 'PUT /leads/upsert';
const C = 'POST /leads/{lead_id}/convert';
const B = 'POST /opportunities/bulk_create';
const UPSERT = 'Lead upsert';
const CONVERT = 'Lead conversion';
const BULK = 'Bulk create of Opportunities';
const up = (id: string, source: Source, text: string) => rule(id, 'MUST', 'upsert', source, text, { endpoint: U });
const cv = (id: string, level: Level, source: Source, text: string) => rule(id, level, 'convert', source, text, { endpoint: C });
const bk = (id: string, level: Level, source: Source, text: string) => rule(id, level, 'bulk', source, text, { endpoint: B });

const CRITERIA = 'The supported match criteria are name, email and custom fields.';
const LEAD_GONE = 'Convert a Lead (POST leads/{lead_id}/convert) | Lead exists | Lead no longer exists';
const COMPANY = (quote: string): Source => ({ section: CONVERT, item: 'company', quote });
const OPPORTUNITY = (quote: string): Source => ({ section: CONVERT, item: 'opportunity', quote });
const RATE = 'Request rate | bulk interfaces | 3 per second, in addition to any general limit; excess may get 429';

/**
 * Lead upsert, lead conversion, opportunity bulk create. UPSERT-1..5 are the upsert rules 1-5;
 * the bulk rules 1-4 are BULK-1, BULK-3, BULK-4 and BULK-5 (ids are never renumbered; `source.item` says which).
 */
/** The limit of entries per request may change (spec § Limits, § Versioning): the documented 10 unless the target declares its own. */
const LIMIT_READING = 'the limit is the documented 10 unless the target profile declares another (capabilities.bulk_entries_limit), as § Limits says it "may be raised or lowered, since the bulk interface is in beta"';

export const leadRules: Rule[] = [
  up('UPSERT-1', { section: UPSERT, item: 'rule 1', quote: 'The check, then update or create, is atomic.' },
    'the check, then update or create, is atomic: concurrent identical upserts that match nothing create one Lead'),
  up('UPSERT-2', { section: UPSERT, item: 'rule 2', quote: 'No match: a new Lead is created from `properties`.' }, 'no match creates a new Lead from properties'),
  up('UPSERT-3', { section: UPSERT, item: 'rule 3', quote: 'Exactly one match: that Lead is updated with `properties`.' }, 'exactly one match updates that Lead with properties'),
  up('UPSERT-4', { section: UPSERT, item: 'rule 4', quote: 'More than one match: response 422 carrying the ids of the matching Leads.' },
    'more than one match answers 422 with the ids of the matching Leads'),
  up('UPSERT-5', { section: UPSERT, item: 'rule 5', quote: 'More than 30 matches: response 422 without the ids.' }, 'more than 30 matches answer 422 without the ids'),
  up('UPSERT-6', { section: 'States and transitions', item: 'Lead', quote: 'Lead | status / status_id | `New` on creation by upsert' }, 'a Lead created by upsert has status New'),
  up('UPSERT-7', { section: UPSERT, quote: CRITERIA }, 'name is a supported match criterion'),
  up('UPSERT-8', { section: UPSERT, quote: CRITERIA }, 'email is a supported match criterion'),
  up('UPSERT-9', { section: UPSERT, quote: 'To match on a custom field, its definition must be available on Leads and be included in the filters.' },
    'a Lead custom field is a supported match criterion'),
  up('UPSERT-10', computedValues('lead upsert'), 'the upsert answer carries computed custom field values: option names instead of option ids'),
  up('UPSERT-11', { section: UPSERT, quote: 'Response on success: Lead.' }, 'a successful upsert answers a Lead'),
  up('UPSERT-12', {
    section: UPSERT, item: 'rule 3', quote: 'Exactly one match: that Lead is updated with `properties`.',
    reading: 'updated "with properties": the fields not in properties keep their values',
  }, 'an update by upsert leaves the fields not in properties as they were'),
  up('UPSERT-13', {
    section: UPSERT, item: 'rule 4', quote: 'More than one match: response 422 carrying the ids of the matching Leads.',
    reading: 'the rules are exclusive: with several matches the 422 is the whole outcome, nothing is updated or created',
  }, 'an upsert answered 422 (more than one match) neither updates nor creates a Lead: the outcome of several matches is the 422 alone'),

  cv('CONVERT-1', 'MUST', { section: CONVERT, quote: 'Response: object with `person` (Person), `company` (Company), `opportunity` (Opportunity, when created).' },
    'the answer has person (Person), company (Company) and opportunity (Opportunity) only when one was created'),
  cv('CONVERT-2', 'MUST', { section: 'States and transitions', item: 'Lead', quote: LEAD_GONE }, 'after conversion the Lead no longer exists'),
  cv('CONVERT-3', 'MUST', { section: CONVERT, item: 'person', quote: 'valid members: `name`, `contact_type_id`, `assignee_id`' },
    'conversion creates a Person honouring the person members name, contact_type_id and assignee_id'),
  cv('CONVERT-4', 'MUST', COMPANY('With `id`, the new Person joins that Company.'), 'company.id makes the new Person join that Company'),
  cv('CONVERT-5', 'MUST', COMPANY('With the name of an existing Company, the Person joins it.'), 'the name of an existing Company makes the Person join it without creating a second one'),
  cv('CONVERT-6', 'MUST', COMPANY('With a new name, a Company with that name is created and joined.'), 'a new company name creates a Company with that name and the Person joins it'),
  cv('CONVERT-7', 'MUST', COMPANY('With an empty string as name, no Company is created.'), 'an empty company name creates no Company'),
  cv('CONVERT-8', 'SHOULD', {
    ...COMPANY('valid members: `id` or `name` (mutually exclusive), optional boolean `exact_match`.'),
    reading: 'what the service does with both is not shown: refusing, or honouring one of them, both conform',
  }, 'company id and name are mutually exclusive: both together are refused or not both honoured'),
  cv('CONVERT-9', 'MAY', COMPANY('Without `exact_match`, fuzzy matching returns a list of candidate companies.'),
    'without exact_match, fuzzy matching may return candidate companies (recorded, never judged)'),
  cv('CONVERT-10', 'MUST', OPPORTUNITY('When omitted, no Opportunity is created.'), 'without opportunity no Opportunity is created'),
  cv('CONVERT-11', 'MUST', OPPORTUNITY('When `pipeline_stage_id` is omitted, the first stage of the pipeline is used.'),
    'an opportunity without pipeline_stage_id is placed in the first stage of its pipeline'),
  cv('CONVERT-12', 'MUST', OPPORTUNITY('valid members: `name`, `pipeline_id`, `pipeline_stage_id`, `monetary_value`, `assignee_id`.'),
    'the opportunity members sent (name, pipeline_id, monetary_value) come back on the created Opportunity'),
  cv('CONVERT-13', 'MUST', computedValues('lead convert'),
    'the convert answer carries computed custom field values: option names instead of option ids'),
  cv('CONVERT-14', 'MUST', {
    section: 'States and transitions', item: 'Lead', quote: LEAD_GONE,
    reading: 'the condition of the move is "Lead exists": converting a Lead that does not exist fails (the status is not shown)',
  }, 'converting a Lead that does not exist (e.g. already converted) fails'),
  cv('CONVERT-15', 'MUST', {
    section: UPSERT, item: 'rule 2', quote: 'No match: a new Lead is created from `properties`.',
    reading: 'a converted Lead "no longer exists" (§ States and transitions), so an upsert cannot match it',
  }, 'an upsert matching a converted Lead by e-mail creates a new Lead'),

  bk('BULK-1', 'MUST', {
    section: BULK, item: 'rule 1', quote: 'A request with more than 10 entries gets status 422.',
    reading: LIMIT_READING,
  }, 'a request with more than 10 entries (or the limit the profile declares) gets status 422'),
  bk('BULK-2', 'MUST', {
    section: 'Errors', item: 'Bulk create with more than 10 entries', quote: '`{ error: <message> }` stating that the request is too large and the limit is 10',
    reading: LIMIT_READING,
  }, 'the 422 body is { error } stating the request is too large and the limit is 10 (or the limit the profile declares)'),
  bk('BULK-3', 'MUST', { section: BULK, item: 'rule 2', quote: 'A well-formed request gets status 200 with an array in the same order as the request entries.' },
    'a well-formed request of 0 to 10 entries gets 200 with an array in the order of the request entries'),
  bk('BULK-4', 'MUST', { section: BULK, item: 'rule 3', quote: 'A created entry is the Opportunity object with a numeric `id`.' },
    'a created entry is the Opportunity object with a numeric id and the bulk-create fields'),
  bk('BULK-5', 'MUST', {
    section: BULK, item: 'rule 4', quote: 'A failed entry is an object `{ success: false, message: { <field_name>: [ { error: <code> } ] } }`, for example `error` = `invalid`.',
  }, 'a failed entry is { success: false, message: { <field>: [ { error } ] } } and the other entries are still created'),
  bk('BULK-6', 'MUST', { section: 'Opportunity', item: 'close_date', quote: 'close_date | null or string | in bulk create it is a slash-separated date string' },
    'close_date of a created entry is a slash-separated date string'),
  bk('BULK-7', 'MUST', { section: 'Opportunity', item: 'pipeline_stage_id', quote: 'stage defaults to the first stage of the pipeline' },
    'an entry without pipeline_stage_id is placed in the first stage of its pipeline'),
  bk('BULK-8', 'MUST', computedValues('opportunity bulk create'),
    'the bulk answer carries computed custom field values: option names instead of option ids'),
  bk('BULK-9', 'MAY', {
    section: 'Limits', item: 'Request rate', quote: RATE, rfc: 'RFC 6585 §4',
    reading: 'the refusal the spec names for excess is 429 (Too Many Requests, RFC 6585 §4): a burst request the service refuses is answered 429',
  },
    'above 3 bulk requests per second the service may refuse, and a refusal is status 429'),
  bk('BULK-10', 'SHOULD', {
    section: 'Limits', item: 'Request rate', quote: RATE,
    reading: 'the limit is a rate per second: after a burst, requests are accepted again within a few seconds (how soon is not shown, hence SHOULD)',
  }, 'after a burst the bulk interface accepts requests again within a few seconds'),
  bk('BULK-11', 'MUST', {
    section: BULK, quote: 'Members shown: `name`, `primary_contact_id`, `assignee_id`, `close_date`, `details`, `monetary_value`, `pipeline_id`, `priority`, `status`, `tags`, `win_probability`, `custom_fields`, `customer_source_id`.',
    reading: 'an entry creates the Opportunity it describes: the members sent come back on it',
  }, 'a created entry carries the members sent for it (name, pipeline_id, monetary_value, details, priority, win_probability, assignee_id, tags)'),
];
