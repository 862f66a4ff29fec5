/**
 * Faults of the OAuth authorization host (reference/routes/oauth.ts). How they hook in:
 * reference/faults/types.ts.
 */
import type { Reply } from '../http.js';
import type { OAuthParam } from '../routes/oauth.js';
import type { Fault, Presented } from './types.js';

declare module './types.js' {
  interface HookPoints {
    /** Does this request parameter pass its check? */
    'oauth.accepts': { value: boolean; ctx: { param: OAuthParam } };
    /** Is client_id the registered client? */
    'oauth.known-client': { value: boolean; ctx: { id: string } };
    /** The session an authorization request finds (undefined: none). */
    'oauth.session': { value: string | undefined; ctx: undefined };
    /** After a login: back to the authorization request, or the consent screen at once. */
    'oauth.after-login': { value: string; ctx: undefined };
    /** The application name on the consent screen. */
    'oauth.application-name': { value: string; ctx: undefined };
    /** Did the user authorize (the Authorize button)? */
    'oauth.authorized': { value: boolean; ctx: undefined };
    /** Is the authorization code already exchanged? */
    'oauth.code-spent': { value: boolean; ctx: undefined };
    /** The fields sent back to redirect_uri. */
    'oauth.callback-fields': { value: [string, string][]; ctx: undefined };
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
    name: 'oauth-consent-missing-app-name',
    rules: ['OAUTH-3'],
    description: 'the consent screen says "An application" instead of naming it',
    at: { 'oauth.application-name': () => 'An application' },
  },
  {
    name: 'oauth-callback-by-get',
    rules: ['OAUTH-4', 'OAUTH-6'],
    description: 'the return to redirect_uri is a 302 redirect (GET with the code in the query) instead of a POST',
    at: {
      'oauth.back-to-client': (_page, { redirectUri, entries }) => {
        const u = new URL(redirectUri);
        for (const [k, val] of entries) u.searchParams.set(k, val);
        return { status: 302, raw: '', headers: { location: u.toString(), 'cache-control': 'no-store' } };
      },
    },
  },
  {
    name: 'oauth-state-dropped',
    rules: ['OAUTH-5'],
    description: 'state is not forwarded to the callback',
    at: { 'oauth.callback-fields': (entries) => entries.filter(([k]) => k !== 'state') },
  },
  {
    name: 'oauth-deny-returns-code',
    rules: ['OAUTH-6'],
    description: 'Deny is handled like Authorize: the callback receives a code',
    at: { 'oauth.authorized': () => true },
  },
  skips('oauth-grant-type-not-checked', 'grant_type', ['OAUTH-7'], 'the token endpoint ignores grant_type'),
  skips('oauth-secret-not-checked', 'client_secret', ['OAUTH-8'], 'the token endpoint accepts any client_secret'),
  skips('oauth-token-redirect-uri-not-checked', 'redirect_uri', ['OAUTH-9'], 'the token endpoint does not compare redirect_uri with the authorization request'),
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
