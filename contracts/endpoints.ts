/**
 * Every endpoint of the specification, as data: the OpenAPI export (contracts/openapi.ts) and the
 * table-driven credentials specs (specs/authentication/every-endpoint.spec.ts) are built from this
 * list, so everything the spec shows of an endpoint is said here once, the answers beyond its
 * success contract and the requests it makes the server send included.
 * selftest/endpoints.unit.test.ts holds it to the reference server's routes.
 */

/** An answer the spec shows beyond the success contract (spec § Errors, § Limits), or the only one. */
export interface ShownAnswer {
  description: string;
  /** The contracts of its JSON body (contracts/index.ts): one, or any of several; none ⇒ the body is not shown. */
  contracts?: string[];
  /** The body is a list of those. */
  list?: boolean;
  /** An HTML page rather than JSON. */
  html?: boolean;
}

/** A request the server sends because of this one (OpenAPI callback): OAuth's return to redirect_uri, a webhook notification. */
export interface ShownCallback {
  name: string;
  /** Where it goes, as an OpenAPI runtime expression, e.g. `{$request.body#/target}`. */
  to: string;
  summary: string;
  /** The contracts its body may match (any of them); none ⇒ its payload is not shown. */
  contracts?: string[];
  /** Form-urlencoded rather than JSON. */
  form?: boolean;
}

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
  /** Answers shown beyond the success contract, by status (or `default`). */
  answers?: Record<string, ShownAnswer>;
  callbacks?: ShownCallback[];
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
    answers: {
      422: {
        description: 'More than one Lead matches: the body includes the ids of the matching Leads; more than 30 matches: no ids. Exact body shape: not shown.',
        contracts: ['UpsertConflict'],
      },
    },
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
    answers: {
      200: {
        description: 'One entry per request entry, in the same order: the created Opportunity (numeric `id`) or a failed entry.',
        contracts: ['BulkOpportunity', 'BulkFailedEntry'],
        list: true,
      },
      422: {
        description: 'More than 10 entries: `{ error: <message> }` stating that the request is too large and the limit is 10.',
        contracts: ['BulkTooLarge'],
      },
      429: { description: 'More than 3 bulk requests per second (may be answered). Body: not stated.' },
    },
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
    answers: { 422: { description: 'Invalid target URL: `{ success: false, status: 422, message }`.', contracts: ['WebhookInvalid'] } },
    callbacks: [
      {
        name: 'notification',
        to: '{$request.body#/target}',
        summary: 'A notification for the subscribed type and event; the subscription `secret` is sent unchanged. Payload: not shown.',
      },
    ],
  },
  { method: 'GET', path: '/webhooks/{webhook_id}', host: 'api', area: 'webhooks', response: 'WebhookSubscription', section: 'Webhook subscriptions' },
  { method: 'DELETE', path: '/webhooks/{webhook_id}', host: 'api', area: 'webhooks', response: 'WebhookDeleted', section: 'Webhook subscriptions' },
  {
    method: 'GET',
    path: '/oauth/authorize',
    host: 'auth',
    area: 'oauth',
    request: 'AuthorizeParams',
    section: 'OAuth 2.0 authorization code grant',
    answers: {
      default: {
        description:
          'The login screen (skipped when already logged in) and the consent screen naming the application, with Authorize and Deny; the user is then sent to `redirect_uri` by a POST.',
        html: true,
      },
    },
    callbacks: [
      {
        name: 'authorizationResult',
        to: '{$request.query.redirect_uri}',
        summary: 'The user is sent to redirect_uri by a POST: `code` on success, `error` on denial or failure (with `state` when given).',
        contracts: ['CallbackSuccess', 'CallbackError'],
        form: true,
      },
    ],
  },
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
