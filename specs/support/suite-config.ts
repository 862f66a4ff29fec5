/**
 * The Playwright configuration of a run, from its settings (core/config.ts): the lanes, the
 * reporters, and, with no CRM_BASE_URL, the embedded reference server (core/embedded.ts).
 * playwright.config.ts is `defineConfig(suiteConfig())`. A bad setting stops the run here, before
 * any test, with one message naming it (exit code 2).
 */
import type { PlaywrightTestConfig } from '@playwright/test';
import Module from 'node:module';
import { join } from 'node:path';
import { ChoicesError, declarations, parseChoices } from '../../reference/choices.js';
import { assertKnownSettings, ConfigError, loadConfig, refuseRecording, ROOT, type TargetConfig } from './core/config.js';
import { embeddedLatencyMs, prepareEmbeddedEnvironment, referenceServerEnv } from './core/embedded.js';
import { quickLeaveOut } from './core/quick.js';

/** The specs of `POST /opportunities/bulk_create` (spec § Bulk create of Opportunities). */
const BULK_SPECS = /[\\/]specs[\\/]opportunities[\\/][^\\/]*\.spec\.ts$/;
/** The specs of the OAuth handshake, in a real browser (spec § Authentication). */
const OAUTH_SPECS = /[\\/]specs[\\/]oauth[\\/][^\\/]*\.spec\.ts$/;
/** The property-based specs with the most requests (spec § Projects, § Tasks, § Lead upsert). */
const PROPERTY_SPECS = [/[\\/]specs[\\/]search[\\/][^\\/]*\.property\.spec\.ts$/, /[\\/]specs[\\/]leads[\\/]upsert\.model\.spec\.ts$/];
/** The heavy specs (deep runs, or where the profile allows them): 100,001 records of one kind. */
const HEAVY_SPECS = /\.heavy\.spec\.ts$/;

/**
 * Playwright's own defaults of its browser-context options, given as values: an option left to
 * Playwright is a fixture that every test sets up and tears down (each a step with a captured
 * stack), although no test here uses Playwright's context or page fixtures.
 */
const BROWSER_DEFAULTS: PlaywrightTestConfig['use'] = {
  acceptDownloads: true,
  bypassCSP: false,
  colorScheme: 'light',
  contrast: 'no-preference',
  forcedColors: 'none',
  hasTouch: false,
  isMobile: false,
  javaScriptEnabled: true,
  locale: 'en-US',
  offline: false,
  reducedMotion: 'no-preference',
  viewport: { width: 1280, height: 720 },
  serviceWorkers: 'allow',
  extraHTTPHeaders: {},
  permissions: [],
};

/** Reads the settings of this process (preparing the embedded server's); a bad one stops the process with its message. */
function settings(env: NodeJS.ProcessEnv): TargetConfig {
  try {
    assertKnownSettings(env);
    prepareEmbeddedEnvironment(env);
    // The embedded server's open choices (REFERENCE_CHOICES) may make it declare something in its
    // profile, as a real target would (a raised bulk limit, say): its profile then says so.
    if (env.CRM_EMBEDDED === '1' && !env.CRM_PROFILE && env.CRM_EMBEDDED_DECLARES === undefined && (env.REFERENCE_CHOICES || env.REFERENCE_VARIANT === '1')) {
      env.CRM_EMBEDDED_DECLARES = JSON.stringify(declarations(parseChoices(env.REFERENCE_CHOICES, env.REFERENCE_VARIANT === '1')));
    }
    refuseRecording(process.argv);
    return loadConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError) && !(err instanceof ChoicesError)) throw err;
    console.error(`\n${err.message}\n`);
    process.exit(2);
  }
}

/** Node's own compile cache (Node 22 and later), for the runner and, through the environment, its workers. */
function useCompileCache(env: NodeJS.ProcessEnv): void {
  const enable = (Module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE) return;
  env.NODE_COMPILE_CACHE ??= join(ROOT, 'node_modules/.cache/crm-conformance/node');
  enable(env.NODE_COMPILE_CACHE);
}

/**
 * Workers start with `--no-async-stack-traces`: Playwright captures a stack for every step it
 * records (each fixture's set-up and teardown, each `expect`), and an async stack is several times
 * deeper (a large share of a worker's CPU on loopback). A flag on the command line, not set afterwards:
 * Playwright forks its workers with Node's default `execArgv`, which is `process.execArgv`.
 * Failures still name the spec's line (the synchronous part of the stack holds it).
 */
function lightStacks(): void {
  if (!process.execArgv.includes('--no-async-stack-traces')) process.execArgv.push('--no-async-stack-traces');
}

