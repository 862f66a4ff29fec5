/**
 * Requests to the run's own helpers on loopback (specs/support/core/loopback.ts): the JSON answer
 * and its status, an empty or non-JSON body as undefined, a refused connection with its code, a
 * time limit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackJson } from '../specs/support/core/loopback.js';

test('a loopback request gets the status and the JSON body; an empty or non-JSON body is undefined; a refusal keeps its code', async () => {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers['x-receiver-key'] ?? ''}`);
    req.resume();
    if (req.url === '/json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"delayMs":5,"slot":3}');
    } else if (req.url === '/empty') {
      res.writeHead(404);
      res.end();
    } else if (req.url === '/text') {
      res.writeHead(200);
      res.end('not json');
    }
    // /slow: never answers
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.deepEqual(await loopbackJson(`${base}/json`), { status: 200, body: { delayMs: 5, slot: 3 } });
    assert.deepEqual(await loopbackJson(`${base}/empty`, { method: 'GET', headers: { 'x-receiver-key': 'k' } }), { status: 404, body: undefined });
    assert.deepEqual(await loopbackJson(`${base}/text`), { status: 200, body: undefined });
    assert.deepEqual(seen, ['POST /json ', 'GET /empty k', 'POST /text ']);
    await assert.rejects(loopbackJson(`${base}/slow`, { timeoutMs: 200 }), /no answer from .*\/slow within 200 ms/);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  await assert.rejects(loopbackJson(base), (err: { code?: string }) => err.code === 'ECONNREFUSED');
});
