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
 *   scope other than `developer/v1/all` fails (`oauth.request-error`): the error goes to the
 *   callback (a POST with `error` = `unsupported_response_type` / `invalid_scope`, and `state`) at
 *   once, before any login, or an HTML error page (400) is shown.
 * - Login: an HTML form (E-mail, Password, "Log in"; other wordings under REFERENCE_LOGIN_PAGE,
 *   below); success sets an HttpOnly session cookie (path
 *   /oauth), so a user already logged in goes straight to the consent screen. After the login, the
 *   browser goes back to the authorization request or sees the consent screen at once
 *   (`oauth.after-login`). A wrong password shows the login page again with an error (200 or 401,
 *   `oauth.login-failure-status`).
 * - Consent: names the application and the permission (scope) with "Authorize" and "Deny".
 * - The return to redirect_uri is a page with a form that submits itself by POST (hidden `code` and
 *   `state`, or `error` and `state`). Denial sends `error=access_denied` or `consent_denied` (`oauth.denial-error`).
 * - Token endpoint: form-encoded only (JSON and other types refused with 400); client
 *   authentication by the `client_id` and `client_secret` parameters; codes are single use, bound to
 *   the client and the redirect_uri (which the token request must repeat), valid 10 minutes.
 *   Errors: RFC 6749 § 5.2 JSON, `{ error, error_description }` (OAUTH-16; `oauth.token-error`,
 *   decided); a failed client authentication (invalid_client) with 401 or 400
 *   (`oauth.token-client-error-status`); which code answers which failure (`oauth.token-error-code`):
 *   `specific` (invalid_request for a missing or repeated parameter, unsupported_grant_type,
 *   invalid_grant for a bad, spent or foreign code or a redirect_uri that differs) or `invalid-grant`
 *   (invalid_grant for every problem of the code or the redirect_uri, present or not,
 *   unauthorized_client for another grant_type);
 *   `created_at` in the token answer under `general.extra-fields`.
 * - Codes look like `ref-code-<hex>` and tokens like `ref-oauth-token-<hex>` (the leak self-test
 *   looks for these prefixes in every artifact), or opaque base64url (`oauth.formats`).
 * - The login page's wording and markup (how the login screen asks for the e-mail and password:
 *   not shown), the open choice `oauth.login-page` (REFERENCE_LOGIN_PAGE overrides it):
 *   `default` (above); `email` ("Email", "Your password",
 *   "Sign in", the field named user[email]); `username` ("Username", a text input named
 *   username, the password labelled only by aria-label "Secret", an `<input type=submit>`
 *   "Continue"); `ambiguous` (two unmarked text inputs, "Workspace" and "Account", the password
 *   "Passphrase", "Continue": no suite can tell the account field without the profile's
 *   `oauth.screens.email_label`, so the suite must say it cannot log in, not fail a rule).
 * Faults: reference/faults/oauth.ts (hook points `oauth.*`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { App, AreaModule, Credentials } from '../app.js';
import { HttpError, type Reply, type RequestContext } from '../http.js';

export const OAUTH_SCOPE = 'developer/v1/all';
export const APPLICATION_NAME = 'CRM Conformance Suite';
const CODE_TTL_MS = 10 * 60_000;
const TXN_TTL_MS = 30 * 60_000;

/** Request parameters whose check the faults may skip. */
export type OAuthParam = 'response_type' | 'scope' | 'client_secret' | 'grant_type' | 'redirect_uri';

interface Txn {
  clientId: string;
  redirectUri: string;
  scope: string;
  state?: string;
  query: string;
  sessionId?: string;
  expires: number;
}
export interface CodeGrant {
  clientId: string;
  redirectUri: string;
  scope: string;
  user: string;
  expires: number;
  used: boolean;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// Stryker disable all: the headers of the login, consent and error pages (caching, framing, referrer): not shown
const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});
// Stryker restore all

