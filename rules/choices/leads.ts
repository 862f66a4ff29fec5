/**
 * Open choices of Lead upsert and Lead conversion (spec § Lead upsert, § Lead conversion).
 * Usage: see rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const LEADS_CHOICES = defineChoices([
  {
    id: 'upsert.text-match',
    section: 'Lead upsert',
    source: 'The supported match criteria are name, email and custom fields. (Case sensitivity of a match: not shown.)',
    alternatives: [
      { name: 'exact', description: 'name, email and text custom fields match exactly' },
      { name: 'case-insensitive', description: 'name, email and text custom fields match ignoring case' },
    ],
  },
  {
    id: 'upsert.created-lead',
    section: 'Lead upsert',
    source: 'No match: a new Lead is created from `properties`.',
    alternatives: [
      { name: 'properties-only', description: 'the new Lead holds what properties set (and defaults)' },
      { name: 'stores-match-value', description: 'the new Lead also holds the match value when properties does not set it (name; email as { email, category: "work" }; the custom field value)' },
    ],
  },
  {
    id: 'upsert.contention',
    section: 'Lead upsert',
    source: 'The check, then update or create, is atomic. (What an upsert meeting another one in progress on the same match gets: not shown.)',
    alternatives: [
      { name: 'serialized', description: 'concurrent upserts of one match run one after the other; every one is answered' },
      { name: 'conflict', description: 'an upsert holds its match for a storage round trip (20 ms); one arriving for a match held is refused with 409' },
    ],
  },
  {
    id: 'upsert.ambiguous-body',
    section: 'Errors',
    source: 'Lead upsert matches more than one Lead | 422 | includes the ids of the matching Leads (exact body shape: not shown)',
    alternatives: [
      { name: 'ids-member', description: '{ success: false, status: 422, message, ids: [...] } (no ids member over 30 matches)' },
      { name: 'errors-detail', description: '{ errors: [{ code, detail }] } with the ids written in the detail text' },
      { name: 'matches-list', description: '{ error, matches: [{ id }, …] } (no matches member over 30 matches)' },
    ],
  },
  {
    id: 'convert.missing-lead',
    section: 'Errors',
    source: 'Status codes for missing records … and the general error body: not shown.',
    alternatives: [
      { name: '404', description: 'converting a Lead that does not exist answers 404' },
      { name: '422', description: 'converting a Lead that does not exist answers 422' },
    ],
  },
  {
    id: 'convert.no-company',
    section: 'Lead conversion',
    source: 'Response: object with `person` (Person), `company` (Company), `opportunity` (Opportunity, when created). (The answer when no Company is joined: not shown.)',
    alternatives: [
      { name: 'null', description: 'company: null' },
      { name: 'absent', description: 'no company member' },
    ],
  },
  {
    id: 'convert.no-opportunity',
    section: 'Lead conversion',
    source: 'Response: object with … `opportunity` (Opportunity, when created).',
    alternatives: [
      { name: 'absent', description: 'no opportunity member' },
      { name: 'null', description: 'opportunity: null' },
    ],
  },
  {
    id: 'convert.company-default',
    section: 'Lead conversion',
    source: 'company | object | valid members: `id` or `name` … (what happens when `company` is omitted: not shown)',
    alternatives: [
      { name: 'none', description: 'without details.company no Company is joined or created' },
      { name: 'from-lead', description: "without details.company the Person joins the Company named by the Lead's company_name (created when none has that exact name); none when the Lead has no company_name" },
    ],
  },
  {
    id: 'convert.fuzzy-candidates',
    section: 'Lead conversion',
    source: 'Without `exact_match`, fuzzy matching returns a list of candidate companies. (Where and in what shape: not shown.)',
    alternatives: [
      { name: 'company-candidates', description: 'company_candidates: [Company, …] (only when there are candidates)' },
      { name: 'fuzzy-company-matches', description: 'fuzzy_company_matches: [{ id, name }, …] (only when there are candidates)' },
    ],
  },
  {
    id: 'convert.company-name-match',
    section: 'Lead conversion',
    source: 'With the name of an existing Company, the Person joins it. (Case sensitivity: not shown.)',
    alternatives: [
      { name: 'exact', description: 'an existing Company is joined when its name is exactly the given one' },
      { name: 'case-insensitive', description: 'an existing Company is joined when its name equals the given one ignoring case' },
    ],
  },
]);
