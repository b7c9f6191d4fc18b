// Issue 21 on the server: market orders say why their rest was cancelled (funds, band, book) and stop at
// the price-protection band; the form's estimate; the order types post-only, IOC and FOK through the
// placement call; the orders page across all pairs (open, history with every ending, filters) and cancel
// all, per pair and everywhere. End to end through app.inject() on PGlite.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import {
  BTC,
  ETH,
  ETH_PAIR,
  PAIR,
  USDT,
  startSpotTestApp,
  type SpotReply as Reply,
  type SpotTestApp,
  type Trader,
} from './spot-app.ts';

let spot: SpotTestApp;
let app: FastifyInstance;
let maker: Trader;
let taker: Trader;
let other: Trader;

const call = (url: string, payload: Record<string, unknown>, token?: string): Promise<Reply> =>
  spot.call(url, payload, token);

async function ok<T>(url: string, payload: Record<string, unknown>, token?: string): Promise<T> {
  const reply = await call(url, payload, token);
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  return reply.message as T;
}

const trader = () => spot.trader();
const deposit = (userId: number, currencyId: number, amount: string, scale: number) =>
  spot.deposit(userId, currencyId, amount, scale);

const sell = (pair: Record<string, number>, price: string, num: string, token: string) =>
  call('/transaction/out', { ...pair, price, num, mode: 2 }, token);

type Paged = { list: Record<string, unknown>[]; total: number };

beforeAll(async () => {
  spot = await startSpotTestApp();
  app = spot.app;
  maker = await trader();
  taker = await trader();
  other = await trader();
  await deposit(maker.id, BTC, '100', 8);
  await deposit(maker.id, ETH, '100', 8);
  await deposit(taker.id, USDT, '4000', 6);
  await deposit(other.id, USDT, '100000', 6);
});

afterAll(async () => {
  await spot?.close();
});

describe('market orders say why the rest was cancelled', () => {
  it('a market buy far larger than the funds stops for funds, and says so (not "the book")', async () => {
    await sell(PAIR, '30000', '0.1', maker.token);
    await sell(PAIR, '30100', '0.1', maker.token);
    const estimate = await ok<Record<string, unknown>>(
      '/transaction/estimate',
      { ...PAIR, side: 'buy', num: '50' },
      taker.token,
    );
    // 4,000 USDT buys 0.1 at 30,000 and 0.0332 at 30,100 (whole lots only).
    expect(estimate).toMatchObject({
      number: '0.1332',
      total: '3999.320000',
      average_price: '30024.92',
      worst_price: '30100.00',
      band_price: '31500.00',
      band_percent: '5%',
      complete: false,
      stop_reason: 'funds',
    });
    const placed = await call('/transaction/in', { ...PAIR, num: '50', mode: 1 }, taker.token);
    expect(placed).toMatchObject({
      type: 'ok',
      message: translate('en', 'spot.market_rest_funds', { filled: '0.1332', total: '50.0000' }),
      order: {
        status: 'cancelled',
        complete_number: '0.1332',
        deal_money: '3999.320000',
        cancel_reason: 'funds',
      },
    });
    expect(placed.message).not.toContain('book');
  });

  it('stops at the 5 % band over the best ask, names the band and its limit, and the estimate foresaw it', async () => {
    await call('/orders/cancel_all', {}, maker.token);
    await sell(PAIR, '30000', '0.01', maker.token);
    await sell(PAIR, '40000', '0.01', maker.token);
    // A visitor may ask for an estimate too (no balance: bounded by the quantity only).
    const estimate = await ok<Record<string, unknown>>('/transaction/estimate', {
      ...PAIR,
      side: 'buy',
      num: '0.02',
    });
    expect(estimate).toMatchObject({
      number: '0.0100',
      total: '300.000000',
      stop_reason: 'band',
      complete: false,
    });
    const small = await ok<Record<string, unknown>>('/transaction/estimate', {
      ...PAIR,
      side: 'buy',
      num: '0.005',
    });
    expect(small).toMatchObject({
      number: '0.0050',
      average_price: '30000.00',
      complete: true,
      stop_reason: null,
    });
    expect(small.fee).toBe('0.00000500');
    const byTotal = await ok<Record<string, unknown>>('/transaction/estimate', {
      ...PAIR,
      side: 'buy',
      total: '150',
    });
    expect(byTotal).toMatchObject({ number: '0.0050', total: '150.000000', stop_reason: 'funds' });
    const placed = await call('/transaction/in', { ...PAIR, num: '0.02', mode: 1 }, other.token);
    expect(placed).toMatchObject({
      type: 'ok',
      message: translate('en', 'spot.market_rest_band', {
        filled: '0.0100',
        total: '0.0200',
        band: '5%',
        limit: '31500.00',
      }),
      order: { complete_number: '0.0100', cancel_reason: 'band', band_price: '31500.00' },
    });
  });

  it('refuses a bad estimate request with a translated message', async () => {
    for (const [payload, message] of [
      [{ ...PAIR, side: 'buy' }, 'Quantity is required.'],
      [{ ...PAIR, side: 'sell', num: '0.00001' }, 'Quantity is below the minimum 0.0001 BTC.'],
      [{ ...PAIR, side: 'buy', total: '-1' }, 'Total must be greater than zero.'],
      [{ legal_id: USDT, currency_id: 999, side: 'buy', num: '1' }, 'There is no such trading pair.'],
    ] as const) {
      expect(await call('/transaction/estimate', payload)).toEqual({ type: 'error', message });
    }
    expect((await call('/transaction/estimate', { ...PAIR, side: 'up', num: '1' })).type).toBe('error');
  });
});

