// Debian's Chromium driven by playwright-core. Every test gets a fresh context (empty local storage,
// no cookies); the browser itself is shared within a test file.
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export interface ContextOptions {
  width?: number;
  height?: number;
  /** The browser's own time zone; Asia/Shanghai unless a test needs another. */
  timezoneId?: string;
}

export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    deviceScaleFactor: 1,
    // Time zone and language fixed so that screenshots and formats do not depend on the machine.
    timezoneId: options.timezoneId ?? 'Asia/Shanghai',
    locale: 'en-US',
  });
  // The app must work from its own server alone: nothing leaves the machine.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  return context;
}
