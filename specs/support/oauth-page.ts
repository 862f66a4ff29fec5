/**
 * The OAuth page driver: walks the authorization host's login and consent screens in a real
 * browser until the callback receiver gets a request or the browser stops. The controls are found
 * by what they are (oauth-controls.ts). When the suite cannot log in (no login form it
 * recognises, the login refused, no page after it, a page it cannot answer before the consent
 * screen) the outcome says so in `cannotLogIn`, with the setting to change: the caller then does
 * not judge the server on it. Also the worker's logged-in session (one context, one page) for the
 * tests that only need a code or a callback.
 *
 * Secrets: the password is typed with CDP `Input.insertText` (Playwright's `fill`/`type` step
 * titles would carry the value into the reports); a test's own pages are closed before its
 * context, so no page snapshot shows a typed value. Descriptions of a page name its fields and
 * buttons, never a value.
 */
import type { Browser, BrowserContext, Locator, Page, Response } from '@playwright/test';
import { payloadOf, type CallbackHit, type CallbackReceiver } from './resources/callback-receiver.js';
import { classify, consentControl, describePage, fillableBeside, nameOf, refusal, refusalFix, submitControl, type Screens } from './oauth-controls.js';
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
  /**
   * The suite could not log in or reach the consent screen: not a verdict on the server. `problem`
   * says what happened, `fix` which setting to change (a profile member or a variable).
   */
  cannotLogIn?: LoginProblem;
}

/** Why the suite could not get through the login (never a value typed or shown). */
export interface LoginProblem {
  problem: string;
  fix: string;
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

/** How long closing a page or a context may take before the suite stops waiting for it. */
export const CLOSE_MS = 3_000;

/** Resolves when `p` settles or after `ms`, whichever comes first; never rejects. */
export const bounded = (p: Promise<unknown>, ms: number): Promise<void> =>
  Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => setTimeout(r, ms).unref()),
  ]);

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
  const stopped = `${shown}; the browser stopped at ${x.stoppedAt ?? 'an unknown page'}${x.lastPage ? ` (${x.lastPage}${x.status ? `, status ${x.status}` : ''})` : ''} without reaching the callback`;
  return x.cannotLogIn ? `${stopped}: the suite cannot log in: ${x.cannotLogIn.problem}` : stopped;
}

export interface DriveOptions extends FlowOptions {
  email: string;
  password: string;
}

/**
 * Opens `url` and reacts to what shows: the login screen (logs in once), the consent screen
 * (presses the decision, or stops), a page that submits itself (waits), anything else (stops).
 * Ends when the callback receiver gets a request or the browser stops, within a deadline.
 */
