/**
 * spec § Authentication → Header credentials and step 7 of the OAuth grant (Bearer).
 * The status of a refusal is "not shown": any 4xx answer is a refusal
 * (a 5xx is the server failing, no refusal).
 */
import { expect, rule, test } from '../support/fixtures/test.js';

test(
  ...rule('AUTH-1', 'header credentials (X-SVC-AccessToken, X-SVC-Application, X-SVC-UserEmail) are accepted on GET /account', async ({ api, target }) => {
    test.skip(!target.credentials.accessToken, 'no header credentials configured (CRM_ACCESS_TOKEN, CRM_USER_EMAIL)');
    const res = await api.get('/account', { auth: 'header' });
    expect(res).toHaveStatus(200);
  }),
);

test(
  ...rule('AUTH-2', 'Authorization: Bearer with a valid token is accepted on GET /account', async ({ api, target }) => {
    test.skip(
      !target.credentials.bearerToken,
      'no Bearer token configured (CRM_BEARER_TOKEN): AUTH-2 is judged with the token the OAuth handshake obtains (specs/oauth/bearer.spec.ts; it needs CRM_CLIENT_ID, CRM_CLIENT_SECRET, CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD)',
    );
    const res = await api.get('/account', { auth: 'bearer' });
    expect(res).toHaveStatus(200);
  }),
);

test(
  ...rule('AUTH-3', 'a request without credentials is refused on GET /account', async ({ api }) => {
    const res = await api.get('/account', { auth: 'none' });
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('AUTH-4', 'a request with a wrong access token is refused on GET /account', async ({ api, target }) => {
    const res = await api.get('/account', {
      auth: {
        headers: {
          'X-SVC-AccessToken': 'wrong-token-for-conformance',
          'X-SVC-Application': 'developer_api',
          'X-SVC-UserEmail': target.credentials.userEmail ?? 'nobody@example.invalid',
        },
      },
    });
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('AUTH-5', 'header credentials whose X-SVC-UserEmail is not the token owner are refused on GET /account', async ({ api, target }) => {
    test.skip(!target.credentials.accessToken, 'no header credentials configured');
    const res = await api.get('/account', {
      auth: {
        headers: {
          'X-SVC-AccessToken': target.credentials.accessToken!,
          'X-SVC-Application': 'developer_api',
          'X-SVC-UserEmail': 'not-the-owner@conformance.invalid',
        },
      },
    });
    expect(res).toBeRefused();
  }),
);

test(
  ...rule('AUTH-7', 'a wrong Bearer token is refused on GET /account', async ({ api }) => {
    const res = await api.get('/account', { auth: { headers: { Authorization: 'Bearer wrong-bearer-for-conformance' } } });
    expect(res).toBeRefused();
  }),
);

// An Authorization header of another scheme carries none of the credentials the spec describes (Bearer or the
// X-SVC headers), and these Basic credentials are made up: whatever schemes a server knows, it refuses them.
test(
  ...rule('AUTH-3', 'an Authorization header of another scheme (made-up Basic credentials) is refused on GET /account', async ({ api }) => {
    const res = await api.get('/account', { auth: { headers: { Authorization: `Basic ${Buffer.from('conformance:not-a-password').toString('base64')}` } } });
    expect(res).toBeRefused();
  }),
);
