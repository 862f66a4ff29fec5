/**
 * CRM_RECEIVER_PORT and CRM_CALLBACK_PORT are honoured on loopback too (a server that registers
 * exact redirect URIs, a firewall that opens two ports): a run against the embedded server
 * subscribes webhooks at `http://127.0.0.1:<CRM_RECEIVER_PORT>/…` (every worker through the one
 * receiver on that port) and sends the redirect_uri `http://127.0.0.1:<CRM_CALLBACK_PORT>/oauth/callback`;
 * the doctor names that redirect_uri, the one the run sends, for the user to register. Without
 * them each worker takes free ports, as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePorts } from '../specs/support/core/embedded.js';
import { parseConfig } from '../specs/support/core/config.js';
import { chromiumPath } from './chromium.js';
import { cleanEnv, ROOT, runCli, runPlaywright, scratchDir } from './helpers.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';

/** Every exchanges.json a run left in its report directory, as text. */
function evidence(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('exchanges.json')) out.push(readFileSync(join(d, e.name), 'utf8'));
    }
  };
  walk(dir);
  return out.join('\n');
}

test('on loopback the two ports are the configuration’s, and may not be one', () => {
  const base = { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 't', CRM_USER_EMAIL: 'a@b.example', CRM_EMBEDDED: '1' };
  assert.deepEqual(parseConfig({ ...base, CRM_RECEIVER_PORT: '5102', CRM_CALLBACK_PORT: '5103' }).receivers, { webhookPort: 5102, callbackPort: 5103 });
  assert.deepEqual(parseConfig(base).receivers, { webhookPort: undefined, callbackPort: undefined }, 'unset: free ports');
  assert.throws(
    () => parseConfig({ ...base, CRM_CLIENT_ID: 'c', CRM_RECEIVER_PORT: '5102', CRM_CALLBACK_PORT: '5102' }),
    /on loopback: the webhook receiver \(CRM_RECEIVER_PORT=5102\) and the OAuth callback receiver \(CRM_CALLBACK_PORT=5102\) would both listen on local port 5102/,
  );
});

test('a loopback run with CRM_RECEIVER_PORT and CRM_CALLBACK_PORT uses them', { timeout: 300_000 }, async () => {
  const [receiverPort, callbackPort] = freePorts(2);
  const dir = scratchDir('crm-ports-');
  const grep = chromiumPath() ? '@EVENT-1 |@EVENT-9 |@OAUTH-10 ' : '@EVENT-1 |@EVENT-9 ';
  const res = await runPlaywright(['specs/events/new-events.spec.ts', 'specs/events/delivery.spec.ts', 'specs/oauth/token.spec.ts', '--grep', grep], {
    CRM_RECEIVER_PORT: String(receiverPort),
    CRM_CALLBACK_PORT: String(callbackPort),
    CRM_REPORT_DIR: dir,
    CRM_REPORTERS: 'minimal',
  });
  assert.equal(res.code, 0, res.out.slice(-4000));
  const sent = evidence(dir);
  const hooks = [...sent.matchAll(/"target":\s*"(http:\/\/[^"/]+)\//g)].map((m) => m[1]);
  assert.ok(hooks.length > 1, `webhook subscriptions were recorded:\n${res.out.slice(-2000)}`);
  assert.deepEqual([...new Set(hooks)], [`http://127.0.0.1:${receiverPort}`], 'every subscription names the receiver on CRM_RECEIVER_PORT');
  if (chromiumPath())
    assert.match(
      sent,
      new RegExp(`redirect_uri=http%3A%2F%2F127\\.0\\.0\\.1%3A${callbackPort}%2Foauth%2Fcallback`),
      'the token request sends the callback on CRM_CALLBACK_PORT',
    );
});

test('the doctor names the redirect_uri the run sends, on CRM_CALLBACK_PORT, and receives on CRM_RECEIVER_PORT', { timeout: 120_000 }, async () => {
  const server = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, cleanEnv());
  try {
    const [receiverPort, callbackPort] = freePorts(2);
    const env = { ...referenceEnv(server.api, server.auth, resolve(ROOT, 'reference/profile.json')) };
    const r = await runCli(['doctor'], { ...env, CRM_RECEIVER_PORT: String(receiverPort), CRM_CALLBACK_PORT: String(callbackPort) });
    assert.equal(r.code, 0, r.out);
    assert.match(
      r.out,
      new RegExp(`^ok\\s+OAuth pages\\s+GET \\S+ \\(redirect_uri http://127\\.0\\.0\\.1:${callbackPort}/oauth/callback: the run's\\) answers 200`, 'm'),
    );
    assert.match(r.out, new RegExp(`^ok\\s+receivers reachable\\s+project/new notification received at http://127\\.0\\.0\\.1:${receiverPort}/hooks/`, 'm'));
    const free = await runCli(['doctor'], env);
    assert.match(
      free.out,
      /^ok\s+OAuth pages\s+.*redirect_uri http:\/\/127\.0\.0\.1:\d+\/oauth\/callback: the run's, on a free port that changes from run to run \(CRM_CALLBACK_PORT fixes it\)/m,
    );
  } finally {
    await server.stop();
  }
});
