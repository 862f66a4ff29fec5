/**
 * The members of the target profile that the spec gives no way to discover, each with the shape
 * to write and how to find its value: `profile init` lists them under `_fill_in` of its draft
 * (JSON holds no comments), and the doctor's WARN line for a missing one gives the same as its fix.
 */

export interface FillIn {
  /** The shape to write, as the doctor's messages show it. */
  shape: string;
  /** Where its value is found (or what the draft put there, and when to change it). */
  find: string;
}

export const FILL_IN = {
  'fixtures.users': {
    shape: '[{ "id", "email" }]',
    find: "the spec has no user listing: the ids are the assignee_id of records, each user's e-mail is in your account's user settings; the user of CRM_USER_EMAIL first",
  },
  'fixtures.company_with_activities': {
    shape: '{ "company_id", "activity_types": [{ "id", "category" }, …] } (two types at least)',
    find: 'a company whose activity log shows activities of two types or more; POST /companies/{id}/activities with { "activity_types": [] } answers them, each with its type { id, category }',
  },
  'fixtures.custom_fields': {
    shape: '{ "dropdown", "multi_select", "text", "number" }, each { "id", "data_type", "options": [{ "id", "name" }], "available_on" }',
    find: "definitions (types, option lists) are not shown by the spec: your account's custom field settings list their ids, types and options; each available on projects and tasks",
  },
  'fixtures.lead_match_field': {
    shape: '{ "definition_id", "match_field_name" }',
    find: 'definition_id: a custom field definition available on Leads and included in the filters (spec § Lead upsert); match_field_name: what your server takes as match.field_name for it, which the spec leaves open ("The shape of a custom-field match: not shown"): your server\'s documentation of PUT /leads/upsert names it (the reference server takes "custom_field_<definition_id>"); the upsert tests check it',
  },
  'fixtures.project_statuses': {
    shape: '[{ "id", "name" }]',
    find: "records show only the status name: the ids are in your account's project status settings (POST /projects/search takes them as status_ids; the doctor checks)",
  },
  'fixtures.contact_types': {
    shape: '[{ "id", "name" }]',
    find: "your account's contact type settings (a Person's contact_type_id is one of them)",
  },
  'fixtures.attached_file': {
    shape: '{ "entity_type", "entity_id", "file_id" }',
    find: "a file attached to a record (entity_type leads, people, opportunities, companies or projects); the spec does not show the listing that gives file ids: your account shows it, or your server's own listing; GET /{entity_type}/{entity_id}/files/{file_id} must answer its metadata (the doctor checks)",
  },
  'capabilities.extensions': {
    shape: '{ "create_task": "POST /…", "follow": "POST /{entity_type}/{entity_id}/…" }',
    find: "your server's documented extensions that create what the spec cannot; leave {} when there are none",
  },
  'capabilities.bulk_rate_limit': {
    shape: 'true or false',
    find: 'drafted true, as the spec says (§ Limits: bulk interfaces 3 requests per second, "excess may get 429"); false only where your server documents no bulk limit (BULK-9 then requires no 429 of its burst)',
  },
  'capabilities.bulk_entries_limit': {
    shape: 'a number (at least 5)',
    find: 'drafted 10, as the spec says (§ Limits: "may be raised or lowered"); your server\'s documented limit where it differs',
  },
  'oauth.application_name': {
    shape: '"<name>"',
    find: 'the name your consent screen shows for the application of CRM_CLIENT_ID (log in at CRM_AUTH_URL/oauth/authorize with that client; `crm-conformance doctor` tries that login); without it OAUTH-3 checks the buttons only',
  },
  'oauth.permission_text': {
    shape: '"<text>"',
    find: 'the words your consent screen shows for the permission (scope developer/v1/all); without it OAUTH-3 does not check the permission',
  },
  'oauth.redirect_uris': {
    shape: '["{public}/oauth/callback"]',
    find: 'drafted as the suite receives it ({public}: CRM_PUBLIC_URL, else its loopback callback receiver); register for CRM_CLIENT_ID the redirect_uri `crm-conformance doctor` prints on its "OAuth pages" line (CRM_CALLBACK_PORT fixes its port on loopback)',
  },
} satisfies Record<string, FillIn>;

export type FillInPath = keyof typeof FILL_IN;

/** The doctor's fix for a member that is not in the profile: its shape and how to find it. */
export const addFix = (path: FillInPath): string => `add ${path} ${FILL_IN[path].shape} — ${FILL_IN[path].find}`;
