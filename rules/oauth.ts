import { rule, type Level, type Rule, type Source } from './types.js';

const SECTION = 'OAuth 2.0 authorization code grant';
const AUTHORIZE = { endpoint: 'GET /oauth/authorize' };
const TOKEN = { endpoint: 'POST /oauth/token' };
const o = (id: string, level: Level, source: Omit<Source, 'section'>, text: string, extra: Partial<Rule> = {}) =>
  rule(id, level, 'oauth', { section: SECTION, ...source }, text, extra);

const STEP2 = 'The user logs in (skipped if already logged in) and sees a screen that names the application and its permissions, with Authorize and Deny.';
const STEP4 = 'Token request: `POST {auth_url}/oauth/token`, `Content-Type: application/x-www-form-urlencoded`, parameters `grant_type` (must be `authorization_code`), `code`, `redirect_uri`, `client_id`, `client_secret`.';

/**
 * OAuth 2.0 authorization code grant. The OAUTH ids do not follow the steps 1-7 of the section
 * (ids are never renumbered): `source.item` names the step of each rule.
 */
export const oauthRules: Rule[] = [
  o('OAUTH-1', 'MUST', { item: 'step 1, response_type', quote: 'response_type | yes | must be `code`', reading: 'a request that breaks the "must" fails: an error to the callback or an error page, never a code' },
    'an authorization request whose response_type is not code fails (error to the callback or an error page)', AUTHORIZE),
  o('OAUTH-2', 'MUST', { item: 'step 1, scope', quote: 'scope | yes | must be `developer/v1/all`', reading: 'a request that breaks the "must" fails, never a code' },
    'an authorization request whose scope is not developer/v1/all fails', AUTHORIZE),
  o('OAUTH-3', 'MUST', { item: 'step 2', quote: STEP2 }, 'the user logs in and sees a screen naming the application and its permissions, with Authorize and Deny', AUTHORIZE),
  o('OAUTH-4', 'MUST', { item: 'step 3', quote: 'The user is sent to `redirect_uri` by a POST. On success the payload has `code`' },
    'after Authorize the user is sent to redirect_uri by a POST whose payload has code', AUTHORIZE),
  o('OAUTH-5', 'MUST', { item: 'step 1, state', quote: 'state | no | user-defined metadata forwarded to the callback' }, 'state is forwarded unchanged to the callback', AUTHORIZE),
  o('OAUTH-6', 'MUST', { item: 'step 3', quote: 'on denial or failure it has `error` instead.' }, 'after Deny the callback receives a POST with error and no code', AUTHORIZE),
  o('OAUTH-7', 'MUST', { item: 'step 4', quote: STEP4 }, 'a token request whose grant_type is not authorization_code fails', TOKEN),
  o('OAUTH-8', 'MUST', {
    item: 'step 4', quote: STEP4, rfc: 'RFC 6749 §5.2',
    reading: 'the token request authenticates the client with client_secret: a wrong secret fails (invalid_client in RFC 6749 §5.2)',
  }, 'a token request with a wrong client_secret fails', TOKEN),
  o('OAUTH-9', 'SHOULD', {
    item: 'step 4', quote: STEP4, rfc: 'RFC 6749 §4.1.3',
    reading: 'the spec lists redirect_uri among the token parameters but does not say it must match; RFC 6749 §4.1.3 requires it to be identical to the one of the authorization request, hence SHOULD',
  }, 'a token request whose redirect_uri differs from the authorization request fails (RFC 6749 §4.1.3)', TOKEN),
  o('OAUTH-10', 'MUST', { item: 'step 5', quote: 'Token response (JSON): `access_token` (string), `token_type` (always `Bearer`), `scope` (the granted scope).' },
    'the token answer is JSON with access_token, token_type exactly Bearer, and scope', TOKEN),
  o('OAUTH-11', 'MUST', { item: 'step 7', quote: 'Calls to the API send `Authorization: Bearer <ACCESS_TOKEN>`.' }, 'the access token works as Authorization: Bearer on the API', TOKEN),
  o('OAUTH-12', 'SHOULD', {
    item: 'step 6', quote: 'The authorization code may be discarded after the exchange.', rfc: 'RFC 6749 §4.1.2',
    reading: 'the spec only allows discarding the code; RFC 6749 §4.1.2 says a code used twice must be refused, hence SHOULD',
  }, 'an authorization code exchanged once cannot be exchanged again (RFC 6749 §4.1.2)', TOKEN),
  o('OAUTH-13', 'SHOULD', { item: 'step 2', quote: 'The user logs in (skipped if already logged in)' }, 'a user already logged in is not asked to log in again', AUTHORIZE),
  o('OAUTH-14', 'MUST', { item: 'step 6', quote: 'Access tokens do not expire and are not refreshed.' }, 'access tokens do not expire',
    { untestable: 'expiry cannot be observed within a bounded run; OAUTH-11 checks the token works when issued' }),
  o('OAUTH-15', 'SHOULD', {
    item: 'step 1, client_id', quote: "client_id | yes | the application's client id", rfc: 'RFC 6749 §4.1.2.1',
    reading: 'a client_id the service does not know names no application: the request fails and no code is issued (RFC 6749 §4.1.2.1); not stated by the spec, hence SHOULD',
  }, 'an authorization request with an unknown client_id fails', AUTHORIZE),
];
