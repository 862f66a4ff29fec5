/**
 * Open choices of the OAuth 2.0 authorization code grant (spec § Authentication).
 * Usage: see rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const OAUTH_CHOICES = defineChoices([
  {
    id: 'oauth.login-steps',
    section: 'OAuth 2.0 authorization code grant',
    source: '2. The user logs in (skipped if already logged in) … (how the login screen asks for the e-mail and password: not shown)',
    alternatives: [
      { name: 'one-page', description: 'e-mail and password on one page, with Log in' },
      { name: 'email-first', description: 'the e-mail alone with Next, then the password on a page of its own with Log in' },
    ],
  },
  {
    id: 'oauth.state-place',
    section: 'OAuth 2.0 authorization code grant',
    source: 'state | no | user-defined metadata forwarded to the callback (where in the POST to redirect_uri: not shown; "the payload has `code`")',
    alternatives: [
      { name: 'form', description: 'state is a field of the form posted to redirect_uri, beside code or error' },
      { name: 'query', description: 'state is in the query of the URL the form is posted to; code or error in the form' },
    ],
  },
  {
    id: 'oauth.request-error',
    section: 'OAuth 2.0 authorization code grant',
    source: 'On success the payload has `code`; on denial or failure it has `error` instead. (When a request with a bad response_type or scope fails: not shown.)',
    alternatives: [
      { name: 'redirect-error', description: 'a bad response_type or scope is returned to the callback at once (POST with error and state)' },
      { name: 'error-page', description: 'a bad response_type or scope shows an HTML error page (400)' },
    ],
  },
  {
    id: 'oauth.after-login',
    section: 'OAuth 2.0 authorization code grant',
    source: 'The user logs in (skipped if already logged in) and sees a screen that names the application and its permissions, with Authorize and Deny. (How the login leads to that screen: not shown.)',
    alternatives: [
      { name: 'redirect-to-authorize', description: 'the login answers a redirect back to the authorization request, which now finds the session' },
      { name: 'consent-at-once', description: 'the login answers the consent screen itself' },
    ],
  },
  {
    id: 'oauth.login-failure-status',
    section: 'OAuth 2.0 authorization code grant',
    source: 'The user logs in (skipped if already logged in) … (a failed login: not shown)',
    alternatives: [
      { name: '200', description: 'a wrong password shows the login page again with 200' },
      { name: '401', description: 'a wrong password shows the login page again with 401' },
    ],
  },
  {
    id: 'oauth.denial-error',
    section: 'OAuth 2.0 authorization code grant',
    source: 'The list of error codes returned in `error`: not shown.',
    alternatives: [
      { name: 'access_denied', description: 'denial sends error=access_denied' },
      { name: 'consent_denied', description: 'denial sends error=consent_denied' },
    ],
  },
  {
    id: 'oauth.token-error',
    section: 'OAuth 2.0 authorization code grant',
    source: 'The list of error codes returned in `error`: not shown. (The token endpoint\'s error answers: not shown.)',
    alternatives: [
      { name: 'rfc6749', description: '{ error, error_description } with 400 or 401 (RFC 6749 § 5.2)' },
      { name: 'errors-list', description: '{ errors: [{ code }] } with 400 or 403' },
    ],
  },
  {
    id: 'oauth.formats',
    section: 'OAuth 2.0 authorization code grant',
    source: 'Token response (JSON): `access_token` (string) … (formats of codes, tokens and session cookies: not shown)',
    alternatives: [
      { name: 'prefixed-hex', description: 'codes ref-code-<hex>, tokens ref-oauth-token-<hex>, cookie ref_oauth_session' },
      { name: 'opaque', description: 'codes and tokens base64url (tokens rt_…), cookie __ref_auth' },
    ],
  },
]);
