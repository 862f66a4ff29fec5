/**
 * A user's mistake in the settings stops the run before any test with one message naming the
 * setting and the fix (issue: a team's first hour). Each case failed before the settings were checked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../specs/support/core/config.js';
import { prepareEmbeddedEnvironment } from '../specs/support/core/embedded.js';
import { didYouMean, SETTINGS } from '../specs/support/core/settings.js';
import { ROOT, runPlaywright, scratchDir } from './helpers.js';

const base = { CRM_BASE_URL: 'http://127.0.0.1:1', CRM_ACCESS_TOKEN: 't0ken-value', CRM_USER_EMAIL: 'a@b.example' };
const parse = (env: Record<string, string>, cwd = scratchDir('crm-settings-')) => parseConfig({ ...env } as NodeJS.ProcessEnv, cwd);
const refused = (f: () => unknown, pattern: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof ConfigError && pattern.test(e.message), `expected a ConfigError matching ${pattern}`);

test('a misspelt CRM_ variable stops the run and names the setting it was meant to be', () => {
  refused(() => parse({ ...base, CRM_BASEURL: 'https://crm.example.com' }), /CRM_BASEURL is not a setting of crm-conformance \(did you mean CRM_BASE_URL\?\)/);
  refused(() => parse({ ...base, CRM_ACESS_TOKEN: 'x' }), /did you mean CRM_ACCESS_TOKEN\?/);
  refused(() => parse({ ...base, CRM_SOMETHING_ELSE_ENTIRELY: '1' }), /CRM_SOMETHING_ELSE_ENTIRELY is not a setting of crm-conformance\. Every setting/);
  assert.equal(didYouMean('CRM_FC_SEEDS'), 'CRM_FC_SEED');
});

test('every setting has a description and a group: docs/configuration.md is generated from them', () => {
  for (const s of SETTINGS) {
    assert.match(s.name, /^CRM_[A-Z0-9_]+$/);
    assert.ok(s.description.length > 10, `${s.name} is described`);
  }
  assert.equal(new Set(SETTINGS.map((s) => s.name)).size, SETTINGS.length, 'no setting twice');
});

test('a base URL that ends with the API path is taken as its base: requests do not repeat the path', () => {
  for (const url of ['http://127.0.0.1:1/developer_api/v1', 'http://127.0.0.1:1/developer_api/v1/', 'http://127.0.0.1:1/']) {
    const cfg = parse({ ...base, CRM_BASE_URL: url });
    assert.equal(cfg.baseUrl, 'http://127.0.0.1:1', url);
    assert.equal(cfg.apiUrl, 'http://127.0.0.1:1/developer_api/v1', url);
  }
  assert.equal(parse({ ...base, CRM_BASE_URL: 'http://127.0.0.1:1/crm/developer_api/v1' }).apiUrl, 'http://127.0.0.1:1/crm/developer_api/v1');
});

test('credentials in a URL are refused, and the password is never shown', () => {
  for (const name of ['CRM_BASE_URL', 'CRM_AUTH_URL', 'CRM_PUBLIC_URL']) {
    assert.throws(
      () => parse({ ...base, [name]: 'https://alice:s3cr3t-pw@127.0.0.1:8443', CRM_ALLOW_WRITES: '1' }),
      (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, new RegExp(`${name}=.*must not hold a user or password.*credentials go in headers`));
        assert.doesNotMatch(e.message, /s3cr3t-pw|alice/, 'neither the user nor the password is echoed');
        return true;
      },
      name,
    );
  }
});

test("settings of a server of the user's without CRM_BASE_URL stop the run instead of testing the embedded server", () => {
  const env: NodeJS.ProcessEnv = { CRM_ACCESS_TOKEN: 'their-token', CRM_USER_EMAIL: 'me@their.example', CRM_PROFILE: 'crm-profile.json' };
  refused(
    () => prepareEmbeddedEnvironment(env),
    /CRM_BASE_URL is not set, so this run would test the suite's own embedded reference server, but CRM_PROFILE, CRM_ACCESS_TOKEN, CRM_USER_EMAIL describe a server of yours/,
  );
  assert.equal(env.CRM_EMBEDDED, undefined, 'nothing prepared');
  const meant: NodeJS.ProcessEnv = { ...env, CRM_EMBEDDED: '1' };
  prepareEmbeddedEnvironment(meant);
  assert.match(meant.CRM_BASE_URL ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, 'CRM_EMBEDDED=1 asks for the embedded server on purpose');
  const none: NodeJS.ProcessEnv = {};
  prepareEmbeddedEnvironment(none);
  assert.equal(none.CRM_EMBEDDED, '1', 'no setting at all: the embedded server');
});

test('crm-profile.json in the working directory is the profile when CRM_PROFILE is not set', () => {
  const dir = scratchDir('crm-profile-cwd-');
  assert.match(parse(base, dir).profileSource, /none: empty profile; no CRM_PROFILE and no \.\/crm-profile\.json/);
  copyFileSync(join(ROOT, 'reference/profile.json'), join(dir, 'crm-profile.json'));
  const cfg = parse(base, dir);
  assert.equal(cfg.profileSource, `${join(dir, 'crm-profile.json')} (found in the working directory)`);
  assert.ok(cfg.profile.fixtures.users.length > 0, 'its fixtures are read');
  assert.equal(parse({ ...base, CRM_EMBEDDED: '1' }, dir).profileSource, join(ROOT, 'reference/profile.json'), 'the embedded server keeps its own');
});

test('under CRM_PUBLIC_URL the webhook and OAuth callback receivers never share a port silently', () => {
  const pub = { ...base, CRM_PUBLIC_URL: 'http://127.0.0.1:23999', CRM_CLIENT_ID: 'client' };
  refused(
    () => parse({ ...pub, CRM_RECEIVER_PORT: '23999' }),
    /webhook receiver \(CRM_RECEIVER_PORT=23999\) and the OAuth callback receiver \(CRM_CALLBACK_PORT unset \(the port of CRM_PUBLIC_URL\)\) would both listen on local port 23999/,
  );
  refused(() => parse(pub), /both listen on local port 23999/);
  assert.deepEqual(parse({ ...pub, CRM_CALLBACK_PORT: '24000' }).receivers, { webhookPort: 23999, callbackPort: 24000 });
  assert.deepEqual(
    parse({ ...base, CRM_PUBLIC_URL: 'http://127.0.0.1:23999' }).receivers,
    { webhookPort: 23999, callbackPort: 23999 },
    'without OAuth only the webhook receiver listens',
  );
});

test('npx playwright test with a misspelt variable stops before any test with the fix', async () => {
  const res = await runPlaywright([], { CRM_BASEURL: 'https://crm.example.com', CRM_ACCESS_TOKEN: 'x1234', CRM_USER_EMAIL: 'a@b.example' }, 60_000);
  assert.equal(res.code, 2, res.stdout + res.stderr);
  assert.match(res.stderr, /CRM_BASEURL is not a setting of crm-conformance \(did you mean CRM_BASE_URL\?\)/);
  assert.doesNotMatch(res.stdout, /Running \d+ test|CONFORMANT/);
});

test('docs/configuration.md is generated from the settings: every setting is on it', async () => {
  const { configurationPage } = await import('../scripts/write-docs.js');
  const page = configurationPage();
  for (const s of SETTINGS) assert.match(page, new RegExp(`\\| \`${s.name}\``), s.name);
  assert.match(page, /`CRM_ACCESS_TOKEN` \(secret\)/);
});
