/**
 * One origin for the API and the authorization host: the spec gives them apart ({auth_url}) but
 * a server may serve both at one origin, and a user then leaves CRM_AUTH_URL unset (it defaults
 * to CRM_BASE_URL) or sets it to the same origin. The embedded server serves that shape too
 * (reference/server.ts, host 'both': no REFERENCE_AUTH_PORT), which no other self-test and no
 * mutation run takes (theirs listen apart). Here: the whole suite
 * against the reference at one origin is CONFORMANT, its OAuth rules judged through that origin,
 * and a fault of the OAuth flow is still caught there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { freePorts } from '../specs/support/core/embedded.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { referenceEnv } from '../scripts/reference-process.js';
import { failedRules, readJson, readOutcomes, ROOT, runPlaywright, scratchDir } from './helpers.js';

/** A user's set-up of the embedded server at one origin (CRM_BASE_URL given, so its credentials too: those the reference takes standalone). */
function oneOrigin(): Record<string, string> {
  const origin = `http://127.0.0.1:${freePorts(1)[0]}`;
  return { ...referenceEnv(origin, origin, resolve(ROOT, 'reference/profile.json')), CRM_EMBEDDED: '1', CRM_REPORTERS: 'minimal' };
}

test('with one origin for the API and authorization, the whole suite against the reference is CONFORMANT', async () => {
  const reports = join(scratchDir('crm-one-origin-'), 'reports');
  const res = await runPlaywright([], { ...oneOrigin(), CRM_REPORT_DIR: reports }, 900_000);
  const report = readJson<ConformanceReport>(join(reports, 'conformance.json'));
  assert.equal(report.verdict, 'CONFORMANT', `${report.verdictLine}\n${failedRules(report).join('\n')}\n${res.out.slice(-3000)}`);
  assert.equal(res.code, 0, res.out.slice(-3000));
  const oauth = (readOutcomes(reports) ?? []).filter((o) => /^specs[\\/]oauth[\\/]/.test(o.file));
  assert.ok(
    oauth.some((o) => o.status === 'passed'),
    'the OAuth specs ran through the one origin',
  );
  assert.deepEqual(
    oauth.filter((o) => o.status !== 'passed' && o.status !== 'skipped').map((o) => `${o.title}: ${o.status}`),
    [],
    'no OAuth test failed',
  );
});

test('with one origin, a fault of the OAuth flow is caught on its rule', async () => {
  const reports = join(scratchDir('crm-one-origin-fault-'), 'reports');
  const res = await runPlaywright(['specs/oauth'], { ...oneOrigin(), CRM_REPORT_DIR: reports, REFERENCE_FAULTS: 'oauth-state-dropped' }, 600_000);
  const report = readJson<ConformanceReport>(join(reports, 'conformance.json'));
  assert.equal(report.rules.find((r) => r.id === 'OAUTH-5')?.verdict, 'FAIL', `OAUTH-5 fails\n${report.verdictLine}\n${res.out.slice(-2000)}`);
  assert.notEqual(report.verdict, 'CONFORMANT');
});
