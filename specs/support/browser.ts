/**
 * A real browser for the OAuth handshake (spec § Authentication → OAuth 2.0 authorization code
 * grant): Chromium found at run time (the headless shell first) and launched once per worker,
 * when a test first needs it; a fresh context for the tests that judge the login, and the
 * worker's logged-in session (one context, one page) for the tests that only need a code or a
 * callback; the callback receiver of the worker; and a driver that walks login and consent by
 * accessible labels and roles (overridable in the target profile, `oauth.screens`).
 *
 * Secrets: the password is typed with CDP `Input.insertText` (Playwright's `fill`/`type` step
 * titles would carry the value into the reports); codes and tokens are registered with
 * `addSecret` as soon as they are seen; traces, screenshots and videos do not exist (the base
 * test has no artifact fixtures, and `--trace on` stops the run); a test's own pages are closed
 * before its context.
 */
import { chromium, type Browser, type BrowserContext, type BrowserType, type Locator, type Page, type Response } from '@playwright/test';
import { existsSync } from 'node:fs';
import type { AuthorizeParams, TokenRequest } from '../../contracts/requests.js';
import type { ApiResponse } from './api.js';
import { CallbackReceiver, payloadOf, type CallbackHit } from './callback-receiver.js';
import { addSecret, loadConfig } from './config.js';
import { redactValue } from './redact.js';
import { rule as baseRule, test as base, type RuleTestOptions } from './test.js';

export const OAUTH_SCOPE = 'developer/v1/all';

/** Chromium command-line switches for a quiet, headless, sandbox-free run. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Where Chromium is looked for, in order, and what was found. */
export function findChromium(playwrightChromium?: BrowserType): { path?: string; searched: string[] } {
  const cfg = loadConfig();
  const candidates: [string, string | undefined][] = [['CRM_CHROMIUM_PATH', cfg.chromiumPath]];
  let own: string | undefined;
  try { own = playwrightChromium?.executablePath(); } catch { own = undefined; }
  candidates.push(["Playwright's own Chromium", own]);
  // The headless shell first: it drives the same screens on a third of the CPU of the full browser.
  for (const p of ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) candidates.push([p, p]);
  const searched: string[] = [];
  for (const [label, p] of candidates) {
    searched.push(p && label !== p ? `${label} (${p})` : p ?? `${label} (unset)`);
    if (p && existsSync(p)) return { path: p, searched };
  }
  return { searched };
}

export type Screen = 'login' | 'consent' | 'other';

/** Where an authorization attempt ended. */
export interface FlowOutcome {
  /** The request the callback receiver got, when the browser reached it. */
  hit?: CallbackHit;
  /** Screens shown on the way, in order. */
  screens: Screen[];
  /** The screen the browser stopped at without reaching the callback. */
  stoppedAt?: Screen;
  /** HTTP status of the last page of the authorization host. */
  status?: number;
  /** The URL (origin and path only) of the last page. */
  lastPage?: string;
}

export interface FlowOptions {
  /** What to press on the consent screen (default: stop there). */
  decision?: 'authorize' | 'deny';
  /** Log in when the login screen shows (default true); a second login screen always stops. */
  login?: boolean;
  /** Password to type (default: CRM_LOGIN_PASSWORD). */
  password?: string;
  timeoutMs?: number;
  /**
   * In a page of the worker's session (a browser context shared by the worker's tests that judge
   * the request, the consent or the callback rather than the login: it logs in once), not in the
   * test's own fresh context.
   */
  inSession?: boolean;
}

