import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The machine's Chromium (Debian's `chromium` package; `scripts/ensure-chromium.sh` installs it in CI). */
export const CHROMIUM = process.env.PANEL_CHROMIUM ?? '/usr/bin/chromium';

/** Where the browser suite saves its screenshots (gitignored). */
export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../../test-artifacts/screenshots/', import.meta.url));

/** Flags for a headless Chromium in a container: no sandbox (no user namespaces), no GPU, no network chatter. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** Launches the machine's Chromium headless; a missing browser fails naming the fix. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser suite needs Chromium at ${CHROMIUM}. Fix: sudo bash scripts/ensure-chromium.sh (apt-get install chromium), set PANEL_CHROMIUM to another binary, or PANEL_BROWSER_TESTS=off to skip the suite.`);
  }
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

// Chromium logs a page answered 4xx as a console error; the suites ask for those (400, 403, 404, 422) on purpose.
const EXPECTED_DOCUMENT_STATUS = /^Failed to load resource: the server responded with a status of (400|403|404|422) /;

/**
 * Collects a page's console errors (CSP violations are console errors), uncaught exceptions,
 * and failed or refused subresources (stylesheet, script). A document answered 404 or 422 is
 * not an error here: the tests check those statuses themselves.
 */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_DOCUMENT_STATUS.test(message.text())) errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document' && response.status() >= 400) errors.push(`${response.url()}: ${response.status()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/** Saves a screenshot of the page as `<name>.png` in `SCREENSHOTS_DIR`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS_DIR}${name}.png`, fullPage: true });
}

/** Whether the browser suite runs: always, unless `PANEL_BROWSER_TESTS=off`. */
export const browserTestsEnabled = process.env.PANEL_BROWSER_TESTS !== 'off';
