/**
 * "Is refused" means a 4xx answer (issue 32, item 4): a 5xx or no answer never passes a refusal
 * rule. A target answering its Account as a server does (so the preflight finds it alive) and 500
 * to everything else fails HOOK-4, HOOK-5 and HOOK-6 (MUST "is refused"), each failure saying a
 * 5xx is no refusal (it was CONFORMANT, the 9 tests passing on HTTP 500). The matchers alone:
 * selftest/refusals.unit.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { ConformanceReport } from '../reporting/verdict.js';
import { readJson, ROOT, runPlaywright } from './helpers.js';

const ACCOUNT = JSON.stringify({
  id: 1,
  name: 'Failing',
  primary_timezone: 'UTC',
  settings: { setting_team_permissions_enabled: false, setting_enable_leads: true },
});

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
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

test('a target answering 500 to everything but /account: HOOK-4, HOOK-5 and HOOK-6 fail, saying a 5xx is no refusal', async (t) => {
  const server = await failingButAccount();
  const dir = 'reports/runs/selftest-refusals-500';
  rmSync(resolve(ROOT, dir), { recursive: true, force: true });
  try {
    const res = await runPlaywright(
      ['specs/webhooks/invalid-parameters.spec.ts', '--grep', 'HOOK-[456]\\b'],
      {
        CRM_BASE_URL: server.url,
        CRM_ACCESS_TOKEN: 'refusal-token-0000',
        CRM_USER_EMAIL: 'refusal@example.com',
        CRM_REPORT_DIR: dir,
        CRM_REPORTERS: 'minimal',
        CRM_REQUEST_TIMEOUT_MS: '5000',
      },
      180_000,
    );
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
