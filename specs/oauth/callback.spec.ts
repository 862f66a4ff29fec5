/**
 * spec § Authentication → OAuth 2.0 authorization code grant, step 3: the user is sent to
 * redirect_uri by a POST; on success the payload has `code`, on denial `error` instead; `state`
 * is forwarded unchanged. The callback is the suite's own receiver (HTTPS with CRM_CALLBACK_HTTPS=1).
 * The browser is the worker's logged-in session: the login is judged by the authorize specs.
 */
import { CallbackError, CallbackSuccess } from '../../contracts/requests.js';
import { describeOutcome } from '../support/oauth-page.js';
import { expect, rule, test } from '../support/fixtures/test.js';
import { payloadOf } from '../support/resources/callback-receiver.js';
import { awkwardState } from './flow.js';

test(
  ...rule('OAUTH-4', 'after Authorize the browser POSTs to redirect_uri a payload with code', async ({ oauth, ns }) => {
    const outcome = await oauth.run(oauth.authorizeUrl({ state: ns.id }), { decision: 'authorize', inSession: true });
    const hit = outcome.hit;
    expect(hit, `the browser reaches the callback; ${describeOutcome(outcome)}`).toBeTruthy();
    expect(hit!.method, `the user is sent to redirect_uri by a POST; ${describeOutcome(outcome)}`).toBe('POST');
    expect(hit!.path, 'the callback is the path of redirect_uri').toBe(new URL(oauth.redirectUri).pathname);
    expect(hit!.form).toMatchContract(CallbackSuccess, 'CallbackSuccess (the POST payload)');
    expect('error' in hit!.form, 'a success carries code instead of error').toBe(false);
  }),
);

test(
  ...rule('OAUTH-5', 'state with characters that need encoding reaches the callback unchanged', async ({ oauth, ns }) => {
    const state = awkwardState(ns.id);
    const outcome = await oauth.run(oauth.authorizeUrl({ state }), { decision: 'authorize', inSession: true });
    expect(outcome.hit, `the browser reaches the callback; ${describeOutcome(outcome)}`).toBeTruthy();
    // Where state travels is not said ("forwarded to the callback"): the form posted, or the query of the URL it is posted to.
    const payload = payloadOf(outcome.hit!);
    const got = 'state' in payload ? payload.state : outcome.hit!.query.state;
    expect(got !== undefined, `the callback carries state (in its payload or the query of its URL); ${describeOutcome(outcome)}`).toBe(true);
    expect(got, 'state arrives unchanged').toBe(state);
  }),
);

test(
  ...rule('OAUTH-6', 'after Deny the browser POSTs to redirect_uri a payload with error and no code', async ({ oauth, ns }) => {
    const mark = oauth.receiver.mark();
    const outcome = await oauth.run(oauth.authorizeUrl({ state: ns.id }), { decision: 'deny', inSession: true });
    const hit = outcome.hit;
    expect(outcome.screens.includes('consent'), `the consent screen showed; ${describeOutcome(outcome)}`).toBe(true);
    expect(hit, `the browser reaches the callback after Deny; ${describeOutcome(outcome)}`).toBeTruthy();
    expect(hit!.method, `the user is sent to redirect_uri by a POST; ${describeOutcome(outcome)}`).toBe('POST');
    expect(hit!.form).toMatchContract(CallbackError, 'CallbackError (the POST payload: error, no code)');
    const withCode = oauth.receiver.since(mark).filter((h) => 'code' in h.form || 'code' in h.query);
    expect(withCode.length, 'no request to the callback carries a code after Deny').toBe(0);
  }),
);
