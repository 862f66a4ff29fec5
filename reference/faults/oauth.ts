/**
 * Faults of the OAuth authorization host (reference/routes/oauth.ts). How they hook in:
 * reference/faults/types.ts.
 */
import type { Reply } from '../http.js';
import { OAUTH_SCOPE, type CallbackOutcome, type CodeGrant, type OAuthParam } from '../routes/oauth.js';
import type { Fault, Presented } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Does this request parameter pass its check (`value`: as sent; undefined when left out or repeated)? */
    'oauth.accepts': { value: boolean; ctx: { param: OAuthParam; value: string | undefined } };
    /** Is client_id the registered client? */
    'oauth.known-client': { value: boolean; ctx: { id: string } };
    /** The session an authorization request finds (undefined: none). */
    'oauth.session': { value: string | undefined; ctx: undefined };
    /** The session cookie the consent form's post carries (undefined: none). */
    'oauth.decision-session': { value: string | undefined; ctx: undefined };
    /** After a login: back to the authorization request, or the consent screen at once. */
    'oauth.after-login': { value: string; ctx: undefined };
    /** The application name on the consent screen. */
    'oauth.application-name': { value: string; ctx: undefined };
    /** Did the user authorize (the Authorize button)? */
    'oauth.authorized': { value: boolean; ctx: undefined };
    /** Is the authorization code already exchanged? */
    'oauth.code-spent': { value: boolean; ctx: undefined };
    /** The grant of the token request's code (undefined: no such code, or none sent). */
    'oauth.code-grant': { value: CodeGrant | undefined; ctx: { code: string | undefined; clientId: string; redirectUri: string | undefined } };
    /** The fields sent back to redirect_uri, and what they report. */
    'oauth.callback-fields': { value: [string, string][]; ctx: { outcome: CallbackOutcome } };
    /** The answer that returns the user to redirect_uri (a page that POSTs the fields). */
    'oauth.back-to-client': { value: Reply; ctx: { redirectUri: string; entries: [string, string][] } };
  }
  interface SeamPoints {
    /** An issued access token becomes valid on the API. */
    'oauth.register-token': { token: string };
  }
}

const TOKEN = 'POST /oauth/token';
const ok = (res: Presented) => res.status >= 200 && res.status < 300;
/** The `error` of a refused token request's JSON body, if any. */
const errorOf = (res: Presented) => (!ok(res) && res.body && typeof res.body === 'object' ? (res.body as { error?: unknown }).error : undefined);
/** A grant for a code the server never issued: what a token endpoint that does not look the code up acts on. */
const madeUpGrant = (clientId: string, redirectUri: string | undefined): CodeGrant => ({
  clientId,
  redirectUri: redirectUri ?? '',
  scope: OAUTH_SCOPE,
  user: 'nobody',
  expires: Date.now() + 60_000,
  used: false,
});
/** The callback's fields with those of `outcome` changed by `change`. */
const onOutcome =
  (outcome: CallbackOutcome, change: (entries: [string, string][]) => [string, string][]) =>
  (entries: [string, string][], ctx: { outcome: CallbackOutcome }) => (ctx.outcome === outcome ? change(entries) : entries);
const skips = (name: string, param: OAuthParam, rules: string[], description: string): Fault => ({
  name,
  rules,
  description,
  at: { 'oauth.accepts': (accepted, ctx) => accepted || ctx.param === param },
});

