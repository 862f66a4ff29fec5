/**
 * AUTH-2 (MUST: `Authorization: Bearer <token>` is accepted on API calls) is judged with the
 * token the OAuth handshake obtains when no Bearer token is configured (issue 32, item 9): it was
 * skipped unless CRM_BEARER_TOKEN was set, although the OAuth specs obtained a token. Against the
 * reference server run as a user runs it: without CRM_BEARER_TOKEN, AUTH-2 passes through the
 * handshake; with neither a Bearer token nor OAuth settings it is skipped naming both; with
 * CRM_BEARER_TOKEN the configured token judges it and no browser is needed.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OutcomeFile } from '../reporting/conformance-reporter.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { cleanEnv, readJson, ROOT, runPlaywright } from './helpers.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';

const SPECS = ['specs/authentication/header-credentials.spec.ts', 'specs/oauth/bearer.spec.ts', '--grep', 'AUTH-2\\b'];
const OAUTH_SETTINGS = ['CRM_CLIENT_ID', 'CRM_CLIENT_SECRET', 'CRM_LOGIN_EMAIL', 'CRM_LOGIN_PASSWORD'];

describe('AUTH-2 against the reference server', { concurrency: 1 }, () => {
  let server: Awaited<ReturnType<typeof startReferenceProcess>>;
  let base: Record<string, string>;
  before(async () => {
    server = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, cleanEnv());
    base = referenceEnv(server.api, server.auth, resolve(ROOT, 'reference/profile.json'));
  });
  after(async () => {
    await server?.stop();
  });

  const run = async (name: string, env: Record<string, string>) => {
    const dir = `reports/runs/selftest-auth-bearer-${name}`;
    rmSync(resolve(ROOT, dir), { recursive: true, force: true });
    const res = await runPlaywright(SPECS, { ...env, CRM_REPORT_DIR: dir, CRM_REPORTERS: 'minimal' }, 180_000);
    const out = res.stdout + res.stderr;
    const report = readJson<ConformanceReport>(`${dir}/conformance.json`);
    const { outcomes } = readJson<OutcomeFile>(`${dir}/conformance-outcomes.json`);
    const auth2 = report.rules.find((r) => r.id === 'AUTH-2');
    assert.ok(auth2, `AUTH-2 is in the report\n${out.slice(-2000)}`);
    return { res, out, auth2, outcomes: outcomes.filter((o) => /^AUTH-2 /.test(o.title)) };
  };

  test('without CRM_BEARER_TOKEN: AUTH-2 passes with the token the OAuth handshake obtained', async (t) => {
    const { CRM_BEARER_TOKEN: _unset, ...env } = base;
    const { res, out, auth2, outcomes } = await run('oauth', env);
    t.diagnostic(`exit ${res.code} in ${(res.ms / 1000).toFixed(1)} s`);
    assert.equal(auth2.verdict, 'PASS', `AUTH-2: ${auth2.verdict} ${auth2.reasons.join('; ')}\n${out.slice(-3000)}`);
    const passed = outcomes.filter((o) => o.status === 'passed');
    assert.equal(passed.length, 1, 'one AUTH-2 test passes');
    assert.match(passed[0].file, /oauth[\\/]bearer\.spec\.ts$/, "the test of the handshake's token");
    const skipped = outcomes.find((o) => o.status === 'skipped');
    assert.match(skipped?.skipReason ?? '', /no Bearer token configured \(CRM_BEARER_TOKEN\): AUTH-2 is judged with the token the OAuth handshake obtains/);
    assert.equal(res.code, 0, out.slice(-3000));
  });

  test('with neither CRM_BEARER_TOKEN nor OAuth settings: AUTH-2 is skipped naming both', async () => {
    const env = Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'CRM_BEARER_TOKEN' && !OAUTH_SETTINGS.includes(k)));
    const { auth2, out } = await run('none', env);
    assert.equal(auth2.verdict, 'SKIP', `AUTH-2: ${auth2.verdict}\n${out.slice(-2000)}`);
    const reasons = auth2.reasons.join('\n');
    assert.match(reasons, /CRM_BEARER_TOKEN/);
    assert.match(reasons, /set CRM_CLIENT_ID, CRM_CLIENT_SECRET, CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD/);
  });

  test("with CRM_BEARER_TOKEN: the configured token judges AUTH-2; the handshake's test is skipped saying so", async () => {
    const { auth2, outcomes, out } = await run('configured', base);
    assert.equal(auth2.verdict, 'PASS', `AUTH-2: ${auth2.verdict} ${auth2.reasons.join('; ')}\n${out.slice(-2000)}`);
    const skipped = outcomes.find((o) => o.status === 'skipped');
    assert.match(skipped?.skipReason ?? '', /CRM_BEARER_TOKEN is set: AUTH-2 is judged with it/);
    assert.match(skipped?.file ?? '', /bearer\.spec\.ts$/);
  });
});
