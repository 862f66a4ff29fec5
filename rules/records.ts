import { rule, type Rule } from './types.js';

/** People, companies, activities, projects, relationships, files. */
export const recordRules: Rule[] = [
  rule('PEOPLE-1', 'MUST', 'people', 'People', 'POST /people answers a Person', { endpoint: 'POST /people' }),
  rule('PEOPLE-2', 'MUST', 'people', 'People', 'the name, emails, address and phone_numbers sent come back on the created Person', { endpoint: 'POST /people' }),
  rule('PEOPLE-3', 'MUST', 'people', 'What the service does', 'fields not sent come back as null and lists as []', { endpoint: 'POST /people' }),
  rule('PEOPLE-4', 'MUST', 'people', 'Shared shapes', 'person create returns computed custom field values: option names instead of option ids', { endpoint: 'POST /people' }),

  rule('COMPANY-1', 'MUST', 'companies', 'Companies', 'POST /companies answers a Company carrying the fields sent', { endpoint: 'POST /companies' }),
  rule('COMPANY-2', 'MUST', 'companies', 'Companies', 'GET /companies/{id} answers the Company as created', { endpoint: 'GET /companies/{company_id}' }),
  rule('COMPANY-3', 'MUST', 'companies', 'Company', 'primary_contact_id is present on create and fetch responses', { endpoint: 'GET /companies/{company_id}' }),
  rule('COMPANY-4', 'MUST', 'companies', 'Companies', 'POST /companies/{id}/activities answers an array of Activity whose parent is that Company', { endpoint: 'POST /companies/{company_id}/activities' }),
  rule('COMPANY-5', 'MUST', 'companies', 'Companies', 'the activity_types filter returns only activities of the requested kinds', { endpoint: 'POST /companies/{company_id}/activities' }),
  rule('COMPANY-6', 'MUST', 'companies', 'What the service does', 'on company create, fields not sent come back as null and lists as []', { endpoint: 'POST /companies' }),

  rule('ACT-1', 'MUST', 'activities', 'Activities', 'GET /activities/{id} answers an Activity', { endpoint: 'GET /activities/{activity_id}' }),
  rule('ACT-2', 'MUST', 'activities', 'Activities', 'PUT /activities/{id} with activity_date and details answers the updated Activity', { endpoint: 'PUT /activities/{activity_id}' }),
  rule('ACT-3', 'MUST', 'activities', 'Activities', 'an activity update is visible on a later GET', { endpoint: 'PUT /activities/{activity_id}' }),

  rule('REL-1', 'MUST', 'relationships', 'Relationships', 'DELETE /{entity}/{id}/related answers { removed: boolean, resource: { id, type } }', { endpoint: 'DELETE /{entity}/{entity_id}/related' }),
  rule('REL-2', 'MUST', 'relationships', 'Relationships', 'removing a relationship deletes neither record', { endpoint: 'DELETE /{entity}/{entity_id}/related' }),
  rule('REL-3', 'MUST', 'relationships', 'Relationships', 'the answer names the resource whose relationship was removed', { endpoint: 'DELETE /{entity}/{entity_id}/related' }),
  rule('REL-4', 'MUST', 'relationships', 'States and transitions', 'after DELETE /{entity}/{id}/related the relationship no longer exists (a Project related to the Person no longer names it)', { endpoint: 'DELETE /{entity}/{entity_id}/related' }),

  rule('FILE-1', 'MUST', 'files', 'Files', 'the signed upload answer has url, method POST, body (policy, signature, storage_access_key_id, security_token, key, acl, success_action_status) and sample_curl', { endpoint: 'GET /{entity_type}/{entity_id}/files/s3_signed_url' }),
  rule('FILE-2', 'MUST', 'files', 'Files', 'every listed entity_type (leads, people, opportunities, companies, projects) is accepted for a signed upload', { endpoint: 'GET /{entity_type}/{entity_id}/files/s3_signed_url' }),
  rule('FILE-3', 'MUST', 'files', 'Files', 'step 2, a multipart POST to url with the listed form fields and a file, is accepted', { endpoint: 'GET /{entity_type}/{entity_id}/files/s3_signed_url' }),
  rule('FILE-4', 'SHOULD', 'files', 'Files', 'step 2 answers the status given in success_action_status', { endpoint: 'GET /{entity_type}/{entity_id}/files/s3_signed_url' }),
  rule('FILE-5', 'MUST', 'files', 'Files', 'GET /{entity_type}/{entity_id}/files/{file_id} answers attached file metadata', { endpoint: 'GET /{entity_type}/{entity_id}/files/{file_id}' }),
  rule('FILE-6', 'SHOULD', 'files', 'Files', 'an entity_type outside the listed ones is refused', { endpoint: 'GET /{entity_type}/{entity_id}/files/s3_signed_url' }),
  rule('FILE-7', 'SHOULD', 'files', 'Files', 'a non-numeric entity_id or file_id is refused', { endpoint: 'GET /{entity_type}/{entity_id}/files/{file_id}' }),
];
