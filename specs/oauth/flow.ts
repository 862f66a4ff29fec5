/**
 * Judgements shared by the OAuth specs. Values of codes and tokens never appear in a message:
 * only whether a member is present.
 */
import { payloadOf, type CallbackReceiver } from '../support/resources/callback-receiver.js';
import { describeOutcome, type FlowOutcome } from '../support/oauth-page.js';
import { expect } from '../support/fixtures/test.js';

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
