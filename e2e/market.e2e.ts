// The market board in real Chromium against the real server: every USDT pair listed by the server, live
// prices that move with a user's trades against the market maker, the rankings, the colour preference, languages, night
// mode and a phone screen.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import jp from '../packages/web/src/i18n/locales/jp.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { startUserTradingServer, type TradingServer } from './support/user-trading.ts';

/** The USDT markets of the demo data (packages/server/src/seed). */
const USDT_BASES = ['BTC', 'ETH', 'XRP', 'DOGE', 'LINK', 'LTC', 'TRX'];
const FEATURED = ['BTC', 'ETH', 'XRP', 'DOGE', 'LINK'];
/** The user trades within seconds of a start; this leaves room for a busy machine. */
const LIVE_TIMEOUT_MS = 45_000;
const DECIMAL_4 = /^\d{1,3}(,\d{3})*\.\d{4}$/;

interface InPageWithElements {
  document: { querySelectorAll(selector: string): Array<{ textContent: string | null }> };
  getComputedStyle(element: object): { color: string; textDecorationLine: string };
}

/** Every price the board shows (cards and table), in page order. */
async function boardPrices(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...(globalThis as unknown as InPageWithElements).document.querySelectorAll(
        '[data-testid="card-price"], [data-testid="row-price"]',
      ),
    ].map((element) => element.textContent ?? ''),
  );
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

describe('market board', () => {
  // A server of this file's own, where a user trades: public prices come only from trades with a user.
  let server: TradingServer;
  let baseURL: string;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage | null = null;

  beforeAll(async () => {
    server = await startUserTradingServer();
    baseURL = server.baseURL;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await server?.stop();
    await browser?.close();
  });

  beforeEach(async () => {
    context = await newContext(browser);
  });

  afterEach(async () => {
    expect(fairex?.problems ?? []).toEqual([]);
    fairex = null;
    await context.close();
  });

  async function openBoard(): Promise<FairexPage> {
    fairex = await FairexPage.open(context, baseURL, '/market');
    await fairex.page.getByTestId('market-row-BTC').waitFor({ timeout: LIVE_TIMEOUT_MS });
    return fairex;
  }

  it('lists every USDT pair of the server with live prices, and a price changes', async () => {
    const { page } = await openBoard();
    expect(await page.title()).toBe(`${en.routes.market} · Fairex`);
    for (const base of USDT_BASES) expect(await page.getByTestId(`market-row-${base}`).count()).toBe(1);
    const cards = await page
      .getByTestId('market-cards')
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((link) => (link as unknown as { dataset: Record<string, string> }).dataset.testid),
      );
    expect(cards).toEqual(FEATURED.map((base) => `market-card-${base}`));
    // A card is a link drawn as a card: its text is not underlined.
    const underline = await page
      .getByTestId('market-card-BTC')
      .evaluate(
        (card) => (globalThis as unknown as InPageWithElements).getComputedStyle(card).textDecorationLine,
      );
    expect(underline).toBe('none');
    await page
      .locator('[data-testid="connection-status"][data-status="live"]')
      .waitFor({ timeout: LIVE_TIMEOUT_MS });

    // Prices come from real trades: once every pair has traded, each shows four decimals.
    const first = await poll(
      () => boardPrices(page),
      (prices) => prices.every((price) => DECIMAL_4.test(price)),
      LIVE_TIMEOUT_MS,
    );
    expect(first.every((price) => DECIMAL_4.test(price))).toBe(true);
    // And they move without a reload, pushed by daymarket.
    const later = await poll(
      () => boardPrices(page),
      (prices) => prices.some((price, index) => price !== first[index]),
      LIVE_TIMEOUT_MS,
    );
    expect(later).not.toEqual(first);

    const high = await page.getByTestId('market-row-BTC').locator('td').nth(3).innerText();
    expect(high).toMatch(/^\d{1,3}(,\d{3})*\.\d{5}$/);
    await fairex!.screenshot('market-en-day');
  });

  it('ranks pairs by turnover and by gain', async () => {
    const { page } = await openBoard();
    const turnover = page.getByTestId('ranking-turnover').getByRole('listitem');
    await poll(
      () => turnover.count(),
      (count) => count === USDT_BASES.length,
      LIVE_TIMEOUT_MS,
    );
    expect(await turnover.count()).toBe(USDT_BASES.length);
    await page.getByTestId('ranking-tab-gain').click();
    const gain = page.getByTestId('ranking-gain').getByRole('listitem');
    await gain.first().waitFor();
    expect(await gain.count()).toBe(USDT_BASES.length);
  });

  it('colours rises and falls with the reader’s choice of red-up', async () => {
    await context.addInitScript(() => localStorage.setItem('downUp', 'red-up'));
    const { page } = await openBoard();
    // Once the market has moved, some 24-hour change is above or below zero.
    const moved = page.locator(
      '.fx-market-table [data-testid="row-change"]:is([data-direction="up"], [data-direction="down"])',
    );
    await moved.first().waitFor({ timeout: LIVE_TIMEOUT_MS });
    // Direction and colour read from the same element in one step: between two reads a live update can turn
    // the first moved row's change the other way.
    const seen = await moved.first().evaluate((element) => ({
      direction: element.getAttribute('data-direction'),
      colour: (globalThis as unknown as InPageWithElements).getComputedStyle(element).color,
    }));
    expect(seen.colour).toBe(seen.direction === 'up' ? 'rgb(246, 70, 93)' : 'rgb(14, 203, 129)');
  });

  it('speaks Chinese with 万 and 亿, and Japanese, by day and by night', async () => {
    const board = await openBoard();
    await board.chooseLanguage('zh');
    await board.page.getByTestId('market-row-BTC').waitFor();
    expect(await board.page.getByRole('heading', { level: 1 }).innerText()).toBe(zh.market.title);
    const turnover = await board.page.getByTestId('market-row-BTC').locator('td').nth(6).innerText();
    expect(turnover).toMatch(/^[\d,]+\.\d{2}[万亿]? USDT$/);
    await board.screenshot('market-zh-day');
    await board.toggleNightMode();
    await board.screenshot('market-zh-night');
    await board.chooseLanguage('jp');
    await board.page.getByTestId('market-row-BTC').waitFor();
    expect(await board.page.getByRole('heading', { level: 1 }).innerText()).toBe(jp.market.title);
    await board.screenshot('market-jp-night');
    await board.toggleNightMode();
    await board.chooseLanguage('en');
    await board.toggleNightMode();
    await board.page.getByTestId('market-row-BTC').waitFor();
    await board.screenshot('market-en-night');
    await board.toggleNightMode();
  });

  it('fits a phone screen', async () => {
    await context.close();
    context = await newContext(browser, { width: 390, height: 844 });
    const { page } = await openBoard();
    expect(await fairex!.scrollWidth()).toBeLessThanOrEqual(390);
    await page.getByTestId('market-card-BTC').waitFor();
    await fairex!.screenshot('market-en-mobile');
  });

  it('takes the reader to the trading screen with the chosen pair', async () => {
    const { page } = await openBoard();
    await page.getByTestId('market-row-ETH').click();
    await page.waitForURL(/\/dealCenter$/);
    expect(await fairex!.stored('symbol')).toBe('ETH/USDT');
    expect(await fairex!.stored('currency_id')).toBe('2');
    expect(await fairex!.stored('legal_id')).toBe('3');
  });
});
