/**
 * `crm-conformance doctor` and `crm-conformance profile init` against the reference server
 * (started here on free ports, as `npm run reference` starts it): a good set-up is all OK; each
 * broken set-up gets a FAIL line that names it and says how to fix it; `crm-conformance run`
 * refuses to start on a FAIL line; the profile drafted by `profile init` is accepted by the
 * doctor once the fields it marked are filled in.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanEnv, ROOT, runCli, type RunResult, readJson } from './helpers.js';
import { chromiumPath } from './chromium.js';
import { freePorts } from '../specs/support/core/embedded.js';
import { referenceEnv, startReferenceProcess } from '../scripts/reference-process.js';

const BIN = resolve(ROOT, 'cli/bin.mjs');
const REFERENCE_PROFILE = readJson<Record<string, unknown>>('reference/profile.json');

const cli = (args: string[], env: Record<string, string>, cwd = ROOT): Promise<RunResult> => runCli(args, env, { cwd, timeoutMs: 120_000 });

const failLines = (out: string) => out.split('\n').filter((l) => l.startsWith('FAIL'));
/** WARN lines, except the browser's (a machine without Chromium: the OAuth specs skip, said so). */
const warnLines = (out: string) => out.split('\n').filter((l) => l.startsWith('WARN') && !/^WARN\s+browser for OAuth/.test(l));

/** Every FAIL line is followed by its fix. */
function assertFixes(out: string): void {
  const lines = out.split('\n');
  lines.forEach((l, i) => {
    if (l.startsWith('FAIL')) assert.match(lines[i + 1] ?? '', /^\s+fix: \S/, `the FAIL line has a fix:\n${l}`);
  });
}

function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}
function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys.at(-1)!] = value;
}

