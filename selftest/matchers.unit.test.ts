/**
 * The status matchers of specs/support/fixtures/matchers.ts require an HTTP answer: a request that
 * got none (TransportError: time-out, reset, refused connection) fails toBeRefused and
 * toBeClientError, negated or not ("no answer is not a refusal", guide principle 3).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TransportError, type ApiResponse } from '../specs/support/core/http.js';
import type { Exchange } from '../specs/support/core/recorder.js';
import { expect } from '../specs/support/fixtures/matchers.js';

const exchange = (x: Partial<Exchange> = {}): Exchange => ({
  method: 'POST',
  url: 'http://127.0.0.1:9/developer_api/v1/people',
  requestHeaders: {},
  status: 0,
  responseHeaders: {},
  durationMs: 1,
  curl: 'curl …',
  ...x,
});
const answer = (status: number): ApiResponse => ({ status, headers: {}, body: undefined, text: '', isJson: false, exchange: exchange({ status }) });
const silent = new TransportError('POST …: no answer within 15 s', exchange({ error: 'no answer within 15 s (no status line and headers received)' }));
const fails = (fn: () => void, re: RegExp) => assert.throws(fn, (e: Error) => re.test(e.message));

test('toBeRefused and toBeClientError accept an HTTP refusal', () => {
  expect(answer(422)).toBeRefused();
  expect(answer(404)).toBeClientError();
  expect(answer(200)).not.toBeRefused();
  expect(answer(500)).not.toBeClientError();
});

test('no answer is not a refusal: toBeRefused and toBeClientError fail without an HTTP answer, negated or not', () => {
  fails(() => expect(silent).toBeRefused(), /no answer is not a refusal/);
  fails(() => expect(silent).not.toBeRefused(), /got no answer/);
  fails(() => expect(silent).toBeClientError(), /no answer is not a refusal/);
  fails(() => expect(silent).not.toBeClientError(), /got no answer/);
  const noStatus: ApiResponse = { ...answer(0), exchange: exchange({ error: 'connection reset by the target (ECONNRESET) before a complete answer' }) };
  fails(() => expect(noStatus).toBeRefused(), /no answer is not a refusal[\s\S]*ECONNRESET/);
  fails(() => expect(silent).toHaveStatus(400), /got no answer/);
  fails(() => expect(silent).not.toHaveStatus(200), /got no answer/);
});