function page(title: string, body: string, status = 200): Reply {
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
  return { status, raw, headers: PAGE_HEADERS };
}

// Stryker disable next-line BlockStatement: what a refused authorization request shows is not shown: made empty, an empty page (200) is shown,
// which grants nothing either (OAUTH-1, OAUTH-2 and OAUTH-15 judge that no login, consent or code follows)
function errorPage(status: number, message: string): Reply {
  return page(
    // Stryker disable next-line StringLiteral: the error page's wording: not shown (a failed request shows an error page or returns to the callback: OAUTH-1)
    'Authorization error',
    // Stryker disable next-line StringLiteral: the same
    `<main><h1>Authorization error</h1><p class="error" role="alert">${esc(message)}</p><p>Return to the application and try again.</p></main>`,
    status,
  );
}

// Stryker disable all: which redirect URIs are registered: not shown ("How an application is registered: not shown"), so no check may refuse
// or take any other URI; made to refuse the suite's own callback (http, 127.0.0.1, /oauth/callback), every flow fails (OAUTH-4): those are killed
/** RFC 8252 § 7.3-style loopback redirect registration (see the header comment). */
export function isRegisteredRedirect(uri: string): boolean {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback && u.pathname === '/oauth/callback' && !u.search && !u.hash && !u.username && !u.password;
}

