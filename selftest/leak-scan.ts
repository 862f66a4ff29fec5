/**
 * Secrets never reach an artifact: the scanner of selftest/leaks.test.ts and of the reference run
 * of selftest/conformance.test.ts. A run is given distinctive credentials (`canaries`: access
 * token, Bearer token, client secret, login password); afterwards every file of its report
 * directory and of test-results/, and the runner's console output, are searched for those values
 * and for every authorization code and access token the reference server can issue
 * (`ref-code-<hex>`, `ref-oauth-token-<hex>`).
 *
 * Files are searched as text, inside base64 runs (attachment bodies in results.json) and inside
 * zip archives (the HTML report embeds its data as a base64 zip), recursively.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ROOT, readJson, specsOf, type ReportSuite, type RunResult } from './helpers.js';

const hex = (n: number) => randomBytes(n).toString('hex');

/** Distinctive values the suite is given; none may appear in any artifact. */
export const canaries = {
  CRM_ACCESS_TOKEN: `leakcanary-access-${hex(10)}`,
  CRM_BEARER_TOKEN: `leakcanary-bearer-${hex(10)}`,
  CRM_CLIENT_SECRET: `leakcanary-client-secret-${hex(10)}`,
  CRM_LOGIN_PASSWORD: `leakcanary-password-${hex(10)}`,
};

/** Codes and tokens the reference server issues (reference/routes/oauth.ts). */
const ISSUED = /ref-code-[0-9a-f]{32}|ref-oauth-token-[0-9a-f]{40}/g;

/** The entries of a zip archive (central directory; stored or deflated). */
export function unzip(buf: Buffer): { name: string; data: Buffer }[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return [];
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: { name: string; data: Buffer }[] = [];
  for (let n = 0; n < count && p + 46 <= buf.length && buf.readUInt32LE(p) === 0x02014b50; n++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    if (buf.readUInt32LE(local) !== 0x04034b50) continue;
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    try {
      out.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    } catch {
      out.push({ name, data: raw });
    }
  }
  return out;
}

const isZip = (b: Buffer) => b.length > 4 && b.readUInt32LE(0) === 0x04034b50;

/** Every text view of a file: itself, its zip entries, its decoded base64 runs (recursively). */
export function textViews(buf: Buffer, where: string, depth = 0, stats = { zipEntries: 0, base64Runs: 0 }): { where: string; text: string }[] {
  const views: { where: string; text: string }[] = [];
  if (isZip(buf)) {
    for (const e of unzip(buf)) {
      stats.zipEntries++;
      views.push(...textViews(e.data, `${where} ▸ ${e.name}`, depth + 1, stats));
    }
    return views;
  }
  const text = buf.toString('utf8');
  views.push({ where, text });
  if (depth < 3) {
    for (const m of text.matchAll(/[A-Za-z0-9+/]{24,}={0,2}/g)) {
      const decoded = Buffer.from(m[0], 'base64');
      stats.base64Runs++;
      if (isZip(decoded)) views.push(...textViews(decoded, `${where} ▸ base64 zip`, depth + 1, stats));
      else views.push({ where: `${where} ▸ base64 at ${m.index}`, text: decoded.toString('utf8') });
    }
  }
  return views;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue; // removed meanwhile
    if (st.isDirectory()) out.push(...filesUnder(p));
    else if (st.isFile()) out.push(p);
  }
  return out;
}

interface Leak {
  where: string;
  what: string;
}

