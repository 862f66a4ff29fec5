/**
 * Open choices of the bulk create of Opportunities (spec § Bulk create of Opportunities).
 * Usage: see rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const OPPORTUNITIES_CHOICES = defineChoices([
  {
    id: 'bulk.rate-window',
    section: 'Limits',
    source: 'Request rate | bulk interfaces | 3 per second, in addition to any general limit; excess may get 429 (whether a target limits at all is declared in its profile, capabilities.bulk_rate_limit; the reference server does)',
    alternatives: [
      { name: 'sliding', description: 'at most 3 admitted requests in any sliding second' },
      { name: 'calendar-second', description: 'at most 3 admitted requests in each calendar second' },
    ],
  },
  {
    id: 'bulk.rate-limit-body',
    section: 'Errors',
    source: 'Bulk create over 3 requests per second | 429 | not stated',
    alternatives: [
      { name: 'message', description: '{ success: false, status: 429, message } with Retry-After' },
      { name: 'errors-list', description: '{ errors: [{ code: "rate_limited", detail }] } with Retry-After' },
      { name: 'empty', description: 'no body, with Retry-After' },
    ],
  },
  {
    id: 'bulk.error-codes',
    section: 'Bulk create of Opportunities',
    source: 'A failed entry is an object `{ success: false, message: { <field_name>: [ { error: <code> } ] } }`, for example `error` = `invalid`.',
    alternatives: [
      { name: 'invalid', description: 'every failed check has the code invalid' },
      { name: 'specific', description: 'codes name the failure: required (missing name), invalid_type (wrong type), invalid (otherwise)' },
    ],
  },
  {
    id: 'bulk.close-date',
    section: 'Opportunity',
    source: 'close_date | null or string | in bulk create it is a slash-separated date string',
    alternatives: [
      { name: 'mm/dd/yyyy', description: 'close_date is answered as MM/DD/YYYY' },
      { name: 'yyyy/mm/dd', description: 'close_date is answered as YYYY/MM/DD' },
      { name: 'm/d/yyyy', description: 'close_date is answered as M/D/YYYY (no leading zeros)' },
    ],
  },
  {
    id: 'bulk.close-date-input',
    section: 'Opportunity',
    source: 'close_date | null or string | in bulk create it is a slash-separated date string (the order of its parts in a request: not shown)',
    alternatives: [
      { name: 'month-first', description: 'an entry\'s close_date is read as MM/DD/YYYY (or M/D/YYYY)' },
      { name: 'year-first', description: 'an entry\'s close_date is read as YYYY/MM/DD; any other order fails the entry on close_date' },
    ],
  },
  {
    id: 'bulk.monetary-unit',
    section: 'Opportunity',
    source: 'The bulk-create response also carries: … `monetary_unit` (string) … (its value: not shown)',
    alternatives: [
      { name: 'USD', description: 'monetary_unit "USD"' },
      { name: 'EUR', description: 'monetary_unit "EUR"' },
    ],
  },
  {
    id: 'bulk.entries-limit',
    section: 'Limits',
    source: 'Entries per request | bulk create | 10 (may be raised or lowered, since the bulk interface is in beta) (the suite judges against the documented 10 unless the profile declares another, capabilities.bulk_entries_limit)',
    alternatives: [
      { name: '10', description: 'at most 10 entries per request, as documented' },
      { name: 'raised', description: 'at most 12 entries per request, declared in the profile', declares: { capabilities: { bulk_entries_limit: 12 } } },
      { name: 'lowered', description: 'at most 8 entries per request, declared in the profile', declares: { capabilities: { bulk_entries_limit: 8 } } },
    ],
  },
  {
    id: 'bulk.too-large-message',
    section: 'Errors',
    source: 'Bulk create with more than 10 entries | 422 | `{ error: <message> }` stating that the request is too large and the limit is 10',
    alternatives: [
      { name: 'limit-first', description: '"Request too large: the limit is 10 entries per request" (the limit of bulk.entries-limit)' },
      { name: 'count-first', description: '"Too many opportunities in one request (<n>); limit is 10" (the limit of bulk.entries-limit)' },
    ],
  },
]);
