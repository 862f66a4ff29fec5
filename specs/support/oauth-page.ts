/**
 * The OAuth page driver: walks the authorization host's login and consent screens in a real
 * browser until the callback receiver gets a request or the browser stops: what it does on each
 * screen is oauth-screens.ts, the controls are found by what they are (oauth-controls.ts), this
 * module runs the flow. When the suite cannot log in (no login form it
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
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { payloadOf, type CallbackReceiver } from './resources/callback-receiver.js';
import { classify, consentControl, type Screens } from './oauth-controls.js';
import { onScreen, onTimeout, Walk, type DriveOptions, type FlowOutcome } from './oauth-screens.js';
export type { DriveOptions, FlowOptions, FlowOutcome, LoginProblem, Screen } from './oauth-screens.js';

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

/**
 * Opens `url` and reacts to what shows: the login screen (logs in once), the consent screen
 * (presses the decision, or stops), a page that submits itself (waits), anything else (stops).
 * Ends when the callback receiver gets a request or the browser stops, within a deadline.
 */
export async function drive(page: Page, receiver: CallbackReceiver, screens: Screens, url: string, o: DriveOptions): Promise<FlowOutcome> {
  const w = new Walk(page, receiver, screens, o);
  page.on('load', w.onLoad);
  page.on('response', w.onResponse);
  try {
    w.since = w.loads;
    await page.goto(url, { waitUntil: 'commit', timeout: 15_000 }).catch((err: Error) => {
      // A page that hands over at once (an error sent to the callback) interrupts the navigation.
      if (!/interrupted|ERR_ABORTED|frame was detached/i.test(err.message)) throw err;
    });
    for (;;) {
      const got = await w.next(w.since);
      if (got === 'hit') return await w.reached();
      if (got === 'timeout') return onTimeout(w);
      w.since = w.loads;
      const view = await classify(page, screens);
      if (view.kind === 'navigating') continue;
      const end = await onScreen(w, view);
      if (end) return end;
    }
  } finally {
    page.off('load', w.onLoad);
    page.off('response', w.onResponse);
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
