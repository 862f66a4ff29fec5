/**
 * The one place where the command-line tool (cli/) reaches the suite's own modules: the
 * configuration (environment + target profile), the API client (credentials, redaction,
 * deadlines), the profile contract, and the contracts the doctor checks answers against.
 * When the suite's support modules move, only these imports change.
 */
export { ConfigError, loadConfig, isLoopback, prepareEmbeddedEnvironment, ROOT, API_PREFIX, type TargetConfig } from '../specs/support/config.js';
export { ApiClient, Recorder, TransportError, type ApiResponse } from '../specs/support/api.js';
export { redactText } from '../specs/support/redact.js';
export { TargetProfile, CustomFieldFixture } from '../contracts/profile.js';
export { Account, Company, FileMetadata, Pipeline, Project, Task } from '../contracts/index.js';

/**
 * Where the OAuth specs would find Chromium (specs/support/browser.ts). Loaded on demand: that
 * module brings the Playwright test fixtures with it (a few seconds).
 */
export async function findChromium(): Promise<{ path?: string; searched: string[] }> {
  const [browser, playwright] = await Promise.all([import('../specs/support/browser.js'), import('@playwright/test')]);
  return browser.findChromium(playwright.chromium);
}
