/**
 * spec § Authentication → OAuth 2.0 authorization code grant, step 7: "Calls to the API send
 * `Authorization: Bearer <ACCESS_TOKEN>`" (AUTH-2), judged with the token the handshake obtains
 * when no Bearer token is configured. With CRM_BEARER_TOKEN set, the configured token judges it
 * (specs/authentication/header-credentials.spec.ts) and this test is skipped before any browser
 * starts. The code comes from the worker's logged-in session (the login is judged by the authorize
 * specs, the token request by the token specs): a handshake that gives no token leaves AUTH-2 not
 * judged, never failed.
 */
import { expect, notJudged, rule, test } from '../support/fixtures/test.js';

test.skip(
  ({ target }) => !!target.credentials.bearerToken,
  'CRM_BEARER_TOKEN is set: AUTH-2 is judged with it (specs/authentication/header-credentials.spec.ts)',
);

test(
  ...rule('AUTH-2', 'Authorization: Bearer with the token the OAuth handshake obtained is accepted on GET /account', async ({ oauth, api, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code));
    const token = res.status >= 200 && res.status < 300 ? oauth.accessTokenOf(res) : undefined;
    if (!token)
      notJudged(
        `not judged: the token request answered ${res.status}${res.status >= 200 && res.status < 300 ? ' without an access_token' : ''}, and AUTH-2 needs a token (the token request is judged by OAUTH-10); or set CRM_BEARER_TOKEN`,
      );
    const account = await api.get('/account', { auth: { headers: { Authorization: `Bearer ${token}` } } });
    expect(account, 'GET /account with only Authorization: Bearer <the token the handshake obtained>').toHaveStatus(200);
  }),
);
