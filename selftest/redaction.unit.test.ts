/**
 * Secrets (issue 32, item 8): a secret too short to be searched for safely is redacted only where
 * it stands (a credential header, a form field, a JSON member), so replay lines stay readable:
 * a one-letter token `t` used to replace every `t` of the line (`h$CRM_ACCESS_TOKEN$CRM_ACCESS_TOKENp://…`).
 * A long one is still found anywhere. Nothing from a URL's userinfo reaches any text redacted here.
 * The replay line's variables work in a shell: a secret of a form body is spliced out of its
 * single quotes.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

// The configuration this process reads (loadConfig caches it at its first call): a loopback
// target with one-letter and two-letter credentials.
const SETTINGS = {
  CRM_BASE_URL: 'http://127.0.0.1:9',
  CRM_ACCESS_TOKEN: 't',
  CRM_USER_EMAIL: 'owner@example.com',
  CRM_BEARER_TOKEN: 'ab',
  CRM_CLIENT_ID: 'client-1',
  CRM_CLIENT_SECRET: 's3',
  CRM_LOGIN_EMAIL: 'owner@example.com',
  CRM_LOGIN_PASSWORD: 'long-enough-password-77',
};
for (const k of Object.keys(process.env)) if (k.startsWith('CRM_') || k.startsWith('REFERENCE_')) delete process.env[k];
Object.assign(process.env, SETTINGS);

// Required after the settings are in place: these modules read them when loaded.
const { curlLine } = require('../specs/support/core/recorder.js') as typeof import('../specs/support/core/recorder.js');
const { redactHeaders, redactText, redactValue, REDACTED } = require('../specs/support/core/redact.js') as typeof import('../specs/support/core/redact.js');
const { addSecret } = require('../specs/support/core/config.js') as typeof import('../specs/support/core/config.js');

const API = 'http://127.0.0.1:9/developer_api/v1';

test('a one-letter access token: the replay line names it where it stands and leaves every other "t" alone', () => {
  const line = curlLine('GET', `${API}/account?page_size=20`, {
    'X-SVC-AccessToken': 't',
    'X-SVC-UserEmail': 'owner@example.com',
    'X-SVC-Application': 'developer_api',
  });
  assert.equal(
    line,
    `curl -sS -X GET "${API}/account?page_size=20" -H "X-SVC-AccessToken: $CRM_ACCESS_TOKEN" -H "X-SVC-UserEmail: owner@example.com" -H "X-SVC-Application: developer_api"`,
  );
  const bearer = curlLine('POST', `${API}/people/search`, { Authorization: 'Bearer ab', 'Content-Type': 'application/json' }, '{"name":"abbot tab"}');
  assert.equal(
    bearer,
    `curl -sS -X POST "${API}/people/search" -H "Authorization: Bearer $CRM_BEARER_TOKEN" -H "Content-Type: application/json" --data-raw '{"name":"abbot tab"}'`,
  );
});

test('a short secret in a form body: named where it stands, and the line works in a shell', () => {
  const body = 'grant_type=authorization_code&code=Zq&client_id=client-1&client_secret=s3&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb';
  const line = curlLine('POST', 'http://127.0.0.1:9/oauth/token', { 'Content-Type': 'application/x-www-form-urlencoded' }, body);
  assert.match(
    line,
    /--data-raw 'grant_type=authorization_code&code=«redacted»&client_id=client-1&client_secret='"\$CRM_CLIENT_SECRET"'&redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A9%2Fcb'$/,
  );
  // What the shell hands curl: the body with the variable's value (the code stays redacted).
  const data = line.slice(line.indexOf('--data-raw ') + '--data-raw '.length);
  const out = execFileSync('sh', ['-c', `printf %s ${data}`], { env: { PATH: process.env.PATH, CRM_CLIENT_SECRET: 's3' }, encoding: 'utf8' });
  assert.equal(out, body.replace('code=Zq', `code=${REDACTED}`));
});

test('known places are redacted whatever the value: credential headers, form fields, JSON members', () => {
  assert.deepEqual(redactHeaders({ 'X-SVC-AccessToken': 'x', Authorization: 'Bearer y', 'X-Api-Key': 'k', 'X-SVC-UserEmail': 'owner@example.com' }), {
    'X-SVC-AccessToken': REDACTED,
    Authorization: `Bearer ${REDACTED}`,
    'X-Api-Key': REDACTED,
    'X-SVC-UserEmail': 'owner@example.com',
  });
  assert.deepEqual(redactHeaders({ authorization: 'just-a-token' }), { authorization: REDACTED }, 'an Authorization without a scheme');
  assert.equal(redactText('POST /cb?code=q1&state=abc'), `POST /cb?code=${REDACTED}&state=abc`);
  assert.equal(redactText('sent: {"password":"pw","name":"x"}'), `sent: {"password":"${REDACTED}","name":"x"}`);
  assert.deepEqual(redactValue({ access_token: 'z', nested: { refresh_token: 'r' }, name: 'tina' }), {
    access_token: REDACTED,
    nested: { refresh_token: REDACTED },
    name: 'tina',
  });
  const json = curlLine('POST', `${API}/x`, { 'Content-Type': 'application/json' }, '{"client_secret":"s3","secret_token":"v"}');
  assert.match(json, /--data-raw '\{"client_secret":"'"\$CRM_CLIENT_SECRET"'","secret_token":"«redacted»"\}'$/);
});

test('free text: a short secret is never searched for; a long one anywhere; a middle one where it stands alone', () => {
  assert.equal(redactText('the test at http://127.0.0.1:9/t failed'), 'the test at http://127.0.0.1:9/t failed', 'one letter: untouched');
  assert.equal(redactText('typed long-enough-password-77, then xlong-enough-password-77x'), `typed ${REDACTED}, then x${REDACTED}x`);
  addSecret('k9Zp2');
  assert.equal(redactText('code k9Zp2 was echoed; k9Zp2x is another word'), `code ${REDACTED} was echoed; k9Zp2x is another word`);
  const line = curlLine('GET', `${API}/people/k9Zp2`, {});
  assert.equal(line, `curl -sS -X GET "${API}/people/${REDACTED}"`);
});

test("nothing of a URL's userinfo reaches a redacted text, a header or a replay line", () => {
  assert.equal(
    redactText('GET https://integrator:s3cret-pass@crm.example/developer_api/v1/account → 401'),
    `GET https://${REDACTED}@crm.example/developer_api/v1/account → 401`,
  );
  assert.equal(redactText('see http://bob@crm.example/x and mailto:bob@example.com'), `see http://${REDACTED}@crm.example/x and mailto:bob@example.com`);
  assert.deepEqual(redactHeaders({ location: 'https://u:p%40ss@crm.example/next' }), { location: `https://${REDACTED}@crm.example/next` });
  assert.deepEqual(redactValue({ target: 'https://hook:pw@receiver.example/h' }), { target: `https://${REDACTED}@receiver.example/h` });
  const line = curlLine(
    'POST',
    'https://integrator:s3cret-pass@crm.example/developer_api/v1/webhooks',
    { 'Content-Type': 'application/json' },
    '{"target":"https://hook:pw@receiver.example/h"}',
  );
  assert.doesNotMatch(line, /integrator|s3cret-pass|hook:pw/);
  assert.match(line, /^curl -sS -X POST "https:\/\/«redacted»@crm\.example\/developer_api\/v1\/webhooks"/);
});

test('a replay line quotes what the shell would expand', () => {
  const line = curlLine('GET', `${API}/search?q=$HOME\`id\``, { 'X-Note': 'say "hi" $USER' });
  assert.equal(line, `curl -sS -X GET "${API}/search?q=\\$HOME\\\`id\\\`" -H "X-Note: say \\"hi\\" \\$USER"`);
  const out = execFileSync('sh', ['-c', `printf '%s\\n' ${line.slice(line.indexOf('"'))}`], {
    env: { PATH: process.env.PATH, HOME: '/h', USER: 'u' },
    encoding: 'utf8',
  });
  assert.equal(out, `${API}/search?q=$HOME\`id\`\n-H\nX-Note: say "hi" $USER\n`);
});
