import { computedValues, rule, type Rule } from './types.js';

const ABSENT = 'Fields that are absent or empty are returned as `null` (lists as `[]`).';
const PEOPLE = '`POST /people`: body is Person fields (`name`, `emails`, `address`, `phone_numbers` are shown); response is Person.';
const REL_ANSWER = 'Response: `{ removed: boolean, resource: { id, type } }`.';
const PATH_PARAMS = 'Path parameters: `entity_type` is one of `leads`, `people`, `opportunities`, `companies`, `projects`; `entity_id` and `file_id` are numbers.';
const SIGNED = 'GET /{entity_type}/{entity_id}/files/s3_signed_url';
const FILE = 'GET /{entity_type}/{entity_id}/files/{file_id}';
const REL = 'DELETE /{entity}/{entity_id}/related';

/** People, companies, activities, projects, relationships, files. */
export const recordRules: Rule[] = [
  rule('PEOPLE-1', 'MUST', 'people', { section: 'People', quote: PEOPLE }, 'POST /people answers a Person', { endpoint: 'POST /people' }),
  rule('PEOPLE-2', 'MUST', 'people', { section: 'People', quote: PEOPLE, reading: 'the fields sent are the Person created: they come back on it' },
    'the name, emails, address and phone_numbers sent come back on the created Person', { endpoint: 'POST /people' }),
  rule('PEOPLE-3', 'MUST', 'people', { section: 'What the service does', quote: ABSENT }, 'fields not sent come back as null and lists as []', { endpoint: 'POST /people' }),
  rule('PEOPLE-4', 'MUST', 'people', computedValues('person create'),
    'person create returns computed custom field values: option names instead of option ids', { endpoint: 'POST /people' }),

  rule('COMPANY-1', 'MUST', 'companies', {
    section: 'Companies', item: 'POST /companies',
    quote: 'POST | `/companies` | body of Company fields (`name`, `address`, `email_domain`, `details`, `phone_numbers`, `primary_contact_id` shown) | Company',
  }, 'POST /companies answers a Company carrying the fields sent', { endpoint: 'POST /companies' }),
  rule('COMPANY-2', 'MUST', 'companies', { section: 'Companies', item: 'GET /companies/{company_id}', quote: 'GET | `/companies/{company_id}` | none | Company' },
    'GET /companies/{id} answers the Company as created', { endpoint: 'GET /companies/{company_id}' }),
  rule('COMPANY-3', 'MUST', 'companies', { section: 'Company', item: 'primary_contact_id', quote: 'primary_contact_id | identifier | present on create/fetch responses' },
    'primary_contact_id is present on create and fetch responses', { endpoint: 'GET /companies/{company_id}' }),
  rule('COMPANY-4', 'MUST', 'companies', {
    section: 'Companies', item: 'POST /companies/{company_id}/activities',
    quote: 'POST | `/companies/{company_id}/activities` | `{ activity_types: [ { id, category } ] }` filters the activity kinds | array of Activity for that Company',
  }, 'POST /companies/{id}/activities answers an array of Activity whose parent is that Company', { endpoint: 'POST /companies/{company_id}/activities' }),
  rule('COMPANY-5', 'MUST', 'companies', { section: 'Companies', item: 'POST /companies/{company_id}/activities', quote: '`{ activity_types: [ { id, category } ] }` filters the activity kinds' },
    'the activity_types filter returns only activities of the requested kinds', { endpoint: 'POST /companies/{company_id}/activities' }),
  rule('COMPANY-6', 'MUST', 'companies', { section: 'What the service does', quote: ABSENT },
    'on company create, fields not sent come back as null and lists as []', { endpoint: 'POST /companies' }),

  rule('ACT-1', 'MUST', 'activities', { section: 'Activities', item: 'GET /activities/{activity_id}', quote: 'GET | `/activities/{activity_id}` | none | Activity' },
    'GET /activities/{id} answers an Activity', { endpoint: 'GET /activities/{activity_id}' }),
  rule('ACT-2', 'MUST', 'activities', {
    section: 'Activities', item: 'PUT /activities/{activity_id}', quote: 'PUT | `/activities/{activity_id}` | `{ activity_date: timestamp, details: string }` | Activity (updated)',
  }, 'PUT /activities/{id} with activity_date and details answers the updated Activity', { endpoint: 'PUT /activities/{activity_id}' }),
  rule('ACT-3', 'MUST', 'activities', {
    section: 'Activities', item: 'PUT /activities/{activity_id}', quote: 'PUT | `/activities/{activity_id}` | `{ activity_date: timestamp, details: string }` | Activity (updated)',
    reading: 'an update is stored: a later GET answers the updated Activity',
  }, 'an activity update is visible on a later GET', { endpoint: 'PUT /activities/{activity_id}' }),

  rule('REL-1', 'MUST', 'relationships', { section: 'Relationships', quote: REL_ANSWER },
    'DELETE /{entity}/{id}/related answers { removed: boolean, resource: { id, type } }', { endpoint: REL }),
  rule('REL-2', 'MUST', 'relationships', { section: 'Relationships', quote: 'Deleting the relationship does not delete either record.' },
    'removing a relationship deletes neither record', { endpoint: REL }),
  rule('REL-3', 'MUST', 'relationships', { section: 'Relationships', quote: REL_ANSWER, reading: 'the `resource` of the answer is the one of the request' },
    'the answer names the resource whose relationship was removed', { endpoint: REL }),
  rule('REL-4', 'MUST', 'relationships', {
    section: 'States and transitions', item: 'Relationship between two records', quote: 'relationship removed | neither record is deleted',
  }, 'after DELETE /{entity}/{id}/related the relationship no longer exists (a Project related to the Person no longer names it)', { endpoint: REL }),

  rule('FILE-1', 'MUST', 'files', {
    section: 'Files',
    quote: 'Signed upload response: `url` (string), `method` (string, `POST`), `body` (object with `policy`, `signature`, `storage_access_key_id`, `security_token`, `key`, `acl`, `success_action_status`), `sample_curl` (string).',
  }, 'the signed upload answer has url, method POST, body (policy, signature, storage_access_key_id, security_token, key, acl, success_action_status) and sample_curl', { endpoint: SIGNED }),
  rule('FILE-2', 'MUST', 'files', { section: 'Files', quote: PATH_PARAMS },
    'every listed entity_type (leads, people, opportunities, companies, projects) is accepted for a signed upload', { endpoint: SIGNED }),
  rule('FILE-3', 'MUST', 'files', {
    section: 'Files',
    quote: 'Step 2 is a multipart form POST to `url` with the form fields `key`, `signature`, `success_action_status`, `acl`, `policy`, `storage_access_key_id`, `x-storage-security-token` (the value of `security_token`) and `file`.',
  }, 'step 2, a multipart POST to url with the listed form fields and a file, is accepted', { endpoint: SIGNED }),
  rule('FILE-4', 'SHOULD', 'files', {
    section: 'Files', quote: 'Step 3 (attaching the uploaded file to the record) and the response to step 2: not shown.',
    reading: 'the form field success_action_status names the status of the answer to step 2, as in the storage POST uploads the signed form follows; the answer itself is not shown, hence SHOULD',
  }, 'step 2 answers the status given in success_action_status', { endpoint: SIGNED }),
  rule('FILE-5', 'MUST', 'files', { section: 'Files', item: FILE, quote: 'GET | `/{entity_type}/{entity_id}/files/{file_id}` | attached file metadata' },
    'GET /{entity_type}/{entity_id}/files/{file_id} answers attached file metadata', { endpoint: FILE }),
  rule('FILE-6', 'SHOULD', 'files', { section: 'Files', quote: PATH_PARAMS, reading: 'an entity_type outside the list is not a valid path: refused (the status is not shown)' },
    'an entity_type outside the listed ones is refused', { endpoint: SIGNED }),
  rule('FILE-7', 'SHOULD', 'files', { section: 'Files', quote: PATH_PARAMS, reading: 'an entity_id or file_id that is not a number is not a valid path: refused (the status is not shown)' },
    'a non-numeric entity_id or file_id is refused', { endpoint: FILE }),
];
