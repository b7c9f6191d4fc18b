// The orders page across all pairs (issue 21), in real Chromium against a real server of this file's own
// (market maker off): a post-only order and a stop-limit order placed from the trading page's form are listed
// on the orders page (the stop-limit one waiting for its stop), cancel all after its confirmation ends both,
// and the history shows them cancelled, by the user. Screenshots in day and night, English and Chinese, at
// 1440 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import type { ContextOptions } from './support/browser.ts';
import { openSignedIn, startSpotFlow, type SignedInPage, type SpotFlow } from './support/spot-flow.ts';
import { USDT_TRC20_DEPOSIT, type SeededUser } from './spot-seed.ts';

describe('the orders page', () => {
  let flow: SpotFlow;
  let alice: SeededUser;

  const open = (path: string, settings: Record<string, string> = {}, options: ContextOptions = {}) =>
    openSignedIn(flow, alice, path, settings, options);

  beforeAll(async () => {
    flow = await startSpotFlow('orders', [{ ...USDT_TRC20_DEPOSIT, amount: '10000000000' }]);
    [alice] = flow.users as [SeededUser];
  });

  afterAll(async () => {
    await flow?.close();
  });

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
    await fairex.screenshot('orders-form-stop-en-day', false);

    // The orders panel links to the orders page across all pairs.
    await page.getByTestId('all-orders-link').click();
    await page.getByTestId('orders-page').waitFor();
    expect(fairex.location()).toBe('/orders');
    const rows = page.getByTestId('orders-open-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const statuses = await page.getByTestId('open-order-status').allInnerTexts();
    expect(statuses.sort()).toEqual(
      [en.orders.status.open, en.orders.status.pending.replace('{{stop}}', '31,000.00')].sort(),
    );
    await fairex.screenshot('orders-open-en-day-1440');

    // Cancel all asks first; "No" keeps the orders.
    await page.getByTestId('orders-cancel-all').click();
    await page.getByText(en.orders.cancelAllConfirm).waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: en.spot.orders.no }).click();
    expect(await rows.count()).toBe(2);
    await page.getByTestId('orders-cancel-all').click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: en.spot.orders.yes }).click();
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(0);

    await page.getByTestId('orders-tab-history').click();
    const history = page.getByTestId('orders-history-row');
    await expect.poll(() => history.count(), { timeout: 10_000 }).toBe(2);
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
        expect(await fairex.scrollWidth()).toBeLessThanOrEqual(width);
        expect(fairex.problems).toEqual([]);
        await visit.context.close();
      }
    }
  });
});
