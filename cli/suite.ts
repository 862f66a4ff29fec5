/**
 * The one place where the command-line tool (cli/) reaches the suite's own modules: the
 * configuration (environment + target profile), the API client (credentials, redaction,
 * deadlines), the profile contract, and the contracts the doctor checks answers against.
 * When the suite's support modules move, only these imports change.
 */
export { ConfigError, loadConfig, isLoopback, ROOT, API_PREFIX, PROFILE_FILE, type TargetConfig } from '../specs/support/core/config.js';
export { prepareEmbeddedEnvironment } from '../specs/support/core/embedded.js';
export { ApiClient, TransportError, type ApiResponse } from '../specs/support/core/http.js';
export { Recorder } from '../specs/support/core/recorder.js';
export { redactText } from '../specs/support/core/redact.js';
export { TargetProfile, CustomFieldFixture } from '../contracts/profile.js';
export { Account, Company, FileMetadata, Pipeline, Project, Task } from '../contracts/index.js';

/**
 * Where the OAuth specs would find Chromium (specs/support/resources/chromium.ts). Loaded on
 * demand: it brings Playwright with it.
 */
export async function findChromium(configured?: string): Promise<{ path?: string; searched: string[] }> {
  const [browser, playwright] = await Promise.all([import('../specs/support/resources/chromium.js'), import('@playwright/test')]);
  return browser.findChromium(configured, playwright.chromium);
}

/** The suite's webhook recording server and the hub's port rule, for the doctor's round trip. */
export { Recording, listen } from '../specs/support/resources/webhook-recording.js';
export { fixedPort } from '../specs/support/resources/webhook-hub.js';
