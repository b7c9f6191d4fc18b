// Flash exchange through the routes: priced by the server from the journaled index price, fee from the
// configuration, at least 0.1 USDT on the legal side, at most 8 decimals, paid from the house's inventory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flashLargestAmount } from '@fairex/engine/calc';
import { formatDecimal, translate } from '@fairex/shared';
import type { WalletCurrency } from '../../src/wallets/catalog.ts';
import { FlashService, quoteFlash } from '../../src/wallets/flash.ts';
import type { CoinPrice, PriceBook } from '../../src/wallets/prices.ts';
import { removeTempDirs } from '../helper.ts';
import type { TestUser, WalletTestApp } from './wallet-helper.ts';
import {
  BTC,
  BTC_MARKET,
  ETH,
  USDT,
  call,
  expectLedgerBalanced,
  moneyState,
  newUser,
  ok,
  refused,
  setIndexPrice,
  walletApp,
} from './wallet-helper.ts';

let test: WalletTestApp;
let alice: TestUser;

interface FlashRecord {
  type: number;
  l_currency: string;
  r_currency: string;
  num: string;
  price: string;
  absolute_quantity: string;
  fee: string;
}

beforeAll(async () => {
  test = await walletApp({ FLASH_PAIRS: 'BTC/USDT,ETH/USDT', FLASH_FEE_PERCENT: '0.2' });
  alice = await newUser(test.store);
  await setIndexPrice(test.app, BTC_MARKET, 6_500_000);
  await ok(
    test.app,
    '/admin/wallet/deposit',
    { user_id: alice.id, currency: USDT, amount: '1000', note: 'test funds' },
    test.adminToken,
  );
  await ok(
    test.app,
    '/admin/wallet/deposit',
    { user_id: alice.id, currency: BTC, amount: '0.01', note: 'test funds' },
    test.adminToken,
  );
  await ok(
    test.app,
    '/admin/wallet/house_fund',
    { currency: BTC, amount: '0.015', note: 'flash inventory' },
    test.adminToken,
  );
  await ok(
    test.app,
    '/admin/wallet/house_fund',
    { currency: USDT, amount: '500', note: 'flash inventory' },
    test.adminToken,
  );
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

describe('flash exchange', () => {
  it('lists the coins with their server prices and the fee', async () => {
    const list = await ok<Record<string, unknown>>(test.app, '/wallet/flashAgainstList', {}, alice.token);
    expect(list).toEqual({
      legal: { id: USDT, name: 'USDT', scale: 6 },
      list: [
        { id: BTC, name: 'BTC', scale: 8, price: '65000' },
        { id: ETH, name: 'ETH', scale: 8, price: null },
      ],
      fee: '0.2',
      min: '0.1',
    });
  });

  it('exchanges USDT for BTC at the index price less the fee, whatever price the client sends', async () => {
    const reply = await ok<{ message: string; record: FlashRecord }>(
      test.app,
      '/wallet/flashAgainst',
      { type: 0, coin: BTC, number: '650', price: '1' },
      alice.token,
    );
    // 650 / 65,000 = 0.01 BTC; 0.2 % of it (0.00002) is the fee.
    expect(reply.message).toBe(translate('en', 'wallet.flash_done'));
    expect(reply.record).toMatchObject({
      type: 0,
      l_currency: 'USDT',
      r_currency: 'BTC',
      num: '650.000000',
      price: '65000',
      absolute_quantity: '0.00998000',
      fee: '0.00002000',
    });
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(350_000_000n);
    expect(test.app.engine.ledger.balance(alice.id, 'change', BTC).available).toBe(1_998_000n);
    expect(test.app.engine.ledger.balance('house', 'change', BTC).available).toBe(500_000n);
    expect(test.app.engine.ledger.balance('fees', 'change', BTC).available).toBe(2_000n);
    expectLedgerBalanced(test.app);
  });

  it('exchanges BTC for USDT the other way', async () => {
    const { record } = await ok<{ record: FlashRecord }>(
      test.app,
      '/wallet/flashAgainst',
      { type: 1, coin: BTC, number: '0.001' },
      alice.token,
    );
    // 0.001 x 65,000 = 65 USDT, less 0.2 % = 64.87.
    expect(record).toMatchObject({
      l_currency: 'BTC',
      r_currency: 'USDT',
      absolute_quantity: '64.870000',
      fee: '0.130000',
    });
    expect(test.app.engine.ledger.balance(alice.id, 'change', USDT).available).toBe(414_870_000n);
    expectLedgerBalanced(test.app);
  });

  it("rounds the received amount down, in the house's favour by less than one unit", async () => {
    await setIndexPrice(test.app, BTC_MARKET, 6_543_217);
    try {
      const { record } = await ok<{ record: FlashRecord }>(
        test.app,
        '/wallet/flashAgainst',
        { type: 0, coin: BTC, number: '0.1' },
        alice.token,
      );
      // 0.1 / 65,432.17 = 0.0000015283 BTC: the house pays 152 sat; x 0.998 = 0.0000015252, so the user keeps
      // 152 sat and the fee rounds down to nothing, as trading fees do.
      expect(record).toMatchObject({ price: '65432.17', absolute_quantity: '0.00000152', fee: '0.00000000' });
    } finally {
      await setIndexPrice(test.app, BTC_MARKET, 6_500_000);
    }
  });

  it("lists the user's exchanges, newest first", async () => {
    const records = await ok<{ data: FlashRecord[]; total: number }>(
      test.app,
      '/wallet/myFlashAgainstList',
      {},
      alice.token,
    );
    expect(records.total).toBe(3);
    expect(records.data.map((record) => record.num)).toEqual(['0.100000', '0.00100000', '650.000000']);
  });

  it.each([
    [
      'less than 0.1 USDT',
      { type: 0, coin: BTC, number: '0.09' },
      translate('en', 'wallet.amount_too_small', { min: '0.1', currency: 'USDT' }),
    ],
    [
      'BTC worth less than 0.1 USDT',
      { type: 1, coin: BTC, number: '0.0000015' },
      translate('en', 'wallet.amount_too_small', { min: '0.1', currency: 'USDT' }),
    ],
    [
      'more than 8 decimals of BTC',
      { type: 1, coin: BTC, number: '0.000000001' },
      translate('en', 'validation.decimal_scale', { field: 'Quantity', scale: 8 }),
    ],
    [
      'more decimals than USDT has',
      { type: 0, coin: BTC, number: '1.0000001' },
      translate('en', 'validation.decimal_scale', { field: 'Quantity', scale: 6 }),
    ],
    [
      'a negative amount',
      { type: 0, coin: BTC, number: '-10' },
      translate('en', 'validation.decimal_negative', { field: 'Quantity' }),
    ],
    [
      'zero',
      { type: 0, coin: BTC, number: '0' },
      translate('en', 'validation.decimal_positive', { field: 'Quantity' }),
    ],
    [
      'more than the balance',
      { type: 0, coin: BTC, number: '100000' },
      translate('en', 'wallet.insufficient_balance'),
    ],
    [
      'a coin without a price',
      { type: 0, coin: ETH, number: '10' },
      translate('en', 'wallet.flash_price_unavailable', { currency: 'ETH' }),
    ],
    ['a coin not offered', { type: 0, coin: 4, number: '10' }, translate('en', 'wallet.flash_pair_unknown')],
    ['an unknown coin', { type: 0, coin: 999, number: '10' }, translate('en', 'wallet.flash_pair_unknown')],
    ['an unknown direction', { type: 2, coin: BTC, number: '10' }, undefined],
  ] as const)('refuses %s and changes nothing', async (_name, payload, expected) => {
    const before = moneyState(test.app);
    const message = await refused(test.app, '/wallet/flashAgainst', payload, alice.token);
    if (expected !== undefined) expect(message).toBe(expected);
    expect(moneyState(test.app)).toBe(before);
    const { rows } = await test.store.query(`select 1 from flash_exchanges where status = 'done'`);
    expect(rows).toHaveLength(3);
  });

  it('refuses more than the desk holds with the largest amount it can fill now, and changes nothing', async () => {
    const desk = test.app.engine.ledger.balance('house', 'change', BTC).available;
    // The largest USDT amount whose payout at 65,000 fits the desk's BTC, exactly.
    const largest = flashLargestAmount({
      direction: 0,
      priceMinor: 6_500_000n,
      priceScale: 2,
      coinScale: 8,
      legalScale: 6,
      feePpm: 2_000n,
      payoutMax: desk,
    });
    const max = formatDecimal(largest, 6);
    const before = moneyState(test.app);
    const message = await refused(
      test.app,
      '/wallet/flashAgainst',
      { type: 0, coin: BTC, number: formatDecimal(largest + 1n, 6) },
      alice.token,
    );
    expect(message).toBe(translate('en', 'wallet.flash_desk_short', { currency: 'BTC', max, from: 'USDT' }));
    expect(moneyState(test.app)).toBe(before);
    // In Chinese too.
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/wallet/flashAgainst?lang=zh',
      payload: { type: 0, coin: BTC, number: '400' },
      headers: { authorization: alice.token },
    });
    expect(response.json()).toMatchObject({
      type: 'error',
      message: translate('zh', 'wallet.flash_desk_short', { currency: 'BTC', max, from: 'USDT' }),
    });
  });

  it('asks visitors to log in', async () => {
    expect((await call(test.app, '/wallet/flashAgainst', { type: 0, coin: BTC, number: '10' })).type).toBe(
      '999',
    );
  });

  it('lets a burst of exchanges through only as far as the house inventory pays', async () => {
    const bob = await newUser(test.store);
    await ok(
      test.app,
      '/admin/wallet/deposit',
      { user_id: bob.id, currency: USDT, amount: '10000', note: 'burst' },
      test.adminToken,
    );
    await ok(
      test.app,
      '/admin/wallet/house_fund',
      { currency: BTC, amount: '0.04', note: 'more inventory' },
      test.adminToken,
    );
    const houseBtc = test.app.engine.ledger.balance('house', 'change', BTC).available;
    // Each buys 0.01 BTC gross (650 USDT): the house's 0.046 BTC pays for exactly 4.
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(test.app, '/wallet/flashAgainst', { type: 0, coin: BTC, number: '650' }, bob.token),
      ),
    );
    const done = replies.filter((reply) => reply.type === 'ok').length;
    expect(done).toBe(Number(houseBtc / 1_000_000n));
    // Each refusal says the desk is short, with what it can still fill (0.006 BTC left: 390.000649 USDT).
    const left = test.app.engine.ledger.balance('house', 'change', BTC).available;
    const max = formatDecimal((left + 1n) * 650n - 1n, 6);
    expect(replies.filter((reply) => reply.type === 'error').map((reply) => reply.message)).toEqual(
      Array.from({ length: 20 - done }, () =>
        translate('en', 'wallet.flash_desk_short', { currency: 'BTC', max, from: 'USDT' }),
      ),
    );
    expect(test.app.engine.ledger.balance(bob.id, 'change', USDT).available).toBe(
      10_000_000_000n - BigInt(done) * 650_000_000n,
    );
    expectLedgerBalanced(test.app);
  });
});

