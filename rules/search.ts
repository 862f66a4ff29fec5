import { computedValues, rule, type Level, type Rule, type Source } from './types.js';

const P = 'POST /projects/search';
const T = 'POST /tasks/search';
const both = (id: string, level: Level, source: Source, text: string) =>
  rule(id, level, 'search', source, text, { endpoint: `${P}, ${T}` });
const proj = (id: string, item: string, quote: string, text: string) =>
  rule(id, 'MUST', 'search', { section: 'Projects', item, quote }, text, { endpoint: P });
const task = (id: string, item: string, quote: string, text: string, section = 'Tasks') =>
  rule(id, 'MUST', 'search', { section, item, quote }, text, { endpoint: T });

/** How the suite reads a minimum and a maximum (the spec says "bounds" only). */
const BOUNDS = 'a minimum is the least value selected and a maximum the greatest: a record whose value equals a bound is selected (that is what makes them a minimum and a maximum)';
const CUSTOM = 'each: `custom_field_definition_id` with `allow_empty` (boolean, selects empty values) or with `minimum_value` and `maximum_value`';
const PROJECT_SORT = 'sort_by | string | `name` | one of `name`, `assigned_to`, `related_to`, `status`, `date_modified`, `date_created`';
const TASK_SORT = 'sort_by | string | `due_date` | one of `name`, `assigned_to`, `related_to`, `status`, `priority`, `due_date`, `reminder_date`, `completed_date`, `date_created`, `date_modified`';

