/**
 * The OAuth page driver: walks the authorization host's login and consent screens in a real
 * browser by accessible labels and roles (overridable in the target profile, `oauth.screens`),
 * until the callback receiver gets a request or the browser stops. Also the worker's logged-in
 * session (one context, one page) for the tests that only need a code or a callback.
 *
 * Secrets: the password is typed with CDP `Input.insertText` (Playwright's `fill`/`type` step
 * titles would carry the value into the reports); a test's own pages are closed before its
 * context, so no page snapshot shows a typed value.
 */
import type { Browser, BrowserContext, Locator, Page, Response } from '@playwright/test';
import { payloadOf, type CallbackHit, type CallbackReceiver } from './resources/callback-receiver.js';
import type { TargetProfile } from '../../contracts/profile.js';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long closing a page or a context may take before the suite stops waiting for it. */
export const CLOSE_MS = 3_000;

/** Resolves when `p` settles or after `ms`, whichever comes first; never rejects. */
export const bounded = (p: Promise<unknown>, ms: number): Promise<void> =>
  Promise.race([p.then(() => undefined, () => undefined), new Promise<void>((r) => setTimeout(r, ms).unref())]);

/**
 * Closes a page, bounded: the page has just been sent to the callback and may still be loading
 * its answer, and the headless shell can then take the full test timeout to close it (seen under
 * load). The load gets a moment to finish first; a page that still does not close is left to the
 * context (or the browser) to close.
 */
export async function closePage(page: Page): Promise<void> {
  await page.waitForLoadState('load', { timeout: 1_000 }).catch(() => undefined);
  await bounded(page.close(), CLOSE_MS);
}

export const newContext = (browser: Browser) => browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: false, serviceWorkers: 'block' });

/**
 * The worker's session: one browser context and one page per browser, shared by the tests that
 * judge the request, the consent or the callback rather than the login. Each flow navigates the
 * same page (a new page per flow cost a renderer process each); a page that was closed or
 * crashed is replaced.
 */
const sessions = new WeakMap<Browser, Promise<{ context: BrowserContext; page: Page }>>();
export async function sessionPage(browser: Browser): Promise<Page> {
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

export interface DriveOptions extends FlowOptions { email: string; password: string }

/**
 * Opens `url` and reacts to what shows: the login screen (logs in once), the consent screen
 * (presses the decision, or stops), a page that submits itself (waits), anything else (stops).
 * Ends when the callback receiver gets a request or the browser stops. Polls with a deadline.
 */
export async function drive(page: Page, receiver: CallbackReceiver, screens: TargetProfile['oauth']['screens'], url: string, o: DriveOptions): Promise<FlowOutcome> {
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
        // "The user logs in": on one page, or the e-mail first and the password on the next.
        const email = page.getByLabel(screens.email_label).first();
        const password = page.getByLabel(screens.password_label).first();
        const withPassword = await password.isVisible();
        if (await email.isVisible() && !(await email.inputValue().catch(() => ''))) await email.fill(o.email);
        if (withPassword) await typeSecret(page, password, o.password);
        const next = page.getByRole('button', { name: screens.next_button }).first();
        since = loads;
        await (withPassword || !(await next.isVisible()) ? page.getByRole('button', { name: screens.login_button }).first() : next).click();
        loggedIn = withPassword;
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

async function classify(page: Page, s: { email_label: string; password_label: string; login_button: string; authorize_button: string }): Promise<Classified> {
  try {
    if (await page.getByLabel(s.password_label).first().isVisible()) return 'login';
    if (await page.getByRole('button', { name: s.authorize_button }).first().isVisible()) return 'consent';
    // An e-mail-first login's first step: the e-mail alone (after the consent check: a consent
    // screen may show an e-mail field of its own, to switch accounts, say).
    if (await page.getByLabel(s.email_label).first().isVisible()) return 'login';
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