export interface OAuthKit {
  /** The test's own page, in a fresh browser context (nobody logged in), created by the first `run`. */
  readonly page: Page;
  readonly context: BrowserContext;
  receiver: CallbackReceiver;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The registered redirect URI (profile `oauth.redirect_uris[0]`, `{public}` = the receiver's base URL). */
  redirectUri: string;
  /** `{auth_url}/oauth/authorize?…` with the valid parameters, overridden (undefined ⇒ left out). */
  authorizeUrl(overrides?: Record<string, string | undefined>): string;
  /** Opens `url` in the test's page and walks login and consent. */
  run(url: string, options?: FlowOptions): Promise<FlowOutcome>;
  /**
   * A valid authorization ending in a code (from the callback's payload), in the test's own page;
   * with `inSession`, in a page of the worker's session instead: a browser context shared by the
   * worker's tests that need a code rather than a login (it logs in once, then only consents).
   */
  obtainCode(options?: { state?: string; page?: Page; inSession?: boolean }): Promise<{ code: string; hit: CallbackHit }>;
  /** The valid token request form for `code`, overridden (undefined ⇒ left out). */
  tokenForm(code: string, overrides?: Record<string, string | undefined>): Record<string, string>;
  /** `POST {auth_url}/oauth/token` (form-encoded), recorded and redacted. */
  exchange(form: Record<string, string>, headers?: Record<string, string>): Promise<ApiResponse>;
  /** The access token of a token answer (JSON or not), registered as a secret; undefined if none. */
  accessTokenOf(res: ApiResponse): string | undefined;
}

/** A worker resource, or why there is none (the tests that need it skip with that reason). */
export interface WorkerResource<T> { value?: T; reason?: string }

interface OAuthFixtures {
  oauth: OAuthKit;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SECRET_TOKEN_MEMBERS = ['access_token', 'refresh_token', 'id_token'];

/** Pulls token values out of a token answer (JSON, form-encoded, or text) and registers them. */
function registerTokens(res: ApiResponse): string | undefined {
  let first: string | undefined;
  const take = (k: string, v: unknown) => {
    if (typeof v === 'string' && v) { addSecret(v); if (k === 'access_token') first ??= v; }
  };
  if (res.isJson && res.body && typeof res.body === 'object') for (const k of SECRET_TOKEN_MEMBERS) take(k, (res.body as Record<string, unknown>)[k]);
  if (!res.isJson && res.text) {
    try { const form = new URLSearchParams(res.text.trim()); for (const k of SECRET_TOKEN_MEMBERS) take(k, form.get(k) ?? undefined); } catch { /* not a form */ }
    for (const m of res.text.matchAll(/(access_token|refresh_token|id_token)["']?\s*[:=]\s*["']?([^"'&\s,;}<]+)/g)) take(m[1], m[2]);
  }
  // The exchange was recorded before the values were known: redact it again.
  res.exchange.responseBody = redactValue(res.exchange.responseBody);
  return first;
}

async function bindReceiver(): Promise<WorkerResource<CallbackReceiver>> {
  const cfg = loadConfig();
  const template = cfg.profile.oauth.redirect_uris[0] ?? '{public}/oauth/callback';
  const path = template.startsWith('{public}') ? new URL(template.replace('{public}', 'http://x.invalid'), 'http://x.invalid').pathname : new URL(template).pathname;
  if (!cfg.publicUrl) {
    return { value: await CallbackReceiver.start({ https: cfg.callback.https, path }) };
  }
  const pub = new URL(cfg.publicUrl);
  const port = cfg.callback.port ?? (pub.port ? Number(pub.port) : undefined);
  if (!port) return { reason: `CRM_PUBLIC_URL=${cfg.publicUrl} is set but the local port of the OAuth callback receiver is not: set CRM_CALLBACK_PORT (the port CRM_PUBLIC_URL forwards to)` };
  // Another worker may hold the port for a while: retry with a deadline.
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return { value: await CallbackReceiver.start({ https: cfg.callback.https, path, host: '0.0.0.0', port, publicUrl: cfg.publicUrl }) };
    } catch (err) {
      if (Date.now() > deadline || !/in use/.test((err as Error).message)) throw err;
      await sleep(500);
    }
  }
}

/**
 * The worker fixtures `oauthBrowser` and `callbackReceiver` are declared in the base `test`
 * (specs/support/test.ts) and set up by these functions, loaded only when a test asks for them:
 * every spec then has the same worker fixtures, so every test can run in every worker (one
 * phase of workers for the whole run, rather than one per kind of test).
 */