/** Project and task searches (the task search has "same conventions" as the project search). */
export const searchRules: Rule[] = [
  both('SEARCH-1', 'MUST', { section: 'Projects', quote: '`POST /projects/search`: body is the filter object below; response is a JSON array of matching records.' },
    'a search answers a JSON array of matching records of the searched resource'),
  both('SEARCH-2', 'MUST', { section: 'Limits', item: 'Default page number', quote: 'Default page number | searches | 1 (pages start at 1)' },
    'the default page number is 1 and the first page is 1'),
  both('SEARCH-3', 'MUST', { section: 'Limits', item: 'Default page size', quote: 'Default page size | searches | 20' }, 'the default page size is 20'),
  both('SEARCH-4', 'MUST', {
    section: 'Projects', item: 'page_size', quote: 'page_size | number | 20 | entries per page',
    reading: 'pages of page_size entries, numbered from 1, read one after the other give every match exactly once',
  }, 'page_size bounds the entries of a page and the pages together give every match exactly once'),
  both('SEARCH-5', 'MUST', { section: 'Projects', quote: 'Criteria combine with AND.' }, 'criteria combine with AND'),
  both('SEARCH-6', 'MUST', { section: 'Projects', item: 'sort_direction', quote: 'sort_direction | string | `asc` | `asc` or `desc`' },
    'the default sort_direction is asc and desc reverses the order'),
  both('SEARCH-7', 'MUST', {
    section: 'Limits', item: 'Records reachable in one search', quote: 'Records reachable in one search | searches | first 100,000, whatever the pagination; split the filter for larger result sets',
  }, 'results are limited to the first 100,000 records whatever the pagination values'),
  both('SEARCH-8', 'MUST', { section: 'Projects', item: 'tags', quote: 'tags | string[] or object | none | matches at least one tag; the object form is `{ option: "ANY", value: [tags] }`' },
    'tags matches records carrying at least one of the tags, in the list form and in the object form { option: "ANY", value }'),
  both('SEARCH-9', 'MUST', { section: 'Projects', item: 'followed', quote: 'followed | number | none | `1` followed, `2` not followed' },
    'followed 1 selects followed records and 2 the others'),
  both('SEARCH-10', 'MUST', {
    section: 'Projects', item: 'minimum/maximum_created_date, minimum/maximum_modified_date',
    quote: 'minimum_created_date, maximum_created_date | timestamp | none | bounds on creation time … minimum_modified_date, maximum_modified_date | timestamp | none | bounds on modification time',
    reading: BOUNDS,
  }, 'minimum/maximum created and modified dates bound creation and modification time'),
  both('SEARCH-11', 'MUST', { section: 'Projects', item: 'custom_fields', quote: CUSTOM }, 'custom_fields with allow_empty selects records whose value is empty'),
  both('SEARCH-12', 'MUST', { section: 'Projects', item: 'custom_fields', quote: CUSTOM, reading: BOUNDS }, 'custom_fields with minimum_value and maximum_value bounds the value'),
  both('SEARCH-13', 'MUST', computedValues('project search, task search'),
    'search results carry computed custom field values: option names instead of option ids'),
  both('SEARCH-14', 'MUST', { section: 'Projects', item: 'ids', quote: 'ids | identifier[] | none | Project ids' }, 'ids selects exactly the records with those ids'),
  both('SEARCH-15', 'MUST', { section: 'Projects', item: 'assignee_ids', quote: 'assignee_ids | identifier[] | none | owners; `-2` selects records with no owner' },
    'assignee_ids selects by owner and -2 selects records with no owner'),
  both('SEARCH-16', 'SHOULD', {
    section: 'Errors', quote: 'Status codes for missing records, missing or bad credentials or permissions, and the general error body: not shown.', rfc: 'RFC 9110 §15.5, §15.6',
    reading: 'a page number below 1, a sort field outside the list or a filter of the wrong type is a client error (4xx), never a server failure (5xx); the status is not shown',
  }, 'a zero or negative page number, an unknown sort field or a wrongly typed filter is refused with a 4xx, never a 5xx'),
  rule('SEARCH-17', 'MAY', 'search', { section: 'Projects', quote: 'Fields that can be filtered by an empty value on Projects: tags, custom dropdown and custom multi-select fields.' },
    'tags and custom dropdown/multi-select fields (on tasks also company, opportunity, city, state, postal_code) can be filtered by an empty value', {
      endpoint: `${P}, ${T}`,
      untestable: 'only the custom_fields form (allow_empty, SEARCH-11) is shown; the filter form selecting an empty tags, company, opportunity, city, state or postal_code value is not shown',
    }),

  proj('PSEARCH-1', 'sort_by', PROJECT_SORT, 'the default sort_by of a project search is name'),
  proj('PSEARCH-2', 'sort_by', PROJECT_SORT, 'sort_by orders projects by each listed field (name, assigned_to, related_to, status, date_modified, date_created) in both directions'),
  proj('PSEARCH-3', 'name', 'name | string | none | full name', 'name selects projects with that full name'),
  proj('PSEARCH-4', 'statuses, status_ids', 'status_ids | identifier[] | none | status ids … statuses | string[] | none | status names, e.g. `Open`',
    'statuses selects projects by status name and status_ids by status id'),

  task('TSEARCH-1', 'sort_by', TASK_SORT, 'the default sort_by of a task search is due_date'),
  task('TSEARCH-2', 'sort_by', TASK_SORT, 'sort_by orders tasks by each listed field (name, assigned_to, related_to, status, priority, due_date, reminder_date, completed_date, date_created, date_modified) in both directions'),
  task('TSEARCH-3', 'opportunity_ids', 'opportunity_ids | identifier[] | none | Opportunity ids', 'opportunity_ids selects tasks related to those opportunities'),
  task('TSEARCH-4', 'project_ids', 'project_ids | identifier[] | none | `-2` selects Tasks with no project', 'project_ids selects tasks of those projects and -2 selects tasks with no project'),
  task('TSEARCH-5', 'statuses', 'statuses | string[] | none | `Open`, `Completed`', 'statuses selects tasks by status, Open or Completed'),
  rule('TSEARCH-6', 'MUST', 'search', { section: 'Tasks', item: 'minimum_due_date, maximum_due_date', quote: 'minimum_due_date, maximum_due_date | timestamp | none', reading: BOUNDS }, 'minimum_due_date and maximum_due_date bound the due date', { endpoint: T }),
  task('TSEARCH-7', 'status', 'status | string: `Open` or `Completed`', 'a task in the results is a Task whose status is Open or Completed', 'Task'),
];
