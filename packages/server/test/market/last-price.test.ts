// A market with no trade in the ticker's 24 hours still shows its last price: at start-up, each market's
// newest trade with a user is read from the stored trades (a trade between two of the house's own accounts
// never sets it). On PGlite, and on PostgreSQL with DATABASE_URL.
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';

afterAll(removeTempDirs);

const DAY_MS = 24 * 60 * 60 * 1000;

async function insertTrade(
  store: Store,
  trade: { tradeId: number; marketId: number; priceTicks: number; withUser: boolean; timeMs: number },
): Promise<void> {
  // A user is a positive owner key; the house's accounts are negative.
  const maker = trade.withUser ? 900_001 : -4;
  await store.query(
    `insert into spot_trades (trade_id, market_id, price_ticks, quantity_lots, base_amount, quote_amount,
            maker_order_id, maker_owner_key, taker_order_id, taker_owner_key, maker_side, maker_fee,
            maker_fee_currency_id, taker_fee, taker_fee_currency_id, seq, time_ms)
     values ($1, $2, $3, 1, 10000, 10000, 1, $4, 2, -1, 'sell', 0, 3, 0, 1, 1, $5)`,
    [trade.tradeId, trade.marketId, trade.priceTicks, maker, trade.timeMs],
  );
}

describe('the last price of a market that has not traded for a day', () => {
  let store: Store | undefined;
  let app: FastifyInstance | undefined;
  afterAll(async () => {
    await app?.close();
    await store?.close();
  });

  it('is its newest trade with a user, read back at every start', async () => {
    store = await openTestStore();
    app = await buildTestApp(store);
    await app.ready();
    const [first, second, third] = app.marketData.catalog.list().map((market) => market.marketId);
    expect(third).toBeDefined();
    await app.close();
    app = undefined;

    const old = Date.now() - 3 * DAY_MS;
    // Interleaved ids, as trades of several markets are; the newest trade of the first market is the house's.
    const trades = [
      { marketId: first as number, priceTicks: 100, withUser: true },
      { marketId: second as number, priceTicks: 205, withUser: true },
      { marketId: first as number, priceTicks: 110, withUser: true },
      { marketId: third as number, priceTicks: 777, withUser: false },
      { marketId: first as number, priceTicks: 999, withUser: false },
    ];
    for (const [index, trade] of trades.entries()) {
      await insertTrade(store, { ...trade, tradeId: 1_000_000 + index, timeMs: old + index * 1_000 });
    }

    // The first start folds the trades it had not seen into candles and stores them; the second finds the
    // candles up to date and takes the last prices from the stored trades alone.
    for (let start = 0; start < 2; start++) {
      app = await buildTestApp(store);
      await app.ready();
      const now = Date.now();
      const last = (marketId: number | undefined) =>
        app?.marketData.tickers.ticker(marketId as number, now).lastTicks;
      expect([last(first), last(second), last(third)]).toEqual([110, 205, undefined]);
      await app.close();
      app = undefined;
    }
  }, 60_000);
});
