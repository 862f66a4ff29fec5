/**
 * The fault matrix in ONE Playwright run (`npm run calibrate -- --scope matrix`,
 * selftest/calibration.test.ts): every fault of the reference server gets an instance of its own
 * (one process serves them all, reference/matrix.ts, each instance an App of its own on its own
 * API and authorization ports), and ONE project runs, for every fault, the tests of the rules the
 * fault names against the fault's instance (CRM_INSTANCES, specs/support/fixtures/instances.ts:
 * each test is registered once per instance that takes it). The workers serve every instance, so
 * a fault costs no worker start (a worker start costs far more CPU than a test), and each
 * test is a job of its own (fullyParallel) so that the long ones (a 20 s notification wait, the
 * upsert model) spread over the workers.
 *
 * For an instance the first failed or warned test decides (fixtures/rule.ts): its later tests in
 * that worker skip, and a MUST failure is recorded without replacing the worker. Outcomes carry
 * the instance's name as their project (conformance-outcomes.json); scripts/calibrate.ts builds
 * each fault's report from its own outcomes, exactly as from a run of its own.
 *
 * Environment: CONFORMANCE_MATRIX_FAULTS (comma-separated names, or `all`), CRM_CALIBRATION_WORKERS
 * (workers of the run, default 6: fixtures/instances.ts), CRM_REPORT_DIR; and, for every instance,
 * REFERENCE_CHOICES and REFERENCE_LIVE (reference/matrix.ts), and a profile (CRM_PROFILE with CRM_EMBEDDED=1).
 */
import { defineConfig } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { quickLeaveOut } from '../specs/support/core/quick.js';
import { INSTANCES_ENV as CRM_INSTANCES_ENV, matrixWorkers, type Instance } from '../specs/support/fixtures/instances.js';

const ROOT = resolve(__dirname, '..');
/** Where the runner leaves the instances for its workers (which evaluate this file again) and for reference/matrix.ts. */
const INSTANCES_ENV = 'REFERENCE_INSTANCES';
/** A fault's instance and the rules whose tests its project runs. */
interface Planned {
  name: string;
  faults: string[];
  rules: string[];
  port: number;
  authPort: number;
}

/**
 * In the runner only (its workers read the plan back from the environment, and load neither the
 * reference server nor the configuration here): credentials and run id as for any embedded run,
 * one instance per fault on free ports, the slowest faults of the last matrix first
 * (reports/calibration.json): a test's copies for the faults are queued in this order.
 */
function plan(): void {
  const { faultCatalog } = require('../reference/server.js') as typeof import('../reference/server.js');
  const { loadConfig } = require('../specs/support/core/config.js') as typeof import('../specs/support/core/config.js');
  const { freePorts, prepareEmbeddedEnvironment, referenceServerEnv } =
    require('../specs/support/core/embedded.js') as typeof import('../specs/support/core/embedded.js');
  const catalog = faultCatalog();
  const asked = (process.env.CONFORMANCE_MATRIX_FAULTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = asked.filter((n) => n !== 'all' && !catalog.some((f) => f.name === n));
  if (unknown.length) throw new Error(`CONFORMANCE_MATRIX_FAULTS: unknown faults: ${unknown.join(', ')}`);
  const faults = asked.includes('all') ? catalog : catalog.filter((f) => asked.includes(f.name));
  let ms = new Map<string, number>();
  try {
    const last = resolve(ROOT, 'reports/calibration.json');
    if (existsSync(last)) ms = new Map((JSON.parse(readFileSync(last, 'utf8')).faults as { name: string; ms: number }[]).map((f) => [f.name, f.ms]));
  } catch {
    /* none or half-written: catalog order */
  }
  const ordered = [...faults].sort((a, b) => (ms.get(b.name) ?? 0) - (ms.get(a.name) ?? 0));
  if (!ordered.length) throw new Error('CONFORMANCE_MATRIX_FAULTS names no fault (a list of names, or all)');
  const ports = freePorts(ordered.length * 2);
  const planned: Planned[] = ordered.map((f, i) => ({ name: f.name, faults: [f.name], rules: f.rules, port: ports[2 * i], authPort: ports[2 * i + 1] }));
  prepareEmbeddedEnvironment();
  // The runner's own target (global set-up, reporter): the first instance. The suite's list of
  // instances (names, endpoints, rules), and the reference's (ports, faults).
  const instances: Instance[] = planned.map((p) => ({ name: p.name, ...urls(p), rules: p.rules, ...(spread ? { every: true } : {}) }));
  Object.assign(process.env, {
    [INSTANCES_ENV]: JSON.stringify(planned),
    [CRM_INSTANCES_ENV]: JSON.stringify(instances),
    CRM_BASE_URL: urls(planned[0]).baseUrl,
    CRM_AUTH_URL: urls(planned[0]).authUrl,
  });
  // Credentials reach the servers through the environment they inherit, never through `webServer.env`.
  // The open choices the run was asked for (REFERENCE_CHOICES; none by default) are every instance's.
  Object.assign(process.env, referenceServerEnv(loadConfig()), {
    REFERENCE_FAULTS: '',
    REFERENCE_VARIANT: '',
    REFERENCE_CHOICES: process.env.REFERENCE_CHOICES ?? '',
  });
}

/** CONFORMANCE_MATRIX_SPREAD=1: every test against every fault, each to its end (the spread: scripts/calibrate.ts --scope spread). */
const spread = process.env.CONFORMANCE_MATRIX_SPREAD === '1';
const urls = (p: Planned) => ({ baseUrl: `http://127.0.0.1:${p.port}`, authUrl: `http://localhost:${p.authPort}` });
if (!process.env[INSTANCES_ENV]) plan();
const planned = JSON.parse(process.env[INSTANCES_ENV]!) as Planned[];

const out = process.env.CRM_REPORT_DIR ?? 'reports/runs/calibration-matrix';

export default defineConfig({
  testDir: '../specs',
  testMatch: '**/*.spec.ts',
  outputDir: `${resolve(ROOT, out)}/test-results`,
  fullyParallel: true,
  // CRM_DEPTH=quick: the quick selection, as in a run of one target (specs/support/suite-config.ts).
  ...(process.env.CRM_DEPTH === 'quick' ? { grepInvert: quickLeaveOut() } : {}),
  retries: 0,
  workers: matrixWorkers(),
  projects: [{ name: 'matrix' }],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  globalSetup: '../specs/support/global-setup.ts',
  reporter: [['dot'], ['../reporting/conformance-reporter.ts', { outputDir: resolve(ROOT, out) }]],
  use: { trace: 'off', screenshot: 'off', video: 'off', ignoreHTTPSErrors: true },
  // Every instance in one process (reference/matrix.ts): no fault stalls the process it runs in.
  webServer: {
    command: 'node scripts/start-reference.mjs reference/matrix.ts',
    cwd: ROOT,
    url: `${urls(planned.at(-1)!).baseUrl}/healthz`,
    wait: { stdout: /\[reference\] API/ },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Not secret: the ports and faults of the instances (credentials come through the inherited environment).
    env: { [INSTANCES_ENV]: JSON.stringify(planned) },
  },
});
