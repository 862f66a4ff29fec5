/**
 * Secrets never reach an artifact (scanner: selftest/leak-scan.ts). The suite runs the OAuth and
 * authentication specs against the embedded reference server with OAuth faults switched on
 * (failures print exchanges, replay lines, warnings and error contexts) and with distinctive
 * credentials, then every artifact and the console output are searched for them and for every
 * code and token the reference server issued. The run of the whole suite without faults is
 * searched the same way: selftest/conformance.test.ts, whose run it shares.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPlaywright } from './helpers.js';
import { assertNoLeaks, canaries, leakEnv, textViews } from './leak-scan.js';

test('the scanner finds a value inside a base64 zip and inside base64 runs', () => {
  // A stored (method 0) zip with one entry holding a canary, then base64-encoded in a text.
  const data = Buffer.from(`{"x":"${canaries.CRM_LOGIN_PASSWORD}"}`);
  const name = Buffer.from('a.json');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = local.length + name.length + data.length;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(1, 8);
  eocd.writeUInt16LE(1, 10);
  eocd.writeUInt32LE(central.length + name.length, 12);
  eocd.writeUInt32LE(cdOffset, 16);
  const zip = Buffer.concat([local, name, data, central, name, eocd]);
  const html = Buffer.from(`<template id="x">data:application/zip;base64,${zip.toString('base64')}</template>`);
  assert.ok(
    textViews(html, 'synthetic').some((v) => v.text.includes(canaries.CRM_LOGIN_PASSWORD)),
    'found inside a base64 zip',
  );
  const json = Buffer.from(`{"body":"${Buffer.from(`token ${canaries.CRM_ACCESS_TOKEN} here`).toString('base64')}"}`);
  assert.ok(
    textViews(json, 'synthetic').some((v) => v.text.includes(canaries.CRM_ACCESS_TOKEN)),
    'found inside a base64 run',
  );
});

test('no secret, code or token in any artifact of a run (leaks-faults, OAuth faults on)', async (t) => {
  const reportDir = 'reports/runs/leaks-faults';
  // Failures print exchanges, replay lines, warnings and error contexts: the paths where secrets leak.
  const faults = [
    'oauth-token-form-encoded',
    'oauth-secret-not-checked',
    'oauth-code-reusable',
    'oauth-deny-returns-code',
    'oauth-token-not-accepted',
    'oauth-token-redirect-uri-not-checked',
  ];
  const res = await runPlaywright(['specs/oauth', 'specs/authentication'], leakEnv(reportDir, { REFERENCE_FAULTS: faults.join(',') }));
  t.diagnostic(assertNoLeaks('leaks-faults', reportDir, res, true));
});
