import { rule, type Rule } from './types.js';

const P = 'POST /projects/search';
const T = 'POST /tasks/search';
const both = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', section: string, text: string) =>
  rule(id, level, 'search', section, text, { endpoint: `${P}, ${T}` });
const proj = (id: string, text: string, level: 'MUST' | 'SHOULD' = 'MUST') =>
  rule(id, level, 'search', 'Projects', text, { endpoint: P });
const task = (id: string, text: string, level: 'MUST' | 'SHOULD' = 'MUST') =>
  rule(id, level, 'search', 'Tasks', text, { endpoint: T });

/** Project and task searches. */
export const searchRules: Rule[] = [
  both('SEARCH-1', 'MUST', 'Projects', 'a search answers a JSON array of matching records of the searched resource'),
  both('SEARCH-2', 'MUST', 'Limits', 'the default page number is 1 and the first page is 1'),
  both('SEARCH-3', 'MUST', 'Limits', 'the default page size is 20'),
  both('SEARCH-4', 'MUST', 'Projects', 'page_size bounds the entries of a page and the pages together give every match exactly once'),
  both('SEARCH-5', 'MUST', 'Projects', 'criteria combine with AND'),
  both('SEARCH-6', 'MUST', 'Projects', 'the default sort_direction is asc and desc reverses the order'),
  both('SEARCH-7', 'MUST', 'Limits', 'results are limited to the first 100,000 records whatever the pagination values'),
  both('SEARCH-8', 'MUST', 'Projects', 'tags matches records carrying at least one of the tags, in the list form and in the object form { option: "ANY", value }'),
  both('SEARCH-9', 'MUST', 'Projects', 'followed 1 selects followed records and 2 the others'),
  both('SEARCH-10', 'MUST', 'Projects', 'minimum/maximum created and modified dates bound creation and modification time'),
  both('SEARCH-11', 'MUST', 'Projects', 'custom_fields with allow_empty selects records whose value is empty'),
  both('SEARCH-12', 'MUST', 'Projects', 'custom_fields with minimum_value and maximum_value bounds the value'),
  both('SEARCH-13', 'MUST', 'Shared shapes', 'search results carry computed custom field values: option names instead of option ids'),
  both('SEARCH-14', 'MUST', 'Projects', 'ids selects exactly the records with those ids'),
  both('SEARCH-15', 'MUST', 'Projects', 'assignee_ids selects by owner and -2 selects records with no owner'),
  both('SEARCH-16', 'SHOULD', 'Errors', 'a zero or negative page number, an unknown sort field or a wrongly typed filter is refused with a 4xx, never a 5xx'),
  rule('SEARCH-17', 'MAY', 'search', 'Projects', 'tags and custom dropdown/multi-select fields (on tasks also company, opportunity, city, state, postal_code) can be filtered by an empty value', {
    endpoint: `${P}, ${T}`,
    untestable: 'only the custom_fields form (allow_empty, SEARCH-11) is shown; the filter form selecting an empty tags, company, opportunity, city, state or postal_code value is not shown',
  }),

  proj('PSEARCH-1', 'the default sort_by of a project search is name'),
  proj('PSEARCH-2', 'sort_by orders projects by each listed field (name, assigned_to, related_to, status, date_modified, date_created) in both directions'),
  proj('PSEARCH-3', 'name selects projects with that full name'),
  proj('PSEARCH-4', 'statuses selects projects by status name and status_ids by status id'),

  task('TSEARCH-1', 'the default sort_by of a task search is due_date'),
  task('TSEARCH-2', 'sort_by orders tasks by each listed field (name, assigned_to, related_to, status, priority, due_date, reminder_date, completed_date, date_created, date_modified) in both directions'),
  task('TSEARCH-3', 'opportunity_ids selects tasks related to those opportunities'),
  task('TSEARCH-4', 'project_ids selects tasks of those projects and -2 selects tasks with no project'),
  task('TSEARCH-5', 'statuses selects tasks by status, Open or Completed'),
  task('TSEARCH-6', 'minimum_due_date and maximum_due_date bound the due date'),
  task('TSEARCH-7', 'a task in the results is a Task whose status is Open or Completed'),
];
