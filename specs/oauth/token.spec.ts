/**
 * spec § Authentication → OAuth 2.0 authorization code grant, steps 4 to 7: the token request
 * (`POST {auth_url}/oauth/token`, form-encoded), the token answer (JSON, token_type `Bearer`),
 * and the token on the API (`Authorization: Bearer`). Each test gets a fresh code in a real
 * browser: a page of the worker's logged-in session (the login itself is judged by the
 * authorize specs); a test of a code the service never issued, or of none, needs no browser
 * flow. Refusals carry no status in the spec: any 4xx answer is one (a 5xx is the server failing,
 * no refusal); what the refusal carries is RFC 6749 § 5.2's (token-errors.spec.ts, OAUTH-16).
 */
import { TokenResponse } from '../../contracts/resources.js';
import { expect, expectJson, rule, test } from '../support/fixtures/test.js';
import { OAUTH_SCOPE } from '../support/fixtures/oauth.js';
import { madeUpCode } from './flow.js';

test(
  ...rule('OAUTH-10', 'the token answer is JSON with access_token, token_type exactly "Bearer" and the granted scope', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code));
    expect(res).toHaveStatus(200);
    expectJson(res, 'OAUTH-10');
    expect(res).toMatchContract(TokenResponse);
    expect((res.body as { scope?: unknown }).scope, 'the granted scope (the only scope there is)').toBe(OAUTH_SCOPE);
  }),
);

test(
  ...rule('OAUTH-19', 'the token answer carries Cache-Control: no-store', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code));
    expect(res, 'precondition: the token request succeeds').toHaveStatus(200);
    const cacheControl = res.headers['cache-control'];
    const directives = String(cacheControl ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase());
    expect(directives, `the answer that carries the token says Cache-Control: no-store (RFC 6749 §5.1); it says ${cacheControl ?? 'none'}`).toContain(
      'no-store',
    );
  }),
);

test(
  ...rule('OAUTH-11', 'the access token works as Authorization: Bearer on GET /account', async ({ oauth, api, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code));
    expect(res, 'precondition: the token request succeeds').toHaveStatus(200);
    const token = oauth.accessTokenOf(res);
    if (!token) throw new Error('precondition: the token answer carries no access_token');
    const account = await api.get('/account', { auth: { headers: { Authorization: `Bearer ${token}` } } });
    expect(account).toHaveStatus(200);
  }),
);

test(
  ...rule('OAUTH-7', 'a token request with grant_type=client_credentials is refused', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code, { grant_type: 'client_credentials' }));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-8', 'a token request with a wrong client_secret is refused', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code, { client_secret: `wrong-secret-for-conformance-${ns.id}` }));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-9', 'a token request whose redirect_uri differs from the authorization request is refused', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const other = new URL('/oauth/other-callback', oauth.redirectUri).toString();
    const res = await oauth.exchange(oauth.tokenForm(code, { redirect_uri: other }));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-17', 'a token request that leaves out redirect_uri is refused', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const res = await oauth.exchange(oauth.tokenForm(code, { redirect_uri: undefined }));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-18', 'a token request with a code the service never issued is refused', async ({ oauth, ns }) => {
    const res = await oauth.exchange(oauth.tokenForm(madeUpCode(ns.id)));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-18', 'a token request without code is refused', async ({ oauth, ns }) => {
    const res = await oauth.exchange(oauth.tokenForm(madeUpCode(ns.id), { code: undefined }));
    expect(res).toBeRefused();
    expect(oauth.accessTokenOf(res) === undefined, 'the refusal carries no access_token').toBe(true);
  }),
);

test(
  ...rule('OAUTH-12', 'an authorization code exchanged once is refused the second time', async ({ oauth, ns }) => {
    const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
    const first = await oauth.exchange(oauth.tokenForm(code));
    expect(first, 'precondition: the first exchange succeeds').toHaveStatus(200);
    const second = await oauth.exchange(oauth.tokenForm(code));
    expect(second).toBeRefused();
    expect(oauth.accessTokenOf(second) === undefined, 'the second answer carries no access_token').toBe(true);
  }),
);
