/**
 * Runs the conformance suite against the configured target, or, with no CRM_BASE_URL, against
 * the embedded reference server started by `webServer`.
 */
import { defineConfig } from '@playwright/test';
import { ConfigError, loadConfig, prepareEmbeddedEnvironment, referenceServerEnv } from './specs/support/config.js';

prepareEmbeddedEnvironment();
let cfg;
try {
  cfg = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    // A bad value stops the run before any test, naming the variable.
    console.error(`\n${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

const out = process.env.CRM_REPORT_DIR ?? 'reports';

export default defineConfig({
  testDir: './specs',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CRM_WORKERS ? Number(process.env.CRM_WORKERS) : 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  globalSetup: './specs/support/global-setup.ts',
  // CRM_REPORTERS=minimal keeps only the conformance reporter (self-tests and calibration runs).
  reporter: process.env.CRM_REPORTERS === 'minimal'
    ? [['dot'], ['./reports/conformance-reporter.ts', { outputDir: out }]]
    : [
        [process.env.CI ? 'dot' : 'list'],
        ['html', { outputFolder: `${out}/html`, open: 'never' }],
        ['json', { outputFile: `${out}/results.json` }],
        ['junit', { outputFile: `${out}/junit.xml` }],
        ['allure-playwright', { resultsDir: `${out}/allure-results`, detail: false, suiteTitle: false }],
        ['./reports/conformance-reporter.ts', { outputDir: out }],
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
        command: 'node --import tsx reference/main.ts',
        url: `${cfg.baseUrl}/healthz`,
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: { ...referenceServerEnv(cfg), REFERENCE_FAULTS: process.env.REFERENCE_FAULTS ?? '', REFERENCE_VARIANT: process.env.REFERENCE_VARIANT ?? '' },
      }
    : undefined,
});
