// The price chart in real Chromium against the real server, on the spot trading screen that embeds it:
// history for every interval, a candle that changes with kline pushes, and theme changes that keep the
// same chart.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator } from 'playwright-core';
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { startUserTradingServer, type TradingServer } from './support/user-trading.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';

const CHART_PAGE = '/dealCenter';
const INTERVALS = ['realtime', '1min', '5min', '15min', '30min', '60min', '1day', '1week', '1mon'];
/** The user trades within seconds; pushes reach the chart at most every 100 ms per market. */
const LIVE_TIMEOUT_MS = 45_000;

interface InPageCanvas {
  document: { querySelectorAll(selector: string): { length: number } };
}

async function legend(chart: Locator): Promise<Record<string, string>> {
  return chart.getByTestId('chart-legend').evaluate((element) => {
    const fields: Record<string, string> = {};
    for (const cell of (
      element as unknown as {
        querySelectorAll(s: string): Array<{ dataset: { field: string }; textContent: string }>;
      }
    ).querySelectorAll('[data-field]')) {
      fields[cell.dataset.field] = cell.textContent;
    }
    return fields;
  });
}

async function shootChart(chart: Locator, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await chart.page().waitForTimeout(300);
  await chart.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

describe('price chart', () => {
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

  async function openChart(): Promise<Locator> {
    fairex = await FairexPage.open(context, baseURL, CHART_PAGE);
    const chart = fairex.page.getByTestId('price-chart');
    await chart.and(fairex.page.locator('[data-status="ready"]')).waitFor({ timeout: LIVE_TIMEOUT_MS });
    return chart;
  }

  it('shows BTC/USDT history and a candle that moves with the market', async () => {
    const chart = await openChart();
    expect(await chart.getAttribute('data-symbol')).toBe('BTC/USDT');
    expect(await chart.getAttribute('data-period')).toBe('1min');
    // One chart: lightweight-charts draws its panes into canvases inside the chart's host element.
    const canvases = await fairex!.page.evaluate(
      () =>
        (globalThis as unknown as InPageCanvas).document.querySelectorAll(
          '[data-testid="price-chart"] canvas',
        ).length,
    );
    expect(canvases).toBeGreaterThan(0);
    const first = await legend(chart);
    expect(first.close).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
    // The latest bar changes: a new close within the minute, or a new minute's bar.
    const deadline = Date.now() + LIVE_TIMEOUT_MS;
    let latest = first;
    while (Date.now() < deadline && latest.close === first.close && latest.time === first.time) {
      await fairex!.page.waitForTimeout(250);
      latest = await legend(chart);
    }
    expect([latest.time, latest.close]).not.toEqual([first.time, first.close]);
    await shootChart(chart, 'chart-en-day');
  });

  it('loads history for every interval', async () => {
    const chart = await openChart();
    for (const interval of INTERVALS) {
      await chart.getByTestId(`interval-${interval}`).click();
      expect(await chart.getAttribute('data-period')).toBe(interval);
      await chart
        .and(fairex!.page.locator(`[data-period="${interval}"][data-status="ready"]`))
        .waitFor({ timeout: LIVE_TIMEOUT_MS });
      expect(await chart.getByTestId(`interval-${interval}`).getAttribute('aria-checked')).toBe('true');
    }
    await shootChart(chart, 'chart-en-month');
  });

  it('changes theme and colours on the same chart, in Chinese', async () => {
    await context.addInitScript(() => localStorage.setItem('lang', 'zh'));
    const chart = await openChart();
    expect(await chart.getByTestId('interval-1day').innerText()).toBe(zh.chart.period['1day']);
    // Mark the chart's host: a rebuilt chart would lose nothing here, but a re-created canvas would.
    const canvas = chart.locator('canvas').first();
    await canvas.evaluate(
      (element) => ((element as unknown as { dataset: Record<string, string> }).dataset.probe = 'kept'),
    );
    await fairex!.toggleNightMode();
    expect(await fairex!.theme()).toBe('night');
    expect(await chart.locator('canvas[data-probe="kept"]').count()).toBe(1);
    await shootChart(chart, 'chart-zh-night');
    await fairex!.toggleNightMode();
    expect(await chart.locator('canvas[data-probe="kept"]').count()).toBe(1);
  });
});