describe('order types through the placement call', () => {
  it('post-only, fill-or-kill and immediate-or-cancel; a market order takes no time in force', async () => {
    await call('/orders/cancel_all', {}, maker.token);
    await sell(PAIR, '30000', '0.01', maker.token);
    const postOnly = await call(
      '/transaction/in',
      { ...PAIR, price: '30000', num: '0.01', time_in_force: 'post_only' },
      other.token,
    );
    expect(postOnly).toEqual({ type: 'error', message: translate('en', 'spot.post_only_would_take') });
    const fok = await call(
      '/transaction/in',
      { ...PAIR, price: '30000', num: '0.02', time_in_force: 'fok' },
      other.token,
    );
    expect(fok).toEqual({ type: 'error', message: translate('en', 'spot.fill_or_kill_unfilled') });
    const market = await call(
      '/transaction/in',
      { ...PAIR, num: '0.01', mode: 1, time_in_force: 'ioc' },
      other.token,
    );
    expect(market).toEqual({ type: 'error', message: translate('en', 'spot.time_in_force_invalid') });
    expect(
      (await call('/transaction/in', { ...PAIR, price: '1', num: '1', time_in_force: 'day' }, other.token))
        .type,
    ).toBe('error');
    expect(app.engine.spot.openOrders(other.id)).toEqual([]);

    const resting = await call(
      '/transaction/in',
      { ...PAIR, price: '29000', num: '0.01', time_in_force: 'post_only' },
      other.token,
    );
    expect(resting).toMatchObject({ type: 'ok', order: { status: 'resting', time_in_force: 'post_only' } });
    const ioc = await call(
      '/transaction/in',
      { ...PAIR, price: '30000', num: '0.03', time_in_force: 'ioc' },
      other.token,
    );
    expect(ioc).toMatchObject({
      type: 'ok',
      message: translate('en', 'spot.ioc_rest_cancelled', { filled: '0.0100', total: '0.0300' }),
      order: { status: 'cancelled', complete_number: '0.0100', cancel_reason: 'ioc', time_in_force: 'ioc' },
    });
    // The template's clients send no time in force and place good-till-cancelled orders as before.
    const plain = await call('/transaction/in', { ...PAIR, price: '28000', num: '0.01' }, other.token);
    expect(plain).toMatchObject({ type: 'ok', order: { status: 'resting', time_in_force: 'gtc' } });
  });
});

describe('stop-limit orders through the placement call', () => {
  it('waits as pending, shows its stop among open orders, and enters the book when a trade reaches it', async () => {
    const stopper = await trader();
    await deposit(stopper.id, USDT, '1000', 6);
    const placed = await call(
      '/transaction/in',
      { ...PAIR, price: '33000', num: '0.01', stop_price: '32000' },
      stopper.token,
    );
    expect(placed).toMatchObject({
      type: 'ok',
      message: translate('en', 'spot.stop_order_placed', { stop: '32000.00' }),
      order: { status: 'pending', stop_price: '32000.00', complete_number: '0.0000' },
    });
    const open = await ok<Paged>('/orders/open', {}, stopper.token);
    expect(open.list).toMatchObject([{ status: 'pending', stop_price: '32000.00', price: '33000.00' }]);
    // The trading page's own list of one pair says the same (issue 45): a waiting stop is no plain limit.
    const pairOpen = await ok<Paged>('/transaction_in', { ...PAIR, page: 1 }, stopper.token);
    expect(pairOpen.list).toMatchObject([{ status: 'pending', stop_price: '32000.00', price: '33000.00' }]);
    expect(app.engine.ledger.balance(stopper.id, 'change', USDT).locked).toBe(330_000_000n);
    for (const [payload, key] of [
      [{ ...PAIR, num: '0.01', mode: 1, stop_price: '32000' }, 'spot.stop_price_invalid'],
      [
        { ...PAIR, price: '33000', num: '0.01', stop_price: '32000', time_in_force: 'ioc' },
        'spot.stop_price_invalid',
      ],
    ] as const) {
      expect(await call('/transaction/in', payload, stopper.token)).toEqual({
        type: 'error',
        message: translate('en', key),
      });
    }
    expect(
      (
        await call(
          '/transaction/in',
          { ...PAIR, price: '33000', num: '0.01', stop_price: '0' },
          stopper.token,
        )
      ).type,
    ).toBe('error');
    // A trade at 32,000 triggers it; it then takes the ask at 32,500.
    await sell(PAIR, '32500', '0.01', maker.token);
    await sell(PAIR, '32000', '0.01', maker.token);
    await call('/transaction/in', { ...PAIR, price: '32000', num: '0.01' }, other.token);
    const history = await ok<Paged>('/orders/history', { status: 'filled' }, stopper.token);
    expect(history.list).toMatchObject([{ price: '33000.00', average_price: '32500.00', status: 'filled' }]);
    expect((await ok<Paged>('/orders/open', {}, stopper.token)).total).toBe(0);
  });
});

