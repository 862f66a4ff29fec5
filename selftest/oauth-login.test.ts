/**
 * The OAuth login found by what it is (specs/support/oauth-page.ts), against login pages worded
 * otherwise than the reference's default (REFERENCE_LOGIN_PAGE, reference/routes/oauth.ts):
 * - "Email", "Sign in" (where the suite once looked for "E-mail": 8 OAuth MUST failures and 171 s),
 *   "Username" with an `<input type=submit>`, and the e-mail-first login: every OAuth test passes,
 *   with no label in the profile or with the old default labels;
 * - a page whose user field no suite can tell ("Workspace" and "Account"): the OAuth tests are not
 *   judged, with the reason naming `oauth.screens.email_label` and the profile, the run is
 *   INCONCLUSIVE with no failure, no login is tried; with the label set, every test passes;
 * - a wrong password: the driver says the login was refused and names CRM_LOGIN_PASSWORD;
 * - the login page again after Authorize (oauth-consent-forgets-login): the host's flow stopped
 *   there; the suite did log in, so it is no login the suite cannot do;
 * - the profile: labels are optional overrides, an old profile with labels stays valid.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { TargetProfile } from '../contracts/profile.js';
import { CallbackReceiver } from '../specs/support/resources/callback-receiver.js';
import type { Screens } from '../specs/support/oauth-controls.js';
import { describeOutcome, drive, newContext } from '../specs/support/oauth-page.js';
import { chromiumPath } from './chromium.js';
import { cleanEnv, ROOT, runPlaywright, scratchDir, readJson } from './helpers.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';

const REFERENCE_PROFILE = readJson<Record<string, any>>('reference/profile.json');
const OLD_LABELS = {
  email_label: 'E-mail',
  password_label: 'Password',
  login_button: 'Log in',
  next_button: 'Next',
  authorize_button: 'Authorize',
  deny_button: 'Deny',
};
const noBrowser = chromiumPath() ? false : 'no Chromium';

test('profile: oauth.screens labels are optional overrides; an old profile with every label stays valid', () => {
  const none = TargetProfile.parse({});
  assert.deepEqual(none.oauth.screens, {}, 'no label by default: the controls are found by what they are');
  const old = TargetProfile.parse({ oauth: { redirect_uris: [], screens: OLD_LABELS } });
  assert.deepEqual(old.oauth.screens, OLD_LABELS);
  const some = TargetProfile.parse({ oauth: { screens: { email_label: 'Account' } } });
  assert.deepEqual(some.oauth.screens, { email_label: 'Account' });
  assert.equal(TargetProfile.safeParse({ oauth: { screens: { email_label: 1 } } }).success, false);
});

interface Conformance {
  verdict: string;
  verdictReason?: string;
  notJudged?: { tests: number; reason: string };
  tests: { total: number; passed: number; failed: number; skipped: number };
}

/** `npx playwright test specs/oauth` against the embedded reference with a login page, and a profile of its own when given. */
async function runOAuthSpecs(page: string, screens?: Screens): Promise<{ report: Conformance; out: string; ms: number; profile: string }> {
  const dir = scratchDir('crm-oauth-login-');
  const profile = join(dir, 'profile.json');
  writeFileSync(profile, JSON.stringify({ ...REFERENCE_PROFILE, oauth: { ...REFERENCE_PROFILE.oauth, ...(screens ? { screens } : {}) } }));
  const env: Record<string, string> = { REFERENCE_LOGIN_PAGE: page, CRM_REPORT_DIR: join(dir, 'reports'), CRM_EMBEDDED: '1', CRM_PROFILE: profile };
  const r = await runPlaywright(['specs/oauth'], env, 300_000);
  const out = r.stdout + r.stderr;
  const report = readJson<Conformance>(join(dir, 'reports', 'conformance.json'));
  return { report, out, ms: r.ms, profile };
}

describe('the OAuth specs on other login pages', { concurrency: 1, skip: noBrowser }, () => {
  test('"Email" and "Sign in", with the old default labels "E-mail" and "Log in" in the profile: every OAuth test passes', async () => {
    const { report, out } = await runOAuthSpecs('email', OLD_LABELS);
    assert.equal(report.tests.failed, 0, out);
    assert.ok(report.tests.passed >= 14, `every OAuth test passes:\n${out}`);
    assert.equal(report.notJudged, undefined, out);
  });

  test('a login page whose user field no suite can tell: the OAuth tests are not judged, naming the profile member; no failure, INCONCLUSIVE', async () => {
    const { report, out, ms, profile } = await runOAuthSpecs('ambiguous');
    assert.equal(report.tests.failed, 0, `no MUST failure for a login the suite cannot do:\n${out}`);
    assert.equal(report.verdict, 'INCONCLUSIVE', out);
    assert.ok(report.notJudged && report.notJudged.tests >= 11, `the tests that need a login are not judged:\n${out}`);
    assert.match(
      report.notJudged!.reason,
      /^not judged: the suite cannot log in at \S+: the login page has a password field but no field it recognises as the e-mail or user field \(fields: text "Workspace" \(name f1\), text "Account" \(name f2\), password "Passphrase" \(name f3\); buttons: "Continue"\)\. Fix: set oauth\.screens\.email_label in the target profile/,
    );
    assert.ok(report.notJudged!.reason.includes(`(target profile: ${profile})`), report.notJudged!.reason);
    assert.match(out, /could not be judged: not judged: the suite cannot log in/);
    // The tests that judge a failed request (no login) still pass.
    assert.ok(report.tests.passed >= 3, out);
    // Each test ends at the login page at once: no waiting for a page that never comes (the run took 171 s before).
    assert.ok(ms < 150_000, `took ${ms} ms`);
  });

  test('the same page with oauth.screens.email_label "Account": every OAuth test passes', async () => {
    const { report, out } = await runOAuthSpecs('ambiguous', { email_label: 'Account' });
    assert.equal(report.tests.failed, 0, out);
    assert.ok(report.tests.passed >= 14, out);
    assert.equal(report.notJudged, undefined, out);
  });
});

