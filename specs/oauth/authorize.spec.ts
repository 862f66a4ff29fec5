/**
 * spec § Authentication → OAuth 2.0 authorization code grant, steps 1 and 2: the authorization
 * request (`GET {auth_url}/oauth/authorize`), the login and the consent screen, in a real browser.
 * A failed request may return its error to the callback or show an error page: both are accepted,
 * a code never is. The login is judged in fresh browser contexts (OAUTH-3, OAUTH-13); the other
 * tests run in the worker's logged-in session.
 */
import { consentControl } from '../support/oauth-controls.js';
import { describeOutcome } from '../support/oauth-page.js';
import { expect, rule, test } from '../support/fixtures/test.js';
import { payloadOf } from '../support/resources/callback-receiver.js';
import { expectAuthorizationFailed } from './flow.js';

test(
  ...rule(
    'OAUTH-1',
    'an authorization request with response_type=token fails (error to the callback or an error page, never a code)',
    async ({ oauth, ns }) => {
      const mark = oauth.receiver.mark();
      const outcome = await oauth.run(oauth.authorizeUrl({ response_type: 'token', state: ns.id }), { decision: 'authorize', inSession: true });
      expectAuthorizationFailed(oauth.receiver, mark, outcome, 'response_type=token');
    },
  ),
);

test(
  ...rule(
    'OAUTH-2',
    'an authorization request with scope developer/v1/read fails (error to the callback or an error page, never a code)',
    async ({ oauth, ns }) => {
      const mark = oauth.receiver.mark();
      const outcome = await oauth.run(oauth.authorizeUrl({ scope: 'developer/v1/read', state: ns.id }), { decision: 'authorize', inSession: true });
      expectAuthorizationFailed(oauth.receiver, mark, outcome, 'scope=developer/v1/read');
    },
  ),
);

test(
  ...rule('OAUTH-15', 'an authorization request with an unknown client_id fails (never a code)', async ({ oauth, ns }) => {
    const mark = oauth.receiver.mark();
    const outcome = await oauth.run(oauth.authorizeUrl({ client_id: `crm-conformance-unknown-${ns.id}`, state: ns.id }), {
      decision: 'authorize',
      inSession: true,
    });
    expectAuthorizationFailed(oauth.receiver, mark, outcome, 'an unknown client_id');
  }),
);

// The required parameters left out ("Required: yes"): response_type "must be `code`", scope "must be
// `developer/v1/all`", and without client_id no application is named. redirect_uri left out is not
// judged: RFC 6749 §3.1.2.3 lets a server use the one registered (rules/coverage-reasons.json).
for (const [id, param, what] of [
  ['OAUTH-1', 'response_type', 'without response_type'],
  ['OAUTH-2', 'scope', 'without scope'],
  ['OAUTH-15', 'client_id', 'without client_id'],
] as const) {
  test(
    ...rule(id, `an authorization request ${what} fails (error to the callback or an error page, never a code)`, async ({ oauth, ns }) => {
      const mark = oauth.receiver.mark();
      const outcome = await oauth.run(oauth.authorizeUrl({ [param]: undefined, state: ns.id }), { decision: 'authorize', inSession: true });
      expectAuthorizationFailed(oauth.receiver, mark, outcome, what);
    }),
  );
}

test(
  ...rule(
    'OAUTH-3',
    'a user who is not logged in logs in, then sees the consent screen naming the application and its permission, with Authorize and Deny',
    async ({ oauth, profile, ns }) => {
      const outcome = await oauth.run(oauth.authorizeUrl({ state: ns.id }));
      expect(outcome.screens[0], `a fresh browser is asked to log in first; ${describeOutcome(outcome)}`).toBe('login');
      expect(outcome.stoppedAt, `after the login the consent screen shows; ${describeOutcome(outcome)}`).toBe('consent');
      // The spec's words, or the names the profile gives them (oauth.screens.authorize_button, deny_button).
      const s = profile.oauth.screens;
      const named = (word: string, own?: string) =>
        own ? `"${word}" (or "${own}", oauth.screens of the profile)` : `"${word}" (if yours has another name, set it in oauth.screens of the target profile)`;
      await expect(consentControl(oauth.page, s, 'authorize'), `the consent screen has an ${named('Authorize', s.authorize_button)} button`).toBeVisible();
      await expect(consentControl(oauth.page, s, 'deny'), `the consent screen has a ${named('Deny', s.deny_button)} button`).toBeVisible();
      const name = profile.oauth.application_name;
      test.skip(
        !name,
        'the target profile does not give oauth.application_name: the suite cannot tell which name the consent screen must show (buttons checked)',
      );
      await expect(oauth.page.getByText(name!).first(), `the consent screen names the application "${name}"`).toBeVisible();
      const permission = profile.oauth.permission_text;
      if (permission) await expect(oauth.page.getByText(permission).first(), `the consent screen shows the permission ("${permission}")`).toBeVisible();
      else test.info().annotations.push({ type: 'note', description: 'the permission shown is not checked: the target profile has no oauth.permission_text' });
    },
  ),
);

test(
  ...rule('OAUTH-13', 'a user already logged in is not asked to log in again', async ({ oauth, ns }) => {
    await oauth.obtainCode({ state: `${ns.id}-first` });
    const mark = oauth.receiver.mark();
    const outcome = await oauth.run(oauth.authorizeUrl({ state: `${ns.id}-second` }), { decision: 'authorize', login: false });
    expect(outcome.screens.includes('login'), `the second authorization in the same browser shows no login screen; ${describeOutcome(outcome)}`).toBe(false);
    const reached = outcome.screens.includes('consent') || oauth.receiver.since(mark).some((h) => 'code' in payloadOf(h));
    expect(reached, `the second authorization goes on to the consent screen or the callback; ${describeOutcome(outcome)}`).toBe(true);
  }),
);
