// A fresh start looks alive: on a server of its own, with the demo data and the market maker and no user
// trade, the home cards and the market board show each pair's recorded mark price labelled "M" (with its
// tooltip) instead of dashes, in English and in Chinese, and the chart keeps drawing: a new bar of the
// recorded index price after the start, named as such in the chart's legend.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { newDataDir, startServer, type ServerProcess } from './support/server-process.ts';

const FEATURED = ['BTC', 'ETH', 'XRP', 'DOGE', 'LINK'];
/** The USDT markets of the demo data (packages/server/src/seed). */
const USDT_BASES = ['BTC', 'ETH', 'XRP', 'DOGE', 'LINK', 'LTC', 'TRX'];
const LIVE_TIMEOUT_MS = 60_000;
const MINUTE_MS = 60_000;
/** Four decimals and the mark's label ("M", or 标 in Chinese), never a dash. */
const MARK_PRICE = (tag: string) => new RegExp(`^\\d{1,3}(,\\d{3})*\\.\\d{4}${tag}$`);

interface ChartBar {
  time: number;
  source: string;
  volume: string;
}

async function labelledPrices(
  page: Page,
  selector: string,
): Promise<{ text: string; title: string | null }[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((element) => ({
      text: element.textContent ?? '',
      title: element.querySelector('[data-testid="mark-tag"]')?.getAttribute('title') ?? null,
    })),
  );
}

describe('a fresh start', () => {
  let server: ServerProcess;
  let startedMs: number;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage | null = null;

  beforeAll(async () => {
    startedMs = Date.now();
    server = await startServer(await newDataDir());
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

  it('shows labelled marks, not dashes, on the home cards and the market board, in English and Chinese', async () => {
    fairex = await FairexPage.open(context, server.baseURL, '/');
    const { page } = fairex;
    const cards = FEATURED.map((base) => `[data-testid="ticker-${base}"] [data-testid="ticker-price"]`).join(
      ', ',
    );
    await expect
      .poll(() => labelledPrices(page, cards), { timeout: LIVE_TIMEOUT_MS })
      .toEqual(
        FEATURED.map(() => ({
          text: expect.stringMatching(MARK_PRICE('M')),
          title: en.spot.header.markInstead,
        })),
      );
    expect(await page.locator(cards).first().getAttribute('data-kind')).toBe('mark');

    await fairex.chooseLanguage('zh');
    await expect
      .poll(() => labelledPrices(page, cards), { timeout: LIVE_TIMEOUT_MS })
      .toEqual(
        FEATURED.map(() => ({
          text: expect.stringMatching(MARK_PRICE('标')),
          title: zh.spot.header.markInstead,
        })),
      );
    await fairex.chooseLanguage('en');

    await page.goto(`${server.baseURL}/market`);
    await page.getByTestId('market-row-BTC').waitFor({ timeout: LIVE_TIMEOUT_MS });
    // The featured cards and the table rows of the demo's USDT pairs (a pair with no price source yet has no
    // sample, so no mark: it shows a dash, which is true).
    const board = [
      ...FEATURED.map((base) => `[data-testid="market-card-${base}"] [data-testid="card-price"]`),
      ...USDT_BASES.map((base) => `[data-testid="market-row-${base}"] [data-testid="row-price"]`),
    ].join(', ');
    await expect
      .poll(() => labelledPrices(page, board), { timeout: LIVE_TIMEOUT_MS })
      .toEqual(
        [...FEATURED, ...USDT_BASES].map(() => ({
          text: expect.stringMatching(MARK_PRICE('M')),
          title: en.spot.header.markInstead,
        })),
      );
  });

  it('draws a new bar of the recorded index after the start, and the chart says what it is', async () => {
    const startMinute = Math.floor(startedMs / MINUTE_MS) * MINUTE_MS;
    fairex = await FairexPage.open(context, server.baseURL, '/');
    const { page } = fairex;
    const bars = async (): Promise<ChartBar[]> => {
      const response = await page.request.get(
        `${server.baseURL}/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=${startMinute}`,
      );
      return ((await response.json()) as { data: ChartBar[] }).data;
    };
    // The minute after the start's: a bar that only the index can have drawn, with no volume.
    await expect
      .poll(async () => (await bars()).filter((bar) => bar.time > startMinute && bar.source === 'index'), {
        timeout: 2 * MINUTE_MS + 30_000,
        interval: 2_000,
      })
      .not.toEqual([]);
    const drawn = await bars();
    expect(drawn.every((bar) => bar.source !== 'trades')).toBe(true);
    expect(drawn.filter((bar) => bar.source === 'index').every((bar) => Number(bar.volume) === 0)).toBe(true);

    await page.goto(`${server.baseURL}/dealCenter`);
    const note = page.getByTestId('chart-legend').locator('[data-field="note"]');
    await expect.poll(() => note.textContent(), { timeout: LIVE_TIMEOUT_MS }).toBe(en.chart.legend.index);
  });
});
