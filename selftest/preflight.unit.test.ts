/**
 * The preflight's judgement (specs/support/core/preflight.ts), on made-up answers: a target is
 * dead only when the credentialed GET /account gets no usable answer, nonsense only when its
 * answers break a MUST rule in a way no conformant server could; every choice the spec leaves
 * open (refusal statuses, unknown paths, extra members, a partly wrong Account) stays `alive`,
 * so the tests judge it. Also: the report's verdict from a preflight (INCONCLUSIVE, NOT
 * CONFORMANT, never CONFORMANT) and from tests skipped by the mid-run silence latch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiResponse } from '../specs/support/core/http.js';
import type { Exchange } from '../specs/support/core/recorder.js';
import { banner, classify, type PreflightResult, type Probe } from '../specs/support/core/preflight.js';
import { buildReport } from '../reporting/verdict.js';
import { renderHtml } from '../reporting/html.js';
import { R, syntheticOutcomes } from './synthetic-outcomes.js';

const ACCOUNT = { id: 7, name: 'Acme', primary_timezone: 'Europe/Paris', settings: { setting_team_permissions_enabled: false, setting_enable_leads: true } };

type Answer = { status: number; body?: unknown; type?: string } | { error: string };

function answer(label: string, a: Answer): { probe: Probe; res?: ApiResponse } {
  const url = 'http://127.0.0.1:4010/developer_api/v1/account';
  if ('error' in a) return { probe: { label, method: 'GET', url, status: 0, error: a.error, durationMs: 2000, curl: `curl ${url}` } };
  const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
  let isJson = false;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
    isJson = true;
  } catch {
    /* not JSON */
  }
  const type = a.type ?? 'application/json';
  const problem =
    !isJson && text && /json/.test(type)
      ? `invalid JSON with Content-Type ${type}`
      : !isJson && text
        ? `Content-Type ${type} where the API answers application/json`
        : undefined;
  const exchange: Exchange = {
    method: 'GET',
    url,
    requestHeaders: {},
    status: a.status,
    responseHeaders: { 'content-type': type },
    responseBody: body,
    durationMs: 3,
    curl: `curl ${url}`,
    ...(problem ? { problem } : {}),
  };
  const res: ApiResponse = { status: a.status, headers: { 'content-type': type }, body, text, isJson, exchange };
  return {
    probe: { label, method: 'GET', url, status: a.status, contentType: type, body: text, durationMs: 3, curl: exchange.curl, ...(problem ? { problem } : {}) },
    res,
  };
}

const judge = (account: Answer, anonymous: Answer, unknown: Answer) =>
  classify(answer('with credentials', account), answer('without credentials', anonymous), answer('unknown path', unknown));

test('conformant choices are alive: any refusal status, any answer to an unknown path, extra members', () => {
  for (const refusal of [401, 403, 400, 404, 422]) {
    assert.equal(
      judge({ status: 200, body: ACCOUNT }, { status: refusal, body: { message: 'no' } }, { status: 404, body: '<h1>Not Found</h1>', type: 'text/html' }).state,
      'alive',
      `refusal ${refusal}`,
    );
  }
  assert.equal(judge({ status: 200, body: { ...ACCOUNT, plan: 'gold' } }, { status: 401 }, { status: 200, body: { ok: true } }).state, 'alive');
});

test('targets the tests must judge stay alive: a partly wrong Account, 500 to everything, an ignored credential check alone', () => {
  assert.equal(judge({ status: 200, body: { id: 7, name: 'Acme', primary_timezone: '+01:00' } }, { status: 401 }, { status: 404 }).state, 'alive');
  for (const s of [500, 502])
    assert.equal(
      judge({ status: s, body: { message: 'x' } }, { status: s, body: { message: 'x' } }, { status: s, body: { message: 'x' } }).state,
      'alive',
      `${s} to everything`,
    );
  // AUTH-3 broken, but the API answers like an API: the tests judge it (and report every endpoint).
  assert.equal(judge({ status: 200, body: ACCOUNT }, { status: 200, body: ACCOUNT }, { status: 404, body: { message: 'no route' } }).state, 'alive');
  assert.equal(
    classify(answer('with', { status: 200, body: ACCOUNT }), answer('without', { status: 200, body: ACCOUNT })).state,
    'alive',
    'without the unknown path nothing is concluded',
  );
});

