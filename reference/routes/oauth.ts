/**
 * OAuth 2.0 authorization code grant (spec § Authentication → OAuth 2.0 authorization code grant),
 * served on the authorization host ({auth_url}, another origin than the API in the embedded setup).
 *
 * Choices the spec leaves open, as the reference server makes them:
 * - Registered client: the one of the credentials (`clientId`/`clientSecret`), named
 *   "CRM Conformance Suite" (as reference/profile.json `oauth.application_name` says).
 * - Redirect URI registration: every `http:` or `https:` URI on a loopback host (`localhost`,
 *   `127.0.0.0/8`, `[::1]`) with any port and the path `/oauth/callback` (no query, no fragment)
 *   is registered for the client, like RFC 8252 § 7.3 loopback redirects. An unknown client or an
 *   unregistered (or missing) redirect_uri gets an HTML error page (400), never a redirect.
 * - A request with a valid client and redirect_uri but a response_type other than `code` or a
 *   scope other than `developer/v1/all` fails: default mode returns the error to the callback
 *   (a POST with `error` = `unsupported_response_type` / `invalid_scope`, and `state`) at once,
 *   before any login; variant mode shows an HTML error page (400) instead.
 * - Login: an HTML form (E-mail, Password, "Log in"); success sets an HttpOnly session cookie (path
 *   /oauth), so a user already logged in goes straight to the consent screen. A wrong password shows
 *   the login page again with an error (default 200, variant 401).
 * - Consent: names the application and the permission (scope) with "Authorize" and "Deny".
 * - The return to redirect_uri is a page with a form that submits itself by POST (hidden `code` and
 *   `state`, or `error` and `state`). Denial sends `error=access_denied` (variant: `consent_denied`).
 * - Token endpoint: form-encoded only (JSON and other types refused with 400); client
 *   authentication by the `client_id` and `client_secret` parameters; codes are single use, bound to
 *   the client and the redirect_uri, valid 10 minutes. Errors are RFC 6749 § 5.2 JSON
 *   (`{ error, error_description }`, 400 or 401) by default; variant mode answers
 *   `{ errors: [{ code }] }` with 400/403 and adds `created_at` to the token answer.
 * - Codes look like `ref-code-<hex>` and tokens like `ref-oauth-token-<hex>` (the leak self-test
 *   looks for these prefixes in every artifact); variant mode uses other formats.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { App, AreaModule } from '../app.js';
import { HttpError, type Reply, type RequestContext } from '../http.js';

export const OAUTH_SCOPE = 'developer/v1/all';
export const APPLICATION_NAME = 'CRM Conformance Suite';
const CODE_TTL_MS = 10 * 60_000;
const TXN_TTL_MS = 30 * 60_000;

interface Txn { clientId: string; redirectUri: string; scope: string; state?: string; query: string; sessionId?: string; expires: number }
interface CodeGrant { clientId: string; redirectUri: string; scope: string; user: string; expires: number; used: boolean }

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string, status = 200, headers: Record<string, string> = {}): Reply {
  const raw = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title>
<style>body{font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.4rem}button{margin-top:1rem;margin-right:.5rem;padding:.4rem 1rem}.error{color:#a00}</style>
</head>
<body>
${body}
</body>
</html>
`;
  return { status, raw, headers: { 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', ...headers } };
}

function errorPage(status: number, message: string): Reply {
  return page('Authorization error', `<main><h1>Authorization error</h1><p class="error" role="alert">${esc(message)}</p><p>Return to the application and try again.</p></main>`, status);
}

/** RFC 8252 § 7.3-style loopback redirect registration (see the header comment). */
export function isRegisteredRedirect(uri: string): boolean {
  let u: URL;
  try { u = new URL(uri); } catch { return false; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback && u.pathname === '/oauth/callback' && !u.search && !u.hash && !u.username && !u.password;
}

function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
  }
  return out;
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const one = (q: URLSearchParams, name: string): string | undefined => {
  const all = q.getAll(name);
  return all.length === 1 ? all[0] : undefined;
};

