/**
 * The whole conformance suite against the embedded reference server, in one run that three tests
 * read: everything passes and nothing warns; no secret reaches any artifact of the run (it is
 * given distinctive credentials, selftest/leak-scan.ts, and writes every report); and its coverage
 * map (spec-coverage.json, reporting/coverage/) has no unexplained gap but the known findings
 * below. One run of the whole suite instead of three: the same suite, server and reporters, only
 * the credentials differ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, readJson, runPlaywright, type RunResult } from './helpers.js';
import { assertNoLeaks, leakEnv } from './leak-scan.js';
import type { ConformanceReport } from '../reporting/verdict.js';
import { SpecCoverage } from '../reporting/coverage/map.js';

const DIR = 'reports/runs/selftest-reference';
let run: Promise<RunResult> | undefined;
/** The run both tests read, started by the first of them. */
const referenceRun = () => (run ??= runPlaywright([], leakEnv(DIR)));

test('the suite passes the conformant reference server with no failure and no warning', async (t) => {
  const res = await referenceRun();
  const report = readJson<ConformanceReport>(`${DIR}/conformance.json`);
  const bad = report.rules.filter((r) => r.verdict === 'FAIL' || r.verdict === 'WARN').map((r) => `${r.id} ${r.verdict}: ${r.reasons.join('; ')}`);
  assert.deepEqual(bad, [], `rules failed or warned against the reference server:\n${bad.join('\n')}\n${res.stdout.slice(-3000)}`);
  assert.equal(res.code, 0, res.stdout.slice(-3000) + res.stderr.slice(-2000));
  assert.equal(report.verdict, 'CONFORMANT');
  assert.deepEqual(report.untraced, []);
  const skipped = report.rules.filter((r) => r.verdict === 'SKIP').map((r) => `${r.id}: ${r.reasons.join('; ')}`);
  assert.deepEqual(skipped, [], 'no rule is skipped against the reference server');
  t.diagnostic(`${report.tests.total} tests in ${(res.ms / 1000).toFixed(1)} s; ${report.counts.MUST.PASS} MUST rules pass`);
});

test('no secret, code or token in any artifact of that run', async (t) => {
  const res = await referenceRun();
  t.diagnostic(assertNoLeaks('reference run', DIR, res, false));
});

/**
 * TODO: blind spots of the suite that the coverage map of a standard run shows: classes of the
 * spec no test exercises, with no reason in rules/coverage-reasons.json because they need a check,
 * not a reason. Each is a test to write; remove its entry (the test below then insists) when one
 * exercises it:
 * - OAuth authorization requests with a required parameter left out, with a redirect_uri other
 *   than the registered one, or without state (only the optional one);
 * - OAuth token requests with an unknown client_id, or grant_type, client_id or client_secret left out;
 * - a conversion without details.person (details {}, person {} or without name): "A Person is created";
 * - an address whose country is null or empty on POST /people and POST /companies ("`country` may be null or empty");
 * - bulk entries with primary_contact_id, status or customer_source_id (three of the "Members shown");
 * - POST /projects with status ("other Project fields optional");
 * - a subscription with custom_field_computed_values false;
 * - an upsert whose properties set a Lead's assignee_id or customer_source_id ("properties: <Lead fields to set>");
 * - non-ASCII details of an activity update.
 */
const KNOWN_FINDINGS: Record<string, string[]> = {
  'OAuth authorization request error paths': [
    'oauth authorize response_type missing',
    'oauth authorize client_id missing',
    'oauth authorize redirect_uri missing',
    'oauth authorize scope missing',
    'oauth authorize redirect_uri other-value',
    'oauth authorize state missing',
  ],
  'OAuth token request error paths': [
    'oauth token grant_type missing',
    'oauth token client_id missing',
    'oauth token client_secret missing',
    'oauth token client_id other-value',
  ],
  'conversion without a person': [
    'POST /leads/{lead_id}/convert request details empty-object',
    'POST /leads/{lead_id}/convert request details.person omitted',
    'POST /leads/{lead_id}/convert request details.person empty-object',
    'POST /leads/{lead_id}/convert request details.person.name omitted',
  ],
  'address country null or empty': [
    'POST /people request address.country=null',
    'POST /people request address.country empty-string',
    'POST /companies request address.country=null',
    'POST /companies request address.country empty-string',
  ],
  'bulk members shown, never sent': [
    'POST /opportunities/bulk_create request opportunities[].primary_contact_id value',
    'POST /opportunities/bulk_create request opportunities[].status value',
    'POST /opportunities/bulk_create request opportunities[].customer_source_id value',
    'POST /opportunities/bulk_create response 200 BulkOpportunity[].primary_contact_id value',
    'POST /opportunities/bulk_create response 200 BulkOpportunity[].customer_source_id value',
  ],
  'project status on create': ['POST /projects request status value'],
  'custom_field_computed_values false': ['POST /webhooks request custom_field_computed_values=false'],
  'Lead fields an upsert never sets': ['PUT /leads/upsert response 2xx Lead.assignee_id value', 'PUT /leads/upsert response 2xx Lead.customer_source_id value'],
  'non-ASCII text': ['PUT /activities/{activity_id} request details non-ascii'],
};

test("the run's coverage map: every endpoint exercised, every gap explained but the known findings", async (t) => {
  await referenceRun();
  const map = SpecCoverage.parse(readJson(`${DIR}/spec-coverage.json`));
  assert.equal(map.summary.endpoints.exercised, map.summary.endpoints.total, 'every endpoint of the spec is exercised');
  assert.deepEqual(map.staleReasons, [], 'no reason names a class the surface no longer has');
  const known = new Set(Object.values(KNOWN_FINDINGS).flat());
  const unexplained = map.gaps.filter((g) => !g.explained).map((g) => g.id);
  const fresh = unexplained.filter((id) => !known.has(id));
  assert.deepEqual(fresh, [], 'gaps with no reason in rules/coverage-reasons.json: write the test that exercises them, or give the reason');
  const closed = [...known].filter((id) => !unexplained.includes(id));
  assert.deepEqual(closed, [], 'known findings a test now exercises (or a reason explains): remove them from KNOWN_FINDINGS');
  t.diagnostic(
    `${map.summary.classes.exercised}/${map.summary.classes.total} classes, ${map.summary.gaps.total} gaps (${map.summary.gaps.explained} explained, ${map.summary.gaps.unexplained} known findings)`,
  );
});
