import { rule, type Rule, type Source } from './types.js';

const WHAT = 'What the service does';
const ALL_CARRY = 'All requests to `{base_url}/developer_api/v1` carry the credentials described under Authentication and `Content-Type: application/json`.';
const NOT_SHOWN = 'Status codes for missing records, missing or bad credentials or permissions, and the general error body: not shown.';
const BEARER: Source = { section: 'OAuth 2.0 authorization code grant', item: 'step 7', quote: 'Calls to the API send `Authorization: Bearer <ACCESS_TOKEN>`.' };

/** Wire format, account, pipelines, credentials. */
export const generalRules: Rule[] = [
  rule('WIRE-1', 'MUST', 'wire', { section: WHAT, quote: 'Wire format: JSON bodies (`Content-Type: application/json`) except the OAuth endpoints, which use `application/x-www-form-urlencoded`.' },
    'API responses are JSON bodies with Content-Type application/json'),
  rule('WIRE-2', 'MUST', 'wire', { section: WHAT, quote: 'Timestamps are Unix time in seconds (integers).' }, 'timestamps are integer Unix time in seconds'),
  rule('WIRE-3', 'MUST', 'wire', { section: WHAT, quote: 'Fields that are absent or empty are returned as `null` (lists as `[]`).' },
    'absent or empty fields are returned as null and lists as [] (never null)'),
  rule('WIRE-4', 'MUST', 'wire', { section: 'Versioning', quote: 'The version is the path segment `v1` in `{base_url}/developer_api/v1`.' },
    'the API is served under the version path segment /developer_api/v1'),
  rule('WIRE-5', 'SHOULD', 'wire', {
    section: 'Errors', quote: NOT_SHOWN, rfc: 'RFC 9110 §15.5, §15.6',
    reading: 'the spec shows no status for malformed input; HTTP makes it a client error (4xx), and a 5xx or a dropped connection says the server failed',
  }, 'malformed or ill-typed input is refused with a 4xx status, never a 5xx or a dropped connection (the spec shows no status)'),

  rule('ACCOUNT-1', 'MUST', 'account', { section: 'Account', item: 'GET /account', quote: 'GET | `/account` | none | Account' },
    'GET /account answers an Account with id, name, primary_timezone and settings', { endpoint: 'GET /account' }),
  rule('ACCOUNT-2', 'MUST', 'account', { section: 'Account', item: 'settings', quote: 'settings | object with boolean `setting_team_permissions_enabled`, `setting_enable_leads`' },
    'Account settings carry boolean setting_team_permissions_enabled and setting_enable_leads', { endpoint: 'GET /account' }),
  rule('ACCOUNT-3', 'SHOULD', 'account', {
    section: 'Account', item: 'primary_timezone', quote: 'primary_timezone | string (time zone name)', rfc: 'RFC 6557',
    reading: 'a time zone name is a name of the IANA time zone database (the one RFC 6557 maintains)',
  }, 'primary_timezone is a time zone name the IANA database knows', { endpoint: 'GET /account' }),

  rule('PIPE-1', 'MUST', 'pipelines', { section: 'Pipelines', quote: '`GET /pipelines`: no payload; response is an array of Pipeline.' },
    'GET /pipelines answers an array of Pipeline', { endpoint: 'GET /pipelines' }),
  rule('PIPE-2', 'MUST', 'pipelines', { section: 'Pipeline', item: 'type', quote: 'type | string | `opportunity`, `project` or `item`' },
    'a pipeline type is opportunity, project or item and is_revenue is a boolean (or null: nothing guarantees a value)', { endpoint: 'GET /pipelines' }),
  rule('PIPE-3', 'MUST', 'pipelines', { section: 'Pipeline', item: 'stages', quote: 'each: `id` (identifier), `name` (string), `win_probability` (number)' },
    'each stage has an id; its name is a string and its win_probability a number (each may be null: nothing guarantees a value)', { endpoint: 'GET /pipelines' }),
  rule('PIPE-4', 'SHOULD', 'pipelines', {
    section: WHAT, quote: 'Pipelines (read only)',
    reading: '"read only" is observable as: a write to /pipelines creates no pipeline (how it is refused is not shown)',
  }, 'pipelines are read only: a write to /pipelines creates nothing', { endpoint: 'GET /pipelines' }),

  rule('AUTH-1', 'MUST', 'auth', {
    section: 'Header credentials',
    quote: 'Requests in the endpoint examples carry these headers: `X-SVC-AccessToken: <ACCESS_TOKEN>`, `X-SVC-Application: developer_api`, `X-SVC-UserEmail: <EMAIL>` (the e-mail of the user that owns the token), `Content-Type: application/json`.',
  }, 'header credentials (X-SVC-AccessToken, X-SVC-Application: developer_api, X-SVC-UserEmail) are accepted'),
  rule('AUTH-2', 'MUST', 'auth', BEARER, 'Authorization: Bearer <token> is accepted on API calls'),
  rule('AUTH-3', 'MUST', 'auth', {
    section: 'Endpoints', quote: ALL_CARRY,
    reading: 'requests must carry credentials, so one without them is refused (no 2xx); the status is not shown (§ Errors)',
  }, 'a request without credentials is refused (no 2xx) on every endpoint'),
  rule('AUTH-4', 'MUST', 'auth', {
    section: 'Endpoints', quote: ALL_CARRY,
    reading: 'credentials with a token the service did not issue are no credentials: refused (no 2xx); the status is not shown (§ Errors)',
  }, 'a request with a wrong access token is refused (no 2xx) on every endpoint'),
  rule('AUTH-5', 'SHOULD', 'auth', {
    section: 'Header credentials', quote: '`X-SVC-UserEmail: <EMAIL>` (the e-mail of the user that owns the token)',
    reading: 'the e-mail names the token owner, so another e-mail with the token is refused; SHOULD, since the spec does not say the service checks it',
  }, 'header credentials whose X-SVC-UserEmail is not the token owner are refused'),
  rule('AUTH-6', 'MUST', 'auth', {
    section: 'Endpoints', quote: ALL_CARRY,
    reading: 'a request refused for its credentials was not served: it changes no data',
  }, 'a refused request changes no data'),
  rule('AUTH-7', 'MUST', 'auth', { ...BEARER, rfc: 'RFC 6750 §3.1', reading: 'a Bearer token the service did not issue is refused (no 2xx), as RFC 6750 §3.1 (invalid_token) has it' },
    'a wrong Bearer token is refused (no 2xx)'),
];