export async function drive(page: Page, receiver: CallbackReceiver, screens: Screens, url: string, o: DriveOptions): Promise<FlowOutcome> {
  const mark = receiver.mark();
  const deadline = Date.now() + (o.timeoutMs ?? 20_000);
  const outcome: FlowOutcome = { screens: [] };
  let loads = 0;
  /** When the page last loaded (Date.now(), as a callback's `at`). */
  let loadedAt = 0;
  const onLoad = () => {
    loads++;
    loadedAt = Date.now();
  };
  const onResponse = (r: Response) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame() && !r.url().startsWith(receiver.url) && !r.url().startsWith(receiver.localUrl)) {
      outcome.status = r.status();
      try {
        const u = new URL(r.url());
        outcome.lastPage = u.origin + u.pathname;
      } catch {
        /* ignore */
      }
    }
  };
  page.on('load', onLoad);
  page.on('response', onResponse);
  /** Waits until `ready()` holds or the limit passes, woken by a page load or a callback (no polling). */
  const until = async (ready: () => boolean, limit: number): Promise<boolean> => {
    for (;;) {
      if (ready()) return true;
      const left = Math.min(limit, deadline) - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((woken) => {
        const wake = () => {
          clearTimeout(timer);
          cancelHit();
          page.off('load', wake);
          woken();
        };
        const timer = setTimeout(wake, left);
        const cancelHit = receiver.nextHit(wake);
        page.on('load', wake);
      });
    }
  };
  /** Waits for the callback or the next page load after `since`, until the deadline. */
  const next = async (since: number, limit = deadline): Promise<'hit' | 'load' | 'timeout'> => {
    await until(() => receiver.hits.length > mark || loads > since, limit);
    return receiver.hits.length > mark ? 'hit' : loads > since ? 'load' : 'timeout';
  };
  /**
   * The callback reached: the flow ends once the receiver's page has loaded (briefly bounded), so
   * that its load is not taken for a page of the next flow on the same page.
   */
  const reached = async (): Promise<FlowOutcome> => {
    const hit = receiver.hits[mark];
    await until(() => loadedAt >= hit.at, Date.now() + 2_000);
    return done({ hit });
  };
  const done = (hitOrStop: Partial<FlowOutcome>): FlowOutcome => Object.assign(outcome, hitOrStop);
  const cannot = (stoppedAt: Screen, problem: string, fix: string) => done({ stoppedAt, cannotLogIn: { problem, fix } });
  let loggedIn = false;
  let decided = false;
  /** What the suite did last: a login form submitted (and how it was filled), or nothing yet. */
  let submitted: { step: 'password' | 'email'; userFound: boolean; by: string } | undefined;
  let emailSteps = 0;
  try {
    let since = loads;
    await page.goto(url, { waitUntil: 'commit', timeout: 15_000 }).catch((err: Error) => {
      // A page that hands over at once (an error sent to the callback) interrupts the navigation.
      if (!/interrupted|ERR_ABORTED|frame was detached/i.test(err.message)) throw err;
    });
    for (;;) {
      const got = await next(since);
      if (got === 'hit') return await reached();
      if (got === 'timeout') {
        if (submitted && !outcome.screens.includes('consent')) {
          return cannot(
            'other',
            `no page followed the login form (submitted ${submitted.by}) within ${Math.round((o.timeoutMs ?? 20_000) / 1000)} s`,
            'set oauth.screens.login_button (and next_button for an e-mail-first login) in the target profile to the name of the button that submits the login',
          );
        }
        return done({ stoppedAt: outcome.stoppedAt ?? 'other' });
      }
      since = loads;
      const view = await classify(page, screens);
      if (view.kind === 'navigating') continue;
      if (view.kind === 'login') {
        outcome.screens.push('login');
        if (loggedIn || o.login === false) {
          // A login screen that kept the typed password must not be in a failure's page snapshot.
          if (loggedIn) await view.password?.clear({ timeout: 2_000 }).catch(() => undefined);
          if (loggedIn && o.login !== false) return cannot('login', refusal(view, submitted!), refusalFix(submitted!));
          return done({ stoppedAt: 'login' });
        }
        // "The user logs in": on one page, or the e-mail first and the password on the next.
        if (!view.password) {
          emailSteps++;
          if (emailSteps > 1) return cannot('login', refusal(view, submitted!), refusalFix(submitted!));
        }
        if (view.password && !view.user && (await fillableBeside(view.password).count()) > 0) {
          // Fields to fill beside the password, none known as the user's: no login is tried (a failed one may count against the account).
          return cannot(
            'login',
            `the login page has a password field but no field it recognises as the e-mail or user field (${await describePage(page)})`,
            "set oauth.screens.email_label in the target profile to the label of the login page's e-mail or user field",
          );
        }
        if (view.user && !(await view.user.inputValue().catch(() => ''))) await view.user.fill(o.email);
        if (view.password) await typeSecret(page, view.password, o.password);
        const field = (view.password ?? view.user)!;
        const label = view.password ? screens.login_button : screens.next_button || screens.login_button;
        const submit = await submitControl(page, field, label);
        submitted = {
          step: view.password ? 'password' : 'email',
          userFound: !!view.user || emailSteps > 0,
          by: submit ? `with ${await nameOf(submit)}` : 'by pressing Enter (no submit control found)',
        };
        since = loads;
        if (submit) await submit.click();
        else await field.press('Enter');
        loggedIn = !!view.password;
        continue;
      }
      if (view.kind === 'consent') {
        outcome.screens.push('consent');
        submitted = undefined;
        if (!o.decision || decided) return done({ stoppedAt: 'consent' });
        const control = o.decision === 'authorize' ? view.authorize : view.deny;
        if (!control) {
          // The consent screen shows without the control asked for: the spec's screen has both.
          const member = o.decision === 'authorize' ? 'authorize_button' : 'deny_button';
          return cannot(
            'consent',
            `the consent screen has no "${o.decision === 'authorize' ? 'Authorize' : 'Deny'}" control (${await describePage(page)})`,
            `set oauth.screens.${member} in the target profile to the name of that button, if it has another name`,
          );
        }
        since = loads;
        await control.click();
        decided = true;
        continue;
      }
      if (view.kind === 'self-submitting') {
        // A page that submits itself to the callback: give it a few seconds.
        const r = await next(since, Date.now() + 5_000);
        if (r === 'hit') return await reached();
        if (r === 'load') continue;
        return done({ stoppedAt: 'other' });
      }
      if (view.kind === 'unrecognised' && !outcome.screens.includes('consent') && !decided) {
        // A page that waits for the user, before any consent screen: the suite does not know how to answer it.
        const what = await describePage(page);
        if (view.fields > 0 && !loggedIn) {
          return cannot(
            'other',
            `no login form it recognises on ${outcome.lastPage ?? 'the first page'} (${what}; none is an e-mail or user field, a password field, or the spec's Authorize or Deny)`,
            "set oauth.screens.email_label, password_label and login_button in the target profile to the labels of the login page's fields and button",
          );
        }
        return cannot(
          'other',
          `${loggedIn ? `after the login (submitted ${submitted?.by})` : 'where the consent screen should be'}, a page it does not recognise as login or consent (${what})`,
          "set oauth.screens.authorize_button and deny_button in the target profile to the names of the consent screen's buttons; a page that asks for more (a second factor, a terms page) needs an account without it (CRM_LOGIN_EMAIL)",
        );
      }
      // A page with nothing to submit (an error page): the attempt ends here.
      return done({ stoppedAt: 'other' });
    }
  } finally {
    page.off('load', onLoad);
    page.off('response', onResponse);
  }
}

/** What a login as the OAuth specs do it came to (`crm-conformance doctor`'s check). */
export interface LoginCheck {
  outcome: FlowOutcome;
  authorize: boolean;
  deny: boolean;
}

/**
 * Logs in as the OAuth specs do, in a fresh browser context, up to the consent screen (nothing is
 * authorized): the outcome, and whether the consent screen shows each control. The context is
 * closed before returning (its pages first: no snapshot keeps a typed value).
 */
export async function tryLogin(browser: Browser, receiver: CallbackReceiver, screens: Screens, url: string, o: DriveOptions): Promise<LoginCheck> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    const outcome = await drive(page, receiver, screens, url, { ...o, decision: undefined });
    const consent = outcome.stoppedAt === 'consent';
    const [authorize, deny] = consent
      ? await Promise.all([consentControl(page, screens, 'authorize').isVisible(), consentControl(page, screens, 'deny').isVisible()])
      : [false, false];
    return { outcome, authorize, deny };
  } finally {
    for (const p of context.pages()) await closePage(p);
    await bounded(context.close(), CLOSE_MS);
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