export function suiteConfig(env: NodeJS.ProcessEnv = process.env): PlaywrightTestConfig {
  const cfg = settings(env);
  useCompileCache(env);
  lightStacks();
  const out = env.CRM_REPORT_DIR ?? 'reports';
  // Lanes of one worker each, listed first: a lane runs its files in alphabetical order.
  // - bulk: bulk calls are limited to 3 per second for the whole run (core/rate-limit.ts), so the
  //   bulk specs mostly wait for their slots; the burst tests come first.
  // - oauth: one Chromium for every OAuth test, and one callback receiver on one port (the one
  //   CRM_PUBLIC_URL names).
  // - properties: the property-based specs with thousands of requests, started first; against a
  //   far target each of its three files in a worker of its own (their runs wait on answers), or
  //   CRM_WORKERS + 1 of them when that is fewer (a setting that keeps the load on the target low).
  //   A quick run against a near target has no property lane: its few runs go to the API lane, as
  //   the start of one more worker would cost the run more CPU than they take.
  // The API lane has CRM_WORKERS workers. Against a near target (loopback) never more: a run there
  // is CPU-bound, and a lane that ends early leaves its CPU to the others, where a new worker would
  // spend it on starting up. Against a far one it also takes each lane's worker once that
  // lane is done: such a run waits on answers, not on CPU.
  const near = cfg.loopback && !(cfg.embedded && embeddedLatencyMs(env) > 0);
  const lanes = [
    { name: 'bulk', testMatch: BULK_SPECS, workers: 1 },
    { name: 'oauth', testMatch: OAUTH_SPECS, workers: 1 },
    ...(near && cfg.depth === 'quick' ? [] : [{ name: 'properties', testMatch: PROPERTY_SPECS, workers: near ? 1 : Math.min(3, cfg.workers + 1) }]),
  ];
  // The embedded server's credentials reach it through the environment it inherits, never through
  // `webServer.env`: reporters print the configuration (results.json carries webServer.env).
  if (cfg.embedded)
    Object.assign(env, referenceServerEnv(cfg), { REFERENCE_FAULTS: env.REFERENCE_FAULTS ?? '', REFERENCE_VARIANT: env.REFERENCE_VARIANT ?? '' });
  const profiling = env.CRM_REFERENCE_CPU_PROF;
  return {
    testDir: join(ROOT, 'specs'),
    testMatch: '**/*.spec.ts',
    // Parallel runs with their own CRM_REPORT_DIR keep their own test-results (Playwright empties it at start).
    outputDir: env.CRM_REPORT_DIR ? `${out}/test-results` : 'test-results',
    // A spec file is one job of a worker (its tests run in order, each in its own namespace).
    fullyParallel: false,
    forbidOnly: !!env.CI,
    // CRM_DEPTH=quick: one test per rule where several cover it (and the properties with fewer runs).
    ...(cfg.depth === 'quick' ? { grepInvert: quickLeaveOut() } : {}),
    retries: 0,
    workers: cfg.workers + lanes.reduce((n, l) => n + l.workers, 0),
    projects: [
      ...lanes,
      { name: 'api', testIgnore: [...lanes.flatMap((l) => l.testMatch), ...(cfg.heavy ? [HEAVY_SPECS] : [])], ...(near ? { workers: cfg.workers } : {}) },
      // A run with the heavy specs runs them last, once every other lane is done: the searches of
      // the other lanes would otherwise scan their 100,001 records, and the search properties make
      // fewer runs in their time budget. Without them, no lane: they skip in the API lane.
      ...(cfg.heavy ? [{ name: 'heavy', testMatch: HEAVY_SPECS, workers: 1, dependencies: [...lanes.map((l) => l.name), 'api'] }] : []),
    ],
    timeout: 30_000,
    expect: { timeout: 5_000 },
    globalSetup: join(ROOT, 'specs/support/global-setup.ts'),
    // The verdict of a run whose reporters a --reporter flag replaced (reporting/verdict-fallback.ts).
    globalTeardown: join(ROOT, 'reporting/verdict-fallback.ts'),
    // CRM_REPORTERS=minimal keeps only the conformance reporter (self-tests and calibration runs).
    reporter:
      env.CRM_REPORTERS === 'minimal'
        ? [['dot'], [join(ROOT, 'reporting/conformance-reporter.ts'), { outputDir: out }]]
        : [
            [env.CI ? 'dot' : 'list'],
            ['html', { outputFolder: `${out}/html`, open: 'never' }],
            ['json', { outputFile: `${out}/results.json` }],
            ['junit', { outputFile: `${out}/junit.xml` }],
            [join(ROOT, 'reporting/allure-reporter.ts'), { resultsDir: `${out}/allure-results`, specUrl: cfg.specUrl }],
            [join(ROOT, 'reporting/conformance-reporter.ts'), { outputDir: out }],
            // A shard (--shard=i/n) also keeps a blob report: `npm run merge` rebuilds Playwright's HTML report from them.
            ...(process.argv.some((a) => a.startsWith('--shard')) ? [['blob', { outputDir: `${out}/blob-report` }] as ['blob', { outputDir: string }]] : []),
          ],
    // Credentials are added per request by the API client; traces would carry them, so they stay off.
    use: { trace: 'off', screenshot: 'off', video: 'off', ignoreHTTPSErrors: true, ...BROWSER_DEFAULTS },
    webServer: cfg.embedded
      ? {
          // reference/ bundled with esbuild and run by plain Node (scripts/start-reference.mjs).
          command: profiling ? `node --cpu-prof --cpu-prof-dir=${JSON.stringify(profiling)} scripts/start-reference.mjs` : 'node scripts/start-reference.mjs',
          cwd: ROOT,
          ...(profiling ? { gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 } } : {}),
          url: `${cfg.baseUrl}/healthz`,
          // Ready as soon as it says so, rather than at Playwright's next /healthz poll.
          wait: { stdout: /\[reference\] API/ },
          reuseExistingServer: false,
          timeout: 30_000,
          stdout: 'ignore',
          stderr: 'pipe',
        }
      : undefined,
  };
}