export const oauth: AreaModule = {
  name: 'oauth',
  faults: [
    { name: 'oauth-response-type-not-checked', rules: ['OAUTH-1'], description: 'the authorization endpoint ignores response_type and issues a code for any value' },
    { name: 'oauth-scope-not-checked', rules: ['OAUTH-2'], description: 'the authorization endpoint ignores scope and issues a code for any value' },
    { name: 'oauth-consent-missing-app-name', rules: ['OAUTH-3'], description: 'the consent screen says "An application" instead of naming it' },
    { name: 'oauth-callback-by-get', rules: ['OAUTH-4', 'OAUTH-6'], description: 'the return to redirect_uri is a 302 redirect (GET with the code in the query) instead of a POST' },
    { name: 'oauth-state-dropped', rules: ['OAUTH-5'], description: 'state is not forwarded to the callback' },
    { name: 'oauth-deny-returns-code', rules: ['OAUTH-6'], description: 'Deny is handled like Authorize: the callback receives a code' },
    { name: 'oauth-grant-type-not-checked', rules: ['OAUTH-7'], description: 'the token endpoint ignores grant_type' },
    { name: 'oauth-secret-not-checked', rules: ['OAUTH-8'], description: 'the token endpoint accepts any client_secret' },
    { name: 'oauth-token-redirect-uri-not-checked', rules: ['OAUTH-9'], description: 'the token endpoint does not compare redirect_uri with the authorization request' },
    { name: 'oauth-token-type-lowercase', rules: ['OAUTH-10'], description: 'the token answer says token_type "bearer" (lower case)' },
    { name: 'oauth-token-form-encoded', rules: ['OAUTH-10'], description: 'the token endpoint answers application/x-www-form-urlencoded instead of JSON' },
    { name: 'oauth-token-not-accepted', rules: ['OAUTH-11'], description: 'issued access tokens are not registered with the API, which refuses them' },
    { name: 'oauth-code-reusable', rules: ['OAUTH-12'], description: 'authorization codes can be exchanged more than once' },
    { name: 'oauth-login-every-time', rules: ['OAUTH-13'], description: 'the authorization request ignores the session: a user already logged in must log in again' },
    { name: 'oauth-unknown-client-accepted', rules: ['OAUTH-15'], description: 'an unknown client_id is treated as the registered client' },
  ],
  auth(router, app) {
    const { credentials } = app.options;
    const sessions = new Map<string, { email: string }>();
    const txns = new Map<string, Txn>();
    const codes = new Map<string, CodeGrant>();
    const v = app.variant;
    const cookieName = v ? '__ref_auth' : 'ref_oauth_session';

    const knownClient = (id: string | undefined) => !!id && (id === credentials.clientId || (app.fault('oauth-unknown-client-accepted') && id.length > 0));
    const newCode = () => (v ? randomBytes(24).toString('base64url') : `ref-code-${randomBytes(16).toString('hex')}`);
    const newToken = () => (v ? `rt_${randomBytes(32).toString('base64url')}` : `ref-oauth-token-${randomBytes(20).toString('hex')}`);

    /** The session of an authorization request (the fault forgets it there). */
    const sessionOf = (ctx: RequestContext): string | undefined => {
      if (app.fault('oauth-login-every-time')) return undefined;
      const sid = cookies(ctx.req)[cookieName];
      return sid && sessions.has(sid) ? sid : undefined;
    };

    /** The page that returns the user to redirect_uri by a POST (or, with a fault, by a GET). */
    const backToClient = (redirectUri: string, fields: Record<string, string | undefined>): Reply => {
      const entries = Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined && !(e[0] === 'state' && app.fault('oauth-state-dropped')));
      if (app.fault('oauth-callback-by-get')) {
        const u = new URL(redirectUri);
        for (const [k, val] of entries) u.searchParams.set(k, val);
        return { status: 302, raw: '', headers: { location: u.toString(), 'cache-control': 'no-store' } };
      }
      const inputs = entries.map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val)}">`).join('\n  ');
      return page('Returning to the application', `<main><p>Returning to the application…</p>
<form method="post" action="${esc(redirectUri)}">
  ${inputs}
  <noscript><button type="submit">Continue</button></noscript>
</form>
<script>document.forms[0].submit();</script></main>`);
    };

    const loginPage = (txnId: string, error?: string): Reply => page('Log in', `<main>
<h1>Log in to your CRM account</h1>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/oauth/login">
  <input type="hidden" name="txn" value="${esc(txnId)}">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Log in</button>
</form></main>`, error && v ? 401 : 200);

    const consentPage = (txnId: string, txn: Txn): Reply => {
      const name = app.fault('oauth-consent-missing-app-name') ? 'An application' : APPLICATION_NAME;
      return page(`Authorize ${name}`, `<main>
<h1>${esc(name)} wants to access your CRM account</h1>
<p>${esc(name)} asks for these permissions:</p>
<ul><li><code>${esc(txn.scope)}</code>: read and write every record of the CRM Developer API (version 1) on your behalf</li></ul>
<form method="post" action="/oauth/decision">
  <input type="hidden" name="txn" value="${esc(txnId)}">
  <button type="submit" name="decision" value="authorize">Authorize</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form></main>`);
    };

    const fresh = <T extends { expires: number }>(m: Map<string, T>, id: string | undefined): T | undefined => {
      const x = id ? m.get(id) : undefined;
      if (x && x.expires < Date.now()) { m.delete(id!); return undefined; }
      return x;
    };

    router.add('GET', '/oauth/authorize', (ctx) => {
      const q = ctx.query;
      const clientId = one(q, 'client_id');
      const redirectUri = one(q, 'redirect_uri');
      if (!knownClient(clientId)) return errorPage(400, 'Unknown application (client_id).');
      if (!redirectUri || !isRegisteredRedirect(redirectUri)) return errorPage(400, 'The redirect_uri is not registered for this application.');
      const state = one(q, 'state');
      const fail = (error: string, description: string) => (v ? errorPage(400, description) : backToClient(redirectUri, { error, error_description: description, state }));
      if (one(q, 'response_type') !== 'code' && !app.fault('oauth-response-type-not-checked')) return fail('unsupported_response_type', 'response_type must be code');
      const scope = one(q, 'scope');
      if (scope !== OAUTH_SCOPE && !app.fault('oauth-scope-not-checked')) return fail('invalid_scope', `scope must be ${OAUTH_SCOPE}`);
      const txnId = randomBytes(16).toString('hex');
      const sid = sessionOf(ctx);
      const txn: Txn = { clientId: clientId!, redirectUri, scope: OAUTH_SCOPE, state, query: q.toString(), sessionId: sid, expires: Date.now() + TXN_TTL_MS };
      txns.set(txnId, txn);
      return sid ? consentPage(txnId, txn) : loginPage(txnId);
    }, { auth: false });

    router.add('POST', '/oauth/login', (ctx) => {
      const form = (ctx.body ?? {}) as Record<string, string>;
      const txnId = String(form.txn ?? '');
      const txn = fresh(txns, txnId);
      if (!txn) return errorPage(400, 'This authorization request has expired. Start again from the application.');
      const emailOk = String(form.email ?? '').toLowerCase() === credentials.loginEmail.toLowerCase();
      const passwordOk = safeEqual(String(form.password ?? ''), credentials.loginPassword);
      if (!emailOk || !passwordOk) return loginPage(txnId, 'Wrong e-mail or password.');
      const sid = randomBytes(24).toString('hex');
      sessions.set(sid, { email: credentials.loginEmail });
      const cookie = `${cookieName}=${sid}; Path=/oauth; HttpOnly; SameSite=Lax`;
      if (v || app.fault('oauth-login-every-time')) {
        // Variant: the consent screen right away, on the login's answer (so does the fault, whose
        // authorization requests never see the session).
        txn.sessionId = sid;
        const r = consentPage(txnId, txn);
        return { ...r, headers: { ...r.headers, 'set-cookie': cookie } };
      }
      // Default: back to the authorization request, which now finds the session.
      txns.delete(txnId);
      return { status: 303, raw: '', headers: { location: `/oauth/authorize?${txn.query}`, 'set-cookie': cookie, 'cache-control': 'no-store' } };
    }, { auth: false });

    router.add('POST', '/oauth/decision', (ctx) => {
      const form = (ctx.body ?? {}) as Record<string, string>;
      const txnId = String(form.txn ?? '');
      const txn = fresh(txns, txnId);
      if (!txn) return errorPage(400, 'This authorization request has expired. Start again from the application.');
      const sid = cookies(ctx.req)[cookieName];
      if (!sid || !sessions.has(sid) || (txn.sessionId && txn.sessionId !== sid)) return loginPage(txnId);
      txns.delete(txnId);
      const authorize = form.decision === 'authorize' || app.fault('oauth-deny-returns-code');
      if (!authorize) return backToClient(txn.redirectUri, { error: v ? 'consent_denied' : 'access_denied', state: txn.state });
      const code = newCode();
      codes.set(code, { clientId: txn.clientId, redirectUri: txn.redirectUri, scope: txn.scope, user: sessions.get(sid)!.email, expires: Date.now() + CODE_TTL_MS, used: false });
      return backToClient(txn.redirectUri, { code, state: txn.state });
    }, { auth: false });

    const tokenError = (status: number, error: string, description: string): never => {
      if (v) throw new HttpError(status === 401 ? 403 : 400, { errors: [{ code: error, detail: description }] }, { 'cache-control': 'no-store' });
      throw new HttpError(status, { error, error_description: description }, { 'cache-control': 'no-store', pragma: 'no-cache' });
    };

    router.add('POST', '/oauth/token', (ctx) => {
      if (!String(ctx.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
        tokenError(400, 'invalid_request', 'the token request must be application/x-www-form-urlencoded');
      }
      const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
      const p = (name: string) => one(form, name);
      const clientId = p('client_id');
      if (!clientId || clientId !== credentials.clientId) tokenError(401, 'invalid_client', 'unknown client');
      if (!app.fault('oauth-secret-not-checked') && !safeEqual(p('client_secret') ?? '', credentials.clientSecret)) tokenError(401, 'invalid_client', 'client authentication failed');
      if (p('grant_type') !== 'authorization_code' && !app.fault('oauth-grant-type-not-checked')) tokenError(400, 'unsupported_grant_type', 'grant_type must be authorization_code');
      const code = p('code') ?? '';
      const grant = fresh(codes, code);
      if (!grant || grant.clientId !== clientId || (grant.used && !app.fault('oauth-code-reusable'))) tokenError(400, 'invalid_grant', 'the authorization code is invalid, expired or already used');
      if (p('redirect_uri') !== grant!.redirectUri && !app.fault('oauth-token-redirect-uri-not-checked')) tokenError(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
      // Read-check-write without await: a code is exchanged at most once even under concurrency.
      grant!.used = true;
      const accessToken = newToken();
      if (!app.fault('oauth-token-not-accepted')) app.issuedTokens.add(accessToken);
      const answer: Record<string, unknown> = { access_token: accessToken, token_type: app.fault('oauth-token-type-lowercase') ? 'bearer' : 'Bearer', scope: grant!.scope };
      if (v) answer.created_at = Math.floor(Date.now() / 1000);
      const headers = { 'cache-control': 'no-store', pragma: 'no-cache' };
      if (app.fault('oauth-token-form-encoded')) {
        return { status: 200, raw: new URLSearchParams(Object.entries(answer).map(([k, x]) => [k, String(x)])).toString(), headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } };
      }
      return { status: 200, body: answer, headers };
    }, { auth: false });
  },
};
