/**
 * The controls of the authorization host's pages, found by what they are (spec § Authentication →
 * OAuth 2.0, step 2: "The user logs in … and sees a screen … with Authorize and Deny"): the e-mail
 * or user field, the password input, the form's submit control, and the spec's words "Authorize"
 * and "Deny"; the target profile's `oauth.screens` labels, when set and found on the page, take
 * precedence. `classify` says what a page is (login, consent, a page that submits itself, one the
 * suite cannot answer); `describePage` names a page's fields and buttons for a message, never a
 * value; `refusal` and `refusalFix` say why a login was refused, as far as the page says, and what
 * to set. The driver that acts on them is oauth-page.ts (each screen: oauth-screens.ts).
 */
import type { Locator, Page } from '@playwright/test';
import type { TargetProfile } from '../../contracts/profile.js';

/** Overrides of the profile (`oauth.screens`): accessible names, each optional. */
export type Screens = TargetProfile['oauth']['screens'];

/** The spec's words for the consent screen's controls (§ OAuth 2.0, step 2: "with Authorize and Deny"). */
export const CONSENT_NAMES = { authorize: /^\s*authori[sz]e\s*$/i, deny: /^\s*deny\s*$/i } as const;

/** What a page of the authorization host is, with the controls the driver needs. */
export type View =
  | { kind: 'login'; user?: Locator; password?: Locator; alert?: string }
  | { kind: 'consent'; authorize?: Locator; deny?: Locator }
  | { kind: 'unrecognised'; fields: number }
  | { kind: 'self-submitting' | 'final' | 'navigating' };

/** Text inputs a user types into (no hidden, password, check or button inputs). */
const TEXT_INPUT = 'input:is(:not([type]), [type=""], [type=text i], [type=email i], [type=tel i], [type=url i], [type=search i])';
/** Text inputs still to fill (an e-mail shown read-only on a password step is not). */
const FILLABLE = `${TEXT_INPUT}:not([readonly]):not([disabled])`;
/** What marks an input as the e-mail or user field (besides its label or placeholder). */
const USER_HINT =
  ':is([type=email i], [autocomplete~=username i], [autocomplete~=email i], [name*=user i], [name*=mail i], [name*=login i], [id*=user i], [id*=mail i], [id*=login i])';
const USER_WORDS = /e-?mail|user|login|log-in/i;
/** A form's submit controls (a `<button>` without a type submits). */
const SUBMIT = ':is(button:not([type]), button[type=submit i], input[type=submit i], input[type=image i])';
/** Those that say they submit, first (a `<button>` without a type may be another way in, "Sign in with …"). */
const SUBMIT_TYPED = ':is(button[type=submit i], input[type=submit i])';
const BUTTONS = ':is(button, input[type=submit i], input[type=button i], input[type=image i])';

/** The first visible match of the candidates, in order; undefined when none shows. */
async function pick(...candidates: (Locator | undefined)[]): Promise<Locator | undefined> {
  for (const c of candidates) {
    if (!c) continue;
    const v = c.filter({ visible: true }).first();
    if (await v.isVisible()) return v;
  }
  return undefined;
}

/** A control named `label` (the profile's override), when set. */
const named = (page: Page, label: string | undefined): Locator | undefined =>
  label ? page.getByRole('button', { name: label }).or(page.getByRole('link', { name: label })) : undefined;

/** The e-mail or user field: the profile's label, else an input that says what it is (type, autocomplete, name, id, label, placeholder). */
export function userFieldCandidates(page: Page, s: Screens): Locator[] {
  const text = page.locator(TEXT_INPUT);
  return [
    ...(s.email_label ? [page.getByLabel(s.email_label)] : []),
    page.locator(`${TEXT_INPUT}${USER_HINT}`).or(page.getByLabel(USER_WORDS).and(text)).or(page.getByPlaceholder(USER_WORDS).and(text)),
  ];
}

/** The visible text inputs still to fill in the password's form. */
export const fillableBeside = (password: Locator): Locator => password.locator('xpath=ancestor::form[1]').locator(FILLABLE).filter({ visible: true });

/** The only text input of the password's form (a login form with one such field asks for the user in it), or undefined. */
async function onlyTextInput(password: Locator): Promise<Locator | undefined> {
  const inputs = fillableBeside(password);
  return (await inputs.count()) === 1 ? inputs.first() : undefined;
}

/** The consent control of a decision: the profile's name for it, else the spec's word. */
export function consentControl(page: Page, s: Screens, decision: 'authorize' | 'deny'): Locator {
  const spec = page.getByRole('button', { name: CONSENT_NAMES[decision] }).or(page.getByRole('link', { name: CONSENT_NAMES[decision] }));
  const own = named(page, decision === 'authorize' ? s.authorize_button : s.deny_button);
  return (own ? own.or(spec) : spec).filter({ visible: true }).first();
}

