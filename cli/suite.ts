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

/**
 * Tries the OAuth login as the OAuth specs do it (specs/support/oauth-page.ts): Chromium at
 * `executablePath`, a callback receiver where the run's listens (`receiver`: callbackOptions), the
 * authorization request (`url` of the receiver's base URL), the login, up to the consent screen;
 * nothing is authorized. Loaded on demand: it brings Playwright with it.
 */
export async function tryOAuthLogin(o: {
  executablePath: string;
  receiver: import('../specs/support/resources/callback-receiver.js').ReceiverOptions;
  url: (receiverUrl: string) => string;
  screens: import('../specs/support/oauth-controls.js').Screens;
  email: string;
  password: string;
}): Promise<import('../specs/support/oauth-page.js').LoginCheck & { described: string; url: string }> {
  const [driver, { CallbackReceiver }, { CHROMIUM_ARGS }, { chromium }] = await Promise.all([
    import('../specs/support/oauth-page.js'),
    import('../specs/support/resources/callback-receiver.js'),
    import('../specs/support/resources/chromium.js'),
    import('@playwright/test'),
  ]);
  const receiver = await CallbackReceiver.start(o.receiver);
  try {
    const browser = await chromium.launch({ executablePath: o.executablePath, headless: true, args: CHROMIUM_ARGS });
    try {
      const url = o.url(receiver.url);
      const check = await driver.tryLogin(browser, receiver, o.screens, url, { email: o.email, password: o.password, timeoutMs: 15_000 });
      return { ...check, described: driver.describeOutcome(check.outcome), url };
    } finally {
      await driver.bounded(browser.close(), driver.CLOSE_MS);
    }
  } finally {
    await receiver.close();
  }
}

/** The suite's webhook recording server, for the doctor's round trip. */
export { Recording, listen } from '../specs/support/resources/webhook-recording.js';
/** Where the run's OAuth callback receiver listens and the redirect_uri it sends, for the doctor's OAuth checks. */
export { callbackOptions, receiverUrlOf, redirectUriOf } from '../specs/support/resources/callback-receiver.js';
export { freePorts } from '../specs/support/core/embedded.js';
