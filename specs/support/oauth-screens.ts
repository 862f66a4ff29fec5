/**
 * What the OAuth page driver (oauth-page.ts) does on each screen of the authorization host: the
 * login (logs in once, on one page or the e-mail first), the consent screen (presses the decision,
 * or stops), a page that submits itself (waits), a page it cannot answer (stops, saying which
 * setting to change), and the callback (the flow ends once the receiver's page has loaded). A
 * {@link Walk} is one drive's state: what it saw and did, and its waits (woken by a page load or a
 * callback, never polling). The controls come from oauth-controls.ts.
 */
import type { Locator, Page, Response } from '@playwright/test';
import type { CallbackHit, CallbackReceiver } from './resources/callback-receiver.js';
import { describePage, fillableBeside, nameOf, refusal, refusalFix, submitControl, type Screens, type View } from './oauth-controls.js';

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

export interface DriveOptions extends FlowOptions {
  email: string;
  password: string;
}

/** A login form the suite submitted, and how it was filled. */
interface Submitted {
  step: 'password' | 'email';
  userFound: boolean;
  by: string;
}

/** One drive of the flow in a page: what it saw and did so far, and its waits until the deadline. */
export class Walk {
  /** The receiver's hits before the drive: a hit after them is this drive's. */
  readonly mark: number;
  readonly deadline: number;
  readonly outcome: FlowOutcome = { screens: [] };
  loads = 0;
  /** When the page last loaded (Date.now(), as a callback's `at`). */
  loadedAt = 0;
  /** The page loads counted when the drive last acted: a load after them is the next page. */
  since = 0;
  loggedIn = false;
  decided = false;
  /** What the suite did last: a login form submitted (and how it was filled), or nothing yet. */
  submitted: Submitted | undefined;
  emailSteps = 0;

  constructor(
    readonly page: Page,
    readonly receiver: CallbackReceiver,
    readonly screens: Screens,
    readonly o: DriveOptions,
  ) {
    this.mark = receiver.mark();
    this.deadline = Date.now() + (o.timeoutMs ?? 20_000);
  }

  readonly onLoad = () => {
    this.loads++;
    this.loadedAt = Date.now();
  };

  /** A navigation of the page to the authorization host: its status and URL (origin and path) are the last page's. */
  readonly onResponse = (r: Response) => {
    const { receiver, outcome } = this;
    if (
      r.request().isNavigationRequest() &&
      r.frame() === this.page.mainFrame() &&
      !r.url().startsWith(receiver.url) &&
      !r.url().startsWith(receiver.localUrl)
    ) {
      outcome.status = r.status();
      try {
        const u = new URL(r.url());
        outcome.lastPage = u.origin + u.pathname;
      } catch {
        /* ignore */
      }
    }
  };