test('a set-up mistake, not a verdict: the credentialed GET /account answered 401/403 (credentials) or 404 (base URL)', () => {
  for (const s of [401, 403]) {
    const r = judge({ status: s, body: { message: 'x' } }, { status: s, body: { message: 'x' } }, { status: s });
    assert.equal(r.state, 'misconfigured', `${s}`);
    assert.match(r.headline, new RegExp(`refuses the configured credentials: GET .*/developer_api/v1/account answered ${s}`));
    assert.match(r.meaning, /CRM_ACCESS_TOKEN with CRM_USER_EMAIL.*CRM_BEARER_TOKEN.*INCONCLUSIVE/);
    assert.deepEqual(r.findings, [], 'no rule fails');
  }
  const r = judge({ status: 404, body: '<h1>Not Found</h1>', type: 'text/html' }, { status: 404 }, { status: 404 });
  assert.equal(r.state, 'misconfigured');
  assert.match(r.headline, /no API at the configured base URL: GET .* answered 404/);
  assert.match(r.meaning, /CRM_BASE_URL must be the server's base URL, before \/developer_api\/v1/);
  const text = banner({
    version: 1,
    runId: 'r',
    target: 'http://x/developer_api/v1',
    at: '',
    deadlineMs: 15_000,
    ...r,
    probes: [answer('with credentials', { status: 404 }).probe],
    durationMs: 3,
  });
  assert.match(text, /THE SET-UP IS WRONG \(NOT A VERDICT ON THE SERVER\)/);
  const report = buildReport(skipped(), {
    target: 'http://x/developer_api/v1',
    runId: 'r',
    warnings: [],
    preflight: { version: 1, runId: 'r', target: 'http://x/developer_api/v1', at: '', deadlineMs: 15_000, ...r, probes: [], durationMs: 3 },
  });
  assert.equal(report.verdict, 'INCONCLUSIVE', 'never NOT CONFORMANT for a set-up mistake');
});

test('dead: no usable answer to the credentialed GET /account', () => {
  const r = judge({ error: 'no answer within 15 s (no status line and headers received)' }, { status: 401 }, { status: 404 });
  assert.equal(r.state, 'dead');
  assert.match(r.headline, /no answer within 15 s/);
  assert.deepEqual(r.findings, []);
});

test('nonsense: 200 {} to everything breaks ACCOUNT-1 and AUTH-3', () => {
  const r = judge({ status: 200, body: {} }, { status: 200, body: {} }, { status: 200, body: {} });
  assert.equal(r.state, 'nonsense');
  assert.deepEqual(
    r.findings.map((f) => f.rule),
    ['ACCOUNT-1', 'AUTH-3'],
  );
  assert.match(r.headline, /answered 200 \{\}: the body has none of the members of an Account/);
});

test('nonsense: HTML, invalid JSON or an empty 2xx body to GET /account; the same Account to everything', () => {
  assert.deepEqual(
    judge({ status: 200, body: '<html>hi</html>', type: 'text/html' }, { status: 401 }, { status: 404 }).findings.map((f) => f.rule),
    ['ACCOUNT-1'],
  );
  assert.equal(judge({ status: 200, body: '{"id":', type: 'application/json' }, { status: 401 }, { status: 404 }).state, 'nonsense');
  assert.equal(judge({ status: 204 }, { status: 401 }, { status: 404 }).state, 'nonsense');
  const echo = judge({ status: 200, body: ACCOUNT }, { status: 200, body: ACCOUNT }, { status: 200, body: ACCOUNT });
  assert.equal(echo.state, 'nonsense');
  assert.deepEqual(
    echo.findings.map((f) => f.rule),
    ['AUTH-3'],
  );
});

function preflight(state: PreflightResult['state']): PreflightResult {
  const c =
    state === 'dead'
      ? judge({ error: 'no answer within 15 s (no status line and headers received)' }, { error: 'no answer within 15 s' }, { error: 'no answer within 15 s' })
      : state === 'nonsense'
        ? judge({ status: 200, body: {} }, { status: 200, body: {} }, { status: 200, body: {} })
        : judge({ status: 200, body: ACCOUNT }, { status: 401 }, { status: 404 });
  return {
    version: 1,
    runId: 'selftest',
    target: 'http://127.0.0.1:4010/developer_api/v1',
    at: new Date().toISOString(),
    deadlineMs: 15_000,
    ...c,
    probes: [answer('p', { status: 200, body: {} }).probe],
    durationMs: 5,
  };
}

const skipped = () =>
  syntheticOutcomes().map((o) => ({
    ...o,
    status: 'skipped',
    expectedStatus: 'skipped',
    skipReason: 'preflight: …',
    targetDown: 'preflight: …',
    warnings: [],
    error: undefined,
    expectedFailure: undefined,
    unexpectedPass: undefined,
  }));

test('report: a dead target is INCONCLUSIVE, never CONFORMANT; the page shows what was tried', () => {
  const report = buildReport(skipped(), { target: 't', runId: 'selftest', preflight: preflight('dead') });
  assert.equal(report.verdict, 'INCONCLUSIVE');
  assert.match(report.verdictReason ?? '', /the target is dead/);
  const html = renderHtml(report);
  assert.match(html, /id="verdict">INCONCLUSIVE</);
  assert.match(html, /data-preflight="dead"/);
  assert.match(banner(preflight('dead')), /crm-conformance preflight: THE TARGET DOES NOT ANSWER/);
  assert.equal(banner(preflight('alive')), '', 'no banner for a live target');
});

test('report: a nonsense target is NOT CONFORMANT on the rules the preflight saw broken', () => {
  const report = buildReport(skipped(), { target: 't', runId: 'selftest', preflight: preflight('nonsense') });
  assert.equal(report.verdict, 'NOT CONFORMANT');
  const account = report.rules.find((r) => r.id === 'ACCOUNT-1')!;
  assert.equal(account.verdict, 'FAIL');
  assert.match(account.reasons[0], /^preflight: GET \/account answered 200: .*; replay: curl /);
});

test('report: tests skipped because the target stopped answering make an otherwise clean run INCONCLUSIVE', () => {
  const clean = syntheticOutcomes().filter((o) => o.rules[0] !== R.fail.id && o.rules[0] !== R.known.id);
  assert.equal(buildReport(clean, { target: 't', runId: 'r', preflight: preflight('alive') }).verdict, 'CONFORMANT');
  const down = [
    ...clean,
    {
      ...clean[0],
      title: 'later test',
      status: 'skipped',
      expectedStatus: 'skipped',
      targetDown: 'the target stopped answering: …; the first: GET …/account: no answer within 15 s',
    },
  ];
  const report = buildReport(down, { target: 't', runId: 'r', preflight: preflight('alive') });
  assert.equal(report.verdict, 'INCONCLUSIVE');
  assert.equal(report.targetDown?.tests, 1);
  assert.equal(
    buildReport([...down, ...syntheticOutcomes().filter((o) => o.rules[0] === R.fail.id)], { target: 't', runId: 'r' }).verdict,
    'NOT CONFORMANT',
    'a MUST failure still decides',
  );
});

test('report: a test not judged (an observation it needs never came) makes an otherwise clean run INCONCLUSIVE, and says so', () => {
  const clean = syntheticOutcomes().filter((o) => o.rules[0] !== R.fail.id && o.rules[0] !== R.known.id);
  const reason = 'routing not judged: the bounding notification did not come (no notification naming the new company 8 arrived …)';
  const unjudged = [...clean, { ...clean[0], title: 'routing test', status: 'skipped', expectedStatus: 'skipped', skipReason: reason, notJudged: reason }];
  const report = buildReport(unjudged, { target: 't', runId: 'r', preflight: preflight('alive') });
  assert.equal(report.verdict, 'INCONCLUSIVE');
  assert.deepEqual(report.notJudged, { tests: 1, reason });
  assert.match(report.verdictReason ?? '', /1 test\(s\) could not be judged: routing not judged/);
  assert.match(renderHtml(report), /id="not-judged">1 test\(s\) could not be judged/);
  assert.equal(
    buildReport([...unjudged, ...syntheticOutcomes().filter((o) => o.rules[0] === R.fail.id)], { target: 't', runId: 'r' }).verdict,
    'NOT CONFORMANT',
    'a MUST failure still decides',
  );
});

test('a far target gets time limits that follow its measured latency; a near one keeps the configured limit', async () => {
  const { measuredLatencyMs, timeLimitFor } = await import('../specs/support/core/preflight.js');
  assert.equal(timeLimitFor(30_000, undefined), 30_000);
  assert.equal(timeLimitFor(30_000, 3), 30_000, 'loopback');
  assert.equal(timeLimitFor(30_000, 300), 45_000, '300 ms a response');
  assert.equal(timeLimitFor(30_000, 2_000), 147_000, '2 s a response');
  assert.equal(timeLimitFor(30_000, 60_000), 15 * 60_000, 'bounded');
  const p = preflight('alive');
  assert.equal(
    measuredLatencyMs({
      ...p,
      probes: [
        { ...p.probes[0], durationMs: 900 },
        { ...p.probes[0], durationMs: 300 },
        { ...p.probes[0], status: 0, durationMs: 15_000 },
      ],
    }),
    900,
    'the median of the answered probes',
  );
});
