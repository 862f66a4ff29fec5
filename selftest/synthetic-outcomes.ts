/** Synthetic test outcomes (fail, warn, skip, pass, known failure, unexpected pass) for the report and merge self-tests. */
import { RULES, type Rule } from '../rules/index.js';
import type { TestOutcome } from '../reporting/verdict.js';

const pick = (level: Rule['level'], skip: number) => {
  const r = RULES.filter((x) => x.level === level && !x.untestable)[skip] ?? RULES.filter((x) => x.level === level)[skip];
  if (!r) throw new Error(`the catalog has fewer than ${skip + 1} ${level} rules`);
  return r;
};

export const R = {
  fail: pick('MUST', 0),
  pass: pick('MUST', 1),
  skip: pick('MUST', 2),
  known: pick('MUST', 3),
  unexpected: pick('MUST', 4),
  warn: pick('SHOULD', 0),
};

const exchange = (status: number, body: unknown, extra: Record<string, unknown> = {}) => ({
  method: 'GET',
  url: 'http://127.0.0.1:4010/developer_api/v1/account',
  requestHeaders: { Accept: 'application/json', 'X-SVC-AccessToken': '«redacted»', 'X-SVC-Application': 'developer_api', 'X-SVC-UserEmail': 'a@b.example' },
  status,
  responseHeaders: { 'content-type': 'application/json' },
  responseBody: body,
  durationMs: 3,
  curl: `curl -sS -X GET "http://127.0.0.1:4010/developer_api/v1/account" -H "X-SVC-AccessToken: $CRM_ACCESS_TOKEN"`,
  ...extra,
});

export function outcome(rule: Rule, o: Partial<TestOutcome> & { title?: string }): TestOutcome {
  return {
    title: o.title ?? `${rule.id} synthetic ${o.status ?? 'passed'} test`,
    file: `specs/${rule.area}/synthetic.spec.ts`,
    line: 10,
    rules: [rule.id],
    level: rule.level,
    status: 'passed',
    expectedStatus: 'passed',
    durationMs: 12,
    warnings: [],
    notes: [],
    requests: 2,
    statuses: { '200': 2 },
    created: [],
    ...o,
  };
}

/** One outcome of each kind; the rest of the catalog stays UNTESTED. */
export function syntheticOutcomes(): TestOutcome[] {
  return [
    outcome(R.fail, {
      status: 'failed',
      error: `expected status 200, got 500\nGET http://127.0.0.1:4010/developer_api/v1/account → 500\n  got: {"message":"boom"}`,
      replay: `curl -sS -X GET "http://127.0.0.1:4010/developer_api/v1/account" -H "X-SVC-AccessToken: $CRM_ACCESS_TOKEN"`,
      counterexample:
        'seed: 1234567\npath: 3:1:0\nvalue: {"name":"ÿ"}\nreplay: CRM_FC_SEED=1234567 CRM_FC_PATH=3:1:0 CRM_FC_RUNS=100 npx playwright test specs/wire/conventions.spec.ts:3',
      exchanges: [exchange(500, { message: 'boom' }), exchange(0, undefined, { error: 'no answer within 15 s (no status line and headers received)' })],
      statuses: { '500': 1, '0': 1 },
    }),
    outcome(R.warn, {
      title: `${R.warn.id} synthetic test that warns`,
      warnings: [`SHOULD ${R.warn.id} not met: expected a 4xx status, got 500`],
      exchanges: [exchange(500, { message: 'server error' })],
      replay: 'curl -sS -X POST "http://127.0.0.1:4010/developer_api/v1/projects/search" --data-raw \'{"page_size": 2,\'',
      statuses: { '500': 1, '200': 1 },
    }),
    outcome(R.skip, {
      status: 'skipped',
      expectedStatus: 'skipped',
      skipReason: 'the target profile lists no company with activities',
      requests: 0,
      statuses: {},
    }),
    outcome(R.pass, { statuses: { '200': 3 }, requests: 3 }),
    outcome(R.known, {
      title: `${R.known.id} synthetic test listed as a known failure`,
      expectedFailure: 'upsert matching is not implemented yet (ticket CRM-12): expected status 422, got 200',
      error: 'Known failure, CRM_EXPECTATIONS rule: upsert matching is not implemented yet\n\nexpected status 422, got 200',
      exchanges: [exchange(200, { id: 1 })],
    }),
    outcome(R.unexpected, {
      title: `${R.unexpected.id} synthetic test that passes although listed`,
      unexpectedPass: 'passed although CRM_EXPECTATIONS lists it (rule: fixed?): remove the entry',
    }),
  ];
}

export const EXPECTATIONS = {
  source: '/tmp/expectations.json',
  entries: [
    { rule: R.known.id, reason: 'upsert matching is not implemented yet (ticket CRM-12)' },
    { rule: R.unexpected.id, reason: 'fixed?' },
    { title: 'a test that no longer exists', reason: 'stale' },
  ],
};

/** A passing outcome for every rule a test can judge: the outcomes of a whole run against a conformant target. */
export function wholeRunOutcomes(): TestOutcome[] {
  return RULES.filter((r) => !r.untestable).map((r) => outcome(r, { title: `${r.id} synthetic test of the whole run` }));
}

/**
 * A combined test (`rule('UPSERT-3', …, { also: [...] })`, the upsert/convert model) whose failure
 * names the rule whose prediction broke (`[breaks CONVERT-2]`), beside the dedicated tests of the
 * rules it covers: the Lead left behind by a conversion (reference fault `convert-lead-left-behind`).
 * `names`: the rule the model's counterexample names (its random path decides which it reaches first).
 */
export function leftBehindOutcomes(options: { tagged?: boolean; names?: string } = {}): TestOutcome[] {
  const rule = (id: string) => RULES.find((r) => r.id === id)!;
  const tagged = options.tagged ?? true;
  const names = options.names ?? 'CONVERT-2';
  const model = outcome(rule('UPSERT-3'), {
    title: 'UPSERT-3 a model of upsert and convert predicts every answer',
    file: 'specs/leads/upsert.model.spec.ts',
    rules: ['UPSERT-3', 'UPSERT-2', 'UPSERT-4', 'UPSERT-12', 'CONVERT-2', 'CONVERT-14', 'CONVERT-15'],
    status: 'failed',
    error: `Error: upsert/convert model: counterexample (seed 1, path 0:1):\nupsert by name#1 {name#0}: no Lead matches, expected a new Lead, got the existing id 1214, a converted Lead${tagged ? ` [breaks ${names}]` : ''}\nPUT http://127.0.0.1:4010/developer_api/v1/leads/upsert → 200`,
    ...(tagged ? { brokenRules: [names] } : {}),
  });
  const own = (id: string, status: 'passed' | 'failed') =>
    outcome(rule(id), {
      title: `${id} dedicated test`,
      file: `specs/leads/${rule(id).area}.spec.ts`,
      status,
      ...(status === 'failed' ? { error: `${id}: expected a new Lead` } : {}),
    });
  return [
    model,
    own('UPSERT-2', 'passed'),
    own('UPSERT-3', 'passed'),
    own('UPSERT-4', 'passed'),
    own('CONVERT-2', 'failed'),
    own('CONVERT-14', 'failed'),
    own('CONVERT-15', 'failed'),
  ];
}
