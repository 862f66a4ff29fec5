/**
 * Chromium for the OAuth handshake (spec § Authentication → OAuth 2.0 authorization code grant):
 * found at run time and launched once per worker, when a test first needs it (the worker fixture
 * `oauthBrowser` of specs/support/fixtures/test.ts).
 *
 * Where it is looked for, in order:
 *   1. `CRM_CHROMIUM_PATH` (when set and missing, or failing to start, nothing else is tried);
 *   2. Playwright's own headless shell, as `npx playwright install [--only-shell] chromium` installs
 *      it (what action.yml's `install-browser` does): Playwright launches it itself when no
 *      executable is given, so the suite asks Playwright (`chromium.launch()`), never for its path;
 *   3. Playwright's own Chromium (`chromium.executablePath()`);
 *   4. the system's: Debian's `chromium-headless-shell` (the headless shell drives the same screens
 *      on a third of the CPU of the full browser), `chromium`, `chromium-browser`, Google Chrome.
 */
import { chromium, type Browser, type BrowserType, type LaunchOptions } from '@playwright/test';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** A worker resource, or why there is none (the tests that need it skip with that reason). */
export interface WorkerResource<T> {
  value?: T;
  reason?: string;
}

/**
 * Chromium command-line switches for a quiet, headless, sandbox-free run. `--process-per-site`:
 * the pages of one site in one browser context share a renderer process (fewer processes and
 * less CPU for the OAuth specs' navigations between the authorization server and the callback
 * receiver). Contexts stay apart: each is a profile of its own.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--process-per-site',
];

export const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

const PLAYWRIGHT_SHELL = "Playwright's headless shell (npx playwright install --only-shell chromium)";

/** One place a browser may come from: launch options, or why it is not there. */
interface Candidate {
  label: string;
  options?: LaunchOptions;
  missing?: string;
  configured?: boolean;
}

/**
 * Playwright's browsers directory, known from the public `executablePath()` (its Chromium lives
 * three levels below it). A launch of a browser Playwright has not installed fails, but leaves two
 * empty directories in the system's temporary directory; so Playwright's own headless shell is
 * tried only where Playwright has installed browsers at all.
 */
function playwrightInstall(pw: BrowserType | undefined): { own?: string; dirExists: boolean } {
  let own: string | undefined;
  try {
    own = pw?.executablePath() || undefined;
  } catch {
    own = undefined;
  }
  return { own, dirExists: !!own && existsSync(resolve(own, '../../..')) };
}

function candidates(configured: string | undefined, pw: BrowserType | undefined): Candidate[] {
  if (configured) {
    return [
      {
        label: `CRM_CHROMIUM_PATH (${configured})`,
        configured: true,
        ...(existsSync(configured) ? { options: { executablePath: configured } } : { missing: 'no such file' }),
      },
    ];
  }
  const { own, dirExists } = playwrightInstall(pw);
  const list: Candidate[] = [
    { label: PLAYWRIGHT_SHELL, ...(pw && dirExists ? { options: {} } : { missing: 'Playwright has installed no browser' }) },
    {
      label: own ? `Playwright's Chromium (${own})` : "Playwright's Chromium",
      ...(own && existsSync(own) ? { options: { executablePath: own } } : { missing: 'not installed' }),
    },
  ];
  for (const p of SYSTEM_CHROMIUMS) list.push({ label: p, ...(existsSync(p) ? { options: { executablePath: p } } : { missing: 'not installed' }) });
  return list;
}

/** Tries the candidates in order; the first that starts is used. */
async function launchFirst(
  configured: string | undefined,
  pw: BrowserType,
  launch: (o: LaunchOptions) => Promise<void>,
): Promise<{ label?: string; searched: string[]; failed?: string }> {
  const searched: string[] = [];
  for (const c of candidates(configured, pw)) {
    if (!c.options) {
      searched.push(`${c.label}: ${c.missing}`);
      if (c.configured) return { searched, failed: `CRM_CHROMIUM_PATH=${configured}: ${c.missing}` };
      continue;
    }
    try {
      await launch({ ...c.options, headless: true, args: CHROMIUM_ARGS });
      return { label: c.label, searched };
    } catch (err) {
      const why = (err as Error).message.split('\n')[0];
      searched.push(`${c.label}: did not start: ${why}`);
      if (c.configured) return { searched, failed: `Chromium at ${configured} did not start: ${why}` };
    }
  }
  return { searched };
}

/**
 * Where the OAuth specs would find Chromium (the doctor's "browser for OAuth" line): the path of
 * the first candidate that starts. Playwright's headless shell is started once to learn its path
 * (`launchServer().process()`, public API) and closed.
 */
export async function findChromium(configured: string | undefined, playwrightChromium?: BrowserType): Promise<{ path?: string; searched: string[] }> {
  const pw = playwrightChromium ?? chromium;
  let path: string | undefined;
  const found = await launchFirst(configured, pw, async (options) => {
    if (options.executablePath) {
      path = options.executablePath;
      return;
    }
    const server = await pw.launchServer(options);
    path = server.process().spawnfile;
    await server.close();
  });
  return found.label ? { path, searched: found.searched } : { searched: found.searched };
}

/** Launches Chromium for the worker, or says why there is none; closes it at the end. */
export async function launchOAuthBrowser(configured: string | undefined, use: (r: WorkerResource<Browser>) => Promise<void>): Promise<void> {
  let browser: Browser | undefined;
  const found = await launchFirst(configured, chromium, async (options) => {
    browser = await chromium.launch(options);
  });
  if (!browser) {
    await use({
      reason:
        found.failed ??
        `no Chromium found; searched: ${found.searched.join('; ')}. Install one (npx playwright install --only-shell chromium, or Debian's chromium-headless-shell) or set CRM_CHROMIUM_PATH to a Chromium or Chrome executable.`,
    });
    return;
  }
  await use({ value: browser });
  await browser.close();
}
