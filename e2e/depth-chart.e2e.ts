// The trading page's depth chart and price display as a trader reads them, in real Chromium against a server
// of this file's own (market maker off, the index of BTC/USDT held at 30,000): the depth chart has a price
// axis, a cumulative size axis, a mid-price marker and a hover read-out, and one far order does not flatten
// it; one price reads the same (decimals and grouping) in the order book, the open orders and the fill
// toast; two toasts after a phone market buy stack rather than overlap. Screenshots in day and night,
// English and Chinese, at 1366 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ContextOptions } from './support/browser.ts';
import { openSignedIn, placeLimitOrder, startSpotFlow, type SpotFlow } from './support/spot-flow.ts';
import { startPriceControl, type PriceControl } from './support/price-control.ts';
import { BTC_DEPOSIT, USDT_TRC20_DEPOSIT, type SeededUser } from './spot-seed.ts';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page's getComputedStyle, for checks run in the page (the tests are typed without the DOM). */
interface Styled {
  getComputedStyle(element: unknown): { backgroundColor: string; color: string };
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The boxes of the toasts shown now, as the screen draws them (transforms included). */
async function toastBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as {
      document: {
        querySelectorAll(s: string): Iterable<{
          getBoundingClientRect(): { x: number; y: number; width: number; height: number };
        }>;
      };
    };
    return [...document.querySelectorAll('.fx-toast')].map((element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    });
  });
}

