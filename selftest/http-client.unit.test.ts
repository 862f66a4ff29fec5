/**
 * The one HTTP client: Retry-After in both of its forms (RFC 9110 §10.2.3), and content codings
 * decoded on every path, the race of truly concurrent requests included (a server may gzip JSON
 * when the request has no Accept-Encoding, RFC 9110 §12.5.3).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { parseConfig } from '../specs/support/core/config.js';
import { ApiClient, retryAfterMs } from '../specs/support/core/http.js';
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
