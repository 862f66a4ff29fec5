/**
 * "Is refused" means a 4xx answer (issue 32, item 4): `toBeRefused` passes on a 4xx only,
 * `.not.toBeRefused()` ("accepted") on a 2xx only, so a 5xx or a 3xx fails both, saying why.
 * A whole run against a target answering 500: selftest/refusals.test.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiResponse } from '../specs/support/core/http.js';
import type { Exchange } from '../specs/support/core/recorder.js';
import { expect, isAccepted, isRefused } from '../specs/support/fixtures/matchers.js';

const exchange = (status: number): Exchange => ({
  method: 'POST',
  url: 'http://127.0.0.1:9/developer_api/v1/webhooks',
  requestHeaders: {},
  status,
  responseHeaders: {},
  durationMs: 1,
  curl: 'curl …',
});
const answer = (status: number): ApiResponse => ({ status, headers: {}, body: undefined, text: '', isJson: false, exchange: exchange(status) });
const fails = (fn: () => void, re: RegExp) => assert.throws(fn, (e: Error) => re.test(e.message), `fails matching ${re}`);

test('toBeRefused passes on a 4xx only: a 5xx is a server error and a 3xx a redirect, no refusal', () => {
  for (const s of [400, 401, 403, 404, 409, 422, 429]) expect(answer(s)).toBeRefused();
  fails(() => expect(answer(500)).toBeRefused(), /expected a refusal \(a 4xx answer\), got 500: a 5xx is a server error, no refusal/);
  fails(() => expect(answer(503)).toBeRefused(), /got 503: a 5xx is a server error, no refusal/);
  fails(() => expect(answer(302)).toBeRefused(), /got 302: a 3xx is a redirect, no refusal/);
  fails(() => expect(answer(200)).toBeRefused(), /expected a refusal \(a 4xx answer\), got 200/);
  fails(() => expect(answer(500)).toBeClientError(), /got 500: a 5xx is a server error, no refusal/);
  assert.deepEqual(
    [200, 302, 404, 500].map((s) => isRefused(answer(s))),
    [false, false, true, false],
    'isRefused: the quick form',
  );
});

test('.not.toBeRefused() reads "accepted": it passes on a 2xx only', () => {
  expect(answer(200)).not.toBeRefused();
  expect(answer(201)).not.toBeRefused();
  fails(() => expect(answer(500)).not.toBeRefused(), /expected a 2xx answer, got 500/);
  fails(() => expect(answer(302)).not.toBeRefused(), /expected a 2xx answer, got 302/);
  fails(() => expect(answer(422)).not.toBeRefused(), /expected a 2xx answer, got 422/);
  assert.equal(isAccepted(answer(500)), false);
});