  /** Waits until `ready()` holds or the limit passes, woken by a page load or a callback (no polling). */
  async until(ready: () => boolean, limit: number): Promise<boolean> {
    const { page, receiver } = this;
    for (;;) {
      if (ready()) return true;
      const left = Math.min(limit, this.deadline) - Date.now();
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
  }

  /** Waits for the callback or the next page load after `since`, until the deadline. */
  async next(since: number, limit = this.deadline): Promise<'hit' | 'load' | 'timeout'> {
    await this.until(() => this.receiver.hits.length > this.mark || this.loads > since, limit);
    return this.receiver.hits.length > this.mark ? 'hit' : this.loads > since ? 'load' : 'timeout';
  }

  /**
   * The callback reached: the flow ends once the receiver's page has loaded (briefly bounded), so
   * that its load is not taken for a page of the next flow on the same page.
   */
  async reached(): Promise<FlowOutcome> {
    const hit = this.receiver.hits[this.mark];
    await this.until(() => this.loadedAt >= hit.at, Date.now() + 2_000);
    return this.done({ hit });
  }

  done(hitOrStop: Partial<FlowOutcome>): FlowOutcome {
    return Object.assign(this.outcome, hitOrStop);
  }

  cannot(stoppedAt: Screen, problem: string, fix: string): FlowOutcome {
    return this.done({ stoppedAt, cannotLogIn: { problem, fix } });
  }
}

/** What shows now, answered: the outcome when the drive ends here, undefined when it goes on. */
export function onScreen(w: Walk, view: View): Promise<FlowOutcome | undefined> | FlowOutcome | undefined {
  if (view.kind === 'login') return onLogin(w, view);
  if (view.kind === 'consent') return onConsent(w, view);
  if (view.kind === 'self-submitting') return onSelfSubmitting(w);
  if (view.kind === 'unrecognised' && !w.outcome.screens.includes('consent') && !w.decided) return onUnrecognised(w, view);
  // A page with nothing to submit (an error page): the attempt ends here.
  return w.done({ stoppedAt: 'other' });
}

/** No callback and no page came before the deadline: after a login form, the suite cannot log in. */
export function onTimeout(w: Walk): FlowOutcome {
  if (w.submitted && !w.outcome.screens.includes('consent')) {
    return w.cannot(
      'other',
      `no page followed the login form (submitted ${w.submitted.by}) within ${Math.round((w.o.timeoutMs ?? 20_000) / 1000)} s`,
      'set oauth.screens.login_button (and next_button for an e-mail-first login) in the target profile to the name of the button that submits the login',
    );
  }
  return w.done({ stoppedAt: w.outcome.stoppedAt ?? 'other' });
}

/** The login screen: "the user logs in", on one page or the e-mail first and the password on the next; a second login screen stops. */
async function onLogin(w: Walk, view: Extract<View, { kind: 'login' }>): Promise<FlowOutcome | undefined> {
  const { page, screens, o } = w;
  w.outcome.screens.push('login');
  // After the consent was decided, the login worked (or the session held): a login screen then is where the host's flow stopped (no code),
  // neither a login the suite cannot do nor one to do again.
  if (w.decided || w.loggedIn || o.login === false) {
    // A login screen that kept the typed password must not be in a failure's page snapshot.
    if (w.loggedIn) await view.password?.clear({ timeout: 2_000 }).catch(() => undefined);
    if (w.loggedIn && o.login !== false && !w.decided) return w.cannot('login', refusal(view, w.submitted!), refusalFix(w.submitted!));
    return w.done({ stoppedAt: 'login' });
  }
  if (!view.password) {
    w.emailSteps++;
    if (w.emailSteps > 1) return w.cannot('login', refusal(view, w.submitted!), refusalFix(w.submitted!));
  }
  if (view.password && !view.user && (await fillableBeside(view.password).count()) > 0) {
    // Fields to fill beside the password, none known as the user's: no login is tried (a failed one may count against the account).
    return w.cannot(
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
  w.submitted = {
    step: view.password ? 'password' : 'email',
    userFound: !!view.user || w.emailSteps > 0,
    by: submit ? `with ${await nameOf(submit)}` : 'by pressing Enter (no submit control found)',
  };
  w.since = w.loads;
  if (submit) await submit.click();
  else await field.press('Enter');
  w.loggedIn = !!view.password;
  return undefined;
}

/** The consent screen: presses the decision asked for (once), or stops there. */
async function onConsent(w: Walk, view: Extract<View, { kind: 'consent' }>): Promise<FlowOutcome | undefined> {
  const { o } = w;
  w.outcome.screens.push('consent');
  w.submitted = undefined;
  if (!o.decision || w.decided) return w.done({ stoppedAt: 'consent' });
  const control = o.decision === 'authorize' ? view.authorize : view.deny;
  if (!control) {
    // The consent screen shows without the control asked for: the spec's screen has both.
    const member = o.decision === 'authorize' ? 'authorize_button' : 'deny_button';
    return w.cannot(
      'consent',
      `the consent screen has no "${o.decision === 'authorize' ? 'Authorize' : 'Deny'}" control (${await describePage(w.page)})`,
      `set oauth.screens.${member} in the target profile to the name of that button, if it has another name`,
    );
  }
  w.since = w.loads;
  await control.click();
  w.decided = true;
  return undefined;
}

/** A page that submits itself to the callback: it gets a few seconds. */
async function onSelfSubmitting(w: Walk): Promise<FlowOutcome | undefined> {
  const r = await w.next(w.since, Date.now() + 5_000);
  if (r === 'hit') return await w.reached();
  if (r === 'load') return undefined;
  return w.done({ stoppedAt: 'other' });
}

/** A page that waits for the user, before any consent screen: the suite does not know how to answer it. */
async function onUnrecognised(w: Walk, view: Extract<View, { kind: 'unrecognised' }>): Promise<FlowOutcome> {
  const what = await describePage(w.page);
  if (view.fields > 0 && !w.loggedIn) {
    return w.cannot(
      'other',
      `no login form it recognises on ${w.outcome.lastPage ?? 'the first page'} (${what}; none is an e-mail or user field, a password field, or the spec's Authorize or Deny)`,
      "set oauth.screens.email_label, password_label and login_button in the target profile to the labels of the login page's fields and button",
    );
  }
  return w.cannot(
    'other',
    `${w.loggedIn ? `after the login (submitted ${w.submitted?.by})` : 'where the consent screen should be'}, a page it does not recognise as login or consent (${what})`,
    "set oauth.screens.authorize_button and deny_button in the target profile to the names of the consent screen's buttons; a page that asks for more (a second factor, a terms page) needs an account without it (CRM_LOGIN_EMAIL)",
  );
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
