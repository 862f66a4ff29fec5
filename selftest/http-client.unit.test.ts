/**
 * The one HTTP client: Retry-After in both of its forms (RFC 9110 §10.2.3), and content codings
 * decoded on every path, the race of truly concurrent requests included (a server may gzip JSON
 * when the request has no Accept-Encoding, RFC 9110 §12.5.3); 429s waited out by the worker's gate within a bounded total wait.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { parseConfig } from '../specs/support/core/config.js';
import { ApiClient, retryAfterMs } from '../specs/support/core/http.js';
import { honouring429, RateGate, workerGate } from '../specs/support/core/gate.js';
import { Recorder } from '../specs/support/core/recorder.js';
import { concurrently } from '../specs/support/leads.js';
import { scratchDir } from './helpers.js';

test('Retry-After is read as delta-seconds or as an HTTP-date', () => {
  const now = Date.parse('Thu, 26 Nov 2026 15:00:00 GMT');
  assert.equal(retryAfterMs('3', now), 3000);
  assert.equal(retryAfterMs(' 0 ', now), 0);
  assert.equal(retryAfterMs('Thu, 26 Nov 2026 15:00:02 GMT', now), 2000);
  assert.equal(retryAfterMs('Thu, 26 Nov 2026 14:59:00 GMT', now), 0, 'a date in the past: no wait');
  assert.equal(retryAfterMs(undefined, now), undefined);
  assert.equal(retryAfterMs('soon', now), undefined);
});

test('gzip-coded JSON is decoded, by a plain request and by concurrent ones', async () => {
  let sent = 0;
  const server = createServer((req, res) => {
    sent++;
    const body = gzipSync(JSON.stringify(req.url?.endsWith('/account') ? { id: 1, name: 'Acme' } : { id: 100 + sent, name: 'made' }));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // The client's worker-wide parts (its pool, the silence latch) read this process's settings.
    Object.assign(process.env, { CRM_BASE_URL: base, CRM_ACCESS_TOKEN: 'client-test-token', CRM_USER_EMAIL: 'a@b.example' });
    const cfg = parseConfig(process.env, scratchDir('crm-http-'));
    const api = new ApiClient(new Recorder(), {}, cfg);
    const one = await api.get('/account');
    assert.deepEqual(one.body, { id: 1, name: 'Acme' });
    const race = await concurrently(api, [
      { method: 'POST', path: '/leads', body: {} },
      { method: 'POST', path: '/leads', body: {} },
    ]);
    assert.ok(
      race.every((r) => r.isJson && typeof (r.body as { id: number }).id === 'number'),
      JSON.stringify(race.map((r) => r.text)),
    );
    assert.equal(api.recorder.exchanges.length, 3, "the race's warm-up requests are not evidence; its requests are");
  } finally {
    await new Promise((ok) => server.close(ok));
  }
});

/** A server answering 429 (Retry-After as an HTTP-date a second ahead) to its first request, then 200; it logs when each request came. */
async function limitedServer(): Promise<{ base: string; arrivals: number[]; close(): Promise<unknown> }> {
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(Date.now());
    req.resume();
    if (arrivals.length === 1) {
      const date = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000).toUTCString();
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': date });
      res.end('{"message":"slow down"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"id":1}');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, close: () => new Promise((ok) => server.close(ok)) };
}

test("after a 429 the worker's gate holds its other requests until Retry-After (an HTTP-date) has passed", async () => {
  const srv = await limitedServer();
  try {
    Object.assign(process.env, { CRM_BASE_URL: srv.base, CRM_ACCESS_TOKEN: 'client-test-token', CRM_USER_EMAIL: 'a@b.example' });
    const api = new ApiClient(new Recorder(), {}, parseConfig(process.env, scratchDir('crm-http-')));
    const first = api.get('/account');
    // The second request starts once the first has met its 429: it must not be sent before the date either.
    while (srv.arrivals.length < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    const second = api.get('/account');
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, 200, 'the 429 was waited out and retried');
    assert.equal(b.status, 200);
    const [refusedAt, ...later] = srv.arrivals;
    assert.equal(later.length, 2, `three requests in all: ${srv.arrivals.length}`);
    for (const at of later)
      assert.ok(at - refusedAt >= 900, `no request of the worker before the Retry-After date: one came ${at - refusedAt} ms after the 429`);
  } finally {
    await srv.close();
    workerGate.until = 0;
    workerGate.last429At = 0;
  }
});

test('429s are honoured within a bounded total wait, whatever the number of them; then the 429 is returned', async () => {
  const gate = new RateGate();
  let sent = 0;
  const started = Date.now();
  // Five 429s in a row (the client used to give up after four retries) are waited out within the bound.
  const res = await honouring429(async () => ({ status: ++sent <= 5 ? 429 : 200, headers: { 'retry-after': '1' } }), gate, 30_000);
  assert.equal(res.status, 200, `six tries within the bound: ${sent}`);
  assert.ok(Date.now() - started >= 5_000, 'each Retry-After was waited');
  // Retry-After 0 (nothing to wait) never makes a retry at once: the back-off applies.
  const zero = Date.now();
  let tries = 0;
  await honouring429(async () => ({ status: ++tries === 1 ? 429 : 200, headers: { 'retry-after': '0' } }), new RateGate(), 30_000);
  assert.ok(Date.now() - zero >= 400, 'a Retry-After of 0 still waits the back-off');
  const bounded = new RateGate();
  const t0 = Date.now();
  const last = await honouring429(async () => ({ status: 429, headers: { 'retry-after': '1' } }), bounded, 2_500);
  assert.equal(last.status, 429, 'the 429 is returned once the bounded wait is spent');
  assert.ok(Date.now() - t0 < 3_000, `no wait past the bound: ${Date.now() - t0} ms`);
  assert.ok(bounded.limitedWithin(5_000), 'the gate remembers that a general limit answered');
});
