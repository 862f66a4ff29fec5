/** Finds a Chromium for the self-tests that open reports: CRM_CHROMIUM_PATH, the system's, or Playwright's. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

export function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CRM_CHROMIUM_PATH,
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ];
  for (const c of candidates) if (c && existsSync(c)) return c;
  try {
    const bundled = chromium.executablePath();
    if (bundled && existsSync(bundled)) return bundled;
  } catch {
    /* no bundled browser */
  }
  return undefined;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}

/**
 * Opens a local HTML file with every network request other than file:/data:/blob: refused,
 * and returns the requests that tried to leave the machine.
 */
export async function openOffline(browser: Browser, file: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, offline: true });
  const page = await context.newPage();
  const external: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url)) return route.continue();
    external.push(url);
    return route.abort();
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${file}`);
  return { context, page, external, errors };
}
