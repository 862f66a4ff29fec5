/**
 * The webhook receiver's recording server (specs/support/resources/webhook-recording.ts): a
 * request under /hooks/held/ is held until its test releases it, and one that reaches a released
 * prefix later (a notification that came after its test stopped waiting) is answered at once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listen, Recording } from '../specs/support/resources/webhook-recording.js';

test('a held notification is answered on release, and one reaching a released prefix later is answered at once', async () => {
  const recording = new Recording('key');
  const server = createServer(recording.handle);
  const port = await listen(server, 0);
  const post = (path: string) =>
    fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1}' });
  try {
    const first = post('/hooks/held/t1/slow');
    for (let i = 0; i < 100 && !recording.requests('/hooks/held/t1').length; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(recording.requests('/hooks/held/t1')[0]?.answeredAt, undefined, 'held until released');
    recording.release('/hooks/held/t1');
    assert.equal((await first).status, 200);
    const started = Date.now();
    assert.equal((await post('/hooks/held/t1/slow')).status, 200);
    assert.ok(Date.now() - started < 5_000, 'a late notification to a released prefix is not held');
    assert.equal(recording.requests('/hooks/held/t1').at(-1)?.answeredAt !== undefined, true);
    const other = post('/hooks/held/t2/slow');
    for (let i = 0; i < 100 && !recording.requests('/hooks/held/t2').length; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(recording.requests('/hooks/held/t2')[0]?.answeredAt, undefined, "another test's channel is still held");
    recording.releaseAll();
    await other;
  } finally {
    server.close();
  }
});
