/**
 * Chromium for the OAuth handshake (spec § Authentication → OAuth 2.0 authorization code grant):
 * found at run time (the headless shell first) and launched once per worker, when a test first
 * needs it (the worker fixture `oauthBrowser` of specs/support/fixtures/test.ts).
 */
import { chromium, type Browser, type BrowserType } from '@playwright/test';
import { existsSync } from 'node:fs';

/** A worker resource, or why there is none (the tests that need it skip with that reason). */
export interface WorkerResource<T> { value?: T; reason?: string }

/**
 * Chromium command-line switches for a quiet, headless, sandbox-free run. `--process-per-site`:
 * the pages of one site in one browser context share a renderer process; without it the OAuth
 * specs' navigations (authorization server, callback receiver) started 11-14 renderer processes
 * instead of 5, and Chromium took 3.5 s of CPU instead of 3.2 s for the 14 OAuth tests (5
 * alternated pairs, three browsers; 8 of 9 pairs lower). Contexts stay apart: each is a profile
 * of its own.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--process-per-site'];

/** Where Chromium is looked for, in order (`configured`: CRM_CHROMIUM_PATH), and what was found. */
export function findChromium(configured: string | undefined, playwrightChromium?: BrowserType): { path?: string; searched: string[] } {
  const candidates: [string, string | undefined][] = [['CRM_CHROMIUM_PATH', configured]];
  let own: string | undefined;
  try { own = playwrightChromium?.executablePath(); } catch { own = undefined; }
  candidates.push(["Playwright's own Chromium", own]);
  // The headless shell first: it drives the same screens on a third of the CPU of the full browser.
  for (const p of ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) candidates.push([p, p]);
  const searched: string[] = [];
  for (const [label, p] of candidates) {
    searched.push(p && label !== p ? `${label} (${p})` : p ?? `${label} (unset)`);
    if (p && existsSync(p)) return { path: p, searched };
  }
  return { searched };
}

/** Launches Chromium for the worker, or says why there is none; closes it at the end. */
export async function launchOAuthBrowser(configured: string | undefined, use: (r: WorkerResource<Browser>) => Promise<void>): Promise<void> {
  const found = findChromium(configured, chromium);
  if (!found.path) {
    await use({ reason: `no Chromium found; searched: ${found.searched.join(', ')}. Set CRM_CHROMIUM_PATH to a Chromium or Chrome executable.` });
    return;
  }
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: found.path, headless: true, args: CHROMIUM_ARGS });
  } catch (err) {
    await use({ reason: `Chromium at ${found.path} did not start: ${(err as Error).message.split('\n')[0]}` });
    return;
  }
  await use({ value: browser });
  await browser.close();
}