// Three doctors at a time: each is a process of its own against one server.
describe('crm-conformance doctor against the reference server', { concurrency: 3 }, () => {
  let server: Awaited<ReturnType<typeof startReferenceProcess>>;
  let dir: string;
  let good: Record<string, string>;
  const profileWith = (name: string, change: (p: Record<string, any>) => void): string => {
    const p = structuredClone(REFERENCE_PROFILE) as Record<string, any>;
    change(p);
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(p));
    return file;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crm-doctor-'));
    server = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, cleanEnv());
    good = referenceEnv(server.api, server.auth, resolve(ROOT, 'reference/profile.json'));
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  // How long the doctor takes is the benchmark's (`npm run bench`, its doctor row), not a test's.
  test('a good set-up: every line OK', async (t) => {
    const r = await cli(['doctor'], good);
    t.diagnostic(`the doctor took ${r.ms} ms`);
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(failLines(r.out), [], r.out);
    assert.deepEqual(warnLines(r.out), [], r.out);
    for (const check of [
      'header credentials',
      'Bearer token',
      'fixture company_with_activities',
      'fixture attached_file',
      'custom field dropdown (201)',
      'receivers reachable',
      'extension create_task',
      'extension follow',
      'OAuth pages',
      'OAuth consent texts',
      ...(chromiumPath() ? ['OAuth login'] : []),
      'writes allowed',
    ]) {
      assert.match(r.out, new RegExp(`^ok\\s+${check.replace(/[()]/g, '\\$&')}\\s`, 'm'), `${check} is checked and OK:\n${r.out}`);
    }
  });

  const broken: { what: string; env: (dir: string) => Record<string, string>; line: RegExp }[] = [
    {
      what: 'a wrong access token',
      env: () => ({ CRM_ACCESS_TOKEN: 'not-the-token' }),
      line: /^FAIL\s+header credentials\s.*answers 401.*the access token is probably wrong/m,
    },
    {
      what: 'a wrong e-mail',
      env: () => ({ CRM_USER_EMAIL: 'nobody@reference.example' }),
      line: /^FAIL\s+header credentials\s.*CRM_USER_EMAIL=nobody@reference\.example is not the e-mail of any user of the profile/m,
    },
    { what: 'a wrong Bearer token', env: () => ({ CRM_BEARER_TOKEN: 'not-the-bearer' }), line: /^FAIL\s+Bearer token\s.*answers 401/m },
    ...(chromiumPath()
      ? [
          {
            what: 'a wrong login password (the OAuth login)',
            env: () => ({ CRM_LOGIN_PASSWORD: 'not-the-password' }),
            line: /^FAIL\s+OAuth login\s+the suite cannot log in at \S+ as owner@reference\.example: the login page showed again after the e-mail and password were submitted with "Log in"; the page says "Wrong e-mail or password\."; the OAuth rules would not be judged\n\s+fix: check CRM_LOGIN_EMAIL and CRM_LOGIN_PASSWORD/m,
          },
        ]
      : []),
    {
      what: 'a fixture id that does not exist',
      env: () => ({
        CRM_PROFILE: profileWith('no-company', (p) => {
          p.fixtures.company_with_activities.company_id = 999999;
          p.fixtures.attached_file.file_id = 999998;
        }),
      }),
      line: /^FAIL\s+fixture company_with_activities\s+GET \/companies\/999999 answers 404.*no such company[\s\S]*^FAIL\s+fixture attached_file\s+GET \/companies\/401\/files\/999998 answers 404/m,
    },
    {
      what: 'a profile custom field of the wrong type',
      env: () => ({
        CRM_PROFILE: profileWith('wrong-type', (p) => {
          p.fixtures.custom_fields.number.data_type = 'String';
        }),
      }),
      line: /^FAIL\s+custom field number \(204\)\s+data_type is String; the number slot holds a Float field/m,
    },
    {
      what: 'a custom field definition the target does not have',
      env: () => ({
        CRM_PROFILE: profileWith('unknown-field', (p) => {
          p.fixtures.custom_fields.text.id = 299;
        }),
      }),
      line: /^FAIL\s+custom field text \(299\)\s+POST \/projects\/search filtering on definition 299 answers 422/m,
    },
    {
      what: 'a redirect URI the server has not registered',
      env: () => ({
        CRM_PROFILE: profileWith('unregistered-redirect', (p) => {
          p.oauth.redirect_uris = ['https://unregistered.example/oauth/callback'];
        }),
      }),
      line: /^FAIL\s+OAuth pages\s+GET \S+ \(redirect_uri https:\/\/unregistered\.example\/oauth\/callback: the run's\) answers 400.*\n\s+fix: register https:\/\/unregistered\.example\/oauth\/callback for client reference-client \(the redirect_uri the run sends/m,
    },
    {
      what: 'a missing extension',
      env: () => ({
        CRM_PROFILE: profileWith('no-extension', (p) => {
          p.capabilities.extensions.create_task = 'POST /task_create';
        }),
      }),
      line: /^FAIL\s+extension create_task\s+POST \/task_create answers 404/m,
    },
  ];
  for (const b of broken) {
    test(`${b.what}: one clear FAIL line with its fix`, async () => {
      const r = await cli(['doctor'], { ...good, ...b.env(dir) });
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, b.line);
      assertFixes(r.out);
      assert.match(r.out, /NOT READY/);
    });
  }

  test('an unreachable CRM_PUBLIC_URL: the webhook round trip fails within its deadline', async () => {
    // The ports are chosen free, not held: a run beside this one (npm test runs two at a time) may
    // take the receiver's port first, which the doctor rightly reports as in use; then once more.
    const attempt = async () => {
      const [publicPort, receiverPort] = freePorts(2);
      const r = await cli(['doctor'], { ...good, CRM_PUBLIC_URL: `http://127.0.0.1:${publicPort}`, CRM_RECEIVER_PORT: String(receiverPort) });
      return { publicPort, receiverPort, r };
    };
    let { publicPort, receiverPort, r } = await attempt();
    if (new RegExp(`EADDRINUSE: address already in use 127\\.0\\.0\\.1:${receiverPort}`).test(r.out)) ({ publicPort, receiverPort, r } = await attempt());
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, new RegExp(`^FAIL\\s+receivers reachable\\s+no notification reached http://127\\.0\\.0\\.1:${publicPort}/hooks/\\S+ within 10 s`, 'm'));
    assert.match(r.out, new RegExp(`fix: CRM_PUBLIC_URL must forward to local port ${receiverPort}`));
    assert.equal(failLines(r.out).length, 1, r.out);
    // Not a speed goal: without its deadline the round trip would wait out the 120 s of `cli`.
    assert.ok(r.ms < 60_000, `took ${r.ms} ms`);
  });

  test('a bad configuration value: one FAIL line naming the variable', async () => {
    const r = await cli(['doctor'], { ...good, CRM_BASE_URL: 'not a url' });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /^FAIL\s+configuration\s+CRM_BASE_URL="not a url": must be an absolute/m);
  });

  test('crm-conformance run starts with the short form and refuses to start on a FAIL line', async () => {
    const r = await cli(['run', '--grep', '@ACCOUNT-1'], { ...good, CRM_ACCESS_TOKEN: 'not-the-token', CRM_REPORT_DIR: join(dir, 'refused') });
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /^FAIL\s+header credentials/m);
    assert.doesNotMatch(r.out, /^ok\s/m, 'the short form shows only what is not OK');
    assert.match(r.out, /the run does not start/);
    assert.doesNotMatch(r.out, /Running \d+ test/, 'no test ran');
  });

  test('profile init drafts a profile the doctor accepts once the marked fields are filled in', async () => {
    const draftFile = join(dir, 'draft.json');
    const { CRM_PROFILE: _unused, ...noProfile } = good;
    const init = await cli(['profile', 'init', '--out', draftFile], noProfile);
    assert.equal(init.code, 0, init.out);
    const draft = readJson<Record<string, unknown> & { _fill_in: Record<string, string> }>(draftFile);
    assert.equal(draft.name, 'Reference Account');
    assert.ok(
      (getPath(draft, 'fixtures.users') as { id: number }[]).some((u) => u.id === 11),
      'the user seen as assignee is in the draft',
    );
    const marked = Object.keys(draft._fill_in);
    for (const path of ['fixtures.custom_fields', 'fixtures.attached_file', 'fixtures.lead_match_field', 'fixtures.project_statuses'])
      assert.ok(marked.includes(path), `${path} is marked`);
    for (const path of marked) assert.match(init.out, new RegExp(`- ${path.replace('.', '\\.')}: `), 'each marked field is printed');
    for (const path of ['oauth.application_name', 'oauth.permission_text', 'oauth.redirect_uris']) assert.ok(marked.includes(path), `${path} is marked`);
    for (const [path, how] of Object.entries(draft._fill_in)) assert.match(how, /^\S.* — \S/, `${path}: the shape to write, then how to find it`);
    assert.match(draft._fill_in['fixtures.lead_match_field'], /match\.field_name.*documentation of PUT \/leads\/upsert/, 'how to find the match name');
    // Where the server shows nothing, the spec's word: bulk calls are limited (3 per second), 10 entries a request.
    assert.equal(getPath(draft, 'capabilities.bulk_rate_limit'), true);
    assert.equal(getPath(draft, 'capabilities.bulk_entries_limit'), 10);

    // As drafted: usable (warnings for what is missing, no failure).
    const raw = await cli(['doctor'], { ...good, CRM_PROFILE: draftFile });
    assert.equal(raw.code, 0, raw.out);
    assert.deepEqual(failLines(raw.out), [], raw.out);
    // Each WARN of a member left out says how to find it, as the draft does.
    assert.match(
      raw.out,
      /^WARN\s+fixture lead_match_field\s.*\n\s+fix: add fixtures\.lead_match_field \{ "definition_id", "match_field_name" \} — .*PUT \/leads\/upsert/m,
    );
    assert.match(raw.out, /^WARN\s+OAuth consent texts\s+the profile gives no oauth\.application_name.*\n\s+fix: add oauth\.application_name/m);

    // The marked fields filled in (with what the reference server's documentation says), nothing else.
    for (const path of marked) setPath(draft, path, getPath(REFERENCE_PROFILE, path));
    const filled = join(dir, 'filled.json');
    writeFileSync(filled, JSON.stringify(draft, null, 2));
    const r = await cli(['doctor'], { ...good, CRM_PROFILE: filled });
    assert.equal(r.code, 0, r.out);
    assert.deepEqual(failLines(r.out), [], r.out);
    assert.deepEqual(warnLines(r.out), [], r.out);
  });
});

