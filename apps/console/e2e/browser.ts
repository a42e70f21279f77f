import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it); nothing is downloaded at run time. */
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots of every page, kept out of git (docs/screenshots holds the few the README shows). */
export const SHOTS = join(__dirname, '../../../test-artifacts/console');

/**
 * Headless Chromium with the flags that work on these machines: no sandbox (root), no GPU, and nothing that
 * reaches for the network on its own (the machine has none but loopback). Playwright gives it a fresh profile.
 */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it when missing)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function newContext(browser: Browser, baseURL: string, locale = 'en-GB'): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    locale,
    viewport: { width: 1360, height: 900 },
    acceptDownloads: true,
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Signs in with an email and password from the start page and waits for the overview. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.locator('[data-page="overview"]').waitFor();
}
