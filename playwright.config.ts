/**
 * Runs the conformance suite against the configured target, or, with no CRM_BASE_URL, against
 * the embedded reference server started by `webServer`.
 */
import { defineConfig } from '@playwright/test';
import { createRequire } from 'node:module';
import { ConfigError, loadConfig, prepareEmbeddedEnvironment, referenceServerEnv, refuseRecording, useCompileCache } from './specs/support/core/config.js';

prepareEmbeddedEnvironment();
// The embedded server's open choices (REFERENCE_CHOICES) may make it declare something in its
// profile, as a real target would (a raised bulk limit, say): its profile then says so.
if (process.env.CRM_EMBEDDED === '1' && !process.env.CRM_PROFILE && process.env.CRM_EMBEDDED_DECLARES === undefined && (process.env.REFERENCE_CHOICES || process.env.REFERENCE_VARIANT === '1')) {
  const { ChoicesError, declarations, parseChoices } = await import('./reference/choices.js');
  try {
    process.env.CRM_EMBEDDED_DECLARES = JSON.stringify(declarations(parseChoices(process.env.REFERENCE_CHOICES, process.env.REFERENCE_VARIANT === '1')));
  } catch (err) {
    if (!(err instanceof ChoicesError)) throw err;
    console.error(`\n${err.message}\n`);
    process.exit(2);
  }
}
let cfg;
try {
  refuseRecording(process.argv);
  cfg = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    // A bad value stops the run before any test, naming the variable.
    console.error(`\n${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

await useCompileCache(cfg);

const out = process.env.CRM_REPORT_DIR ?? 'reports';

/** The specs of `POST /opportunities/bulk_create` (spec § Bulk create of Opportunities). */
const BULK_SPECS = /[\\/]specs[\\/]opportunities[\\/][^\\/]*\.spec\.ts$/;
/** The specs of the OAuth handshake, in a real browser (spec § Authentication). */
const OAUTH_SPECS = /[\\/]specs[\\/]oauth[\\/][^\\/]*\.spec\.ts$/;
/** Workers of the API lane at the start: CRM_WORKERS, default 2 (the cores of a small CI machine). */
const API_WORKERS = cfg.workers;
/** The property-based specs with the most requests (spec § Projects, § Tasks, § Lead upsert). */
const PROPERTY_SPECS = [/[\\/]specs[\\/]search[\\/][^\\/]*\.property\.spec\.ts$/, /[\\/]specs[\\/]leads[\\/]upsert\.model\.spec\.ts$/];
/** The lanes of one worker each, before the API lane. */
const LANES = [
  { name: 'bulk', testMatch: BULK_SPECS, workers: 1 },
  { name: 'properties', testMatch: PROPERTY_SPECS, workers: 1 },
  ...(cfg.publicUrl ? [{ name: 'oauth', testMatch: OAUTH_SPECS, workers: 1 }] : []),
];

// A run of the whole suite (or CRM_PREFORK=1) starts early (the configuration is loaded by every
// worker too, and they skip this):
// - the workers of the start, and one for the API lane's takeover of a lane's slot, load
//   Playwright while the runner is still starting, at the lowest priority (scripts/prefork.cjs);
// - the modules every spec file imports load through Playwright's loader while the reference
//   server and the global set-up start, all at once: the spec files, loaded one after another
//   later, then find them loaded (the first test begins some 0.15 s sooner).
if (process.env.TEST_WORKER_INDEX === undefined) {
  const { prefork, wholeSuiteRun } = createRequire(import.meta.url)('./scripts/prefork.cjs') as typeof import('./scripts/prefork.cjs');
  if (cfg.prefork ?? wholeSuiteRun(process.argv.slice(2))) {
    prefork(API_WORKERS + LANES.length + 1);
    void import('./specs/support/fixtures/test.js').catch(() => { /* the first spec file loads it again, and reports its error */ });
  }
}

// The embedded server's credentials reach it through the environment it inherits, never through
// `webServer.env`: reporters print the configuration (results.json carries webServer.env).
if (cfg.embedded) {
  Object.assign(process.env, referenceServerEnv(cfg), { REFERENCE_FAULTS: process.env.REFERENCE_FAULTS ?? '', REFERENCE_VARIANT: process.env.REFERENCE_VARIANT ?? '' });
}

export default defineConfig({
  testDir: './specs',
  testMatch: '**/*.spec.ts',
  // Parallel runs with their own CRM_REPORT_DIR keep their own test-results (Playwright empties it at start).
  outputDir: process.env.CRM_REPORT_DIR ? `${out}/test-results` : 'test-results',
  // A spec file is one job of a worker (its tests run in order, each in its own namespace): some
  // 50 jobs to hand out instead of 341. The two search property files let their tests run apart.
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Lanes, each with its own workers (CRM_WORKERS: the workers of the API lane, default 2), all
  // started at once. The lanes of one worker are listed first, and a lane runs its files in
  // alphabetical order:
  // - bulk: bulk calls are limited to 3 per second for the whole run (specs/support/core/rate-limit.ts),
  //   so the bulk specs mostly wait for their slots. The burst tests come first
  //   (bulk.burst.optional.spec.ts): their exclusive windows end before the API lane needs slots.
  // - properties: the property-based specs with thousands of requests, started first rather than
  //   left for the end of the run.
  // - oauth, only with CRM_PUBLIC_URL: the target reaches one callback receiver, on one port.
  // Every lane costs a worker process (about a second of CPU). The API lane has no limit of its
  // own: the other lanes come first in the queue, so it starts with CRM_WORKERS workers and takes a
  // lane's worker once that lane is done. Never more workers at once than at the start, and a
  // target that makes the API lane wait (a webhook notification it never sends: 20 s) no longer
  // leaves the other lanes' workers idle behind it (27.9 s against 36.3 s for webhook-update-not-sent).
  workers: API_WORKERS + LANES.length,
  projects: [
    ...LANES,
    { name: 'api', testIgnore: LANES.flatMap((l) => l.testMatch) },
  ],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  globalSetup: './specs/support/global-setup.ts',
  // CRM_REPORTERS=minimal keeps only the conformance reporter (self-tests and calibration runs).
  reporter: process.env.CRM_REPORTERS === 'minimal'
    ? [['dot'], ['./reporting/conformance-reporter.ts', { outputDir: out }]]
    : [
        [process.env.CI ? 'dot' : 'list'],
        ['html', { outputFolder: `${out}/html`, open: 'never' }],
        ['json', { outputFile: `${out}/results.json` }],
        ['junit', { outputFile: `${out}/junit.xml` }],
        ['./reporting/allure-reporter.ts', { resultsDir: `${out}/allure-results`, specUrl: cfg.specUrl }],
        ['./reporting/conformance-reporter.ts', { outputDir: out }],
        // A shard (--shard=i/n) also keeps a blob report: `npm run merge` rebuilds Playwright's HTML report from them.
        ...(process.argv.some((a) => a.startsWith('--shard')) ? [['blob', { outputDir: `${out}/blob-report` }] as ['blob', { outputDir: string }]] : []),
      ],
  use: {
    // Credentials are added per request by the API client; traces would carry them, so they stay off.
    trace: 'off',
    screenshot: 'off',
    video: 'off',
    ignoreHTTPSErrors: true,
  },
  webServer: cfg.embedded
    ? {
        // Bundled with esbuild and run by plain Node: half the start-up of `node --import tsx`; the
        // bundle is kept while reference/ is unchanged (scripts/start-reference.mjs).
        // CRM_REFERENCE_CPU_PROF=<dir> (npm run bench:profile): the reference runs under V8's CPU
        // profiler and is stopped with SIGTERM, so that it writes its profile there.
        command: process.env.CRM_REFERENCE_CPU_PROF ? `node --cpu-prof --cpu-prof-dir=${JSON.stringify(process.env.CRM_REFERENCE_CPU_PROF)} scripts/start-reference.mjs` : 'node scripts/start-reference.mjs',
        ...(process.env.CRM_REFERENCE_CPU_PROF ? { gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 } } : {}),
        url: `${cfg.baseUrl}/healthz`,
        // Ready as soon as it says so, rather than at Playwright's next /healthz poll (up to 1 s later).
        wait: { stdout: /\[reference\] API/ },
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
        stderr: 'pipe',
      }
    : undefined,
});
