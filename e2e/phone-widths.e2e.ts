// The pages a phone user reaches from the wallet, the account centre, leverage and the back office, at 390 px
// in real Chromium against a real server of this file's own (issue 45): in English and Chinese, day and
// night, no page is wider than the screen, and each page's main actions lie inside it and take a click
// without a sideways swipe: Deposit, Withdraw and Transfer on the assets page, the transfer button, the
// account centre's menu with the page's content in the first screen, Stops and Close on an open lever
// position, and the back office's main navigation. Screenshots go to artifacts/screenshots.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { AdminScenario } from './admin-seed.ts';
import {
  signInEnrollingAuthenticator,
  startAdminConsole,
  type AdminConsole,
} from './support/admin-console.ts';
import { newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { startPriceControl, type PriceControl } from './support/price-control.ts';

const WIDTH = 390;
const HEIGHT = 844;

type Json = { type: string; message: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The browser globals the in-page callbacks use (they are type-checked without the DOM library). */
interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}
interface InPageElement {
  getBoundingClientRect(): Box;
  contains(other: unknown): boolean;
}
interface InPageWindow {
  innerHeight: number;
  scrollBy(x: number, y: number): void;
  document: {
    elementFromPoint(x: number, y: number): unknown;
    documentElement: { scrollWidth: number };
  };
}

/**
 * Asserts that `target` can be reached on a phone without a sideways swipe: after scrolling the page
 * up or down only (never a container sideways), the element lies inside the screen and is the element a tap
 * on its centre lands on.
 */
async function reachable(page: Page, target: Locator, name: string): Promise<void> {
  await target.waitFor({ timeout: 5_000 });
  const hit = await target.evaluate((node) => {
    const element = node as unknown as InPageElement;
    const view = globalThis as unknown as InPageWindow;
    const before = element.getBoundingClientRect();
    view.scrollBy(0, before.top - view.innerHeight / 2);
    const box = element.getBoundingClientRect();
    const under = view.document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { box, tapped: under !== null && element.contains(under) };
  });
  // Soft: every page of a run is checked (and pictured) even when one fails.
  expect.soft(hit.box.left, `${name} starts inside the screen`).toBeGreaterThanOrEqual(0);
  expect.soft(hit.box.left + hit.box.width, `${name} ends inside the screen`).toBeLessThanOrEqual(WIDTH);
  expect.soft(hit.box.width, `${name} has a size`).toBeGreaterThan(0);
  expect.soft(hit.tapped, `a tap on ${name} lands on it`).toBe(true);
}

/** Asserts (softly, see `reachable`) that the page does not scroll sideways. */
async function fits(page: Page, name: string): Promise<void> {
  const width = await page.evaluate(
    () => (globalThis as unknown as InPageWindow).document.documentElement.scrollWidth,
  );
  expect.soft(width, `the width of ${name}`).toBeLessThanOrEqual(WIDTH);
}

describe('phone widths (390 px)', () => {
  let adminConsole: AdminConsole;
  let scenario: AdminScenario;
  let prices: PriceControl;
  let positionId = 0;

  async function api(token: string, path: string, body: Record<string, unknown> = {}): Promise<Json> {
    const response = await fetch(`${scenario.server.baseURL}/api${path}`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Json;
  }

  async function latestMark(): Promise<string | null> {
    const response = await fetch(
      `${scenario.server.baseURL}/api/price/samples?symbol=${encodeURIComponent('BTC/USDT')}&from=${Date.now() - 5_000}`,
    );
    const body = (await response.json()) as Json;
    const samples = body.message.samples as { mark_price: string | null }[];
    return samples.at(-1)?.mark_price ?? null;
  }

  /** A phone context with the buyer signed in and the language and theme chosen before any script runs. */
  async function signedIn(language: 'en' | 'zh', night: boolean): Promise<BrowserContext> {
    const context = await newContext(adminConsole.browser, { width: WIDTH, height: HEIGHT });
    const user = scenario.buyer;
    await context.addInitScript(
      ({ token, account, id, lang, nightMode }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        localStorage.setItem('lang', lang);
        localStorage.setItem('night_mode', nightMode);
      },
      { token: user.token, account: user.account, id: user.id, lang: language, nightMode: night ? '1' : '0' },
    );
    return context;
  }

  beforeAll(async () => {
    prices = await startPriceControl({ BTCUSDT: '67000.00', ETHUSDT: '3500.00' });
    adminConsole = await startAdminConsole('phone-widths', {
      PRICE_SOURCE: 'binance',
      PRICE_FEED_URL: prices.streamUrl,
      PRICE_HISTORY_URL: prices.restUrl,
    });
    scenario = adminConsole.scenario;
    // The buyer (10,000 USDT) moves some to the lever wallet and holds one position, so the lists have rows.
    const moved = await api(scenario.buyer.token, '/wallet/change', {
      from_field: 'change',
      to_field: 'lever',
      currency_id: 3,
      number: '2000',
    });
    expect(moved.type).toBe('ok');
    const deadline = Date.now() + 40_000;
    while ((await latestMark()) !== '67000.00') {
      if (Date.now() > deadline) throw new Error('no mark of 67000.00 was recorded');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const opened = await api(scenario.buyer.token, '/lever/submit', {
      legal_id: 3,
      currency_id: 1,
      multiple: 10,
      share: 1,
      type: 1,
      status: 1,
    });
    expect(opened.type).toBe('ok');
    positionId = opened.message.trade.id as number;
  }, 180_000);

  afterAll(async () => {
    await adminConsole?.close();
    await prices?.close();
  });

  for (const language of ['en', 'zh'] as const) {
    for (const night of [false, true]) {
      const theme = night ? 'night' : 'day';
      it(`fits the wallet, account, leverage pages in ${language} (${theme})`, async () => {
        const context = await signedIn(language, night);
        const fairex = await FairexPage.open(context, scenario.server.baseURL, '/new_account');
        const { page } = fairex;
        const shot = (name: string) => fairex.screenshot(`phone-${name}-${language}-${theme}`);

        // Assets: every currency's actions on the screen, no sideways swipe to reach them.
        await page.getByTestId('asset-recharge-USDT').waitFor();
        await shot('assets');
        await fits(page, 'assets');
        await reachable(page, page.getByTestId('asset-recharge-USDT'), 'Deposit');
        await reachable(page, page.getByTestId('asset-withdraw-USDT'), 'Withdraw');
        await reachable(page, page.getByTestId('asset-transfer-USDT'), 'Transfer');
        await fairex.screenshot(`phone-assets-usdt-${language}-${theme}`, false);
        await reachable(page, page.getByTestId('assets-transfer'), 'the transfer button');
        await page.getByTestId('asset-transfer-USDT').click();
        await page.waitForURL('**/transferLegal?currency=3*');

        // Transfer: the form and its recent transfers within the width.
        await page.getByTestId('transfer-submit').waitFor();
        await page.getByTestId('transfer-records').locator('tbody tr[data-row-key]').first().waitFor();
        await shot('transfer');
        await fits(page, 'transfer');
        await reachable(page, page.getByTestId('transfer-submit'), 'Transfer');

        // Records in the account centre: the menu a compact strip, the page's content in the first screen.
        for (const tab of ['ledger', 'transfers', 'deposits']) {
          await fairex.goto(`/transferLog?tab=${tab}`);
          await page.getByTestId(`records-${tab}`).locator('tbody tr[data-row-key]').first().waitFor();
          await shot(`records-${tab}`);
          await fits(page, `records ${tab}`);
          const title = await page.locator('.fx-account-title').boundingBox();
          expect(title, 'the page title').not.toBeNull();
          expect.soft(title!.y + title!.height, 'the title in the first screen').toBeLessThan(HEIGHT / 3);
          await reachable(page, page.getByTestId('account-nav-navTradeLog'), 'the active menu item');
          // Every cell of a record on the screen: nothing hides behind a sideways swipe.
          const cells = page
            .getByTestId(`records-${tab}`)
            .locator('tbody tr[data-row-key]')
            .first()
            .locator('td');
          for (let index = 0; index < (await cells.count()); index += 1) {
            const box = await cells.nth(index).boundingBox();
            expect.soft(box!.x + box!.width, `records ${tab} column ${index}`).toBeLessThanOrEqual(WIDTH);
          }
        }
        // The last item's page shows its item in the strip; a swipe of the strip (not of the page) brings
        // back the first.
        await fairex.goto('/userSetting');
        await reachable(page, page.getByTestId('account-nav-p2pMethods'), 'the last menu item');
        await page.locator('.fx-account-nav').evaluate((node) => {
          (node as unknown as { scrollLeft: number }).scrollLeft = 0;
        });
        await reachable(page, page.getByTestId('account-nav-navSecurity'), 'the first menu item');
        await page.getByTestId('account-nav-navSecurity').click();
        await page.waitForURL('**/accountSet');
        await page.getByTestId('account-nav-navSecurity').waitFor();
        await shot('account');
        await fits(page, 'the account centre');

        // Leverage: the open position a card, Stops and Close on the screen; Stops opens its dialog.
        await fairex.goto('/leverdealCenter');
        const row = page.getByTestId(`lever-row-${positionId}`);
        await row.waitFor();
        await shot('lever');
        await fits(page, 'leverage');
        await reachable(page, page.getByTestId(`lever-setstop-${positionId}`), 'Stops');
        await reachable(page, page.getByTestId(`lever-close-${positionId}`), 'Close');
        await fairex.screenshot(`phone-lever-position-${language}-${theme}`, false);
        await page.getByTestId(`lever-setstop-${positionId}`).click();
        await page.getByTestId('lever-stop-profit').waitFor();
        await shot('lever-stops');
        expect(fairex.problems).toEqual([]);
        await context.close();
      }, 120_000);
    }
  }

  it('keeps the desktop layouts at 1366 px: tables with their heads, the menu beside the page', async () => {
    const context = await signedIn('en', false);
    const fairex = await FairexPage.open(context, scenario.server.baseURL, '/new_account');
    const { page } = fairex;
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByTestId('asset-recharge-USDT').waitFor();
    expect(await page.getByTestId('assets-wallet-change').locator('thead').isVisible()).toBe(true);
    await fairex.screenshot('desktop-assets-en-day');
    await fairex.goto('/transferLog');
    await page.getByTestId('records-ledger').locator('tbody tr[data-row-key]').first().waitFor();
    expect(await page.getByTestId('records-ledger').locator('thead').isVisible()).toBe(true);
    const nav = await page.locator('.fx-account-nav').boundingBox();
    const main = await page.locator('.fx-account-main').boundingBox();
    expect(nav!.x + nav!.width).toBeLessThanOrEqual(main!.x);
    expect(await page.locator('.fx-account-nav-title').isVisible()).toBe(true);
    await fairex.screenshot('desktop-records-en-day');
    await fairex.goto('/leverdealCenter');
    await page.getByTestId(`lever-row-${positionId}`).waitFor();
    expect(await page.getByTestId('lever-positions').locator('thead').isVisible()).toBe(true);
    await fairex.screenshot('desktop-lever-en-day');
    expect(fairex.problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('fits the back office with its main navigation in reach, in English and Chinese', async () => {
    const { page, problems } = adminConsole;
    await signInEnrollingAuthenticator(page, scenario.server.baseURL);
    // At a desktop's width the navigation stays the side column it was.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByTestId('admin-nav-users').waitFor();
    expect(await page.getByTestId('admin-nav-toggle').count()).toBe(0);
    await page.screenshot({
      path: join(SCREENSHOT_DIR, 'desktop-admin-dashboard-en-day.png'),
      fullPage: true,
    });
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    for (const language of ['en', 'zh'] as const) {
      for (const night of [false, true]) {
        const theme = night ? 'night' : 'day';
        await page.evaluate(
          ({ lang, nightMode }) => {
            localStorage.setItem('lang', lang);
            localStorage.setItem('night_mode', nightMode);
          },
          { lang: language, nightMode: night ? '1' : '0' },
        );
        for (const section of ['dashboard', 'users', 'funding', 'lever']) {
          await page.goto(`${scenario.server.baseURL}/admin/${section}`);
          await page.getByTestId('admin-layout').waitFor();
          await page.waitForLoadState('networkidle');
          await page.waitForTimeout(300);
          await page.screenshot({
            path: join(SCREENSHOT_DIR, `phone-admin-${section}-${language}-${theme}.png`),
            fullPage: true,
          });
          await fits(page, `the back office's ${section} (${language}, ${theme})`);
          await reachable(page, page.getByTestId('admin-nav-toggle'), 'the navigation button');
        }
        // The navigation opens over the page and each section in it takes a tap.
        await page.getByTestId('admin-nav-toggle').click();
        // The drawer slides in from the left: wait until it has arrived.
        const first = page.getByTestId('admin-nav-dashboard');
        await first.waitFor();
        await expect.poll(async () => (await first.boundingBox())?.x ?? -1).toBeGreaterThanOrEqual(0);
        await page.waitForTimeout(400);
        for (const section of ['dashboard', 'users', 'funding', 'lever', 'p2p']) {
          await reachable(page, page.getByTestId(`admin-nav-${section}`), `the ${section} link`);
        }
        await page.screenshot({ path: join(SCREENSHOT_DIR, `phone-admin-nav-${language}-${theme}.png`) });
        await page.getByTestId('admin-nav-users').click();
        await page.waitForURL('**/admin/users');
        await fits(page, `the back office's users after the menu (${language}, ${theme})`);
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
