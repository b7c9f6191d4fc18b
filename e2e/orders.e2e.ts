// The orders page across all pairs (issue 21), in real Chromium against a real server of this file's own
// (market maker off): a post-only order and a stop-limit order placed from the trading page's form are listed
// on the orders page (the stop-limit one waiting for its stop), cancel all after its confirmation ends both,
// and the history shows them cancelled, by the user; with the server's clock moved on a few days between
// orders, a date range picked in the display zone lists only the orders of its days. Screenshots in day and
// night, English and Chinese, at 1440 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import type { Locator, Page } from 'playwright-core';
import type { ContextOptions } from './support/browser.ts';
import { dateIn } from '../packages/web/src/format/time-zone.ts';
import {
  openSignedIn,
  placeLimitOrder,
  startSpotFlow,
  type SignedInPage,
  type SpotFlow,
} from './support/spot-flow.ts';
import { USDT_TRC20_DEPOSIT, type SeededUser } from './spot-seed.ts';

describe('the orders page', () => {
  let flow: SpotFlow;
  let alice: SeededUser;

  const open = (path: string, settings: Record<string, string> = {}, options: ContextOptions = {}) =>
    openSignedIn(flow, alice, path, settings, options);

  beforeAll(async () => {
    flow = await startSpotFlow('orders', [{ ...USDT_TRC20_DEPOSIT, amount: '10000000000' }], {
      clock: true,
    });
    [alice] = flow.users as [SeededUser];
  });

  afterAll(async () => {
    await flow?.close();
  });

  /** Cancel all (confirmed), then the history tab: its rows once `ended` are listed. */
  async function cancelAllIntoHistory(page: Page, ended: number): Promise<Locator> {
    await page.getByTestId('orders-cancel-all').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: en.spot.orders.yes }).click();
    await expect.poll(() => page.getByTestId('orders-open-row').count(), { timeout: 10_000 }).toBe(0);
    await page.getByTestId('orders-tab-history').click();
    const history = page.getByTestId('orders-history-row');
    await expect.poll(() => history.count(), { timeout: 10_000 }).toBe(ended);
    return history;
  }

  it('lists a post-only and a stop-limit order, cancels all, and shows both cancelled in history', async () => {
    const { page, fairex, context } = await open('/dealCenter');
    await page.getByTestId('order-form').waitFor();
    const openRows = () => page.getByTestId('open-order-row').count();

    // A post-only buy below any ask rests in the book.
    await page.getByTestId('tif-post_only').click();
    await page.getByTestId('buy-price').fill('29000');
    await page.getByTestId('buy-amount').fill('0.01');
    await page.getByTestId('buy-submit').click();
    await expect.poll(openRows, { timeout: 10_000 }).toBe(1);

    // A stop-limit buy: waits for a trade at 31,000.
    await page.getByTestId('mode-stop').click();
    expect(await page.getByTestId('time-in-force').count()).toBe(0);
    await page.getByTestId('buy-stop-price').fill('31000');
    await page.getByTestId('buy-price').fill('31100');
    await page.getByTestId('buy-amount').fill('0.01');
    await page.getByTestId('buy-submit').click();
    await expect.poll(openRows, { timeout: 10_000 }).toBe(2);
    // The trading page's own open orders say it too (issue 45): a stop-limit order, waiting for its stop.
    const waiting = en.orders.status.pending.replace('{{stop}}', '31,000.00');
    const panel = page.getByTestId('current-orders');
    await expect
      .poll(() => panel.getByTestId('open-order-status').allInnerTexts(), { timeout: 10_000 })
      .toEqual([waiting, en.orders.status.open]);
    expect(await panel.getByTestId('open-order-row').first().innerText()).toContain(en.spot.form.stopLimit);
    await fairex.screenshot('orders-form-stop-en-day', false);

    // The orders panel links to the orders page across all pairs.
    await page.getByTestId('all-orders-link').click();
    await page.getByTestId('orders-page').waitFor();
    expect(fairex.location()).toBe('/orders');
    const rows = page.getByTestId('orders-open-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const statuses = await page.getByTestId('open-order-status').allInnerTexts();
    expect(statuses.sort()).toEqual([en.orders.status.open, waiting].sort());
    await fairex.screenshot('orders-open-en-day-1440');

    // Cancel all asks first; "No" keeps the orders.
    await page.getByTestId('orders-cancel-all').click();
    await page.getByText(en.orders.cancelAllConfirm).waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: en.spot.orders.no }).click();
    expect(await rows.count()).toBe(2);
    await cancelAllIntoHistory(page, 2);
    const cancelled = `${en.orders.status.cancelled} · ${en.orders.reason.user}`;
    expect(await page.getByTestId('history-order-status').allInnerTexts()).toEqual([cancelled, cancelled]);
    expect(fairex.problems).toEqual([]);
    await context.close();
  });

  it('draws the history in day and night, English and Chinese, at 1440 and 390 px', async () => {
    for (const [language, night] of [
      ['en', '0'],
      ['en', '1'],
      ['zh', '0'],
      ['zh', '1'],
    ] as const) {
      const texts = language === 'en' ? en : zh;
      for (const width of [1440, 390]) {
        const visit: SignedInPage = await open(
          '/orders',
          { lang: language, night_mode: night },
          { width, height: width === 390 ? 844 : 900 },
        );
        const { page, fairex } = visit;
        await page.getByTestId('orders-page').waitFor();
        expect(await page.locator('h1').innerText()).toBe(texts.orders.title);
        await page.getByTestId('orders-tab-history').click();
        await expect.poll(() => page.getByTestId('orders-history-row').count(), { timeout: 10_000 }).toBe(2);
        await fairex.screenshot(`orders-history-${language}-${night === '1' ? 'night' : 'day'}-${width}`);
        // The date range picker's calendar, in the page's language.
        await page.getByTestId('orders-filter-dates').locator('input').first().click();
        await page.locator('.ant-picker-dropdown').waitFor();
        await fairex.screenshot(
          `orders-dates-${language}-${night === '1' ? 'night' : 'day'}-${width}`,
          false,
        );
        await page.keyboard.press('Escape');
        expect(await fairex.scrollWidth()).toBeLessThanOrEqual(width);
        expect(fairex.problems).toEqual([]);
        await visit.context.close();
      }
    }
  });

  it('lists only the orders of the days picked in the date range, on the display zone’s calendar', async () => {
    const clock = flow.clock;
    if (clock === undefined) throw new Error('this flow runs a clock');
    const DAY_MS = 86_400_000;
    // Three bids three days apart on the server's clock: day 0, day 3, day 6 (Asia/Shanghai).
    const placed: { price: string; day: string }[] = [];
    for (const price of ['28100', '28200', '28300']) {
      if (placed.length > 0) await clock.advance(3 * DAY_MS, []);
      await placeLimitOrder(flow, alice, 'in', price, '0.01');
      placed.push({
        price: Number(price).toLocaleString('en-US'),
        day: dateIn('Asia/Shanghai', clock.now()),
      });
    }
    const [first, second, third] = placed as [(typeof placed)[0], (typeof placed)[0], (typeof placed)[0]];
    const dayOf = (date: string, shift: number) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + shift * DAY_MS).toISOString().slice(0, 10);

    const { page, fairex, context } = await open('/orders');
    await page.getByTestId('orders-page').waitFor();
    const rows = page.getByTestId('orders-open-row');
    const listedPrices = () =>
      rows.evaluateAll((list) =>
        list.map((row) =>
          // Time, pair, side, type, status, then the price.
          (row.querySelectorAll('td')[5] as unknown as { innerText: string } | undefined)?.innerText.trim(),
        ),
      );
    await expect
      .poll(listedPrices, { timeout: 10_000 })
      .toEqual([`${third.price}.00`, `${second.price}.00`, `${first.price}.00`]);
    expect(await page.getByTestId('orders-filter-dates').innerText()).toContain('UTC+8');

    // The days around the middle order: only it.
    const pick = async (from: string, to: string) => {
      const inputs = page.getByTestId('orders-filter-dates').locator('input');
      await inputs.first().click();
      await inputs.first().fill(from);
      await inputs.first().press('Enter');
      await inputs.last().fill(to);
      await inputs.last().press('Enter');
    };
    await pick(dayOf(second.day, -1), dayOf(second.day, 1));
    await expect.poll(listedPrices, { timeout: 10_000 }).toEqual([`${second.price}.00`]);
    expect(await page.getByTestId('orders-filter-time').innerText()).toBe(en.orders.range.custom);
    await fairex.screenshot('orders-date-range-en-day-1440');

    // From the middle order's day to the last one's, both days whole.
    await page.getByTestId('orders-filter-dates').locator('.ant-picker-clear').click({ force: true });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    await pick(second.day, third.day);
    await expect.poll(listedPrices, { timeout: 10_000 }).toEqual([`${third.price}.00`, `${second.price}.00`]);

    // The history of the same days: cancel all, then the range keeps only those two.
    const history = await cancelAllIntoHistory(page, 2);

    // A preset clears the dates: the last 24 hours hold the last order only.
    await page.getByTestId('orders-filter-time').click();
    await page.locator('.ant-select-item-option').filter({ hasText: en.orders.range.day }).click();
    expect(await page.getByTestId('orders-filter-dates').locator('input').first().inputValue()).toBe('');
    await expect.poll(() => history.count(), { timeout: 10_000 }).toBe(1);
    await page.getByTestId('orders-filter-time').click();
    await page.locator('.ant-select-item-option').filter({ hasText: en.orders.range.all }).click();
    await expect.poll(() => history.count(), { timeout: 10_000 }).toBe(5);
    expect(fairex.problems).toEqual([]);
    await context.close();
  });
});
