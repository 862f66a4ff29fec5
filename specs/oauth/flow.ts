/**
 * Judgements shared by the OAuth specs. Values of codes and tokens never appear in a message:
 * only whether a member is present.
 */
import { payloadOf, type CallbackHit, type CallbackReceiver } from '../support/resources/callback-receiver.js';
import { describeOutcome, type FlowOutcome } from '../support/oauth-page.js';
import { expect, isJsonAnswer, type ApiResponse } from '../support/fixtures/test.js';

/**
 * A state with characters that need encoding in a URL, in HTML and in a form body; all printable
 * ASCII (RFC 6749 § A.5: state is VSCHAR).
 */
export const awkwardState = (nsId: string) => `${nsId} a+b&c=d/e?f#g%2Fh "i'<j>~\\`;

/**
 * The authorization failed as the spec allows: the error went to the callback, or the browser
 * stopped at an error page. No request to the callback carries a code or a token.
 */
export function expectAuthorizationFailed(receiver: CallbackReceiver, mark: number, outcome: FlowOutcome, what: string): void {
  const withCode = receiver
    .since(mark)
    .filter((h) => 'code' in payloadOf(h) || 'code' in h.query || 'access_token' in payloadOf(h) || 'access_token' in h.query);
  expect(withCode.length, `${what}: no code (or token) reaches the callback; ${describeOutcome(outcome)}`).toBe(0);
  if (outcome.hit) {
    expect('error' in payloadOf(outcome.hit) || 'error' in outcome.hit.query, `${what}: the callback carries error; ${describeOutcome(outcome)}`).toBe(true);
  } else {
    expect(outcome.stoppedAt, `${what}: the browser stops at an error page, not at a login or consent screen; ${describeOutcome(outcome)}`).toBe('other');
  }
}

/** A code no server issued (OAUTH-16, OAUTH-18): not secret, and unlike any the suite obtained. */
export const madeUpCode = (nsId: string) => `crm-conformance-made-up-code-${nsId}`;

/**
 * `state` came back unchanged on the callback `hit` (OAUTH-5). Where it travels is not said
 * ("forwarded to the callback"): the form posted, or the query of the URL it is posted to.
 */
export function expectStateForwarded(hit: CallbackHit, state: string, outcome: FlowOutcome, what: string): void {
  const payload = payloadOf(hit);
  const got = 'state' in payload ? payload.state : hit.query.state;
  expect(got !== undefined, `${what}: the callback carries state (in its payload or the query of its URL); ${describeOutcome(outcome)}`).toBe(true);
  expect(got, `${what}: state arrives unchanged`).toBe(state);
}

/**
 * A failure the server returned to the callback (spec step 3, OAUTH-6): "The user is sent to
 * `redirect_uri` by a POST. […] on denial or failure it has `error` instead": a POST whose payload
 * has an error with a value, and no code (in the payload or the query of its URL).
 */
export function expectErrorCallback(hit: CallbackHit, outcome: FlowOutcome, what: string): void {
  expect(hit.method, `${what}: the user is sent to redirect_uri by a POST; ${describeOutcome(outcome)}`).toBe('POST');
  const error = hit.form.error;
  expect(error !== undefined, `${what}: the payload has error; ${describeOutcome(outcome)}`).toBe(true);
  expect(error.length > 0, `${what}: the payload's error has a value (error= is empty); ${describeOutcome(outcome)}`).toBe(true);
  expect('code' in hit.form || 'code' in hit.query, `${what}: a failure carries error instead of code; ${describeOutcome(outcome)}`).toBe(false);
}

/** The error codes of RFC 6749 § 5.2 (the token endpoint's error answer). */
export const TOKEN_ERROR_CODES: readonly string[] = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
];

/**
 * What is wrong with the answer to a token request that failed, by RFC 6749 § 5.2 (OAUTH-16): none
 * when it is 400, or 401 with invalid_client (§ 5.2: "MAY return an HTTP 401" for a failed client
 * authentication), JSON (Content-Type application/json) with an `error` that is one of § 5.2's codes,
 * and no access_token. Which code for which failure is not judged. Values of tokens never appear.
 */
export function tokenErrorProblems(res: ApiResponse, hasToken: boolean): string[] {
  const problems: string[] = [];
  const body = res.isJson && res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? (res.body as Record<string, unknown>) : undefined;
  const error = body?.error;
  if (!isJsonAnswer(res)) problems.push(`the body is not JSON with Content-Type application/json (Content-Type: ${res.headers['content-type'] ?? 'none'})`);
  else if (!body) problems.push('the JSON body is not an object');
  else if (typeof error !== 'string' || !TOKEN_ERROR_CODES.includes(error))
    problems.push(
      `error is ${error === undefined ? 'missing' : JSON.stringify(error).slice(0, 100)}, not one of RFC 6749 §5.2's codes (${TOKEN_ERROR_CODES.join(', ')})`,
    );
  // A 401 whose body is not read as JSON is held to the body alone (above).
  if (res.status !== 400 && !(res.status === 401 && (error === 'invalid_client' || !body)))
    problems.push(`status ${res.status}: RFC 6749 §5.2 answers 400, or 401 with error invalid_client for a failed client authentication`);
  if (hasToken) problems.push('the answer carries an access_token');
  return problems;
}
