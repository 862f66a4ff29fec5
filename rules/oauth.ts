import { rule, type Rule } from './types.js';

const o = (id: string, level: 'MUST' | 'SHOULD' | 'MAY', text: string, extra: Partial<Rule> = {}) =>
  rule(id, level, 'oauth', 'OAuth 2.0 authorization code grant', text, extra);

/** OAuth 2.0 authorization code grant. */
export const oauthRules: Rule[] = [
  o('OAUTH-1', 'MUST', 'an authorization request whose response_type is not code fails (error to the callback or an error page)', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-2', 'MUST', 'an authorization request whose scope is not developer/v1/all fails', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-3', 'MUST', 'the user logs in and sees a screen naming the application and its permissions, with Authorize and Deny', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-4', 'MUST', 'after Authorize the user is sent to redirect_uri by a POST whose payload has code', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-5', 'MUST', 'state is forwarded unchanged to the callback', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-6', 'MUST', 'after Deny the callback receives a POST with error and no code', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-7', 'MUST', 'a token request whose grant_type is not authorization_code fails', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-8', 'MUST', 'a token request with a wrong client_secret fails', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-9', 'SHOULD', 'a token request whose redirect_uri differs from the authorization request fails (RFC 6749 §4.1.3)', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-10', 'MUST', 'the token answer is JSON with access_token, token_type exactly Bearer, and scope', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-11', 'MUST', 'the access token works as Authorization: Bearer on the API', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-12', 'SHOULD', 'an authorization code exchanged once cannot be exchanged again (RFC 6749 §4.1.2)', { endpoint: 'POST /oauth/token' }),
  o('OAUTH-13', 'SHOULD', 'a user already logged in is not asked to log in again', { endpoint: 'GET /oauth/authorize' }),
  o('OAUTH-14', 'MUST', 'access tokens do not expire', { untestable: 'expiry cannot be observed within a bounded run; OAUTH-11 checks the token works when issued' }),
  o('OAUTH-15', 'SHOULD', 'an authorization request with an unknown client_id fails', { endpoint: 'GET /oauth/authorize' }),

];