export const OAUTH_FAULTS: Fault[] = [
  skips('oauth-response-type-not-checked', 'response_type', ['OAUTH-1'], 'the authorization endpoint ignores response_type and issues a code for any value'),
  skips('oauth-scope-not-checked', 'scope', ['OAUTH-2'], 'the authorization endpoint ignores scope and issues a code for any value'),
  {
    name: 'oauth-response-type-optional',
    rules: ['OAUTH-1'],
    description: 'the authorization endpoint checks response_type only when the request has one: without it, a code is issued',
    at: { 'oauth.accepts': (accepted, ctx) => accepted || (ctx.param === 'response_type' && ctx.value === undefined) },
  },
  {
    name: 'oauth-scope-optional',
    rules: ['OAUTH-2'],
    description: 'the authorization endpoint checks scope only when the request has one: without it, a code is issued',
    at: { 'oauth.accepts': (accepted, ctx) => accepted || (ctx.param === 'scope' && ctx.value === undefined) },
  },
  {
    name: 'oauth-consent-missing-app-name',
    rules: ['OAUTH-3'],
    description: 'the consent screen says "An application" instead of naming it',
    at: { 'oauth.application-name': () => 'An application' },
  },
  {
    name: 'oauth-callback-by-get',
    rules: ['OAUTH-4', 'OAUTH-6'],
    description: 'the return to redirect_uri is a 302 redirect (GET with the code, or the error, in the query) instead of a POST',
    at: {
      'oauth.back-to-client': (_page, { redirectUri, entries }) => {
        const u = new URL(redirectUri);
        for (const [k, val] of entries) u.searchParams.set(k, val);
        return { status: 302, raw: '', headers: { location: u.toString(), 'cache-control': 'no-store' } };
      },
    },
  },
  {
    name: 'oauth-consent-forgets-login',
    rules: ['OAUTH-4', 'OAUTH-6'],
    description:
      "the consent form's post finds no login session (its cookie scoped to the screens' path, say): Authorize and Deny show the login page again, and nothing reaches the callback",
    at: { 'oauth.decision-session': () => undefined },
  },
  {
    name: 'oauth-state-dropped',
    rules: ['OAUTH-5'],
    description: 'state is not forwarded to the callback',
    at: { 'oauth.callback-fields': (entries) => entries.filter(([k]) => k !== 'state') },
  },
  {
    name: 'oauth-denial-state-dropped',
    rules: ['OAUTH-5'],
    description: 'state is forwarded with a code but dropped when the user denies (the error callback carries error alone)',
    at: { 'oauth.callback-fields': onOutcome('denied', (entries) => entries.filter(([k]) => k !== 'state')) },
  },
  {
    name: 'oauth-request-error-state-dropped',
    rules: ['OAUTH-5'],
    description: 'a failed authorization request (bad response_type or scope) returned to the callback does not carry state',
    at: { 'oauth.callback-fields': onOutcome('failed', (entries) => entries.filter(([k]) => k !== 'state')) },
  },
  {
    name: 'oauth-request-error-empty',
    rules: ['OAUTH-6'],
    description: 'a failed authorization request returned to the callback carries an empty error (error=)',
    at: { 'oauth.callback-fields': onOutcome('failed', (entries) => entries.map(([k, v]) => [k, k === 'error' ? '' : v])) },
  },
  {
    name: 'oauth-deny-returns-code',
    rules: ['OAUTH-6'],
    description: 'Deny is handled like Authorize: the callback receives a code',
    at: { 'oauth.authorized': () => true },
  },
  skips('oauth-grant-type-not-checked', 'grant_type', ['OAUTH-7'], 'the token endpoint ignores grant_type'),
  skips('oauth-secret-not-checked', 'client_secret', ['OAUTH-8'], 'the token endpoint accepts any client_secret'),
  {
    name: 'oauth-token-redirect-uri-not-checked',
    rules: ['OAUTH-9'],
    description: 'the token endpoint does not compare redirect_uri with the authorization request (it only requires one)',
    at: { 'oauth.accepts': (accepted, ctx) => accepted || (ctx.param === 'redirect_uri' && ctx.value !== undefined) },
  },
  {
    name: 'oauth-token-redirect-uri-optional',
    rules: ['OAUTH-17'],
    description: 'the token endpoint compares redirect_uri only when the request has one: a token request without it is granted',
    at: { 'oauth.accepts': (accepted, ctx) => accepted || (ctx.param === 'redirect_uri' && ctx.value === undefined) },
  },
  {
    name: 'oauth-token-any-code',
    rules: ['OAUTH-18'],
    description: 'the token endpoint does not look the code up: a code it never issued is exchanged for a token',
    at: { 'oauth.code-grant': (grant, { code, clientId, redirectUri }) => grant ?? (code !== undefined ? madeUpGrant(clientId, redirectUri) : undefined) },
  },
  {
    name: 'oauth-token-code-optional',
    rules: ['OAUTH-18'],
    description: 'the token endpoint checks the code only when the request has one: a token request without code is granted',
    at: { 'oauth.code-grant': (grant, { code, clientId, redirectUri }) => grant ?? (code === undefined ? madeUpGrant(clientId, redirectUri) : undefined) },
  },
  {
    name: 'oauth-token-error-html',
    rules: ['OAUTH-16'],
    description: "a refused token request is answered with the framework's HTML error page (its status kept) instead of JSON",
    routes: [
      {
        route: TOKEN,
        host: 'auth',
        respond: (res) =>
          ok(res)
            ? res
            : {
                status: res.status,
                raw: `<!doctype html><html><head><title>Error ${res.status}</title></head><body><h1>Bad Request</h1></body></html>`,
                headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
              },
      },
    ],
  },
  {
    name: 'oauth-token-client-error-403',
    rules: ['OAUTH-16'],
    description: 'a failed client authentication (invalid_client) is answered 403 instead of 400 or 401',
    routes: [{ route: TOKEN, host: 'auth', respond: (res) => (errorOf(res) === 'invalid_client' ? { ...res, status: 403 } : res) }],
  },
  {
    name: 'oauth-token-error-custom-code',
    rules: ['OAUTH-16'],
    description: 'a bad, spent or foreign code is answered with error "bad_verification_code", a code RFC 6749 § 5.2 does not define, instead of invalid_grant',
    routes: [
      {
        route: TOKEN,
        host: 'auth',
        respond: (res) => (errorOf(res) === 'invalid_grant' ? { ...res, body: { ...(res.body as object), error: 'bad_verification_code' } } : res),
      },
    ],
  },
  {
    name: 'oauth-token-type-lowercase',
    rules: ['OAUTH-10'],
    description: 'the token answer says token_type "bearer" (lower case)',
    routes: [{ route: TOKEN, host: 'auth', respond: (res) => (ok(res) ? { ...res, body: { ...(res.body as object), token_type: 'bearer' } } : res) }],
  },
  {
    name: 'oauth-token-form-encoded',
    rules: ['OAUTH-10'],
    description: 'the token endpoint answers application/x-www-form-urlencoded instead of JSON',
    routes: [
      {
        route: TOKEN,
        host: 'auth',
        respond: (res) =>
          ok(res)
            ? {
                status: res.status,
                raw: new URLSearchParams(Object.entries(res.body as object).map(([k, x]) => [k, String(x)])).toString(),
                headers: { ...res.headers, 'content-type': 'application/x-www-form-urlencoded' },
              }
            : res,
      },
    ],
  },
  {
    name: 'oauth-token-cacheable',
    rules: ['OAUTH-19'],
    description: 'the token answer carries no Cache-Control header, so a cache on the way may keep the token',
    routes: [
      {
        route: TOKEN,
        host: 'auth',
        respond: (res) => (ok(res) ? { ...res, headers: Object.fromEntries(Object.entries(res.headers ?? {}).filter(([k]) => k !== 'cache-control')) } : res),
      },
    ],
  },
  {
    name: 'oauth-token-not-accepted',
    rules: ['OAUTH-11'],
    description: 'issued access tokens are not registered with the API, which refuses them',
    seam: { 'oauth.register-token': () => undefined as never },
  },
  {
    name: 'oauth-code-reusable',
    rules: ['OAUTH-12'],
    description: 'authorization codes can be exchanged more than once',
    at: { 'oauth.code-spent': () => false },
  },
  {
    name: 'oauth-login-every-time',
    rules: ['OAUTH-13'],
    description: 'the authorization request ignores the session: a user already logged in must log in again',
    // Its authorization requests never see the session, so a login goes to the consent screen at once.
    at: { 'oauth.session': () => undefined, 'oauth.after-login': () => 'consent-at-once' },
  },
  {
    name: 'oauth-unknown-client-accepted',
    rules: ['OAUTH-15'],
    description: 'an unknown client_id is treated as the registered client',
    at: { 'oauth.known-client': (known, { id }) => known || id.length > 0 },
  },
];