/** What the page shows now; `navigating` when it changed while it was read. */
export async function classify(page: Page, s: Screens): Promise<View> {
  try {
    const password = await pick(s.password_label ? page.getByLabel(s.password_label) : undefined, page.locator('input[type=password i]'));
    if (password) {
      const user = (await pick(...userFieldCandidates(page, s))) ?? (await onlyTextInput(password));
      return { kind: 'login', password, user, alert: await alertOf(page) };
    }
    const [authorize, deny] = await Promise.all([
      pick(
        named(page, s.authorize_button),
        page.getByRole('button', { name: CONSENT_NAMES.authorize }).or(page.getByRole('link', { name: CONSENT_NAMES.authorize })),
      ),
      pick(named(page, s.deny_button), page.getByRole('button', { name: CONSENT_NAMES.deny }).or(page.getByRole('link', { name: CONSENT_NAMES.deny }))),
    ]);
    if (authorize || deny) return { kind: 'consent', authorize, deny };
    // An e-mail-first login's first step: the e-mail alone (after the consent check: a consent
    // screen may show an e-mail field of its own, to switch accounts, say).
    const user = await pick(...userFieldCandidates(page, s));
    if (user) {
      return { kind: 'login', user, alert: await alertOf(page) };
    }
    // A page that waits for the user: fields to fill, or a choice of buttons in a form.
    const fields = await page.locator(`${TEXT_INPUT}, textarea, select`).filter({ visible: true }).count();
    const buttons = await page.locator(`form ${BUTTONS}`).filter({ visible: true }).count();
    if (fields > 0 || buttons > 1) return { kind: 'unrecognised', fields };
    const forms = await page.locator('form, meta[http-equiv="refresh" i]').count();
    return { kind: forms > 0 ? 'self-submitting' : 'final' };
  } catch {
    return { kind: 'navigating' };
  }
}

/** What the page says in an alert or error box (a refused login's reason), if anything: its text, shortened. */
async function alertOf(page: Page): Promise<string | undefined> {
  const box = page.locator('[role=alert], .error, .alert').filter({ visible: true });
  if (!(await box.count())) return undefined;
  const text = await box
    .first()
    .innerText({ timeout: 500 })
    .catch(() => '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 160) || undefined;
}

/** The control that submits `field`'s form: the profile's button, the form's submit control, the page's only button. */
export async function submitControl(page: Page, field: Locator, label: string | undefined): Promise<Locator | undefined> {
  const own = await pick(named(page, label));
  if (own) return own;
  const form = field.locator('xpath=ancestor::form[1]');
  const inForm = await pick(form.locator(SUBMIT_TYPED), form.locator(SUBMIT));
  if (inForm) return inForm;
  const all = page.locator(BUTTONS).or(page.getByRole('button')).filter({ visible: true });
  return (await all.count()) === 1 ? all.first() : undefined;
}

/** A control's accessible name, quoted (for messages). */
export async function nameOf(control: Locator): Promise<string> {
  const name = await control
    .evaluate((el) => (el.tagName === 'INPUT' ? (el as HTMLInputElement).value : (el.textContent ?? '')), undefined, { timeout: 1_000 })
    .catch(() => '');
  return `"${name.replace(/\s+/g, ' ').trim().slice(0, 60)}"`;
}

/**
 * The visible fields and buttons of a page, by kind and label (never a value): what a message
 * says the suite saw, e.g. `fields: text "Who are you" (name q1), password "Password"; buttons: "Go"`.
 */
export async function describePage(page: Page): Promise<string> {
  try {
    const fields = await page
      .locator('input:not([type=hidden i]):not([type=submit i]):not([type=button i]):not([type=image i]), textarea, select')
      .filter({ visible: true })
      .evaluateAll((els) =>
        els.slice(0, 6).map((el) => {
          const e = el as HTMLInputElement;
          const label = (e.labels?.[0]?.textContent ?? e.getAttribute('aria-label') ?? e.getAttribute('placeholder') ?? '')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 40);
          const kind = el.tagName === 'INPUT' ? (e.getAttribute('type') || 'text').toLowerCase() : el.tagName.toLowerCase();
          return `${kind}${label ? ` "${label}"` : ''}${e.name ? ` (name ${e.name.slice(0, 30)})` : ''}`;
        }),
      );
    const buttons = await page
      .locator(`${BUTTONS}, a[role=button]`)
      .filter({ visible: true })
      .evaluateAll((els) =>
        els.slice(0, 6).map((el) => {
          const text = el.tagName === 'INPUT' ? (el as HTMLInputElement).value : (el.textContent ?? '');
          return `"${text.replace(/\s+/g, ' ').trim().slice(0, 40)}"`;
        }),
      );
    return `fields: ${fields.length ? fields.join(', ') : 'none'}; buttons: ${buttons.length ? buttons.join(', ') : 'none'}`;
  } catch {
    return 'the page changed while it was read';
  }
}

/** Why a login was refused, as far as the page says (its alert, never a value). */
export function refusal(view: { alert?: string }, submitted: { step: 'password' | 'email'; userFound: boolean; by: string }): string {
  const said = view.alert ? `; the page says "${view.alert}"` : '';
  if (submitted.step === 'email') return `the login page asked for the e-mail again after it was submitted ${submitted.by}${said}`;
  return submitted.userFound
    ? `the login page showed again after the e-mail and password were submitted ${submitted.by}${said}`
    : `the login page showed again after the password was submitted ${submitted.by}, with no e-mail or user field filled (none was found)${said}`;
}

/** The setting to change after such a refusal. */
export function refusalFix(submitted: { userFound: boolean }): string {
  return submitted.userFound
    ? 'check CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD (a user who can log in on the authorization host); if the wrong fields were filled, set oauth.screens.email_label and password_label in the target profile to their labels'
    : "set oauth.screens.email_label in the target profile to the label of the login page's e-mail or user field; check CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD";
}