describe('flash pricing', () => {
  const btc = { id: 1, code: 'BTC', scale: 8 } as WalletCurrency;
  const usdt = { id: 3, code: 'USDT', scale: 6 } as WalletCurrency;
  const price: CoinPrice = { value: 6_500_000n, scale: 2, timeMs: 0, marketId: 1 };

  it('computes received = amount x price(from) x (1 - fee) / price(to) exactly', () => {
    expect(
      quoteFlash({ direction: 0, coin: btc, legal: usdt, price, amount: 650_000_000n, feePpm: 2000n }),
    ).toMatchObject({
      payout: 1_000_000n,
      received: 998_000n,
      fee: 2_000n,
    });
    expect(
      quoteFlash({ direction: 1, coin: btc, legal: usdt, price, amount: 100_000n, feePpm: 0n }),
    ).toMatchObject({
      payout: 65_000_000n,
      received: 65_000_000n,
      fee: 0n,
    });
  });

  it('keeps at most 8 decimals for a currency that has more', () => {
    const fine = { id: 9, code: 'FINE', scale: 12 } as WalletCurrency;
    const quote = quoteFlash({
      direction: 0,
      coin: fine,
      legal: usdt,
      price: { ...price, value: 3n, scale: 0 },
      amount: 1_000_000n,
      feePpm: 0n,
    });
    // 1 USDT / 3 = 0.333333333333 -> 0.33333333 (8 decimals) at scale 12.
    expect(quote.received).toBe(333_333_330_000n);
    expect(quote.payout - quote.fee).toBe(quote.received);
  });

  it('offers as the largest fillable amount a whole 8-decimal amount of a currency with more', () => {
    const fine = { id: 9, code: 'FINE', scale: 12 } as WalletCurrency;
    const desk = 1_234_567n; // 1.234567 USDT in the desk
    const runner = { engine: { ledger: { balance: () => ({ available: desk, locked: 0n }) } } };
    const service = new FlashService({
      store: test.store,
      runner: runner as never,
      catalog: {} as never,
      prices: {} as never,
      pairs: [{ coin: 'FINE', legal: 'USDT' }],
      feePpm: 2000n,
    });
    const terms = {
      direction: 1 as const,
      coin: fine,
      legal: usdt,
      price: { ...price, value: 3n, scale: 0 },
      feePpm: 2000n,
    };
    const largest = service.largestFillable(quoteFlash({ ...terms, amount: 10n ** 12n }));
    // Paying FINE (12 decimals) at 3 USDT: the most whose payout fits 1.234567 USDT, in whole 8-decimal steps.
    expect(largest % 10_000n).toBe(0n);
    expect(quoteFlash({ ...terms, amount: largest }).payout).toBeLessThanOrEqual(desk);
    expect(quoteFlash({ ...terms, amount: largest + 10_000n }).payout).toBeGreaterThan(desk);
  });

  it('refuses to trade on a price older than two minutes', async () => {
    const stale: PriceBook = { priceOf: () => ({ ...price, timeMs: 1_000 }) } as unknown as PriceBook;
    const service = new FlashService({
      store: test.store,
      runner: test.app.runner,
      catalog: {
        currency: async () => btc,
        currencyByCode: async (code: string) => (code === 'BTC' ? btc : usdt),
      } as never,
      prices: stale,
      pairs: [{ coin: 'BTC', legal: 'USDT' }],
      feePpm: 2000n,
      clock: () => 1_000 + 120_001,
    });
    await expect(service.exchange(alice.id, 0, BTC, '10', 'Quantity')).rejects.toMatchObject({
      key: 'wallet.flash_price_unavailable',
    });
    expect((await service.list()).list[0]).toMatchObject({ price: null });
  });
});
