/**
 * Open choices of the record endpoints: People, Companies, Activities, Relationships, Projects,
 * Tasks (and the record shapes every area presents). The first alternative is the reference
 * server's default; the second is what the old variant mode did, where it did something.
 * Create statuses and extra members are general choices (rules/choices/general.ts).
 */
import { defineChoices } from './types.js';

export const RECORDS_CHOICES = defineChoices([
  {
    id: 'records.empty-strings',
    section: 'What the service does',
    source: 'Fields that are absent or empty are returned as `null` (lists as `[]`).',
    alternatives: [
      { name: 'kept', description: 'an optional string member sent as "" comes back as ""' },
      { name: 'null', description: 'an optional string member sent as "" (details, title, company_name, …; not name) is stored and returned as null' },
    ],
  },
  {
    id: 'records.custom-field-order',
    section: 'Shared shapes',
    source: '`custom_fields` is a list of custom field values. It may be empty. (Order: not said.)',
    alternatives: [
      { name: 'definition-order', description: 'custom field values come back in the order of their definitions' },
      { name: 'as-sent', description: 'custom field values come back in the order they were first sent' },
    ],
  },
  {
    id: 'records.custom-fields-listing',
    section: 'Shared shapes',
    source: '`custom_fields` is a list of custom field values. It may be empty. (Whether unset fields are listed: not said.)',
    alternatives: [
      { name: 'set-only', description: 'custom_fields lists the values that were set' },
      { name: 'every-definition', description: 'custom_fields lists every definition available on the record\'s kind, value null when not set' },
    ],
  },
  {
    id: 'records.required-on-create',
    section: 'People',
    source: 'Fields required on create: not shown. (People; and for Companies: "Required fields on company create: not shown.")',
    alternatives: [
      { name: 'name', description: 'a Person or Company create without a non-empty name is refused' },
      { name: 'nothing', description: 'a Person or Company may be created without name (it gets the name "")' },
    ],
  },
  {
    id: 'records.missing-status',
    section: 'Errors',
    source: 'Status codes for missing records … and the general error body: not shown.',
    alternatives: [
      { name: '404', description: 'a missing Company, Activity or relationship entity record answers 404' },
      { name: '422', description: 'a missing Company, Activity or relationship entity record answers 422' },
    ],
  },
  {
    id: 'projects.numeric-name',
    section: 'Projects',
    source: '`POST /projects`: body requires `name` (string). (What a name that is a number gets: not shown.)',
    alternatives: [
      { name: 'refused', description: 'a name that is a number is refused like a missing one' },
      { name: 'as-text', description: 'a name that is a number is read as its decimal text (42 → "42")' },
    ],
  },
  {
    id: 'relationships.remove-none',
    section: 'Relationships',
    source: 'Response: `{ removed: boolean, resource: { id, type } }`. (The answer when there is no such relationship to remove: not shown.)',
    alternatives: [
      { name: 'removed-false', description: 'removing a relationship that does not exist answers 200 { removed: false, resource }' },
      { name: 'refused', description: 'removing a relationship that does not exist is refused like a missing record (status of records.missing-status)' },
    ],
  },
  {
    id: 'people.name-parts',
    section: 'Person',
    source: '`prefix, first_name, middle_name, last_name, suffix, title`: string or null. (How they relate to `name`: not said.)',
    alternatives: [
      { name: 'as-sent', description: 'first_name and last_name are what was sent, null when not sent' },
      { name: 'derived-from-name', description: 'when neither is sent, first_name and last_name are derived from name (first and last word)' },
    ],
  },
  {
    id: 'people.company-name',
    section: 'Person',
    source: '`company_id, company_name`: identifier / string, or null. (Whether company_name follows company_id: not said.)',
    alternatives: [
      { name: 'from-company', description: 'a Person created with company_id and no company_name gets the Company\'s name' },
      { name: 'as-sent', description: 'company_name is what was sent, null when not sent' },
    ],
  },
  {
    id: 'companies.activities-empty-filter',
    section: 'Companies',
    source: '`{ activity_types: [ { id, category } ] }` filters the activity kinds. (What an empty list selects: not said.)',
    alternatives: [
      { name: 'all', description: 'an empty activity_types list (or none) means no filter: every activity of the Company' },
      { name: 'none', description: 'an empty activity_types list selects no activity: []' },
    ],
  },
  {
    id: 'companies.activities-order',
    section: 'Companies',
    source: 'Response: array of Activity for that Company. (Order: not said.)',
    alternatives: [
      { name: 'newest-first', description: 'activities newest activity_date first, ties by id' },
      { name: 'oldest-first', description: 'activities oldest activity_date first, ties by id' },
    ],
  },
  {
    id: 'activities.update-members',
    section: 'Activities',
    source: '`PUT /activities/{activity_id}`: `{ activity_date: timestamp, details: string }`. (Whether both are required: not said.)',
    alternatives: [
      { name: 'both-required', description: 'an update without activity_date or without details is refused' },
      { name: 'either', description: 'an update needs activity_date or details (or both)' },
    ],
  },
  {
    id: 'activities.empty-details',
    section: 'Activity',
    source: '`details`: string; and "Fields that are absent or empty are returned as `null`".',
    alternatives: [
      { name: 'kept', description: 'an Activity whose details are "" answers details: ""' },
      { name: 'null', description: 'an Activity whose details are "" answers details: null' },
    ],
  },
  {
    id: 'relationships.entities',
    section: 'Relationships',
    source: 'Accepted values of `entity` beyond `people`: not shown.',
    alternatives: [
      { name: 'all-records', description: 'entity may be people, companies, leads, opportunities, projects or tasks' },
      { name: 'people-companies', description: 'entity may be people or companies; other entity types answer 404' },
    ],
  },
  {
    id: 'tasks.custom-activity-type-id',
    section: 'Task',
    source: '`custom_activity_type_id`: identifier (present in some search results).',
    alternatives: [
      { name: 'absent', description: 'task search results do not carry custom_activity_type_id' },
      { name: 'present', description: 'task search results carry custom_activity_type_id: 0' },
    ],
  },
]);
