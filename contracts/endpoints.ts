/**
 * Every endpoint of the specification, as data: the OpenAPI export and the table-driven
 * credentials specs are built from this list.
 */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path relative to `{base_url}/developer_api/v1` (API) or to `{auth_url}` (OAuth), with `{param}`s. */
  path: string;
  host: 'api' | 'auth';
  area: string;
  /** Name of the request-body contract in contracts/index.ts, if any. */
  request?: string;
  /** Name of the response contract in contracts/index.ts. */
  response?: string;
  /** Form-urlencoded request (OAuth). */
  form?: boolean;
  /** A body that is valid enough to reach the handler when sent with credentials. */
  sampleBody?: unknown;
  /** Spec section heading. */
  section: string;
}

export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/account', host: 'api', area: 'account', response: 'Account', section: 'Account' },
  {
    method: 'POST',
    path: '/leads/{lead_id}/convert',
    host: 'api',
    area: 'convert',
    request: 'LeadConvert',
    response: 'ConvertResponse',
    sampleBody: { details: { person: { name: 'x' } } },
    section: 'Lead conversion',
  },
  {
    method: 'PUT',
    path: '/leads/upsert',
    host: 'api',
    area: 'upsert',
    request: 'LeadUpsert',
    response: 'Lead',
    sampleBody: { properties: { name: 'x' }, match: { field_name: 'name', field_value: 'x' } },
    section: 'Lead upsert',
  },
  { method: 'POST', path: '/people', host: 'api', area: 'people', request: 'PersonCreate', response: 'Person', sampleBody: { name: 'x' }, section: 'People' },
  {
    method: 'POST',
    path: '/companies',
    host: 'api',
    area: 'companies',
    request: 'CompanyCreate',
    response: 'Company',
    sampleBody: { name: 'x' },
    section: 'Companies',
  },
  { method: 'GET', path: '/companies/{company_id}', host: 'api', area: 'companies', response: 'Company', section: 'Companies' },
  {
    method: 'POST',
    path: '/companies/{company_id}/activities',
    host: 'api',
    area: 'companies',
    request: 'CompanyActivitiesQuery',
    response: 'ActivityList',
    sampleBody: { activity_types: [] },
    section: 'Companies',
  },
  { method: 'GET', path: '/activities/{activity_id}', host: 'api', area: 'activities', response: 'Activity', section: 'Activities' },
  {
    method: 'PUT',
    path: '/activities/{activity_id}',
    host: 'api',
    area: 'activities',
    request: 'ActivityUpdate',
    response: 'Activity',
    sampleBody: { activity_date: 1700000000, details: 'x' },
    section: 'Activities',
  },
  {
    method: 'POST',
    path: '/projects',
    host: 'api',
    area: 'projects',
    request: 'ProjectCreate',
    response: 'Project',
    sampleBody: { name: 'x' },
    section: 'Projects',
  },
  {
    method: 'POST',
    path: '/projects/search',
    host: 'api',
    area: 'search',
    request: 'ProjectSearch',
    response: 'ProjectList',
    sampleBody: {},
    section: 'Projects',
  },
  { method: 'POST', path: '/tasks/search', host: 'api', area: 'search', request: 'TaskSearch', response: 'TaskList', sampleBody: {}, section: 'Tasks' },
  { method: 'GET', path: '/pipelines', host: 'api', area: 'pipelines', response: 'PipelineList', section: 'Pipelines' },
  {
    method: 'POST',
    path: '/opportunities/bulk_create',
    host: 'api',
    area: 'bulk',
    request: 'BulkCreate',
    sampleBody: { opportunities: [] },
    section: 'Bulk create of Opportunities',
  },
  { method: 'GET', path: '/{entity_type}/{entity_id}/files/s3_signed_url', host: 'api', area: 'files', response: 'SignedUpload', section: 'Files' },
  { method: 'GET', path: '/{entity_type}/{entity_id}/files/{file_id}', host: 'api', area: 'files', response: 'FileMetadata', section: 'Files' },
  {
    method: 'DELETE',
    path: '/{entity}/{entity_id}/related',
    host: 'api',
    area: 'relationships',
    request: 'RelationshipRemove',
    response: 'RelationshipRemoved',
    sampleBody: { resource: { id: 1, type: 'company' } },
    section: 'Relationships',
  },
  {
    method: 'POST',
    path: '/webhooks',
    host: 'api',
    area: 'webhooks',
    request: 'WebhookCreate',
    response: 'WebhookSubscription',
    sampleBody: { target: 'https://example.invalid/hook', type: 'lead', event: 'new' },
    section: 'Webhook subscriptions',
  },
  { method: 'GET', path: '/webhooks/{webhook_id}', host: 'api', area: 'webhooks', response: 'WebhookSubscription', section: 'Webhook subscriptions' },
  { method: 'DELETE', path: '/webhooks/{webhook_id}', host: 'api', area: 'webhooks', response: 'WebhookDeleted', section: 'Webhook subscriptions' },
  { method: 'GET', path: '/oauth/authorize', host: 'auth', area: 'oauth', request: 'AuthorizeParams', section: 'OAuth 2.0 authorization code grant' },
  {
    method: 'POST',
    path: '/oauth/token',
    host: 'auth',
    area: 'oauth',
    request: 'TokenRequest',
    response: 'TokenResponse',
    form: true,
    section: 'OAuth 2.0 authorization code grant',
  },
];

/** API endpoints only (credentials apply to these). */
export const API_ENDPOINTS = ENDPOINTS.filter((e) => e.host === 'api');