export async function launchOAuthBrowser(use: (r: WorkerResource<Browser>) => Promise<void>): Promise<void> {
  const found = findChromium(chromium);
  if (!found.path) {
    await use({ reason: `no Chromium found; searched: ${found.searched.join(', ')}. Set CRM_CHROMIUM_PATH to a Chromium or Chrome executable.` });
    return;
  }
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: found.path, headless: true, args: CHROMIUM_ARGS });
  } catch (err) {
    await use({ reason: `Chromium at ${found.path} did not start: ${(err as Error).message.split('\n')[0]}` });
    return;
  }
  await use({ value: browser });
  await browser.close();
}

export async function startCallbackReceiver(use: (r: WorkerResource<CallbackReceiver>) => Promise<void>): Promise<void> {
  let r: WorkerResource<CallbackReceiver>;
  try {
    r = await bindReceiver();
  } catch (err) {
    r = { reason: `the OAuth callback receiver did not start: ${(err as Error).message}` };
  }
  await use(r);
  await r.value?.close();
}

export const test = base.extend<OAuthFixtures>({
  oauth: async ({ oauthBrowser, callbackReceiver, api, target, profile }, use, testInfo) => {
    const o = target.oauth;
    testInfo.skip(!o.clientId || !o.clientSecret || !o.loginEmail || !o.loginPassword,
      'OAuth is not configured: set CRM_CLIENT_ID, CRM_CLIENT_SECRET, CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD');
    testInfo.skip(!oauthBrowser.value, oauthBrowser.reason ?? 'no browser');
    testInfo.skip(!callbackReceiver.value, callbackReceiver.reason ?? 'no callback receiver');
    const browser = oauthBrowser.value!;
    const receiver = callbackReceiver.value!;
    // The test's own context, made when first needed (tests that only need a code use the session).
    let own: { context: BrowserContext; page: Page } | undefined;
    const ownPage = async () => {
      if (!own) {
        const context = await newContext(browser);
        own = { context, page: await context.newPage() };
      }
      return own.page;
    };
    const screens = profile.oauth.screens;
    const redirectUri = (profile.oauth.redirect_uris[0] ?? '{public}/oauth/callback').replace('{public}', receiver.url);
    const authUrl = target.authUrl;

    const authorizeUrl = (overrides: Record<string, string | undefined> = {}) => {
      const valid: AuthorizeParams = { response_type: 'code', client_id: o.clientId!, redirect_uri: redirectUri, scope: OAUTH_SCOPE };
      const params: Record<string, string | undefined> = { ...valid, ...overrides };
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
      return `${authUrl}/oauth/authorize?${q.toString()}`;
    };

    const run = async (url: string, options: FlowOptions = {}) => {
      const flow = { email: o.loginEmail!, password: options.password ?? o.loginPassword!, ...options };
      if (!options.inSession) return drive(await ownPage(), receiver, screens, url, flow);
      return drive(await sessionPage(browser), receiver, screens, url, flow);
    };
    const made = (what: 'page' | 'context') => {
      if (!own) throw new Error(`oauth.${what} is created by the first oauth.run (or oauth.obtainCode without inSession)`);
      return own;
    };

    const kit: OAuthKit = {
      get page() { return made('page').page; },
      get context() { return made('context').context; },
      receiver, authUrl, clientId: o.clientId!, clientSecret: o.clientSecret!, redirectUri,
      authorizeUrl,
      run,
      async obtainCode(options = {}) {
        const url = authorizeUrl({ state: options.state });
        const valid = { email: o.loginEmail!, password: o.loginPassword!, decision: 'authorize' } as const;
        const outcome = options.page ? await drive(options.page, receiver, screens, url, valid) : await run(url, { decision: 'authorize', inSession: options.inSession });
        const code = outcome.hit ? payloadOf(outcome.hit).code ?? outcome.hit.query.code : undefined;
        if (!outcome.hit || !code) {
          throw new Error(`precondition: a valid authorization (log in, Authorize) gave no code: ${describeOutcome(outcome)}`);
        }
        return { code, hit: outcome.hit };
      },
      tokenForm(code, overrides = {}) {
        const valid: TokenRequest = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: o.clientId!, client_secret: o.clientSecret! };
        const form: Record<string, string | undefined> = { ...valid, ...overrides };
        return Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
      },
      async exchange(form, headers) {
        const res = await api.send({ method: 'POST', path: `${authUrl}/oauth/token`, form, auth: 'none', headers, honour429: true });
        registerTokens(res);
        return res;
      },
      accessTokenOf: (res) => registerTokens(res),
    };
    await use(kit);
    if (!own) return;
    // Close the pages first: no page snapshot of a failed test (it could show a typed value).
    for (const p of own.context.pages()) await closePage(p);
    await bounded(own.context.close(), CLOSE_MS);
  },
});

