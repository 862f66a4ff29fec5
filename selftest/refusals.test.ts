/**
 * "Is refused" means a 4xx answer (issue 32, item 4): a 5xx or no answer never passes a refusal
 * rule. The matchers: `toBeRefused` passes on a 4xx only, `.not.toBeRefused()` ("accepted") on a
 * 2xx only, so a 5xx or a 3xx fails both, saying why. And a whole run: a target answering its
 * Account as a server does (so the preflight finds it alive) and 500 to everything else fails
 * HOOK-4, HOOK-5 and HOOK-6 (MUST "is refused"), each failure saying a 5xx is no refusal.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { ConformanceReport } from '../reporting/verdict.js';
import type { ApiResponse } from '../specs/support/core/http.js';
import type { Exchange } from '../specs/support/core/recorder.js';
import { expect, isAccepted, isRefused } from '../specs/support/fixtures/matchers.js';
import { readJson, ROOT, runPlaywright } from './helpers.js';

const exchange = (status: number): Exchange => ({ method: 'POST', url: 'http://127.0.0.1:9/developer_api/v1/webhooks', requestHeaders: {}, status, responseHeaders: {}, durationMs: 1, curl: 'curl …' });
const answer = (status: number): ApiResponse => ({ status, headers: {}, body: undefined, text: '', isJson: false, exchange: exchange(status) });
const fails = (fn: () => void, re: RegExp) => assert.throws(fn, (e: Error) => re.test(e.message), `fails matching ${re}`);

test('toBeRefused passes on a 4xx only: a 5xx is a server error and a 3xx a redirect, no refusal', () => {
  for (const s of [400, 401, 403, 404, 409, 422, 429]) expect(answer(s)).toBeRefused();
  fails(() => expect(answer(500)).toBeRefused(), /expected a refusal \(a 4xx answer\), got 500: a 5xx is a server error, no refusal/);
  fails(() => expect(answer(503)).toBeRefused(), /got 503: a 5xx is a server error, no refusal/);
  fails(() => expect(answer(302)).toBeRefused(), /got 302: a 3xx is a redirect, no refusal/);
  fails(() => expect(answer(200)).toBeRefused(), /expected a refusal \(a 4xx answer\), got 200/);
  fails(() => expect(answer(500)).toBeClientError(), /got 500: a 5xx is a server error, no refusal/);
  assert.deepEqual([200, 302, 404, 500].map((s) => isRefused(answer(s))), [false, false, true, false], 'isRefused: the quick form');
});

test('.not.toBeRefused() reads "accepted": it passes on a 2xx only', () => {
  expect(answer(200)).not.toBeRefused();
  expect(answer(201)).not.toBeRefused();
  fails(() => expect(answer(500)).not.toBeRefused(), /expected a 2xx answer, got 500/);
  fails(() => expect(answer(302)).not.toBeRefused(), /expected a 2xx answer, got 302/);
  fails(() => expect(answer(422)).not.toBeRefused(), /expected a 2xx answer, got 422/);
  assert.equal(isAccepted(answer(500)), false);
});

const ACCOUNT = JSON.stringify({ id: 1, name: 'Failing', primary_timezone: 'UTC', settings: { setting_team_permissions_enabled: false, setting_enable_leads: true } });

/** Answers GET …/account as a server does (401 without credentials), and 500 to everything else. */
async function failingButAccount(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && /\/account(\?|$)/.test(req.url ?? '')) {
        const authorized = !!req.headers['x-svc-accesstoken'] || !!req.headers.authorization;
        res.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
        res.end(authorized ? ACCOUNT : JSON.stringify({ message: 'unauthorized' }));
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, status: 500, message: 'internal error' }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}

test('a target answering 500 to everything but /account: HOOK-4, HOOK-5 and HOOK-6 fail, saying a 5xx is no refusal', async (t) => {
  const server = await failingButAccount();
  const dir = 'reports/runs/selftest-refusals-500';
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  try {
    const res = await runPlaywright(['specs/webhooks/invalid-parameters.spec.ts', '--grep', 'HOOK-[456]\\b'], {
      CRM_BASE_URL: server.url,
      CRM_ACCESS_TOKEN: 'refusal-token-0000',
      CRM_USER_EMAIL: 'refusal@example.com',
      CRM_REPORT_DIR: dir,
      CRM_REPORTERS: 'minimal',
      CRM_REQUEST_TIMEOUT_MS: '5000',
    }, 180_000);
    const out = res.stdout + res.stderr;
    t.diagnostic(`exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s`);
    assert.equal(res.code, 1, `the run fails\n${out.slice(-3000)}`);
    const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
    assert.equal(report.preflight?.state, 'alive', 'the target answers its Account: alive, its tests judge it');
    assert.equal(report.verdict, 'NOT CONFORMANT', report.verdictReason);
    for (const id of ['HOOK-4', 'HOOK-5', 'HOOK-6']) {
      const r = report.rules.find((x) => x.id === id);
      assert.ok(r, `${id} is in the report`);
      assert.equal(r.verdict, 'FAIL', `${id}: ${r.verdict}`);
      assert.ok(r.tests.length >= 3, `${id}: its tests ran (${r.tests.length})`);
      for (const x of r.tests) {
        assert.equal(x.status, 'failed', `${x.title}: ${x.status}`);
        assert.match(x.error ?? '', /expected a refusal \(a 4xx answer\), got 500: a 5xx is a server error, no refusal/, x.title);
        assert.doesNotMatch(x.error ?? '', /refusal-token-0000/, 'the token is redacted');
      }
    }
  } finally {
    await server.close();
  }
});
