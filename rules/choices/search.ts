/**
 * Open choices of the project and task searches (spec § Projects, § Tasks, § Limits). The first
 * alternative is the reference server's default; the second is what the old variant mode did.
 * Statuses and bodies of refusals are general choices (rules/choices/general.ts).
 */
import { defineChoices } from './types.js';

export const SEARCH_CHOICES = defineChoices([
  {
    id: 'search.max-page-size',
    section: 'Limits',
    source: 'Maximum page size | searches | not shown',
    alternatives: [
      { name: '200', description: 'the largest page served is 200 entries' },
      { name: '100', description: 'the largest page served is 100 entries' },
      { name: '1000', description: 'the largest page served is 1,000 entries' },
    ],
  },
  {
    id: 'search.page-size-over-max',
    section: 'Limits',
    source: 'Maximum page size | searches | not shown',
    alternatives: [
      { name: 'refuse', description: 'a page_size above the largest page is refused' },
      { name: 'clamp', description: 'a page_size above the largest page is served as the largest page' },
    ],
  },
  {
    id: 'search.tie-order',
    section: 'Projects',
    source: '`sort_by` … `sort_direction` `asc` or `desc`. (The order of records with equal sort keys: not said.)',
    alternatives: [
      { name: 'id-asc', description: 'ties are broken by id ascending, in both directions' },
      { name: 'id-desc', description: 'ties are broken by id descending, in both directions' },
      { name: 'with-direction', description: 'ties are broken by id in the sort direction (desc is the exact reverse of asc)' },
    ],
  },
  {
    id: 'search.null-placement',
    section: 'Projects',
    source: '`sort_by` one of `assigned_to`, `related_to`, `due_date`, … (records without a value: where they sort is not said).',
    alternatives: [
      { name: 'largest', description: 'a missing sort value sorts after every value: last in asc, first in desc' },
      { name: 'always-last', description: 'records without a sort value come last in both directions' },
      { name: 'smallest', description: 'a missing sort value sorts before every value: first in asc, last in desc' },
      { name: 'always-first', description: 'records without a sort value come first in both directions' },
    ],
  },
  {
    id: 'search.name-order',
    section: 'Projects',
    source: '`sort_by` `name` (the collation of names: not said).',
    alternatives: [
      { name: 'code-units', description: 'names sort by UTF-16 code units (upper case before lower case)' },
      { name: 'case-insensitive', description: 'names sort ignoring case first, then by code units' },
    ],
  },
  {
    id: 'search.assigned-to-order',
    section: 'Projects',
    source: '`sort_by` `assigned_to` (what the owner is ordered by: not said).',
    alternatives: [
      { name: 'owner-id', description: 'assigned_to orders by the owner\'s id' },
      { name: 'owner-email', description: 'assigned_to orders by the owner\'s e-mail address' },
    ],
  },
  {
    id: 'search.related-to-order',
    section: 'Projects',
    source: '`sort_by` `related_to` (what the related record is ordered by: not said).',
    alternatives: [
      { name: 'type-then-id', description: 'related_to orders by the related record\'s type, then its id' },
      { name: 'id-then-type', description: 'related_to orders by the related record\'s id, then its type' },
    ],
  },
  {
    id: 'search.status-order',
    section: 'Projects',
    source: '`sort_by` `status` (by name or by status id: not said).',
    alternatives: [
      { name: 'name', description: 'status orders by the status name' },
      { name: 'status-id', description: 'status orders by the status id (project statuses), names otherwise' },
    ],
  },
  {
    id: 'search.priority-order',
    section: 'Tasks',
    source: '`sort_by` `priority` (by name or by rank: not said).',
    alternatives: [
      { name: 'name', description: 'priority orders by its name' },
      { name: 'rank', description: 'priority orders by rank: None < Low < Medium < High' },
    ],
  },
  {
    id: 'search.allow-empty-false',
    section: 'Projects',
    source: '`custom_fields` … `allow_empty` (boolean, selects empty values). (What `allow_empty: false` selects: not said.)',
    alternatives: [
      { name: 'no-restriction', description: 'allow_empty: false restricts nothing' },
      { name: 'non-empty-only', description: 'allow_empty: false selects records whose value is not empty' },
    ],
  },
  {
    id: 'search.tag-case',
    section: 'Projects',
    source: '`tags` … matches at least one tag (case sensitivity: not said).',
    alternatives: [
      { name: 'case-sensitive', description: 'tags match exactly' },
      { name: 'case-insensitive', description: 'tags match ignoring case' },
    ],
  },
  {
    id: 'search.name-case',
    section: 'Projects',
    source: '`name` | string | none | full name (case sensitivity: not said).',
    alternatives: [
      { name: 'case-sensitive', description: 'the project name criterion matches the full name exactly' },
      { name: 'case-insensitive', description: 'the project name criterion matches the full name ignoring case' },
    ],
  },
  {
    id: 'search.empty-list',
    section: 'Projects',
    source: '`ids`, `assignee_ids`, `status_ids`, `statuses`, `tags`, `opportunity_ids`, `project_ids` (what an empty list selects: not said).',
    alternatives: [
      { name: 'matches-nothing', description: 'an empty list of ids, owners, statuses or tags selects no record' },
      { name: 'no-restriction', description: 'an empty list of ids, owners, statuses or tags restricts nothing (as if absent)' },
    ],
  },
  {
    id: 'search.total-header',
    section: 'Tasks',
    source: 'Response headers that report totals: not shown.',
    alternatives: [
      { name: 'none', description: 'a search answer carries no header with the number of matches' },
      { name: 'x-total-count', description: 'a search answer carries X-Total-Count: the number of matching records (within the cap)' },
      { name: 'x-pw-total', description: 'a search answer carries X-PW-TOTAL: the number of matching records (within the cap)' },
    ],
  },
  {
    id: 'search.unknown-members',
    section: 'Projects',
    source: 'body is the filter object below (members outside the table: not said).',
    alternatives: [
      { name: 'ignored', description: 'members of the filter the search does not know are ignored' },
      { name: 'refused', description: 'a filter with a member the search does not know is refused' },
    ],
  },
]);