/** How long closing a page or a context may take before the suite stops waiting for it. */
const CLOSE_MS = 3_000;

/** Resolves when `p` settles or after `ms`, whichever comes first; never rejects. */
const bounded = (p: Promise<unknown>, ms: number): Promise<void> =>
  Promise.race([p.then(() => undefined, () => undefined), new Promise<void>((r) => setTimeout(r, ms).unref())]);

/**
 * Closes a page, bounded: the page has just been sent to the callback and may still be loading
 * its answer, and the headless shell can then take the full test timeout to close it (seen under
 * load). The load gets a moment to finish first; a page that still does not close is left to the
 * context (or the browser) to close.
 */
async function closePage(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: 1_000 }).catch(() => undefined);
  await bounded(page.close(), CLOSE_MS);
}

const newContext = (browser: Browser) => browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: false, serviceWorkers: 'block' });

/**
 * The worker's session: one browser context and one page per browser, shared by the tests that
 * judge the request, the consent or the callback rather than the login. Each flow navigates the
 * same page (a new page per flow cost a renderer process each); a page that was closed or
 * crashed is replaced.
 */
const sessions = new WeakMap<Browser, Promise<{ context: BrowserContext; page: Page }>>();
async function sessionPage(browser: Browser): Promise<Page> {
  let session = sessions.get(browser);
  if (!session) {
    session = newContext(browser).then(async (context) => ({ context, page: await context.newPage() }));
    sessions.set(browser, session);
  }
  const s = await session;
  if (s.page.isClosed()) s.page = await s.context.newPage();
  return s.page;
}

/** A one-line account of an outcome that never shows parameter values (they may be secrets). */
export function describeOutcome(x: FlowOutcome): string {
  const shown = x.screens.length ? `screens shown: ${x.screens.join(' → ')}` : 'no login or consent screen';
  if (x.hit) {
    const p = payloadOf(x.hit);
    return `${shown}; the callback got ${x.hit.method} ${x.hit.path} with members [${Object.keys(p).join(', ')}]${x.hit.method !== 'POST' ? ` (query members [${Object.keys(x.hit.query).join(', ')}])` : ''}`;
  }
  return `${shown}; the browser stopped at ${x.stoppedAt ?? 'an unknown page'}${x.lastPage ? ` (${x.lastPage}${x.status ? `, status ${x.status}` : ''})` : ''} without reaching the callback`;
}

interface DriveOptions extends FlowOptions { email: string; password: string }

/**
 * Opens `url` and reacts to what shows: the login screen (logs in once), the consent screen
 * (presses the decision, or stops), a page that submits itself (waits), anything else (stops).
 * Ends when the callback receiver gets a request or the browser stops. Polls with a deadline.
 */