// Stryker restore all
function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  // Stryker disable next-line StringLiteral: equivalent: a Cookie header left out or made of text without '=' names no cookie;
  // split at "" instead of ';', no session is found: killed (OAUTH-13)
  for (const part of String(req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: equivalent in a run: the session cookie is this host's only
    // cookie, so the browser sends one `name=value` (RFC 6265 § 4.2.1) and a part with no '=' or name, or spaces to trim, never comes (sessions: not shown);
    // made to read no cookie, or the name or value cut wrong, no session is found: killed (OAUTH-13)
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
  // Stryker disable next-line ConditionalExpression: a parameter repeated: RFC 6749 § 3.1 bars the client from sending one;
  // no rule says whether a server takes or refuses it; made false, every parameter reads as left out: killed
  return all.length === 1 ? all[0] : undefined;
};

/** The login page's wording and markup (REFERENCE_LOGIN_PAGE; see the header). */
interface LoginWording {
  user: string;
  password: string;
  userName: string;
  passwordName: string;
  login: string;
  next: string;
  button: (text: string) => string;
}
const LOGIN_PAGES = ['default', 'email', 'username', 'ambiguous'] as const;

/** The login page's wording and markup: not shown (OAUTH-3 finds the fields and button by their roles and the profile's labels). */
export function loginWording(name: string | undefined): LoginWording {
  const button = (text: string) => `<button type="submit">${esc(text)}</button>`;
  // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: a name is always given (REFERENCE_LOGIN_PAGE, or the choice: 'default')
  switch (name || 'default') {
    // Stryker disable next-line ConditionalExpression: made to fall through, the default page takes the email page's wording (oauth.login-page)
    case 'default':
      return {
        user: `<label for="email">E-mail</label>\n  <input id="email" name="email" type="email" autocomplete="username" required>`,
        password: `<label for="password">Password</label>\n  <input id="password" name="password" type="password" autocomplete="current-password" required>`,
        userName: 'email',
        passwordName: 'password',
        // Stryker disable next-line StringLiteral: the button's words (OAUTH-3 finds it by its role)
        login: 'Log in',
        // Stryker disable next-line StringLiteral: read only under oauth.login-steps = email-first
        next: 'Next',
        button,
      };
    // Stryker disable all: the other pages are read only under their alternative of oauth.login-page (the choices self-test logs in on each)
    case 'email':
      return {
        user: `<label for="user_email">Email</label>\n  <input id="user_email" name="user[email]" type="email" required>`,
        password: `<label for="user_password">Your password</label>\n  <input id="user_password" name="user[password]" type="password" required>`,
        userName: 'user[email]',
        passwordName: 'user[password]',
        login: 'Sign in',
        next: 'Continue',
        button,
      };
    case 'username':
      return {
        user: `<label for="f1">Username</label>\n  <input id="f1" name="username" type="text" autocomplete="off" required>`,
        password: `<input name="pw" type="password" aria-label="Secret" required>`,
        userName: 'username',
        passwordName: 'pw',
        login: 'Continue',
        next: 'Continue',
        button: (text) => `<input type="submit" value="${esc(text)}">`,
      };
    case 'ambiguous':
      return {
        user: `<label for="f1">Workspace</label>\n  <input id="f1" name="f1" type="text">\n  <label for="f2">Account</label>\n  <input id="f2" name="f2" type="text" required>`,
        password: `<label for="f3">Passphrase</label>\n  <input id="f3" name="f3" type="password" required>`,
        userName: 'f2',
        passwordName: 'f3',
        login: 'Continue',
        next: 'Continue',
        button,
      };
    // Stryker restore all
    default:
      // Stryker disable next-line StringLiteral: an unknown name (REFERENCE_LOGIN_PAGE) stops the server before any request
      throw new Error(`REFERENCE_LOGIN_PAGE=${name}: unknown; one of ${LOGIN_PAGES.join(', ')}`);
  }
}

/** What the authorization host keeps between requests, and what it reads of the server once. */
interface OAuthHost {
  app: App;
  credentials: Credentials;
  sessions: Map<string, { email: string }>;
  txns: Map<string, Txn>;
  codes: Map<string, CodeGrant>;
  cookieName: string;
  wording: LoginWording;
}

/** Does `param` pass its check (`value`: the parameter as sent, undefined when left out or repeated)? */
const paramPasses = (h: OAuthHost, param: OAuthParam, ok: boolean, value: string | undefined) => h.app.at('oauth.accepts', ok, { param, value });
const knownClient = (h: OAuthHost, id: string | undefined) => !!id && h.app.at('oauth.known-client', id === h.credentials.clientId, { id });
const newCode = (h: OAuthHost) =>
  h.app.choice('oauth.formats') === 'opaque' ? randomBytes(24).toString('base64url') : `ref-code-${randomBytes(16).toString('hex')}`;
const newToken = (h: OAuthHost) =>
  h.app.choice('oauth.formats') === 'opaque' ? `rt_${randomBytes(32).toString('base64url')}` : `ref-oauth-token-${randomBytes(20).toString('hex')}`;

/** The session of an authorization request. */
function sessionOf(h: OAuthHost, ctx: RequestContext): string | undefined {
  const sid = cookies(ctx.req)[h.cookieName];
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent in a run: no session is ever forgotten,
  // so a session cookie the browser holds names one; made false, no session is found: killed (OAUTH-13)
  return h.app.at('oauth.session', sid && h.sessions.has(sid) ? sid : undefined, undefined);
}

/** The request or code of that id, unless it has expired (then it is forgotten). */
function fresh<T extends { expires: number }>(m: Map<string, T>, id: string | undefined): T | undefined {
  const x = id ? m.get(id) : undefined;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: the lifetime of a code or an authorization request: not shown
  // (RFC 6749 § 4.1.2 recommends at most 10 minutes for a code); no run waits that long; made to expire at once, every flow fails: killed
  if (x && x.expires < Date.now()) {
    // Stryker disable next-line CallExpression: the same: an expired entry forgotten or kept, it is refused
    m.delete(id!);
    return undefined;
  }
  return x;
}

/** What the return to redirect_uri reports: a code, a denial, or a failed request. */
export type CallbackOutcome = 'code' | 'denied' | 'failed';

/** The page that returns the user to redirect_uri by a POST. */
function backToClient(h: OAuthHost, redirectUri: string, outcome: CallbackOutcome, fields: Record<string, string | undefined>, ctx: RequestContext): Reply {
  const { app } = h;
  // `oauth.callback-iss` = present: the issuer identifier rides along (RFC 9207 §2), the origin of this host.
  const iss = app.choice('oauth.callback-iss') === 'present' ? `http://${String(ctx.req.headers.host ?? 'localhost')}` : undefined;
  const entries = app.at(
    'oauth.callback-fields',
    Object.entries({ ...fields, iss }).filter((e): e is [string, string] => e[1] !== undefined),
    { outcome },
  );
  return app.at('oauth.back-to-client', formPost(app, redirectUri, entries), { redirectUri, entries });
}

/** A page whose form posts `entries` to redirect_uri and submits itself. */
function formPost(app: App, redirectUri: string, entries: [string, string][]): Reply {
  // `oauth.state-place` = query: state rides in the query of the URL posted to, not in the form.
  const inQuery = app.choice('oauth.state-place') === 'query' ? entries.filter(([k]) => k === 'state') : [];
  // Stryker disable next-line StringLiteral: only under oauth.state-place = query (state in the query of the URL posted to): at the default inQuery is empty
  const action = inQuery.length ? `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${new URLSearchParams(inQuery).toString()}` : redirectUri;
  // Stryker disable next-line MethodExpression: the same for the filter
  const hidden = entries.filter((e) => !inQuery.includes(e)).map(([k, val]) => `<input type="hidden" name="${esc(k)}" value="${esc(val)}">`);
  // Stryker disable next-line StringLiteral: the whitespace between the hidden inputs is markup
  const inputs = hidden.join('\n  ');
  return page(
    // Stryker disable next-line StringLiteral: the wording of the page that returns to the client: not shown
    'Returning to the application',
    `<main><p>Returning to the application…</p>
<form method="post" action="${esc(action)}">
  ${inputs}
  <noscript><button type="submit">Continue</button></noscript>
</form>
<script>document.forms[0].submit();</script></main>`,
  );
}

/** A login page: its heading, fields and button, an error above the form (401 or 200: `oauth.login-failure-status`). */
function loginForm(h: OAuthHost, txnId: string, heading: string, fields: string, button: string, error?: string): Reply {
  // Stryker disable next-line StringLiteral: the login page's wording: not shown (the error shown above the form)
  const alert = error ? `<p class="error" role="alert">${esc(error)}</p>` : '';
  return page(
    // Stryker disable next-line StringLiteral: the login page's wording: not shown (OAUTH-3 finds its fields by role and label)
    'Log in',
    `<main>
<h1>${esc(heading)}</h1>
${alert}
<form method="post" action="/oauth/login">
  <input type="hidden" name="txn" value="${esc(txnId)}">
  ${fields}
  ${h.wording.button(button)}
</form></main>`,
    // Stryker disable next-line ConditionalExpression,LogicalOperator: the status of a login page: not shown (a wrong password:
    // 200 or 401, oauth.login-failure-status); the browser shows the page whatever its status
    error && h.app.choice('oauth.login-failure-status') === '401' ? 401 : 200,
  );
}

// Stryker disable next-line StringLiteral: the login page's wording: not shown
const LOGIN_HEADING = 'Log in to your CRM account';

// Stryker disable all: the steps below are read only under oauth.login-steps = email-first
// (at the default emailFirst is false: made undefined, equivalent)
// `oauth.login-steps` = email-first: the e-mail alone with Next, then the password on a page of its own.
const emailFirst = (h: OAuthHost) => h.app.choice('oauth.login-steps') === 'email-first';
const emailStep = (h: OAuthHost, txnId: string, error?: string): Reply => loginForm(h, txnId, LOGIN_HEADING, h.wording.user, h.wording.next, error);
const passwordStep = (h: OAuthHost, txnId: string, email: string, error?: string): Reply =>
  loginForm(
    h,
    txnId,
    `Log in as ${email}`,
    `<input type="hidden" name="${esc(h.wording.userName)}" value="${esc(email)}">\n  ${h.wording.password}`,
    h.wording.login,
    error,
  );
// Stryker restore all
/** The login screen: the e-mail and password on one page, or the e-mail step first. */
const loginPage = (h: OAuthHost, txnId: string, error?: string): Reply =>
  emailFirst(h) ? emailStep(h, txnId, error) : loginForm(h, txnId, LOGIN_HEADING, `${h.wording.user}\n  ${h.wording.password}`, h.wording.login, error);

/** The consent screen: the application, the permission, Authorize and Deny. */
function consentPage(app: App, txnId: string, txn: Txn): Reply {
  const name = app.at('oauth.application-name', APPLICATION_NAME, undefined);
  return page(
    // Stryker disable next-line StringLiteral: the consent page's title: not shown (OAUTH-3 looks for the application's name and the buttons in the page)
    `Authorize ${name}`,
    `<main>
<h1>${esc(name)} wants to access your CRM account</h1>
<p>${esc(name)} asks for these permissions:</p>
<ul><li><code>${esc(txn.scope)}</code>: read and write every record of the CRM Developer API (version 1) on your behalf</li></ul>
<form method="post" action="/oauth/decision">
  <input type="hidden" name="txn" value="${esc(txnId)}">
  <button type="submit" name="decision" value="authorize">Authorize</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form></main>`,
  );
}

/** `GET /oauth/authorize`: checks the request, then the login screen, or the consent screen for a session. */
function authorize(h: OAuthHost, ctx: RequestContext): Reply {
  const { app } = h;
  const q = ctx.query;
  const clientId = one(q, 'client_id');
  const redirectUri = one(q, 'redirect_uri');
  if (!knownClient(h, clientId)) return errorPage(400, 'Unknown application (client_id).');
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the same registration; a request without redirect_uri is not judged
  // (RFC 6749 § 3.1.2.3 lets a server use the registered one; rules/coverage-reasons.json); made true, every request fails: killed
  if (!redirectUri || !isRegisteredRedirect(redirectUri)) return errorPage(400, 'The redirect_uri is not registered for this application.');
  const state = one(q, 'state');
  // Stryker disable next-line ArrowFunction: made to answer nothing, a failed request shows an empty page instead of returning to the callback:
  // as the error-page alternative of oauth.request-error does (what the page shows: not shown)
  const fail = (error: string, description: string) =>
    app.choice('oauth.request-error') === 'error-page'
      ? errorPage(400, description)
      : backToClient(h, redirectUri, 'failed', { error, error_description: description, state }, ctx);
  const responseType = one(q, 'response_type');
  const scope = one(q, 'scope');
  if (!paramPasses(h, 'response_type', responseType === 'code', responseType)) return fail('unsupported_response_type', 'response_type must be code');
  if (!paramPasses(h, 'scope', scope === OAUTH_SCOPE, scope)) return fail('invalid_scope', `scope must be ${OAUTH_SCOPE}`);
  const txnId = randomBytes(16).toString('hex');
  const sid = sessionOf(h, ctx);
  const txn: Txn = { clientId: clientId!, redirectUri, scope: OAUTH_SCOPE, state, query: q.toString(), sessionId: sid, expires: Date.now() + TXN_TTL_MS };
  h.txns.set(txnId, txn);
  return sid ? consentPage(app, txnId, txn) : loginPage(h, txnId);
}

/** `POST /oauth/login`: the e-mail step, or the login; then the consent screen at once or back to the request (`oauth.after-login`). */
function login(h: OAuthHost, ctx: RequestContext): Reply {
  const { app, credentials, wording } = h;
  const form = (ctx.body ?? {}) as Record<string, string>;
  // Stryker disable next-line StringLiteral: equivalent: a form without txn names no authorization request either way
  const txnId = String(form.txn ?? '');
  const txn = fresh(h.txns, txnId);
  // Stryker disable next-line ConditionalExpression: a login or consent posted for an authorization request the host does not know (its own form's
  // hidden txn, forged or expired): no browser sends one in a run, and what the host shows then is not shown; made true, every flow fails: killed
  if (!txn) return errorPage(400, 'This authorization request has expired. Start again from the application.');
  // Stryker disable next-line StringLiteral: equivalent: a form without the e-mail names no user either way
  const email = String(form[wording.userName] ?? '');
  // Stryker disable next-line ConditionalExpression: which credentials the login takes is the service's own ("The user logs in": how, not shown),
  // and the suite never tries wrong ones on a real account (a lock-out risk): taking any e-mail passes; taking none, the login fails: killed
  const emailOk = email.toLowerCase() === credentials.loginEmail.toLowerCase();
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: only under oauth.login-steps = email-first (at the default
  // emailFirst is false; the one-page form always has the password), and the e-mail step's wording (not shown); made true, no login ends: killed
  if (emailFirst(h) && form[wording.passwordName] === undefined)
    // Stryker disable next-line StringLiteral: the e-mail step's wording (only under email-first)
    return emailOk ? passwordStep(h, txnId, email) : emailStep(h, txnId, 'No account with that e-mail.');
  // Stryker disable next-line StringLiteral: equivalent: a form without the password is a wrong one either way
  const passwordOk = safeEqual(String(form[wording.passwordName] ?? ''), credentials.loginPassword);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral,StringLiteral: a wrong password (never tried, above) shows the login again,
  // on the password step or the whole form, with some wording: not shown; made true, no login ends: killed (the suite cannot log in: INCONCLUSIVE)
  if (emailFirst(h) && emailOk && !passwordOk) return passwordStep(h, txnId, email, 'Wrong password.');
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: which credentials the login takes (above): wrong ones are never tried
  // on a real account; the page shown again and its wording: not shown; made true, no login ends: killed
  if (!emailOk || !passwordOk) return loginPage(h, txnId, 'Wrong e-mail or password.');
  const sid = randomBytes(24).toString('hex');
  // Stryker disable next-line ObjectLiteral: equivalent: the reference has one user, for whom every token acts (a grant's user is read by no answer)
  h.sessions.set(sid, { email: credentials.loginEmail });
  const cookie = `${h.cookieName}=${sid}; Path=/oauth; HttpOnly; SameSite=Lax`;
  if (app.at('oauth.after-login', app.choice('oauth.after-login'), undefined) === 'consent-at-once') {
    // The consent screen right away, on the login's answer.
    txn.sessionId = sid;
    const r = consentPage(app, txnId, txn);
    return { ...r, headers: { ...r.headers, 'set-cookie': cookie } };
  }
  // Back to the authorization request, which now finds the session.
  // Stryker disable next-line CallExpression: a spent authorization request forgotten now or when it expires: its id is the host's own markup,
  // sent by no client
  h.txns.delete(txnId);
  // Stryker disable next-line StringLiteral: the body and caching of the redirect back to the authorization request: not shown; its location
  // made empty, the flow stops: killed
  return { status: 303, raw: '', headers: { location: `/oauth/authorize?${txn.query}`, 'set-cookie': cookie, 'cache-control': 'no-store' } };
}

/** `POST /oauth/decision`: Authorize (a code) or Deny (`oauth.denial-error`), back to the client. */
function decision(h: OAuthHost, ctx: RequestContext): Reply {
  const { app, sessions } = h;
  const form = (ctx.body ?? {}) as Record<string, string>;
  // Stryker disable next-line StringLiteral: equivalent: a form without txn names no authorization request either way
  const txnId = String(form.txn ?? '');
  const txn = fresh(h.txns, txnId);
  // Stryker disable next-line ConditionalExpression: a login or consent posted for an authorization request the host does not know (its own form's
  // hidden txn, forged or expired): no browser sends one in a run, and what the host shows then is not shown; made true, every flow fails: killed
  if (!txn) return errorPage(400, 'This authorization request has expired. Start again from the application.');
  const sid = app.at('oauth.decision-session', cookies(ctx.req)[h.cookieName], undefined);
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the consent form posted without the session that saw it: no browser does so in a run
  // (the form is the host's own); how the host keeps a session and guards its forms: not shown; made to ask for the login again
  // with the session, no flow ends: killed
  if (!sid || !sessions.has(sid) || (txn.sessionId && txn.sessionId !== sid)) return loginPage(h, txnId);
  // Stryker disable next-line CallExpression: the same: a consent form posted twice (a replay of the host's own form) is no step of the spec's flow
  h.txns.delete(txnId);
  const authorized = app.at('oauth.authorized', form.decision === 'authorize', undefined);
  if (!authorized) return backToClient(h, txn.redirectUri, 'denied', { error: app.choice('oauth.denial-error'), state: txn.state }, ctx);
  const code = newCode(h);
  h.codes.set(code, {
    clientId: txn.clientId,
    redirectUri: txn.redirectUri,
    scope: txn.scope,
    user: sessions.get(sid)!.email,
    expires: Date.now() + CODE_TTL_MS,
    used: false,
  });
  return backToClient(h, txn.redirectUri, 'code', { code, state: txn.state }, ctx);
}

/** The error codes of RFC 6749 § 5.2 the token endpoint answers. */
type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type';

/**
 * A refused token request, as RFC 6749 § 5.2 has it: JSON `{ error, error_description }` with 400;
 * a failed client authentication (invalid_client) with 401 or 400 (`oauth.token-client-error-status`).
 */
function tokenError(app: App, error: TokenErrorCode, description: string): never {
  // Stryker disable next-line ConditionalExpression,StringLiteral: made false, a failed client authentication answers 400: the other alternative of
  // oauth.token-client-error-status (RFC 6749 § 5.2: 400, or 401); made true, every failure answers 401: OAUTH-16 fails
  const status = error === 'invalid_client' && app.choice('oauth.token-client-error-status') === '401' ? 401 : 400;
  // Stryker disable next-line ObjectLiteral,StringLiteral: an error answer carries no token: RFC 6749 § 5.1's no-store is asked of
  // an answer that does (OAUTH-19); the body made empty, OAUTH-16 fails
  throw new HttpError(status, { error, error_description: description }, { 'cache-control': 'no-store', pragma: 'no-cache' });
}

/**
 * The code's grant, checked: issued, not expired, to this client, not exchanged before. A code left
 * out (or repeated) is invalid_request under `oauth.token-error-code` = specific, invalid_grant otherwise.
 */
function grantOf(h: OAuthHost, code: string | undefined, clientId: string, redirectUri: string | undefined): CodeGrant {
  const { app } = h;
  const grant = app.at('oauth.code-grant', fresh(h.codes, code), { code, clientId, redirectUri });
  // Stryker disable next-line ConditionalExpression: equivalent: the reference has one client, and the token request's client_id is checked first,
  // so a code's client is always the one asking; made true, a spent or unknown code is exchanged (OAUTH-12, OAUTH-18); made false, none is: killed
  if (grant && grant.clientId === clientId && !app.at('oauth.code-spent', grant.used, undefined)) return grant;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: which RFC 6749 § 5.2 code answers which failure: open
  // (oauth.token-error-code); OAUTH-16 takes any of § 5.2's codes
  if (code === undefined && app.choice('oauth.token-error-code') === 'specific') tokenError(app, 'invalid_request', 'code is missing (or repeated)');
  return tokenError(app, 'invalid_grant', 'the authorization code is invalid, expired or already used');
}

/** `POST /oauth/token`: a code exchanged, once, for an access token. */
function token(h: OAuthHost, ctx: RequestContext): Reply {
  const { app, credentials } = h;
  // Stryker disable all: a token request of another media type: the spec names the client's (form-encoded) and not what a server answers to another;
  // its body read as a form has no client_id, so it is refused anyway (invalid_client, a § 5.2 code); made to refuse a form, every exchange fails: killed
  if (
    !String(ctx.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('application/x-www-form-urlencoded')
  ) {
    tokenError(app, 'invalid_request', 'the token request must be application/x-www-form-urlencoded');
  }
  // Stryker restore all
  const form = new URLSearchParams(ctx.rawBody.toString('utf8'));
  const p = (name: string) => one(form, name);
  const specific = app.choice('oauth.token-error-code') === 'specific';
  const clientId = p('client_id');
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a code is bound to its client (grantOf), so a token request with
  // another client_id, or none, is refused anyway (invalid_grant: which § 5.2 code, open); made true, every exchange fails: killed
  if (!clientId || clientId !== credentials.clientId) tokenError(app, 'invalid_client', 'unknown client');
  const secret = p('client_secret');
  // Stryker disable next-line StringLiteral: equivalent: a request without client_secret fails the check either way
  if (!paramPasses(h, 'client_secret', safeEqual(secret ?? '', credentials.clientSecret), secret))
    tokenError(app, 'invalid_client', 'client authentication failed');
  const grantType = p('grant_type');
  if (!paramPasses(h, 'grant_type', grantType === 'authorization_code', grantType)) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: which § 5.2 code answers which failure: open (above)
    if (grantType === undefined && specific) tokenError(app, 'invalid_request', 'grant_type is missing (or repeated)');
    tokenError(app, specific ? 'unsupported_grant_type' : 'unauthorized_client', 'grant_type must be authorization_code');
  }
  const redirectUri = p('redirect_uri');
  const grant = grantOf(h, p('code'), clientId!, redirectUri);
  // RFC 6749 § 4.1.3: the redirect_uri of the authorization request, repeated (required: that request had one).
  if (!paramPasses(h, 'redirect_uri', redirectUri === grant.redirectUri, redirectUri)) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: the same
    if (redirectUri === undefined && specific) tokenError(app, 'invalid_request', 'redirect_uri is missing (or repeated): the authorization request had one');
    tokenError(app, 'invalid_grant', 'redirect_uri differs from the authorization request');
  }
  // Read-check-write without await: a code is exchanged at most once even under concurrency.
  grant.used = true;
  const accessToken = newToken(h);
  app.seam('oauth.register-token', { token: accessToken }, () => app.issuedTokens.add(accessToken));
  const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', scope: grant.scope };
  if (app.choice('general.extra-fields') !== 'none') answer.created_at = Math.floor(Date.now() / 1000);
  return {
    status: 200,
    body: answer,
    headers: {
      'cache-control': 'no-store',
      // Stryker disable next-line StringLiteral: Pragma: no-cache, which RFC 6749 § 5.1 asks beside Cache-Control and OAuth 2.1 no longer does: not judged
      pragma: 'no-cache',
    },
  };
}

export const oauth: AreaModule = {
  name: 'oauth',
  auth(router, app) {
    const host: OAuthHost = {
      app,
      credentials: app.options.credentials,
      sessions: new Map(),
      txns: new Map(),
      codes: new Map(),
      // `oauth.formats` = opaque: codes, tokens and the cookie's name look like no other server's.
      cookieName: app.choice('oauth.formats') === 'opaque' ? '__ref_auth' : 'ref_oauth_session',
      // `oauth.login-page`; REFERENCE_LOGIN_PAGE (also `ambiguous`, which needs a label the catalog does not declare) overrides it.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent in a mutation run: REFERENCE_LOGIN_PAGE is unset and the
      // default page is named 'default' (the login page's wording: not shown); made true, the server does not start: killed
      wording: loginWording(process.env.REFERENCE_LOGIN_PAGE || app.choice('oauth.login-page')),
    };
    router.add('GET', '/oauth/authorize', (ctx) => authorize(host, ctx));
    router.add('POST', '/oauth/login', (ctx) => login(host, ctx));
    router.add('POST', '/oauth/decision', (ctx) => decision(host, ctx));
    router.add('POST', '/oauth/token', (ctx) => token(host, ctx));
  },
};