describe('the depth chart and one price format', () => {
  let flow: SpotFlow;
  let alice: SeededUser;
  let bob: SeededUser;
  let prices: PriceControl;

  async function open(user: SeededUser, settings: Record<string, string> = {}, options: ContextOptions = {}) {
    const trader = await openSignedIn(flow, user, '/dealCenter', settings, options);
    await trader.page.getByTestId('order-form').waitFor();
    return trader;
  }

  beforeAll(async () => {
    prices = await startPriceControl({ BTCUSDT: '30000.00', ETHUSDT: '2000.00' });
    flow = await startSpotFlow(
      'depth-chart',
      [
        { ...USDT_TRC20_DEPOSIT, amount: '20000000000' },
        { ...BTC_DEPOSIT, amount: '100000000' },
      ],
      {
        env: { PRICE_SOURCE: 'binance', PRICE_FEED_URL: prices.streamUrl, PRICE_HISTORY_URL: prices.restUrl },
      },
    );
    [alice, bob] = flow.users as [SeededUser, SeededUser];
    for (const [index, price] of ['30100', '30250', '30400'].entries()) {
      await placeLimitOrder(flow, bob, 'out', price, `0.0${index + 2}`);
    }
    // One order far from the market: the chart must not squeeze the book into a sliver to reach it.
    await placeLimitOrder(flow, bob, 'out', '90000', '0.01');
    for (const [index, price] of ['29950', '29800', '29650'].entries()) {
      await placeLimitOrder(flow, alice, 'in', price, `0.0${index + 1}5`);
    }
  }, 300_000);

  afterAll(async () => {
    await flow?.close();
    await prices?.close();
  });

  it('draws price and size axes, a mid marker and a hover read-out, clipped around the mid', async () => {
    for (const [language, night] of [
      ['en', '0'],
      ['zh', '1'],
    ] as const) {
      const trader = await open(alice, { lang: language, night_mode: night }, { width: 1366, height: 900 });
      const { page } = trader;
      // The candle chart's legend: on a background of its own, its date written as the tables write dates.
      const legend = page.getByTestId('chart-legend');
      await expect
        .poll(() => legend.locator('[data-field="time"]').textContent(), { timeout: 30_000 })
        .toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(
        await legend.evaluate(
          (element) => (globalThis as unknown as Styled).getComputedStyle(element).backgroundColor,
        ),
      ).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
      // A link no rule styles takes the theme's link colour, never the browser's blue or purple.
      const linkColour = await page.evaluate(() => {
        const { document } = globalThis as unknown as {
          document: {
            createElement(tag: string): { href: string; textContent: string; remove(): void };
            body: { append(node: unknown): void };
          };
        };
        const link = document.createElement('a');
        link.href = '/orders';
        link.textContent = 'orders';
        document.body.append(link);
        const colour = (globalThis as unknown as Styled).getComputedStyle(link).color;
        link.remove();
        return colour;
      });
      expect(['rgb(0, 0, 238)', 'rgb(85, 26, 139)']).not.toContain(linkColour);
      expect(linkColour).toBe(night === '1' ? 'rgb(107, 149, 255)' : 'rgb(47, 107, 255)');
      await page.getByTestId('chart-view-depth').click();
      const chart = page.getByTestId('depth-chart');
      await chart.getByTestId('depth-asks').waitFor();
      // A price axis and a size axis, each with several labelled ticks.
      const priceTicks = await chart.getByTestId('depth-price-tick').allInnerTexts();
      const sizeTicks = await chart.getByTestId('depth-size-tick').allInnerTexts();
      expect(priceTicks.length).toBeGreaterThanOrEqual(3);
      expect(sizeTicks.length).toBeGreaterThanOrEqual(3);
      for (const tick of priceTicks) expect(tick).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
      // The window is the book near the mid (30,025): the far ask at 90,000 is beyond it.
      const numbers = priceTicks.map((tick) => Number(tick.replace(/,/g, '')));
      expect(Math.max(...numbers)).toBeLessThan(40_000);
      expect(Math.min(...numbers)).toBeGreaterThan(20_000);
      // The mid-price marker, labelled with the mid at the pair's precision.
      expect(await chart.getByTestId('depth-mid').innerText()).toContain('30,025.00');
      // Hovering over the ask side reads out a price, the size up to it and its total.
      const box = await chart.locator('svg').boundingBox();
      expect(box).not.toBeNull();
      await page.mouse.move(box!.x + box!.width * 0.8, box!.y + box!.height * 0.5);
      const readout = chart.getByTestId('depth-readout');
      await readout.waitFor();
      expect(await readout.getByTestId('depth-readout-price').innerText()).toMatch(/\d{2},\d{3}\.\d{2}/);
      expect(await readout.getByTestId('depth-readout-size').innerText()).toMatch(/\d\.\d+/);
      expect(await readout.getByTestId('depth-readout-total').innerText()).toMatch(/\d/);
      await trader.fairex.screenshot(
        `depth-chart-${language}-${night === '1' ? 'night' : 'day'}-1366`,
        false,
      );
      expect(trader.fairex.problems).toEqual([]);
      await trader.context.close();
    }
  });

  it('writes one price with the same decimals in the book, the open orders and the fill toast', async () => {
    const trader = await open(alice);
    const { page } = trader;
    await page.getByTestId('fill-notices').waitFor({ state: 'attached' });
    // Buy 0.05 at 30,100: 0.02 fills against Bob's ask (a toast), 0.03 rests as a bid at the same price.
    await page.getByTestId('buy-price').fill('30100');
    await page.getByTestId('buy-amount').fill('0.05');
    await page.getByTestId('buy-submit').click();
    const toast = page.locator('.fx-toast', { hasText: 'BTC' }).filter({ hasText: '30,100' });
    await toast.first().waitFor({ timeout: 15_000 });
    const toastPrice = /30,100(?:\.\d+)?/.exec(await toast.first().innerText())?.[0];
    const row = page.getByTestId('open-order-row').filter({ hasText: '30,100' });
    await row.first().waitFor({ timeout: 15_000 });
    const orderPrice = /30,100(?:\.\d+)?/.exec(await row.first().innerText())?.[0];
    const bookPrices = await page.getByTestId('book-bid').locator('td:first-child').allInnerTexts();
    const bookPrice = bookPrices.find((text) => text.startsWith('30,100'));
    expect(toastPrice).toBe('30,100.00');
    expect(orderPrice).toBe(toastPrice);
    expect(bookPrice).toBe(toastPrice);
    expect(trader.fairex.problems).toEqual([]);
    await trader.context.close();
  });

  it('stacks the two toasts of a phone market buy instead of laying one over the other', async () => {
    for (const [language, night] of [
      ['en', '0'],
      ['zh', '1'],
    ] as const) {
      const trader = await open(alice, { lang: language, night_mode: night }, { width: 390, height: 844 });
      const { page } = trader;
      await page.getByTestId('fill-notices').waitFor({ state: 'attached' });
      await page.getByTestId('phone-buy').click();
      await page.getByTestId('buy-form').waitFor();
      await page.getByTestId('mode-market').click();
      await page.getByTestId('buy-amount').fill('0.001');
      // Every frame from the click on, the page records whether two toasts covered each other.
      await page.evaluate(() => {
        const scope = globalThis as unknown as {
          toastOverlap: boolean;
          requestAnimationFrame(callback: () => void): void;
          document: {
            querySelectorAll(s: string): Iterable<{
              getBoundingClientRect(): { left: number; right: number; top: number; bottom: number };
            }>;
          };
        };
        scope.toastOverlap = false;
        const frame = () => {
          const boxes = [...scope.document.querySelectorAll('.fx-toast')].map((toast) =>
            toast.getBoundingClientRect(),
          );
          for (const [index, a] of boxes.entries()) {
            for (const b of boxes.slice(index + 1)) {
              if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
                scope.toastOverlap = true;
              }
            }
          }
          scope.requestAnimationFrame(frame);
        };
        frame();
      });
      await page.getByTestId('buy-submit').click();
      // The order's toast and the fill's, one under the other.
      await expect.poll(async () => (await toastBoxes(page)).length, { timeout: 15_000 }).toBe(2);
      await page.waitForTimeout(600);
      const boxes = await toastBoxes(page);
      if (boxes.length === 2) expect(overlap(boxes[0]!, boxes[1]!)).toBe(false);
      expect(
        await page.evaluate(() => (globalThis as unknown as { toastOverlap: boolean }).toastOverlap),
      ).toBe(false);
      await trader.fairex.screenshot(
        `depth-toasts-${language}-${night === '1' ? 'night' : 'day'}-390`,
        false,
      );
      await trader.context.close();
    }
  });
});