async function drive(page: Page, receiver: CallbackReceiver, screens: { email_label: string; password_label: string; login_button: string; authorize_button: string; deny_button: string }, url: string, o: DriveOptions): Promise<FlowOutcome> {
  const mark = receiver.mark();
  const deadline = Date.now() + (o.timeoutMs ?? 20_000);
  const outcome: FlowOutcome = { screens: [] };
  let loads = 0;
  const onLoad = () => { loads++; };
  const onResponse = (r: Response) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame() && !r.url().startsWith(receiver.url) && !r.url().startsWith(receiver.localUrl)) {
      outcome.status = r.status();
      try { const u = new URL(r.url()); outcome.lastPage = u.origin + u.pathname; } catch { /* ignore */ }
    }
  };
  page.on('load', onLoad);
  page.on('response', onResponse);
  /** Waits for the callback or the next page load after `since`; polls with the deadline. */
  const next = async (since: number, limit = deadline): Promise<'hit' | 'load' | 'timeout'> => {
    for (;;) {
      if (receiver.hits.length > mark) return 'hit';
      if (loads > since) return 'load';
      if (Date.now() >= Math.min(limit, deadline)) return 'timeout';
      await sleep(25);
    }
  };
  const done = (hitOrStop: Partial<FlowOutcome>): FlowOutcome => Object.assign(outcome, hitOrStop);
  let loggedIn = false;
  let decided = false;
  try {
    let since = loads;
    await page.goto(url, { waitUntil: 'commit', timeout: 15_000 }).catch((err: Error) => {
      // A page that hands over at once (an error sent to the callback) interrupts the navigation.
      if (!/interrupted|ERR_ABORTED|frame was detached/i.test(err.message)) throw err;
    });
    for (;;) {
      const got = await next(since);
      if (got === 'hit') {
        // Let the callback's own page finish loading before the caller looks at it.
        await receiver.waitForHit(mark, 0);
        return done({ hit: receiver.hits[mark] });
      }
      if (got === 'timeout') return done({ stoppedAt: outcome.stoppedAt ?? 'other' });
      since = loads;
      const screen = await classify(page, screens);
      if (screen === 'navigating') continue;
      if (screen === 'login') {
        outcome.screens.push('login');
        if (loggedIn || o.login === false) {
          // A login screen that kept the typed password must not be in a failure's page snapshot.
          if (loggedIn) await page.getByLabel(screens.password_label).first().clear({ timeout: 2_000 }).catch(() => undefined);
          return done({ stoppedAt: 'login' });
        }
        await page.getByLabel(screens.email_label).first().fill(o.email);
        await typeSecret(page, page.getByLabel(screens.password_label).first(), o.password);
        since = loads;
        await page.getByRole('button', { name: screens.login_button }).first().click();
        loggedIn = true;
        continue;
      }
      if (screen === 'consent') {
        outcome.screens.push('consent');
        if (!o.decision || decided) return done({ stoppedAt: 'consent' });
        since = loads;
        await page.getByRole('button', { name: o.decision === 'authorize' ? screens.authorize_button : screens.deny_button }).first().click();
        decided = true;
        continue;
      }
      if (screen === 'self-submitting') {
        // A page that submits itself to the callback: give it a few seconds.
        const r = await next(since, Date.now() + 5_000);
        if (r === 'hit') return done({ hit: receiver.hits[mark] });
        if (r === 'load') continue;
        return done({ stoppedAt: 'other' });
      }
      // A page with nothing to submit (an error page): the attempt ends here.
      return done({ stoppedAt: 'other' });
    }
  } finally {
    page.off('load', onLoad);
    page.off('response', onResponse);
  }
}

type Classified = 'login' | 'consent' | 'self-submitting' | 'final' | 'navigating';

async function classify(page: Page, s: { password_label: string; login_button: string; authorize_button: string }): Promise<Classified> {
  try {
    if (await page.getByLabel(s.password_label).first().isVisible()) return 'login';
    if (await page.getByRole('button', { name: s.authorize_button }).first().isVisible()) return 'consent';
    const forms = await page.locator('form, meta[http-equiv="refresh" i]').count();
    return forms > 0 ? 'self-submitting' : 'final';
  } catch {
    return 'navigating';
  }
}

/**
 * Types a secret into a field without it reaching a report: focuses the field, then inserts the
 * text through the Chrome DevTools Protocol (a step titled "Send CDP command", no value).
 */
export async function typeSecret(page: Page, field: Locator, value: string): Promise<void> {
  await field.click();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.insertText', { text: value });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

type OAuthBody = Parameters<typeof test>[2];
type BaseBody = Parameters<typeof baseRule>[2];

/** `rule` of specs/support/test.ts, typed for the OAuth fixtures: `test(...rule('OAUTH-4', '…', async ({ oauth }) => { … }))`. */
export function rule(ruleId: string, behaviour: string, body: OAuthBody, options: RuleTestOptions = {}): [string, ReturnType<typeof baseRule>[1], OAuthBody] {
  const [title, details, wrapped] = baseRule(ruleId, behaviour, body as unknown as BaseBody, options);
  return [title, details, wrapped as unknown as OAuthBody];
}

export { expect } from './test.js';
