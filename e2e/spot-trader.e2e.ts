// The trading page as a trader meets it, in real Chromium against a real server of this file's own
// (market maker off): one display time zone on every part of the page whatever the browser's zone, the
// market's own minimum when an amount is too small, the phone layout at 390 px with its cancel buttons in
// reach, the connection state when the server goes away and comes back, and a market order's estimate
// against a book another user rests (the index steered to 30,000, so the 5 % band lies near 31,500), with the
// reply's reason when it stops short for funds, the band or the book. Screenshots in day and night, English
// and Chinese, at 1440 and 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import type { ContextOptions } from './support/browser.ts';
import {
  BTC,
  USDT,
  openSignedIn,
  placeLimitOrder,
  startSpotFlow,
  type SignedInPage,
  type SpotFlow,
} from './support/spot-flow.ts';
import { startPriceControl, type PriceControl } from './support/price-control.ts';
import { BTC_DEPOSIT, USDT_TRC20_DEPOSIT, type SeededUser } from './spot-seed.ts';

describe('the trading page for a trader', () => {
  let flow: SpotFlow;
  let alice: SeededUser;
  let bob: SeededUser;
  let carol: SeededUser;
  let prices: PriceControl;

  async function open(
    user: SeededUser,
    settings: Record<string, string> = {},
    options: ContextOptions = {},
  ): Promise<SignedInPage> {
    const trader = await openSignedIn(flow, user, '/dealCenter', settings, options);
    await trader.page.getByTestId('order-form').waitFor();
    return trader;
  }

  const order = (user: SeededUser, side: 'in' | 'out', price: string, num: string) =>
    placeLimitOrder(flow, user, side, price, num);

  beforeAll(async () => {
    // The index (and so the mark) of BTC/USDT held at 30,000 by a feed the test steers.
    prices = await startPriceControl({ BTCUSDT: '30000.00', ETHUSDT: '2000.00' });
    flow = await startSpotFlow(
      'spot-trader',
      [
        { ...USDT_TRC20_DEPOSIT, amount: '20000000000' },
        { ...BTC_DEPOSIT, amount: '100000000' },
        { ...USDT_TRC20_DEPOSIT, amount: '1000000000' },
      ],
      {
        env: { PRICE_SOURCE: 'binance', PRICE_FEED_URL: prices.streamUrl, PRICE_HISTORY_URL: prices.restUrl },
      },
    );
    [alice, bob, carol] = flow.users as [SeededUser, SeededUser, SeededUser];
    // One fill between the two (Bob's rest stays open), and a book a few levels deep.
    await order(bob, 'out', '30000', '0.25');
    await order(alice, 'in', '30000', '0.1');
    for (const [index, price] of ['30100', '30250', '30400'].entries()) {
      await order(bob, 'out', price, `0.0${index + 2}`);
    }
    for (const [index, price] of ['29950', '29800', '29650'].entries()) {
      await order(alice, 'in', price, `0.0${index + 1}5`);
    }
  });

  afterAll(async () => {
    await flow?.close();
    await prices?.close();
  });

  it('writes every time on the page on one clock, Asia/Shanghai by default, whatever the browser’s', async () => {
    // A browser in New York: before, the order lists followed it while the chart and tape were in Shanghai.
    const trader = await open(alice, {}, { timezoneId: 'America/New_York' });
    const { page } = trader;
    await page.getByTestId('tab-history').click();
    const historyTime = async () =>
      (await page.getByTestId('history-row').first().locator('td').first().innerText()).trim();
    await expect.poll(historyTime, { timeout: 12_000 }).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const tapeTime = async () =>
      (await page.getByTestId('tape-row').first().locator('span').last().innerText()).trim();
    await expect.poll(tapeTime, { timeout: 10_000 }).toMatch(/^\d\d:\d\d:\d\d$/);
    // The one fill: the same clock time in the tape and in the history, labelled UTC+8 everywhere.
    expect((await historyTime()).slice(11)).toBe(await tapeTime());
    expect(await page.getByTestId('chart-zone').innerText()).toBe('UTC+8');
    expect(await page.getByTestId('trades-time-title').innerText()).toBe(`${en.spot.trades.time} (UTC+8)`);
    expect(await page.locator('[data-testid="orders-panel"] th').first().innerText()).toBe(
      `${en.spot.orders.time} (UTC+8)`,
    );
    const shanghaiHour = Number((await tapeTime()).slice(0, 2));

    // The preference: UTC, kept like the other preferences, applied to every part after the reload.
    await page.getByTestId('preferences-trigger').click();
    const utc = page.getByTestId('time-zone-utc');
    await utc.waitFor();
    await trader.fairex.screenshot('spot-trader-time-zone-menu-en-day', false);
    await Promise.all([page.waitForEvent('load'), utc.click()]);
    await page.getByTestId('order-form').waitFor();
    expect(await trader.fairex.stored('time_zone')).toBe('utc');
    await expect.poll(() => page.getByTestId('chart-zone').innerText()).toBe('UTC');
    await expect.poll(tapeTime, { timeout: 10_000 }).toMatch(/^\d\d:\d\d:\d\d$/);
    expect((Number((await tapeTime()).slice(0, 2)) + 8) % 24).toBe(shanghaiHour);
    await page.getByTestId('tab-history').click();
    await expect.poll(historyTime, { timeout: 12_000 }).toMatch(/ \d\d:\d\d:\d\d$/);
    expect((await historyTime()).slice(11)).toBe(await tapeTime());
    expect(await page.getByTestId('trades-time-title').innerText()).toBe(`${en.spot.trades.time} (UTC)`);
    expect(trader.fairex.problems).toEqual([]);
    await trader.context.close();
  });

  it('refuses an amount below the market’s minimum with the market’s own figure', async () => {
    const deal = (await fetch(`${flow.server.baseURL}/api/transaction/deal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ legal_id: USDT, currency_id: BTC }),
    }).then((response) => response.json())) as {
      message: { market: { min_number: string; number_step: string } };
    };
    const { min_number: minimum, number_step: step } = deal.message.market;
    const shown = Number(step) > Number(minimum) ? step : minimum;
    const trader = await open(alice);
    for (const side of ['buy', 'sell'] as const) {
      await trader.page.getByTestId(`${side}-amount`).fill('0.00001');
      await trader.page.getByTestId(`${side}-submit`).click();
      await trader.page
        .getByText(en.spot.form.belowMinimum.replace('{{min}}', shown).replace('{{unit}}', 'BTC'))
        .first()
        .waitFor();
    }
    await trader.page.getByTestId('mode-market').click();
    await trader.page.getByTestId('buy-amount').fill('0.00001');
    await trader.page.getByTestId('buy-submit').click();
    await expect
      .poll(() =>
        trader.page
          .getByText(en.spot.form.belowMinimum.replace('{{min}}', shown).replace('{{unit}}', 'BTC'))
          .count(),
      )
      .toBeGreaterThan(0);
    expect(await trader.page.getByText('greater than zero').count()).toBe(0);
    await trader.context.close();
  });

  it('opens the pair the address names, writes a picked pair into it, and announces one’s own fills', async () => {
    const trader = await open(alice);
    await trader.fairex.goto('/dealCenter?symbol=ETH_USDT');
    const page = trader.page;
    await expect.poll(() => page.getByTestId('spot-page').getAttribute('data-symbol')).toBe('ETH/USDT');
    expect(trader.fairex.location()).toBe('/dealCenter?symbol=ETH_USDT');
    await page.getByTestId('market-row-BTC-USDT').click();
    await expect.poll(() => trader.fairex.location()).toBe('/dealCenter?symbol=BTC_USDT');
    await expect.poll(() => page.getByTestId('spot-page').getAttribute('data-symbol')).toBe('BTC/USDT');

    // A starred pair is kept (like the other preferences) and listed under the favourites tab.
    await page.getByTestId('favourite-ETH-USDT').click();
    expect(await trader.fairex.stored('favourite_pairs')).toBe('["ETH/USDT"]');
    await page.getByTestId('markets-favourites').click();
    await expect
      .poll(() => page.locator('[data-testid^="market-row-"]').evaluateAll((rows) => rows.length))
      .toBe(1);
    await page.getByTestId('market-row-ETH-USDT').waitFor();
    await trader.fairex.screenshot('spot-trader-favourites-en-day', false);

    // Bob sells into Alice's resting bid at 29,950: Alice's page says what she bought, and the fee.
    await page.getByTestId('order-form').waitFor();
    await expect.poll(() => page.getByTestId('book-bid').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const bought = (amount: string, fee: string) =>
      en.spot.fills.boughtFee
        .replace('{{amount}}', amount)
        .replace('{{base}}', 'BTC')
        .replace('{{price}}', '29,950.00')
        .replace('{{quote}}', 'USDT')
        .replace('{{fee}}', fee)
        .replace('{{feeCurrency}}', 'BTC');
    await order(bob, 'out', '29950', '0.01');
    await page.getByText(bought('0.0100', '0.00001000')).waitFor({ timeout: 15_000 });
    await trader.fairex.screenshot('spot-trader-fill-notice-en-day', false);

    // The depth chart beside the candles: the same book, summed outwards from the best prices.
    await page.getByTestId('chart-view-depth').click();
    await page.getByTestId('depth-bids').waitFor();
    await page.getByTestId('depth-asks').waitFor();
    expect(await page.getByTestId('price-chart').count()).toBe(0);
    await trader.fairex.screenshot('spot-trader-depth-en-day', false);
    await page.getByTestId('chart-view-candles').click();
    await page.getByTestId('price-chart').waitFor();

    // Away from the trading page (the orders page), a fill is announced all the same, once the new page's
    // fill listener is in place (it loads after the page) and its connection has proved the token (its
    // login answered; the orders page subscribes to no channel).
    // socket.io answers over long polling first, then over the WebSocket it upgrades to.
    const loggedIn = new Promise<void>((resolve) => {
      const answered = (text: string) => {
        if (text.includes('"type":"ok"')) resolve();
      };
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => answered(String(payload))),
      );
      page.on('response', (response) => {
        if (response.url().includes('/socket.io/') && response.request().method() === 'GET')
          response.text().then(answered, () => undefined);
      });
    });
    await trader.fairex.goto('/orders');
    await page.getByTestId('orders-page').waitFor();
    await page.getByTestId('fill-notices').waitFor({ state: 'attached' });
    await loggedIn;
    await order(bob, 'out', '29950', '0.005');
    await page.getByText(bought('0.0050', '0.00000500')).waitFor({ timeout: 15_000 });
    // The 29,950 bid is now filled: the open orders list drops it.
    await expect
      .poll(() => page.getByTestId('orders-open-row').filter({ hasText: '29,950.00' }).count(), {
        timeout: 10_000,
      })
      .toBe(0);
    await trader.fairex.screenshot('spot-trader-fill-notice-orders-en-day', false);
    expect(trader.fairex.problems).toEqual([]);
    await trader.context.close();
  });

  it('lays the page out for a phone at 390 px: tabs, a buy and sell bar, orders as cards', async () => {
    for (const [language, night] of [
      ['en', '0'],
      ['zh', '1'],
    ] as const) {
      const texts = language === 'en' ? en : zh;
      const trader = await open(bob, { lang: language, night_mode: night }, { width: 390, height: 844 });
      const { page } = trader;
      expect(await trader.fairex.scrollWidth()).toBeLessThanOrEqual(390);
      await page.getByTestId('phone-bar').waitFor();
      await page.getByTestId('price-chart').waitFor();
      expect(await page.getByTestId('order-book').isVisible()).toBe(false);
      const theme = night === '1' ? 'night' : 'day';
      await trader.fairex.screenshot(`spot-trader-phone-${language}-${theme}-chart`, false);
      await page.getByTestId('chart-view-depth').click();
      await page.getByTestId('depth-asks').waitFor();
      await trader.fairex.screenshot(`spot-trader-phone-${language}-${theme}-depth`, false);
      await page.getByTestId('chart-view-candles').click();
      await page.getByTestId('phone-tab-book').click();
      await page.getByTestId('order-book').waitFor();
      expect(await page.getByTestId('price-chart').isVisible()).toBe(false);
      await trader.fairex.screenshot(`spot-trader-phone-${language}-${theme}-book`, false);
      await page.getByTestId('phone-tab-trades').click();
      await page.getByTestId('recent-trades').waitFor();

      // The bar at the bottom opens the form on the side picked.
      await page.getByTestId('phone-sell').click();
      await page.getByTestId('sell-form').waitFor();
      expect(await page.getByTestId('buy-form').isVisible()).toBe(false);
      const bar = await page.getByTestId('phone-bar').boundingBox();
      expect(bar !== null && bar.y + bar.height).toBe(844);
      await trader.fairex.screenshot(`spot-trader-phone-${language}-${theme}-form`, false);

      // Bob's open sells are cards; each cancel button lies inside the screen and works.
      await page.getByTestId('subtab-sell').click();
      const cards = page.getByTestId('open-order-row');
      await expect.poll(() => cards.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const revoke = page.locator('[data-testid^="revoke-"]').first();
      await revoke.scrollIntoViewIfNeeded();
      const box = await revoke.boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      await trader.fairex.screenshot(`spot-trader-phone-${language}-${theme}-orders`, false);
      if (language === 'en') {
        const before = await cards.count();
        await revoke.click();
        await page.getByRole('button', { name: texts.spot.orders.yes }).click();
        await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(before - 1);
      }
      expect(trader.fairex.problems).toEqual([]);
      await trader.context.close();
    }
  });

  it('shows the connection state, greys the figures while the server is away, and catches up after', async () => {
    const trader = await open(alice);
    const { page } = trader;
    const status = page.getByTestId('connection-status');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('live');
    expect(await page.getByTestId('spot-page').getAttribute('data-stale')).toBe('false');
    await trader.fairex.screenshot('spot-trader-live-en-day', false);

    await flow.server.stop({ keepData: true });
    await expect.poll(() => status.getAttribute('data-stale'), { timeout: 15_000 }).toBe('true');
    expect(await page.getByTestId('spot-page').getAttribute('data-stale')).toBe('true');
    expect(await status.innerText()).toBe(en.market.connection.offline);
    await trader.fairex.screenshot('spot-trader-offline-en-day', false);

    // The server is back on the same address: the page subscribes again and fetches what it missed.
    await flow.restart();
    await order(bob, 'out', '30777', '0.01');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 30_000 }).toBe('live');
    expect(await page.getByTestId('spot-page').getAttribute('data-stale')).toBe('false');
    await expect
      .poll(
        () =>
          page
            .getByTestId('book-ask')
            .evaluateAll((rows) => rows.map((row) => (row as unknown as { innerText: string }).innerText)),
        { timeout: 15_000 },
      )
      .toContainEqual(expect.stringMatching(/^30,777\.00\s+0\.0100$/));
    // Problems logged while the server was down (failed requests) are expected here.
    await trader.context.close();
  });

  it('estimates a market order from the book another user rests, and says why one stops short', async () => {
    const post = async (url: string, user: SeededUser, body: Record<string, unknown>) =>
      (await fetch(`${flow.server.baseURL}/api${url}`, {
        method: 'POST',
        headers: { authorization: user.token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json())) as { type: string; message: unknown };
    const pair = { legal_id: USDT, currency_id: BTC };
    // The band follows the mark, which follows the index (30,000) and, slowly, the book's middle, so it lies
    // near 31,500 for a buy and 28,500 for a sell; the test reads it as the form writes it.
    const BAND = {
      buy: /^31,[0-9]{3}\.[0-9]{2} USDT \(±5%\)$/,
      sell: /^28,[0-9]{3}\.[0-9]{2} USDT \(±5%\)$/,
    };
    const banded = (side: 'buy' | 'sell', details: string[]) =>
      details.map((text, index) => (index === 3 && BAND[side].test(text) ? 'band' : text));
    // A clean book: Bob rests four asks, the last past the band.
    for (const user of [alice, bob]) expect((await post('/orders/cancel_all', user, {})).type).toBe('ok');
    for (const [price, num] of [
      ['30000', '0.05'],
      ['30100', '0.05'],
      ['30200', '0.1'],
      ['32000', '0.1'],
    ] as const) {
      await order(bob, 'out', price, num);
    }
    await expect
      .poll(
        async () => {
          const reply = await post('/transaction/estimate', alice, { ...pair, side: 'buy', num: '0.01' });
          return (reply.message as { band_price?: string }).band_price;
        },
        { timeout: 20_000 },
      )
      .toMatch(/^31[0-9]{3}\.[0-9]{2}$/);

    const trader = await open(alice);
    const { page } = trader;
    await page.getByTestId('mode-market').click();
    const estimateOf = async (side: 'buy' | 'sell') => {
      const details = page.getByTestId(`${side}-estimate`).locator('dd');
      return {
        total: await page.getByTestId(`${side}-total`).innerText(),
        details: banded(side, await details.allInnerTexts()),
        note: await page.getByTestId(`${side}-estimate-note`).innerText(),
      };
    };

    // 0.08 BTC: 0.05 at 30,000 and 0.03 at 30,100 = 1,500 + 903 = 2,403 USDT, on average 30,037.50; the fee
    // is 0.1 % of the 0.08 BTC bought.
    await page.getByTestId('buy-amount').fill('0.08');
    await expect
      .poll(() => estimateOf('buy'), { timeout: 10_000 })
      .toEqual({
        total: '2,403.000000 USDT',
        details: ['0.0800 BTC', '30,037.50 USDT', '30,100.00 USDT', 'band', '0.00008000 BTC'],
        note: en.spot.form.estimate.complete,
      });
    await trader.fairex.screenshot('spot-trader-estimate-en-day');

    // 0.25 BTC: the three levels within the band give 0.2 (1,500 + 1,505 + 3,020 = 6,025 USDT); 32,000 is
    // past the band. The form says so, and so does the reply once placed.
    await page.getByTestId('buy-amount').fill('0.25');
    await expect
      .poll(() => estimateOf('buy'), { timeout: 10_000 })
      .toEqual({
        total: '6,025.000000 USDT',
        details: ['0.2000 BTC', '30,125.00 USDT', '30,200.00 USDT', 'band', '0.00020000 BTC'],
        note: en.spot.form.estimate.stop_band,
      });
    await page.getByTestId('buy-submit').click();
    const [before, after] = translate('en', 'spot.market_rest_band', {
      filled: '0.2000',
      total: '0.2500',
      band: '5%',
      limit: '\u0000',
    }).split('\u0000') as [string, string];
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await page
      .getByText(new RegExp(`^${escape(before)}31[0-9]{3}\\.[0-9]{2}${escape(after)}$`))
      .waitFor({ timeout: 10_000 });
    await trader.context.close();

    // Carol's 1,000 USDT buy 0.0333 at 30,000 (333 lots of 3 USDT): her funds run out first.
    await order(bob, 'out', '30000', '0.05');
    const buyer = await open(carol, { lang: 'zh', night_mode: '1' });
    await buyer.page.getByTestId('mode-market').click();
    await buyer.page.getByTestId('buy-amount').fill('0.1');
    const carolEstimate = buyer.page.getByTestId('buy-estimate').locator('dd');
    await expect
      .poll(async () => banded('buy', await carolEstimate.allInnerTexts()), { timeout: 10_000 })
      .toEqual(['0.0333 BTC', '30,000.00 USDT', '30,000.00 USDT', 'band', '0.00003330 BTC']);
    expect(await buyer.page.getByTestId('buy-total').innerText()).toBe('999.000000 USDT');
    expect(await buyer.page.getByTestId('buy-estimate-note').innerText()).toBe(
      zh.spot.form.estimate.stop_funds,
    );
    await buyer.fairex.screenshot('spot-trader-estimate-funds-zh-night');
    await buyer.page.getByTestId('buy-submit').click();
    await buyer.page
      .getByText(translate('zh', 'spot.market_rest_funds', { filled: '0.0333', total: '0.1000' }))
      .waitFor({ timeout: 10_000 });
    await buyer.context.close();

    // Bob sells 0.1 into Alice's two bids (0.05 in all): 897 + 596 = 1,493 USDT, on average 29,860; the book
    // runs out. The fee of a sell is 0.1 % of the USDT received.
    await order(alice, 'in', '29900', '0.03');
    await order(alice, 'in', '29800', '0.02');
    const seller = await open(bob);
    await seller.page.getByTestId('mode-market').click();
    await seller.page.getByTestId('sell-amount').fill('0.1');
    const sellDetails = seller.page.getByTestId('sell-estimate').locator('dd');
    await expect
      .poll(async () => banded('sell', await sellDetails.allInnerTexts()), { timeout: 10_000 })
      .toEqual(['0.0500 BTC', '29,860.00 USDT', '29,800.00 USDT', 'band', '1.493000 USDT']);
    expect(await seller.page.getByTestId('sell-total').innerText()).toBe('1,493.000000 USDT');
    expect(await seller.page.getByTestId('sell-estimate-note').innerText()).toBe(
      en.spot.form.estimate.stop_book,
    );
    await seller.page.getByTestId('sell-submit').click();
    await seller.page
      .getByText(translate('en', 'spot.market_rest_book', { filled: '0.0500', total: '0.1000' }))
      .waitFor({ timeout: 10_000 });
    expect(seller.fairex.problems).toEqual([]);
    await seller.context.close();
  });
});