describe('the orders page across all pairs', () => {
  it('lists open orders of every pair with filters, and only the owner’s', async () => {
    await call('/orders/cancel_all', {}, maker.token);
    await sell(PAIR, '31000', '0.02', maker.token);
    await sell(ETH_PAIR, '2000', '1', maker.token);
    const all = await ok<Paged>('/orders/open', {}, maker.token);
    expect(all.total).toBe(2);
    expect(all.list.map((row) => row.symbol)).toEqual(['ETH/USDT', 'BTC/USDT']);
    expect(all.list[0]).toMatchObject({ side: 'sell', status: 'open', price: '2000.00', number: '1.0000' });
    expect((await ok<Paged>('/orders/open', { symbol: 'BTC/USDT' }, maker.token)).total).toBe(1);
    expect((await ok<Paged>('/orders/open', { ...ETH_PAIR }, maker.token)).total).toBe(1);
    expect((await ok<Paged>('/orders/open', { side: 'buy' }, maker.token)).total).toBe(0);
    expect((await ok<Paged>('/orders/open', { start_time: Date.now() + 60_000 }, maker.token)).total).toBe(0);
    expect((await ok<Paged>('/orders/open', {}, taker.token)).total).toBe(0);
    expect((await call('/orders/open', {})).type).not.toBe('ok');
  });

  it('shows history with every ending, average price and fees, filtered by status, pair and side', async () => {
    // The taker's market buy filled partly and was cancelled for funds; the other user's orders: a band
    // cancel (partly filled), an IOC (partly filled), a fill below.
    const filled = await call('/transaction/in', { ...PAIR, price: '31000', num: '0.01' }, other.token);
    expect(filled).toMatchObject({ order: { status: 'filled' } });
    const history = await ok<Paged>('/orders/history', {}, other.token);
    const statuses = history.list.map((row) => [row.status, row.cancel_reason]);
    expect(statuses).toContainEqual(['filled', null]);
    expect(statuses).toContainEqual(['partially_filled_cancelled', 'band']);
    expect(statuses).toContainEqual(['partially_filled_cancelled', 'ioc']);
    expect(history.list[0]).toMatchObject({
      symbol: 'BTC/USDT',
      side: 'buy',
      mode: 2,
      status: 'filled',
      price: '31000.00',
      total_number: '0.0100',
      complete_number: '0.0100',
      deal_money: '310.000000',
      average_price: '31000.00',
      fee: '0.00001000',
      fee_currency: 'BTC',
    });
    // Still-open orders are not history.
    expect(history.list.some((row) => row.status === 'open')).toBe(false);
    const onlyFilled = await ok<Paged>('/orders/history', { status: 'filled' }, other.token);
    expect(onlyFilled.list.every((row) => row.status === 'filled')).toBe(true);
    // This one and the buy that triggered the stop-limit order above.
    expect(onlyFilled.total).toBe(2);
    const taker1 = await ok<Paged>('/orders/history', { status: 'partially_filled_cancelled' }, taker.token);
    expect(taker1.list).toHaveLength(1);
    expect(taker1.list[0]).toMatchObject({
      mode: 1,
      price: null,
      cancel_reason: 'funds',
      average_price: '30024.92',
      deal_money: '3999.320000',
    });
    expect((await ok<Paged>('/orders/history', { ...ETH_PAIR }, other.token)).total).toBe(0);
    expect((await ok<Paged>('/orders/history', { side: 'sell' }, other.token)).total).toBe(0);
    expect((await ok<Paged>('/orders/history', { end_time: 1 }, other.token)).total).toBe(0);
    // A user cancel unfilled is "cancelled".
    const maker1 = await ok<Paged>('/orders/history', { status: 'cancelled' }, maker.token);
    expect(maker1.total).toBeGreaterThan(0);
    expect(maker1.list.every((row) => row.complete_number === '0.0000' && row.cancel_reason === 'user')).toBe(
      true,
    );
    expect((await call('/orders/history', { status: 'open' }, other.token)).type).toBe('error');
  });

  it('cancels all open orders of one pair, then everywhere, releasing the holds', async () => {
    expect(app.engine.spot.openOrders(maker.id).length).toBe(2);
    const one = await call('/orders/cancel_all', { symbol: 'ETH/USDT' }, maker.token);
    expect(one).toMatchObject({
      type: 'ok',
      message: translate('en', 'spot.orders_cancelled', { count: 1 }),
    });
    expect(one.orders).toMatchObject({ count: 1 });
    expect(app.engine.spot.openOrders(maker.id).map((order) => order.marketId)).toEqual([1]);
    expect(app.engine.ledger.balance(maker.id, 'change', ETH).locked).toBe(0n);
    const rest = await call('/orders/cancel_all', {}, maker.token);
    expect(rest).toMatchObject({ type: 'ok', orders: { count: 1 } });
    expect(app.engine.spot.openOrders(maker.id)).toEqual([]);
    expect(app.engine.ledger.balance(maker.id, 'change', BTC).locked).toBe(0n);
    // Another user's orders are untouched by anyone's cancel all.
    expect(app.engine.spot.openOrders(other.id).length).toBeGreaterThan(0);
    const unknown = await call('/orders/cancel_all', { legal_id: USDT, currency_id: 999 }, maker.token);
    expect(unknown).toEqual({ type: 'error', message: 'There is no such trading pair.' });
  });
});