describe('the page driver on each login page', { concurrency: 1, skip: noBrowser }, () => {
  let browser: Browser;
  let receiver: CallbackReceiver;
  const servers: Awaited<ReturnType<typeof startReferenceProcess>>[] = [];
  before(async () => {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  });
  after(async () => {
    await receiver?.close();
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });
  const login = async (page: string, choices: string, screens: Screens, password = 'reference-password', faults = '') => {
    const server = await startReferenceProcess(
      [process.execPath, '--import', 'tsx', 'reference/main.ts'],
      ROOT,
      cleanEnv({ REFERENCE_LOGIN_PAGE: page, REFERENCE_CHOICES: choices, REFERENCE_FAULTS: faults }),
    );
    servers.push(server);
    // The receiver registers what it gets as secrets: it reads the configuration of a user of this server.
    Object.assign(process.env, referenceEnv(server.api, server.auth, resolve(ROOT, 'reference/profile.json')));
    receiver ??= await CallbackReceiver.start({ https: false, path: '/oauth/callback' });
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: 'reference-client',
      redirect_uri: `${receiver.url}/oauth/callback`,
      scope: 'developer/v1/all',
      state: 'driver',
    });
    const context = await newContext(browser);
    try {
      return await drive(await context.newPage(), receiver, screens, `${server.auth}/oauth/authorize?${q}`, {
        email: 'owner@reference.example',
        password,
        decision: 'authorize',
        timeoutMs: 15_000,
      });
    } finally {
      await context.close();
      await server.stop();
    }
  };

  for (const page of ['default', 'email', 'username']) {
    for (const steps of ['one-page', 'email-first']) {
      test(`${page} login page, ${steps}: logged in by what the fields are, a code reaches the callback`, async () => {
        const outcome = await login(page, `oauth.login-steps=${steps}`, {});
        assert.ok(outcome.hit && 'code' in outcome.hit.form, describeOutcome(outcome));
        assert.deepEqual(outcome.screens, steps === 'one-page' ? ['login', 'consent'] : ['login', 'login', 'consent']);
      });
    }
  }

  test('the unmarked page, e-mail first: no login form it recognises, naming the profile members; with the label, a code', async () => {
    const stuck = await login('ambiguous', 'oauth.login-steps=email-first', {});
    assert.equal(stuck.hit, undefined);
    assert.match(
      stuck.cannotLogIn?.problem ?? '',
      /^no login form it recognises on \S+ \(fields: text "Workspace" \(name f1\), text "Account" \(name f2\); buttons: "Continue"/,
      describeOutcome(stuck),
    );
    assert.match(stuck.cannotLogIn!.fix, /oauth\.screens\.email_label/);
    const fine = await login('ambiguous', 'oauth.login-steps=email-first', { email_label: 'Account' });
    assert.ok(fine.hit && 'code' in fine.hit.form, describeOutcome(fine));
  });

  test('a wrong password: the login was refused, naming CRM_LOGIN_PASSWORD and what the page said (no value)', async () => {
    const outcome = await login('email', '', {}, 'not-the-password');
    assert.equal(outcome.stoppedAt, 'login');
    assert.equal(
      outcome.cannotLogIn?.problem,
      'the login page showed again after the e-mail and password were submitted with "Sign in"; the page says "Wrong e-mail or password."',
    );
    assert.match(outcome.cannotLogIn!.fix, /^check CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD/);
    assert.doesNotMatch(JSON.stringify(outcome), /not-the-password/);
  });

  test("the login page again after Authorize: the flow stopped there (the host's, no code), not a login the suite cannot do", async () => {
    // The suite logged in (the consent screen showed): a login screen after the decision is where the host's flow stopped. It was
    // once taken for a refused login, with no form submitted to name (a TypeError in the driver).
    const outcome = await login('default', '', {}, 'reference-password', 'oauth-consent-forgets-login');
    assert.deepEqual(outcome.screens, ['login', 'consent', 'login']);
    assert.equal(outcome.stoppedAt, 'login');
    assert.equal(outcome.hit, undefined);
    assert.equal(outcome.cannotLogIn, undefined, describeOutcome(outcome));
  });
});
