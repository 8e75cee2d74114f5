/**
 * A real browser for the host page's tests: Debian's chromium (`apt-get install chromium`, done by
 * .ci/run) driven by playwright-core, headless, with a fresh profile each time.
 *
 *   const browser = await startBrowser();
 *   const page = await browser.context.newPage();
 *   await page.goto(loginUrl);
 *   await saveScreenshot(page, 'page-devices');
 *   await browser.close();
 *
 * Screenshots go to tests/.tmp/screenshots/, or to docs/screenshots/ (committed, shown in the
 * README) when UPDATE_SCREENSHOTS=1.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { ROOT } from './paths.js';

/** Debian's chromium, or $CHROMIUM. */
export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** Flags that keep chromium off the network it cannot reach here (and quick to start as root). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Starts headless chromium with a fresh user-data-dir. */
export async function startBrowser(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'droidbus-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of the page for the README (UPDATE_SCREENSHOTS=1) or for looking at. */
export async function saveScreenshot(page: Page, name: string, fullPage = false): Promise<string> {
  const dir =
    process.env['UPDATE_SCREENSHOTS'] === '1'
      ? path.join(ROOT, 'docs', 'screenshots')
      : path.join(ROOT, 'tests', '.tmp', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}