describe('the orders page’s date range', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lists only the orders created inside the range, both ends inclusive, in open orders and history', async () => {
    const ranger = await trader();
    await deposit(ranger.id, BTC, '1', 8);
    const times: number[] = [];
    const ids: number[] = [];
    // Three sells a few milliseconds apart; the first and the last are cancelled into history.
    for (const price of ['50000', '50100', '50200']) {
      await pause(5);
      const placed = await sell(PAIR, price, '0.01', ranger.token);
      expect(placed.type).toBe('ok');
      const id = Number(placed.order?.id);
      ids.push(id);
      const open = await ok<Paged>('/orders/open', {}, ranger.token);
      times.push(Number(open.list.find((row) => row.id === id)?.time));
    }
    const [first, second, third] = times as [number, number, number];
    expect(first).toBeLessThan(second);
    expect(second).toBeLessThan(third);
    const listed = async (url: string, range: Record<string, number>) =>
      (await ok<Paged>(url, range, ranger.token)).list.map((row) => Number(row.id));

    expect(await listed('/orders/open', { start_time: second, end_time: second })).toEqual([ids[1]]);
    expect(await listed('/orders/open', { start_time: first + 1, end_time: third })).toEqual([
      ids[2],
      ids[1],
    ]);
    expect(await listed('/orders/open', { start_time: second + 1 })).toEqual([ids[2]]);
    expect(await listed('/orders/open', { end_time: second - 1 })).toEqual([ids[0]]);

    for (const id of [ids[0], ids[2]]) {
      expect((await call('/transaction_del', { id, type: 'out' }, ranger.token)).type).toBe('ok');
    }
    expect(await listed('/orders/history', { start_time: first, end_time: third })).toEqual([ids[2], ids[0]]);
    expect(await listed('/orders/history', { start_time: first, end_time: third - 1 })).toEqual([ids[0]]);
    expect(await listed('/orders/history', { start_time: first + 1, end_time: third - 1 })).toEqual([]);
    expect(await listed('/orders/open', { start_time: first, end_time: third })).toEqual([ids[1]]);
  });

  it('refuses a range whose start is after its end, or a bad bound, in the caller’s language', async () => {
    const caller = await trader();
    for (const url of ['/orders/open', '/orders/history']) {
      expect(await call(url, { start_time: 2_000, end_time: 1_999 }, caller.token)).toEqual({
        type: 'error',
        message: translate('en', 'market.range_order'),
      });
      expect(
        await spot.call(url, { start_time: 2_000, end_time: 1_999 }, caller.token, { lang: 'zh' }),
      ).toEqual({
        type: 'error',
        message: translate('zh', 'market.range_order'),
      });
      expect(await call(url, { start_time: 'yesterday' }, caller.token)).toEqual({
        type: 'error',
        message: 'Start time must be a whole number.',
      });
      expect(await spot.call(url, { end_time: -1 }, caller.token, { lang: 'zh' })).toEqual({
        type: 'error',
        message: translate('zh', 'validation.integer_range', {
          field: '结束时间',
          min: 0,
          max: 8_640_000_000_000_000,
        }),
      });
      // One instant is a valid range.
      expect((await call(url, { start_time: 2_000, end_time: 2_000 }, caller.token)).type).toBe('ok');
    }
  });
});