/**
 * The OAuth login as the doctor tries it, against login pages worded otherwise than the reference's
 * default (REFERENCE_LOGIN_PAGE, reference/routes/oauth.ts): "Email" where the suite once looked for
 * "E-mail" (the doctor said WARN and "ready", and the run had 8 OAuth MUST failures) is found by what
 * it is, with or without the old labels in the profile; a page where no suite can tell the user
 * field is a FAIL that names the profile member to set, and the doctor is ready once it is set.
 */
describe('crm-conformance doctor: the OAuth login on other login pages', { concurrency: 2, skip: chromiumPath() ? false : 'no Chromium' }, () => {
  const servers: Awaited<ReturnType<typeof startReferenceProcess>>[] = [];
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'crm-doctor-login-'));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });
  const withPage = async (page: string, screens?: Record<string, string>) => {
    const server = await startReferenceProcess([process.execPath, '--import', 'tsx', 'reference/main.ts'], ROOT, cleanEnv({ REFERENCE_LOGIN_PAGE: page }));
    servers.push(server);
    const profile = structuredClone(REFERENCE_PROFILE) as Record<string, any>;
    if (screens) profile.oauth.screens = screens;
    const file = join(dir, `${page}-${screens ? Object.keys(screens).join('-') : 'none'}.json`);
    writeFileSync(file, JSON.stringify(profile));
    return { env: referenceEnv(server.api, server.auth, file), file };
  };

  test('"Email" and "Sign in" are found by what they are, also with the old default labels in the profile', async () => {
    for (const screens of [
      undefined,
      { email_label: 'E-mail', password_label: 'Password', login_button: 'Log in', authorize_button: 'Authorize', deny_button: 'Deny' },
    ]) {
      const { env } = await withPage('email', screens);
      const r = await cli(['doctor'], env);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /^ok\s+OAuth login\s+logged in as owner@reference\.example at \S+; the consent screen shows Authorize and Deny/m);
      assert.deepEqual(failLines(r.out), [], r.out);
      assert.match(r.out, / — ready$/m);
    }
  });

  test('a login page whose user field no suite can tell: FAIL naming oauth.screens.email_label and the profile; ready once it is set', async () => {
    const { env, file } = await withPage('ambiguous');
    const r = await cli(['doctor'], env);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.out,
      /^FAIL\s+OAuth login\s+the suite cannot log in at \S+ as owner@reference\.example: the login page has a password field but no field it recognises as the e-mail or user field \(fields: text "Workspace" \(name f1\), text "Account" \(name f2\), password "Passphrase" \(name f3\); buttons: "Continue"\); the OAuth rules would not be judged$/m,
    );
    assert.match(
      r.out,
      new RegExp(
        `^\\s+fix: set oauth\\.screens\\.email_label in the target profile to the label of the login page's e-mail or user field \\(target profile: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`,
        'm',
      ),
    );
    assertFixes(r.out);
    assert.match(r.out, /NOT READY/);
    assert.doesNotMatch(r.out, /^WARN\s+OAuth/m, 'a login the suite cannot do is no warning');

    const fixed = await withPage('ambiguous', { email_label: 'Account' });
    const again = await cli(['doctor'], fixed.env);
    assert.equal(again.code, 0, again.out);
    assert.match(
      again.out,
      /^ok\s+OAuth login\s+logged in as owner@reference\.example .*\(controls found by what they are; the profile's oauth\.screens\.email_label takes precedence where it matches\)$/m,
    );
  });
});