/** Searches the files and the console output of a run. */
export function scan(dirs: string[], run: RunResult, stats: { files: number; zipEntries: number; base64Runs: number }): Leak[] {
  const needles = Object.entries(canaries);
  const leaks: Leak[] = [];
  const check = (where: string, text: string) => {
    for (const [name, value] of needles) if (text.includes(value)) leaks.push({ where, what: `the value of ${name}` });
    for (const m of text.matchAll(ISSUED))
      leaks.push({ where, what: `an issued ${m[0].startsWith('ref-code') ? 'authorization code' : 'access token'} (${m[0].slice(0, 16)}…)` });
  };
  for (const dir of dirs) {
    for (const file of filesUnder(dir)) {
      let buf: Buffer;
      try {
        buf = readFileSync(file);
      } catch {
        continue;
      }
      stats.files++;
      for (const v of textViews(buf, relative(ROOT, file), 0, stats)) check(v.where, v.text);
    }
  }
  check('console output (stdout)', run.stdout);
  check('console output (stderr)', run.stderr);
  return leaks;
}

/** The embedded server on purpose (CRM_EMBEDDED=1) with the canaries as its credentials, writing its reports to `reportDir`. */
export const leakEnv = (reportDir: string, extra: Record<string, string> = {}) => ({ ...canaries, CRM_EMBEDDED: '1', CRM_REPORT_DIR: reportDir, ...extra });

type Spec = { title: string; tests: { results: { status: string }[] }[] };
function statuses(path: string): Map<string, string> {
  return new Map(specsOf(readJson<{ suites: ReportSuite<Spec>[] }>(path)).map((spec) => [spec.title, spec.tests[0]?.results.at(-1)?.status ?? 'none']));
}

/**
 * The checks of one run given the canaries (leakEnv): it exercised the secrets (the canary
 * credentials worked, codes and tokens were issued, or with faults on, OAuth tests failed and
 * warned so that failure artifacts were written), and nothing of them reached an artifact.
 * Returns a line for the test's diagnostics.
 */
export function assertNoLeaks(name: string, reportDir: string, res: RunResult, withFaults: boolean): string {
  const results = resolve(ROOT, reportDir, 'results.json');
  assert.ok(existsSync(results), `the run wrote ${reportDir}/results.json\n${res.stdout.slice(-2000)}${res.stderr.slice(-2000)}`);
  const st = statuses(results);
  // The run really exercised the secrets: the canary credentials worked and codes and tokens were issued.
  const passed = (prefix: string) => [...st].filter(([title, s]) => title.startsWith(prefix) && s === 'passed').length;
  assert.ok(passed('AUTH-1 ') >= 1, 'AUTH-1 passed with the canary access token (the server got the canaries)');
  assert.ok(passed('OAUTH-4 ') >= 1, `the OAuth handshake ran in a real browser and issued codes\n${res.stdout.slice(-3000)}`);
  if (!withFaults) assert.ok(passed('OAUTH-10 ') >= 1 && passed('OAUTH-11 ') >= 1, `access tokens were issued and used\n${res.stdout.slice(-3000)}`);
  if (withFaults) {
    const failed = [...st].filter(([title, s]) => title.startsWith('OAUTH-') && s !== 'passed' && s !== 'skipped').length;
    const warned = readJson<{ rules: { id: string; verdict: string }[] }>(`${reportDir}/conformance.json`).rules.filter(
      (x) => x.id.startsWith('OAUTH-') && x.verdict === 'WARN',
    ).length;
    assert.ok(failed >= 2 && warned >= 1, `the faults made OAuth tests fail (${failed}) and warn (${warned}), so failure artifacts were written`);
  }
  const stats = { files: 0, zipEntries: 0, base64Runs: 0 };
  const leaks = scan([resolve(ROOT, reportDir), resolve(ROOT, 'test-results')], res, stats);
  assert.ok(stats.zipEntries > 0, "the HTML report's embedded zip was opened and searched");
  const shown = [...new Map(leaks.map((l) => [`${l.where}\u0000${l.what}`, l])).values()].slice(0, 40).map((l) => `  ${l.where}: ${l.what}`);
  assert.deepEqual(shown, [], `secrets reached artifacts:\n${shown.join('\n')}`);
  return `${name}: ${st.size} tests in ${(res.ms / 1000).toFixed(1)} s; searched ${stats.files} files, ${stats.zipEntries} zip entries, ${stats.base64Runs} base64 runs`;
}
