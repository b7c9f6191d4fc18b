// Candles are a projection of spot_trades: whatever was folded and flushed, and whatever was lost from memory
// in a crash before the flush, the stored bars after a restart equal a recomputation from the trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bar, TradeFact } from '../../src/market/candles.ts';
import {
  BAR_COLUMNS,
  barFromRow,
  CandleProjection,
  candlesFromTrades,
  foldTrade,
  tradesAfter,
} from '../../src/market/candles.ts';
import { PERIODS } from '../../src/market/periods.ts';
import type { Store } from '../../src/store/index.ts';
import { openTestStore, removeTempDirs } from '../helper.ts';

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Trades on two markets over about two months: bursts within a minute, gaps of hours and days. */
function tradeStream(count: number): TradeFact[] {
  const next = random(42);
  const trades: TradeFact[] = [];
  let timeMs = Date.UTC(2026, 0, 30, 15, 58);
  const prices = new Map([
    [1, 6_700_000],
    [2, 348_000],
  ]);
  for (let tradeId = 1; tradeId <= count; tradeId++) {
    const gap = next();
    timeMs +=
      gap < 0.6
        ? Math.floor(next() * 20_000)
        : gap < 0.95
          ? Math.floor(next() * 3_600_000)
          : Math.floor(next() * 3 * 86_400_000);
    const marketId = next() < 0.7 ? 1 : 2;
    const price = Math.max(1, Math.round((prices.get(marketId) ?? 1) * (1 + (next() - 0.5) * 0.004)));
    prices.set(marketId, price);
    const lots = 1 + Math.floor(next() * 500);
    trades.push({
      tradeId,
      marketId,
      priceTicks: price,
      quantityLots: lots,
      baseAmount: BigInt(lots) * 10_000n,
      quoteAmount: BigInt(price) * BigInt(lots),
      timeMs,
      takerSide: next() < 0.5 ? 'buy' : 'sell',
    });
  }
  return trades;
}

async function insertTrades(store: Store, trades: readonly TradeFact[]): Promise<void> {
  await store.query(
    `insert into spot_trades (trade_id, market_id, price_ticks, quantity_lots, base_amount, quote_amount,
       maker_order_id, maker_owner_key, taker_order_id, taker_owner_key, maker_side, maker_fee,
       maker_fee_currency_id, taker_fee, taker_fee_currency_id, seq, time_ms)
     select t.id, t.market, t.price, t.lots, t.base, t.quote, 1, 1, 2, 2, t.maker_side, 0, 3, 0, 1, t.id, t.time
       from unnest($1::bigint[], $2::int[], $3::bigint[], $4::bigint[], $5::numeric[], $6::numeric[], $7::text[],
                   $8::bigint[]) as t(id, market, price, lots, base, quote, maker_side, time)`,
    [
      trades.map((trade) => trade.tradeId),
      trades.map((trade) => trade.marketId),
      trades.map((trade) => trade.priceTicks),
      trades.map((trade) => trade.quantityLots),
      trades.map((trade) => trade.baseAmount.toString()),
      trades.map((trade) => trade.quoteAmount.toString()),
      trades.map((trade) => (trade.takerSide === 'buy' ? 'sell' : 'buy')),
      trades.map((trade) => trade.timeMs),
    ],
  );
}

async function storedBars(store: Store, marketId: number, period: string): Promise<Bar[]> {
  const { rows } = await store.query<Parameters<typeof barFromRow>[0]>(
    `select ${BAR_COLUMNS} from candles where market_id = $1 and period = $2 order by open_time_ms`,
    [marketId, period],
  );
  return rows.map(barFromRow);
}

describe('candle projection', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore();
    await store.query(`insert into currencies (id, code, name, scale) values (1, 'BTC', 'Bitcoin', 8), (2, 'ETH', 'Ether', 8),
      (3, 'USDT', 'Tether', 6)`);
    await store.query(`insert into markets (id, base_currency_id, quote_currency_id, symbol, price_scale, lot_size, min_size)
      values (1, 1, 3, 'BTC/USDT', 2, 10000, 10000), (2, 2, 3, 'ETH/USDT', 2, 10000, 10000)`);
  });
  afterAll(async () => {
    await store.close();
    await removeTempDirs();
  });

  it('stores exactly what a recomputation from the trades gives, across flushes, a crash and a restart', async () => {
    const trades = tradeStream(3000);
    await insertTrades(store, trades);
    // A first process folds 2000 trades, flushing now and then, then dies with 300 more folded but unflushed.
    const first = new CandleProjection(store);
    await first.load();
    for (const [index, trade] of trades.slice(0, 2300).entries()) {
      first.apply(trade);
      if (index === 0 || index === 699 || index === 1399 || index === 1999) await first.flush();
    }
    // The next process folds from the stored mark onwards, then receives the rest as live trades, some of
    // them delivered twice (a batch committed while it was catching up).
    const second = new CandleProjection(store);
    await second.load();
    expect(second.lastTradeId).toBe(2000);
    for await (const page of tradesAfter(store, second.lastTradeId)) {
      for (const trade of page) if (trade.tradeId <= 2600) second.apply(trade);
    }
    for (const trade of trades.slice(2500)) second.apply(trade);
    await second.flush();
    for (const marketId of [1, 2]) {
      const ofMarket = trades.filter((trade) => trade.marketId === marketId);
      for (const period of PERIODS) {
        expect(await storedBars(store, marketId, period), `${marketId} ${period}`).toEqual(
          candlesFromTrades(ofMarket, period),
        );
      }
    }
    const minutes = await storedBars(store, 1, '1min');
    expect(minutes.length).toBeGreaterThan(500);
    expect((await storedBars(store, 1, '1mon')).length).toBeGreaterThanOrEqual(2);
  });

  it('folds a trade into a bar: open stays, close moves, high and low widen, amounts add', () => {
    const trade = (tradeId: number, priceTicks: number, timeMs: number): TradeFact => ({
      tradeId,
      marketId: 1,
      priceTicks,
      quantityLots: 2,
      baseAmount: 20_000n,
      quoteAmount: BigInt(priceTicks) * 2n,
      timeMs,
      takerSide: 'buy',
    });
    const minute = Date.UTC(2026, 1, 1, 1, 1);
    let bar = foldTrade(undefined, '1min', trade(1, 100, minute + 5));
    bar = foldTrade(bar, '1min', trade(2, 120, minute + 10));
    bar = foldTrade(bar, '1min', trade(3, 90, minute + 59_999));
    expect(bar).toEqual({
      marketId: 1,
      period: '1min',
      openTimeMs: minute,
      open: 100,
      high: 120,
      low: 90,
      close: 90,
      volume: 60_000n,
      turnover: 620n,
      tradeCount: 3,
      firstTradeId: 1,
      lastTradeId: 3,
      source: 'trades',
    });
    expect(foldTrade(bar, '1min', trade(4, 95, minute + 60_000)).openTimeMs).toBe(minute + 60_000);
  });
});
