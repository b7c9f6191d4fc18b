// Live market data in a real app: index prices journaled from the price source, history backfilled once and
// marked with its source, the market maker funded once and quoting (never trading without a user: see
// no-wash-trades.test.ts), a user's trade that moves the chart; and after a restart nothing is funded or
// backfilled again and the prices continue from the journaled index. The same
// with the exchange adapter pointed at a local stand-in of the exchange.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { GENESIS_MEMO } from '../../src/market/market-maker.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';
import { BTC_USDT, BUYER, FAST, fundTraders, until } from './helpers.ts';
import { startStandInExchange } from './stand-in-exchange.ts';

afterAll(removeTempDirs);

async function count(store: Store, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await store.query<{ n: number }>(
    `select count(*)::int as n from (${sql}) as counted`,
    params,
  );
  return rows[0]?.n ?? 0;
}

describe('live market data with the simulator', () => {
  let store: Store;
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it('journals index prices, backfills once, funds once, quotes, trades with a user, and resumes after a restart', async () => {
    store = await openTestStore();
    app = await buildTestApp(store, FAST);
    await app.ready();
    await app.marketLive?.started;
    const live = app;
    for (const market of live.marketData.catalog.list())
      expect(live.engine.market.indexPrice(market.marketId), market.symbol).toBeDefined();
    const btcIndex = live.engine.market.indexPrice(1)?.priceTicks ?? 0;
    expect(Math.abs(btcIndex / 6_725_000 - 1)).toBeLessThan(0.05);
    expect(
      await count(store, `select 1 from engine_journal where envelopes like '%"recordPriceSamples"%'`),
    ).toBeGreaterThan(0);

    // History for every interval, marked as simulated, on every market.
    const backfills = await store.query<{ market_id: number; source: string }>(
      'select market_id, source from market_backfills order by 1',
    );
    expect(backfills.rows).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((id) => ({ market_id: id, source: 'simulated' })),
    );
    const periods = await store.query<{ period: string }>(
      `select distinct period from candles where market_id = 1 and source = 'simulated'`,
    );
    expect(periods.rows).toHaveLength(8);

    // The market maker: funded once (the house no more), quoting a ladder; a user's trade against it makes
    // the bars and tickers from real trades.
    const genesis = () =>
      count(store, 'select 1 from account_log where memo = $1 and reason = 101 and owner_key in (-4, -1)', [
        GENESIS_MEMO,
      ]);
    // Eight currencies, each for the market maker.
    await until(async () => (await genesis()) === 8);
    await until(() => live.engine.spot.openOrders('marketMaker', 1).length >= 20, 20_000);
    await fundTraders(live);
    const bought = await live.runner.submit({
      type: 'placeOrder',
      owner: BUYER,
      marketId: BTC_USDT.marketId,
      side: 'buy',
      kind: 'market',
      quantityLots: 10,
    });
    expect(bought.events.filter((event) => event.type === 'trade').length).toBeGreaterThan(0);
    await until(() => live.marketData.candles.latest(1, '1min') !== undefined);
    const bars = (
      await live.inject({ method: 'GET', url: '/api/currency/new_timeshar?symbol=BTC/USDT&period=1min' })
    ).json();
    expect(bars.code).toBe(1);
    expect(new Set(bars.data.map((bar: { source: string }) => bar.source))).toEqual(
      new Set(['simulated', 'trades']),
    );

    await live.close();
    app = undefined;
    const restarted = await buildTestApp(store, FAST);
    app = restarted;
    await restarted.ready();
    await restarted.marketLive?.started;
    expect(
      await count(
        store,
        'select 1 from account_log where memo = $1 and reason = 101 and owner_key in (-4, -1)',
        [GENESIS_MEMO],
      ),
    ).toBe(8);
    expect(await count(store, 'select 1 from market_backfills')).toBe(7);
    // The walk goes on from the journaled index rather than from the profile's start.
    const resumed = restarted.engine.market.indexPrice(1)?.priceTicks ?? 0;
    expect(Math.abs(resumed / btcIndex - 1)).toBeLessThan(0.01);
  }, 60_000);
});

describe('live market data from an exchange stand-in', () => {
  it('journals the exchange prices as index prices and backfills its history as such', async () => {
    const untilMs = Date.now();
    const minute = Math.floor(untilMs / 60_000) * 60_000;
    const exchange = await startStandInExchange({
      drop: false,
      restamp: true,
      frameIntervalMs: 20,
      klines: (query) =>
        query.get('interval') === '1m'
          ? [
              [
                minute - 120_000,
                '67000',
                '67300',
                '66900',
                '67200.5',
                '1.5',
                minute - 60_001,
                '100800.75',
                30,
                '0',
                '0',
                '0',
              ],
            ]
          : [],
    });
    const store = await openTestStore();
    const app = await buildTestApp(store, {
      liveMarket: true,
      env: {
        PRICE_SOURCE: 'binance',
        PRICE_FEED_URL: exchange.streamUrl,
        PRICE_HISTORY_URL: exchange.restUrl,
        MARKET_MAKER: 'off',
      },
      market: { intervals: { indexMs: 50, indexWaitMs: 1_000 } },
    });
    try {
      await app.ready();
      await app.marketLive?.started;
      await until(() => app.engine.market.indexPrice(1)?.priceTicks === 6_724_990);
      expect(app.engine.market.indexPrice(2)?.priceTicks).toBe(347_998);
      expect(app.engine.market.indexPrice(3)?.priceTicks).toBe(5231);
      // Markets the stand-in has no prices for get no index, and no history is invented for them.
      expect(app.engine.market.indexPrice(4)).toBeUndefined();
      const backfills = await store.query(
        'select market_id, source, bar_count from market_backfills order by 1',
      );
      expect(backfills.rows).toEqual(
        [1, 2, 3].map((id) => ({ market_id: id, source: 'binance', bar_count: 1 })),
      );
      const body = (
        await app.inject({
          method: 'GET',
          url: `/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=0`,
        })
      ).json();
      // The backfilled history, then (no user has traded) bars of the recorded index since the start.
      const index = body.data.filter((bar: { source: string }) => bar.source === 'index');
      for (const bar of index) expect(bar).toMatchObject({ volume: '0.0000', amount: '0.000000' });
      expect(index.every((bar: { time: number }) => bar.time > minute - 120_000)).toBe(true);
      expect(body.data.filter((bar: { source: string }) => bar.source !== 'index')).toEqual([
        {
          id: (minute - 120_000) / 1000,
          time: minute - 120_000,
          open: '67000.00',
          high: '67300.00',
          low: '66900.00',
          close: '67200.50',
          // Another exchange's volume is not this exchange's trades: none is shown.
          volume: '0.0000',
          amount: '0.000000',
          source: 'binance',
        },
      ]);
      expect(app.engine.spot.openOrders('marketMaker')).toEqual([]);
    } finally {
      await app.close();
      await store.close();
      await exchange.close();
    }
  }, 30_000);
});
