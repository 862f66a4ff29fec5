import { rule, type Rule } from './types.js';

const P5 = 'issue 5 (auth, OAuth, webhooks)';

/** Wire format, account, pipelines, credentials. */
export const generalRules: Rule[] = [
  rule('WIRE-1', 'MUST', 'wire', 'What the service does', 'API responses are JSON bodies with Content-Type application/json'),
  rule('WIRE-2', 'MUST', 'wire', 'What the service does', 'timestamps are integer Unix time in seconds'),
  rule('WIRE-3', 'MUST', 'wire', 'What the service does', 'absent or empty fields are returned as null and lists as [] (never null)'),
  rule('WIRE-4', 'MUST', 'wire', 'Versioning', 'the API is served under the version path segment /developer_api/v1'),
  rule('WIRE-5', 'SHOULD', 'wire', 'Errors', 'malformed or ill-typed input is refused with a 4xx status, never a 5xx or a dropped connection (the spec shows no status)'),

  rule('ACCOUNT-1', 'MUST', 'account', 'Account', 'GET /account answers an Account with id, name, primary_timezone and settings', { endpoint: 'GET /account' }),
  rule('ACCOUNT-2', 'MUST', 'account', 'Account', 'Account settings carry boolean setting_team_permissions_enabled and setting_enable_leads', { endpoint: 'GET /account' }),
  rule('ACCOUNT-3', 'SHOULD', 'account', 'Account', 'primary_timezone is a time zone name the IANA database knows', { endpoint: 'GET /account' }),

  rule('PIPE-1', 'MUST', 'pipelines', 'Pipelines', 'GET /pipelines answers an array of Pipeline', { endpoint: 'GET /pipelines' }),
  rule('PIPE-2', 'MUST', 'pipelines', 'Pipeline', 'a pipeline type is opportunity, project or item and is_revenue is a boolean', { endpoint: 'GET /pipelines' }),
  rule('PIPE-3', 'MUST', 'pipelines', 'Pipeline', 'each stage has an id, a name and a numeric win_probability', { endpoint: 'GET /pipelines' }),
  rule('PIPE-4', 'SHOULD', 'pipelines', 'What the service does', 'pipelines are read only: a write to /pipelines creates nothing', { endpoint: 'GET /pipelines' }),

  rule('AUTH-1', 'MUST', 'auth', 'Header credentials', 'header credentials (X-SVC-AccessToken, X-SVC-Application: developer_api, X-SVC-UserEmail) are accepted'),
  rule('AUTH-2', 'MUST', 'auth', 'OAuth 2.0 authorization code grant', 'Authorization: Bearer <token> is accepted on API calls'),
  rule('AUTH-3', 'MUST', 'auth', 'Header credentials', 'a request without credentials is refused (no 2xx) on every endpoint'),
  rule('AUTH-4', 'MUST', 'auth', 'Header credentials', 'a request with a wrong access token is refused (no 2xx) on every endpoint'),
  rule('AUTH-5', 'SHOULD', 'auth', 'Header credentials', 'header credentials whose X-SVC-UserEmail is not the token owner are refused'),
  rule('AUTH-6', 'MUST', 'auth', 'Header credentials', 'a refused request changes no data'),
  rule('AUTH-7', 'MUST', 'auth', 'OAuth 2.0 authorization code grant', 'a wrong Bearer token is refused (no 2xx)'),
];

export const pendingAuthTable = P5;
