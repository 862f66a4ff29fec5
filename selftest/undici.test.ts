/**
 * specs/support/core/undici.ts: the suite's dispatchers and `request` without undici's entry
 * point (fetch, WebSocket, caches, mocks): they answer as the package's own, and the entry point
 * is not loaded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { Agent, Pool, request } from '../specs/support/core/undici.js';

test('Agent, Pool and request of the lean undici: the method, path, query and body reach the server; the entry point stays unloaded', async () => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => res.end(JSON.stringify({ method: req.method, url: req.url, body })));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const agent = new Agent();
  const pool = new Pool(origin, { connections: 2 });
  try {
    const a = await request(`${origin}/developer_api/v1/leads?page=2`, { method: 'POST', body: '{"a":1}', dispatcher: agent });
    assert.equal(a.statusCode, 200);
    assert.deepEqual(await a.body.json(), { method: 'POST', url: '/developer_api/v1/leads?page=2', body: '{"a":1}' });
    const p = await pool.request({ path: '/x', method: 'GET' });
    assert.deepEqual(await p.body.json(), { method: 'GET', url: '/x', body: '' });
    const entry = createRequire(import.meta.url).resolve('undici');
    assert.ok(!Object.keys(createRequire(import.meta.url).cache).includes(entry), `${entry} is not loaded`);
  } finally {
    await agent.close();
    await pool.close();
    server.close();
  }
});
