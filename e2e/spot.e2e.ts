// The spot trading centre in real Chromium against a real server of its own (market maker off, so the book
// holds only what these users place): two users, funded through the deposit path (signed custody
// callbacks for confirmed deposits), trade with each other on the page. Both see their
// balances, open orders and history change; the trade shows in the book, the tape and the chart's candle.
// Screenshots in day and night, English and Chinese, go to artifacts/screenshots.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import {
  BTC_DEPOSIT,
  USDT_TRC20_DEPOSIT,
  depositThroughCustody,
  seedSpotUsers,
  startSpotServer,
  type SeededUser,
  type SpotServer,
} from './spot-seed.ts';

const BTC = 1;
const USDT = 3;

interface Trader {
  user: SeededUser;
  context: BrowserContext;
  fairex: FairexPage;
  page: Page;
}

describe('spot trading between two users', () => {
  let dataDir: string;
  let server: SpotServer;
  let browser: Browser;
  let alice: Trader;
  let bob: Trader;

  async function open(user: SeededUser, settings: Record<string, string> = {}): Promise<Trader> {
    const context = await newContext(browser, { width: 1600, height: 1000 });
    // The session as the login dialog leaves it (the token, the account, the user id), set before any script.
    await context.addInitScript(
      ({ token, account, id, extra }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('accountNum', account);
        localStorage.setItem('user_id', String(id));
        for (const [key, value] of Object.entries(extra)) localStorage.setItem(key, value);
      },
      { token: user.token, account: user.account, id: user.id, extra: settings },
    );
    const fairex = await FairexPage.open(context, server.baseURL, '/dealCenter');
    await fairex.page.getByTestId('order-form').waitFor();
    return { user, context, fairex, page: fairex.page };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'fairex-spot-e2e-'));
    const [aliceUser, bobUser] = (await seedSpotUsers(dataDir, 2)) as [SeededUser, SeededUser];
    server = await startSpotServer(dataDir);
    // Alice deposits 10,000 USDT on TRC20 and Bob 1 BTC, through signed custody callbacks.
    await depositThroughCustody(server.baseURL, aliceUser, { ...USDT_TRC20_DEPOSIT, amount: '10000000000' });
    await depositThroughCustody(server.baseURL, bobUser, { ...BTC_DEPOSIT, amount: '100000000' });
    browser = await launchBrowser();
    alice = await open(aliceUser);
    bob = await open(bobUser);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Places an order through the API as the user (the calls the page makes, without the clicks). */
  async function order(user: SeededUser, side: 'in' | 'out', price: string, num: string): Promise<void> {
    const response = await fetch(`${server.baseURL}/api/transaction/${side}`, {
      method: 'POST',
      headers: { authorization: user.token, 'content-type': 'application/json' },
      body: JSON.stringify({ legal_id: USDT, currency_id: BTC, price, num, mode: 2 }),
    });
    expect(await response.json()).toMatchObject({ type: 'ok' });
  }

  const text = (trader: Trader, testId: string) => trader.page.getByTestId(testId).innerText();

  async function waitForText(trader: Trader, testId: string, expected: string | RegExp): Promise<void> {
    await expect
      .poll(() => text(trader, testId), { timeout: 10_000 })
      .toMatch(typeof expected === 'string' ? new RegExp(escape(expected)) : expected);
  }

  async function place(trader: Trader, side: 'buy' | 'sell', price: string, amount: string): Promise<void> {
    await trader.page.getByTestId(`${side}-price`).fill(price);
    await trader.page.getByTestId(`${side}-amount`).fill(amount);
    await trader.page.getByTestId(`${side}-submit`).click();
  }

  it('shows each user their balances', async () => {
    await waitForText(alice, 'buy-available', '10,000.000000 USDT');
    await waitForText(alice, 'sell-available', '0.00000000 BTC');
    await waitForText(bob, 'sell-available', '1.00000000 BTC');
  });

  it('rests a sell in the book for everyone and in the seller’s open orders', async () => {
    await place(bob, 'sell', '30000', '0.25');
    await bob.page.getByText(en.spot.form.buy.replace('{{base}}', 'BTC')).first().waitFor();
    await waitForText(bob, 'sell-available', '0.75000000 BTC');
    await bob.page.getByTestId('subtab-sell').click();
    await expect
      .poll(() => rowsText(bob.page, 'open-order-row'), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/BTC\/USDT.*30,000\.00.*0\.2500.*0\.0000.*0\.2500.*7,500\.000000/s)]);
    for (const trader of [alice, bob]) {
      await expect
        .poll(() => rowsText(trader.page, 'book-ask'), { timeout: 10_000 })
        .toEqual(['30,000.00\t0.2500']);
    }
  });

  it('fills a crossing buy at the resting price and updates both users', async () => {
    // The slider proposes what a quarter of the balance buys at the price: 2,500 USDT / 30,000 = 0.0833.
    await alice.page.getByTestId('buy-price').fill('30000');
    await alice.page.getByTestId('buy-form').getByRole('button', { name: '25%', exact: true }).click();
    expect(await alice.page.getByTestId('buy-amount').inputValue()).toBe('0.0833');
    await place(alice, 'buy', '30000', '0.1');
    // Alice paid 3,000 USDT and received 0.1 BTC less the 0.1 % taker fee; Bob got 3,000 USDT less 0.1 %.
    await waitForText(alice, 'buy-available', '7,000.000000 USDT');
    await waitForText(alice, 'sell-available', '0.09990000 BTC');
    await waitForText(bob, 'buy-available', '2,997.000000 USDT');
    await waitForText(bob, 'sell-available', '0.75000000 BTC');

    for (const trader of [alice, bob]) {
      await expect
        .poll(() => rowsText(trader.page, 'book-ask'), { timeout: 10_000 })
        .toEqual(['30,000.00\t0.1500']);
      await expect
        .poll(() => rowsText(trader.page, 'tape-row'), { timeout: 10_000 })
        .toContainEqual(expect.stringMatching(/30,000\.00\s+0\.1000/));
      await waitForText(trader, 'book-last-price', '30,000.00');
    }
    await expect
      .poll(() => rowsText(bob.page, 'open-order-row'), { timeout: 10_000 })
      .toEqual([expect.stringMatching(/30,000\.00.*0\.2500.*0\.1000.*0\.1500/s)]);
  });

  it('lists the fill in both users’ history', async () => {
    for (const [trader, side] of [
      [alice, en.spot.orders.buy],
      [bob, en.spot.orders.sell],
    ] as const) {
      await trader.page.getByTestId('tab-history').click();
      await expect
        .poll(() => rowsText(trader.page, 'history-row'), { timeout: 12_000 })
        .toEqual([
          expect.stringMatching(new RegExp(`BTC/USDT.*${side}.*30,000\\.00.*0\\.1000.*3,000\\.000000`, 's')),
        ]);
    }
  });

  it('draws the trade in the chart’s current candle', async () => {
    const chart = alice.page.getByTestId('price-chart');
    await expect.poll(() => chart.getAttribute('data-status'), { timeout: 15_000 }).toBe('ready');
    const bars = await fetch(
      `${server.baseURL}/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=${Math.floor(Date.now() / 1000) - 600}&to=${Math.ceil(Date.now() / 1000) + 60}`,
    ).then(
      (response) => response.json() as Promise<{ code: number; data: { close: string; volume: string }[] }>,
    );
    expect(bars.code).toBe(1);
    expect(bars.data.at(-1)).toMatchObject({ close: expect.stringMatching(/^30000(\.0+)?$/) });
    await alice.page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await alice.fairex.screenshot('spot-en-day-after-trade', false);
  });

  it('revokes the rest after a confirmation and returns the hold', async () => {
    await bob.page.getByTestId('tab-current').click();
    const revoke = bob.page.locator('[data-testid^="revoke-"]');
    await revoke.first().click();
    await bob.page.getByRole('button', { name: en.spot.orders.yes }).click();
    await expect.poll(() => rowsText(bob.page, 'open-order-row'), { timeout: 10_000 }).toEqual([]);
    await waitForText(bob, 'sell-available', '0.90000000 BTC');
    await expect.poll(() => rowsText(alice.page, 'book-ask'), { timeout: 10_000 }).toEqual([]);
  });

  it('looks right with a full book, at night and in Chinese', async () => {
    // A book several levels deep on both sides, placed through the same calls the page makes.
    for (const [index, price] of ['30100', '30150.5', '30250', '30400', '30600'].entries()) {
      await order(bob.user, 'out', price, `0.0${index + 2}`);
    }
    for (const [index, price] of ['29950', '29900.25', '29800', '29650', '29500'].entries()) {
      await order(alice.user, 'in', price, `0.0${index + 1}5`);
    }
    await expect.poll(() => rowsText(alice.page, 'book-bid'), { timeout: 10_000 }).toHaveLength(5);
    await expect.poll(() => rowsText(alice.page, 'book-ask'), { timeout: 10_000 }).toHaveLength(5);
    await alice.page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await alice.fairex.screenshot('spot-en-day-book', false);
    await alice.fairex.screenshot('spot-en-day-full');

    await bob.page.getByTestId('night-toggle').click();
    await bob.page.evaluate(() =>
      (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
    );
    await bob.fairex.screenshot('spot-en-night', false);
    await bob.page.getByTestId('tab-history').click();
    await bob.fairex.screenshot('spot-en-night-full');

    const chinese = await open(alice.user, { lang: 'zh', night_mode: '1' });
    await waitForText(chinese, 'buy-submit', zh.spot.form.buy.replace('{{base}}', 'BTC'));
    await expect.poll(() => rowsText(chinese.page, 'book-bid'), { timeout: 10_000 }).toHaveLength(5);
    await chinese.fairex.screenshot('spot-zh-night', false);
    await chinese.page.getByTestId('night-toggle').click();
    await chinese.fairex.screenshot('spot-zh-day', false);
    expect(chinese.fairex.problems).toEqual([]);
    await chinese.context.close();
  });

  it('offers a visitor log in and sign up instead of the buttons', async () => {
    // The traders' pages are done; closing them leaves the machine to the visitor's.
    await alice.context.close();
    await bob.context.close();
    const context = await newContext(browser, { width: 1600, height: 1000 });
    const visitor = await FairexPage.open(context, server.baseURL, '/dealCenter');
    await visitor.page.getByTestId('buy-login').waitFor();
    expect(await visitor.page.getByTestId('buy-submit').count()).toBe(0);
    expect(await visitor.page.getByTestId('sell-register').innerText()).toBe(en.spot.form.register);
    await expect.poll(() => rowsText(visitor.page, 'tape-row')).toHaveLength(1);
    await visitor.screenshot('spot-en-day-visitor', false);

    // Picking another pair in the market list stores the choice under the spec's keys; the page follows.
    await visitor.page.getByTestId('market-search').fill('eth');
    await expect.poll(() => visitor.page.locator('[data-testid^="market-row-"]').count()).toBe(1);
    await visitor.page.getByTestId('market-row-ETH-USDT').click();
    await expect
      .poll(() => visitor.page.getByTestId('spot-page').getAttribute('data-symbol'))
      .toBe('ETH/USDT');
    await waitForText({ page: visitor.page } as Trader, 'pair-header', 'ETH');
    expect(await visitor.stored('legal_id')).toBe('3');
    expect(await visitor.stored('currency_id')).toBe('2');
    expect(await visitor.stored('legal_name')).toBe('USDT');
    expect(await visitor.stored('currency_name')).toBe('ETH');
    expect(await visitor.stored('symbol')).toBe('ETH/USDT');
    await visitor.reload();
    await expect
      .poll(() => visitor.page.getByTestId('spot-page').getAttribute('data-symbol'))
      .toBe('ETH/USDT');
    expect(visitor.problems).toEqual([]);
    await context.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text of every element with the test id, for comparing whole lists. */
async function rowsText(page: Page, testId: string): Promise<string[]> {
  return page
    .getByTestId(testId)
    .evaluateAll((rows) => rows.map((row) => (row as unknown as { innerText: string }).innerText.trim()));
}
