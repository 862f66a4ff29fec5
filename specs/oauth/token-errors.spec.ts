/**
 * spec § Authentication → OAuth 2.0 authorization code grant, steps 4 and 5, with RFC 6749 § 5.2:
 * what a token request that fails is answered. The spec shows the token answer of a success only;
 * its sentence "The list of error codes returned in `error`: not shown." is about the `error` of
 * the callback (step 3), so the error answer is RFC 6749 § 5.2's (OAUTH-16, a SHOULD): 400, or 401
 * with invalid_client; JSON; an `error` that is one of § 5.2's codes; no token. Which code answers
 * which failure, and 400 or 401 for a failed client authentication, are never asserted (open
 * choices oauth.token-error-code and oauth.token-client-error-status). A failing request the
 * server grants is judged by its own rule (OAUTH-7, 8, 9, 17, 18), not here. The code comes from a
 * page of the worker's logged-in session.
 */
import { describeExchange, expect, isAccepted, notJudged, rule, test } from '../support/fixtures/test.js';
import { madeUpCode, tokenErrorProblems } from './flow.js';

test(
  ...rule(
    'OAUTH-16',
    'failed token requests are answered 400 (or 401 with invalid_client) with JSON whose error is an RFC 6749 §5.2 code, and no access_token',
    async ({ oauth, ns }) => {
      const { code } = await oauth.obtainCode({ state: ns.id, inSession: true });
      const other = new URL('/oauth/other-callback', oauth.redirectUri).toString();
      // Those that leave the code valid first; a server that refuses a code after a failed attempt answers invalid_grant, still judged.
      const failing: [string, Record<string, string>][] = [
        ['grant_type=client_credentials', oauth.tokenForm(code, { grant_type: 'client_credentials' })],
        ['a wrong client_secret', oauth.tokenForm(code, { client_secret: `wrong-secret-for-conformance-${ns.id}` })],
        ['no grant_type', oauth.tokenForm(code, { grant_type: undefined })],
        ['no client_id', oauth.tokenForm(code, { client_id: undefined })],
        ['no client_secret', oauth.tokenForm(code, { client_secret: undefined })],
        ['an unknown client_id', oauth.tokenForm(code, { client_id: `unknown-client-${ns.id}` })],
        ['a made-up code', oauth.tokenForm(madeUpCode(ns.id))],
        ['no code', oauth.tokenForm(code, { code: undefined })],
        ['a redirect_uri that differs', oauth.tokenForm(code, { redirect_uri: other })],
        ['no redirect_uri', oauth.tokenForm(code, { redirect_uri: undefined })],
      ];
      const problems: string[] = [];
      const evidence: string[] = [];
      const granted: string[] = [];
      for (const [what, form] of failing) {
        const res = await oauth.exchange(form);
        const hasToken = oauth.accessTokenOf(res) !== undefined;
        if (isAccepted(res) && hasToken) granted.push(what);
        else {
          const wrong = tokenErrorProblems(res, hasToken);
          if (wrong.length) {
            problems.push(`${what} (${wrong.join('; ')})`);
            evidence.push(`${what}:\n${describeExchange(res.exchange)}`);
          }
        }
      }
      if (granted.length === failing.length) notJudged(`not judged: the server granted a token to every request meant to fail (${granted.join(', ')})`);
      if (granted.length)
        test.info().annotations.push({
          type: 'note',
          description: `not judged here, granted a token: ${granted.join(', ')} (OAUTH-7, OAUTH-8, OAUTH-9, OAUTH-17, OAUTH-18 judge that)`,
        });
      // The first line is the finding (the reports show it); the exchanges follow.
      expect(problems, `failed token requests answered otherwise than RFC 6749 §5.2 says: ${problems.join(', ')}\n\n${evidence.join('\n\n')}`).toEqual([]);
    },
  ),
);
