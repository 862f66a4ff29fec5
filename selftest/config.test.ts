/** Target configuration: bad values stop the run with a message naming the variable; writes to a remote target need an opt-in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, refuseRecording } from '../specs/support/core/config.js';
import { freePorts } from '../specs/support/core/embedded.js';
import { runPlaywright } from './helpers.js';

const base = { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 't0ken-value', CRM_USER_EMAIL: 'a@b.example' };
const load = (env: Record<string, string>) => loadConfig({ ...env } as NodeJS.ProcessEnv);
const rejects = (env: Record<string, string>, pattern: RegExp) =>
  assert.throws(
    () => load(env),
    (e: unknown) => e instanceof ConfigError && pattern.test(e.message),
    `expected ConfigError matching ${pattern}`,
  );

const cases: { description: string; env: Record<string, string>; error: RegExp }[] = [
  { description: 'a base URL that is not a URL', env: { ...base, CRM_BASE_URL: 'not a url' }, error: /CRM_BASE_URL="not a url": must be an absolute http/ },
  { description: 'a base URL with another scheme', env: { ...base, CRM_BASE_URL: 'ftp://127.0.0.1' }, error: /CRM_BASE_URL=.*http/ },
  { description: 'a non-numeric run count', env: { ...base, CRM_FC_RUNS: 'many' }, error: /CRM_FC_RUNS="many": must be a whole number/ },
  { description: 'a zero run count', env: { ...base, CRM_FC_RUNS: '0' }, error: /CRM_FC_RUNS.*at least 1/ },
  { description: 'a non-integer seed', env: { ...base, CRM_FC_SEED: '1.5' }, error: /CRM_FC_SEED="1.5"/ },
  { description: 'a malformed counterexample path', env: { ...base, CRM_FC_PATH: '3:x' }, error: /CRM_FC_PATH="3:x": must be a fast-check path/ },
  { description: 'a flag that is not 0/1', env: { ...base, CRM_HEAVY: 'yes' }, error: /CRM_HEAVY="yes"/ },
  { description: 'a worker count that is not a number', env: { ...base, CRM_WORKERS: 'abc' }, error: /CRM_WORKERS="abc": must be a whole number/ },
  { description: 'an unknown way with repeated failures', env: { ...base, CRM_REPEATS: 'skip' }, error: /CRM_REPEATS="skip": must be hold/ },
  {
    description: 'a notification deadline under 100 ms',
    env: { ...base, CRM_NOTIFICATION_TIMEOUT_MS: '50' },
    error: /CRM_NOTIFICATION_TIMEOUT_MS="50": must be at least 100/,
  },
  { description: 'zero workers', env: { ...base, CRM_WORKERS: '0' }, error: /CRM_WORKERS.*from 1 to 64/ },
  { description: 'an e-mail that is not one', env: { ...base, CRM_USER_EMAIL: 'nobody' }, error: /CRM_USER_EMAIL="nobody": must be an e-mail/ },
  { description: 'a missing profile file', env: { ...base, CRM_PROFILE: '/nonexistent/profile.json' }, error: /CRM_PROFILE: file not found/ },
  {
    description: 'a remote target without CRM_ALLOW_WRITES',
    env: { ...base, CRM_BASE_URL: 'https://crm.example.com' },
    error: /not a loopback address and CRM_ALLOW_WRITES is not set/,
  },
  { description: 'no credentials at all', env: { CRM_BASE_URL: 'http://127.0.0.1:1' }, error: /no credentials/ },
  { description: 'a token without the e-mail', env: { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 'x1234' }, error: /CRM_USER_EMAIL is not/ },
];

for (const c of cases) {
  test(`configuration refuses ${c.description}`, () => rejects(c.env, c.error));
}

test('a secret in a bad value is not echoed', () => {
  assert.throws(
    () => load({ ...base, CRM_ACCESS_TOKEN: '' }),
    (e: unknown) => e instanceof ConfigError && !e.message.includes('t0ken'),
  );
});

test('a remote target with CRM_ALLOW_WRITES=1 is accepted', () => {
  const cfg = load({ ...base, CRM_BASE_URL: 'https://crm.example.com/', CRM_ALLOW_WRITES: '1' });
  assert.equal(cfg.apiUrl, 'https://crm.example.com/developer_api/v1');
  assert.equal(cfg.authUrl, 'https://crm.example.com');
  assert.equal(cfg.loopback, false);
});

test('defaults: 300 runs of each search property, 2 API workers, auth URL = base URL, profile empty', () => {
  const cfg = load(base);
  assert.equal(cfg.fc.runs, 300);
  assert.equal(cfg.workers, 2);
  assert.equal(cfg.authUrl, base.CRM_BASE_URL);
  assert.deepEqual(cfg.profile.fixtures.users, []);
  assert.ok(cfg.secrets.includes('t0ken-value'));
});

test('npx playwright test with a bad value stops before any test and names the variable', async () => {
  const res = await runPlaywright(
    [],
    { CRM_BASE_URL: 'http://127.0.0.1:9', CRM_ACCESS_TOKEN: 'x1234', CRM_USER_EMAIL: 'a@b.example', CRM_FC_RUNS: 'abc' },
    60_000,
  );
  assert.equal(res.code, 2, res.stdout + res.stderr);
  assert.match(res.stderr + res.stdout, /CRM_FC_RUNS="abc": must be a whole number/);
  assert.doesNotMatch(res.stdout, /Running \d+ test/);
});

test('npx playwright test against a remote target without the opt-in stops with an explanation', async () => {
  const res = await runPlaywright([], { CRM_BASE_URL: 'https://crm.example.com', CRM_ACCESS_TOKEN: 'x1234', CRM_USER_EMAIL: 'a@b.example' }, 60_000);
  assert.equal(res.code, 2);
  assert.match(res.stderr + res.stdout, /CRM_ALLOW_WRITES/);
});

test('a command line that turns traces on stops the run; --trace off and no --trace are accepted', () => {
  for (const argv of [
    ['test', '--trace', 'on'],
    ['test', '--trace=retain-on-failure'],
    ['test', '--trace', 'on-first-retry'],
  ]) {
    assert.throws(
      () => refuseRecording(argv),
      (e: unknown) => e instanceof ConfigError && /traces would record credentials/.test(e.message),
      argv.join(' '),
    );
  }
  for (const argv of [['test'], ['test', '--trace', 'off'], ['test', '--trace=off', '--grep', 'on']])
    assert.doesNotThrow(() => refuseRecording(argv), argv.join(' '));
});

test('freePorts chooses distinct ports that nothing on this machine uses and a listener can take, a run of many apart from a run of few', async () => {
  const { createServer } = await import('node:net');
  const few = freePorts(2);
  assert.ok(
    few.every((p) => p >= 20_000 && p <= 25_999),
    `a run of one target: ${few.join(', ')}`,
  );
  // A port of the matrix's range in use: a draw of 3,000 of its 6,768 ports would take it one
  // time in two, eight draws all but surely.
  const busy = createServer();
  await new Promise<void>((ok, fail) => {
    busy.once('error', fail);
    busy.listen(freePorts(5)[0], '127.0.0.1', ok);
  });
  const taken = (busy.address() as { port: number }).port;
  assert.ok(taken >= 26_000 && taken <= 32_767, `a run of many: ${taken}`);
  for (let draw = 0; draw < 8; draw++) {
    const many = freePorts(3_000);
    assert.equal(new Set(many).size, 3_000, 'distinct');
    assert.ok(
      many.every((p) => p >= 26_000 && p <= 32_767),
      'in the range of many',
    );
    assert.ok(!many.includes(taken), `${taken}, in use, is not chosen`);
  }
  const ports = freePorts(8);
  const servers = await Promise.all(
    ports.map(
      (p) =>
        new Promise<ReturnType<typeof createServer>>((ok, fail) => {
          const s = createServer();
          s.once('error', fail);
          s.listen(p, '127.0.0.1', () => ok(s));
        }),
    ),
  );
  await Promise.all([busy, ...servers].map((s) => new Promise((ok) => s.close(ok))));
});

test("the embedded profile carries what the reference server's open choices declare; a profile of the user's own does not change", async () => {
  const { declarations, parseChoices } = await import('../reference/choices.js');
  assert.deepEqual(declarations(parseChoices(undefined)), { capabilities: {} }, 'the default choices declare nothing');
  const raised = declarations(parseChoices('bulk.entries-limit=raised'));
  assert.deepEqual(raised, { capabilities: { bulk_entries_limit: 12 } });
  const base = { CRM_BASE_URL: 'http://127.0.0.1:9', CRM_EMBEDDED: '1', CRM_BEARER_TOKEN: 'token-for-the-test' };
  assert.equal(load(base).profile.capabilities.bulk_entries_limit, 10, 'the documented limit by default');
  assert.equal(load({ ...base, CRM_EMBEDDED_DECLARES: JSON.stringify(raised) }).profile.capabilities.bulk_entries_limit, 12);
  assert.equal(
    load({ ...base, CRM_EMBEDDED_DECLARES: JSON.stringify(raised) }).profile.capabilities.bulk_rate_limit,
    true,
    'the rest of the reference profile kept',
  );
  assert.equal(
    load({ ...base, CRM_EMBEDDED_DECLARES: JSON.stringify(raised), CRM_PROFILE: 'reference/profile.json' }).profile.capabilities.bulk_entries_limit,
    10,
    "CRM_PROFILE is the user's: taken as it is",
  );
  // BULK-5 sends 5 entries in a request that must be accepted: a lower limit is a configuration error, not a failed target.
  assert.throws(
    () => load({ ...base, CRM_EMBEDDED_DECLARES: JSON.stringify({ capabilities: { bulk_entries_limit: 4 } }) }),
    /bulk_entries_limit: must be at least 5/,
  );
});
