// History on a first start: every market that has no candles at all gets the price source's history (the
// simulator's made-up past, or a real exchange's public klines) written as candles whose `source` names
// where they came from, and a market_backfills row saying which range that covers. Only whole buckets that
// ended before the backfill are written, so a backfilled bar never shares a bucket with real trades, and the
// 24-hour tickers, built from trades alone, never count backfilled volume.
import type { Engine } from '@fairex/engine';
import type { Store } from '../store/index.ts';
import type { Bar } from './candles.ts';
import { upsertBars } from './candles.ts';
import type { MarketCatalog, MarketInfo } from './market-catalog.ts';
import { decimalTextToMinor, formatPrice, priceTextToTicks } from './market-catalog.ts';
import type { HistoryBar, PriceSource } from './price-source.ts';
import type { Period } from './periods.ts';
import { nextBucketStartMs } from './periods.ts';

export interface BackfillOptions {
  store: Pick<Store, 'query' | 'transaction'>;
  engine: Engine;
  /** The markets to backfill (marketsWithoutHistory, taken before any trade of this start). */
  markets: readonly MarketInfo[];
  source: PriceSource;
  /** The end of the history: buckets that end after it are not written. */
  untilMs: number;
  logger: { info(object: object, message?: string): void; warn(object: object, message?: string): void };
}

/**
 * The markets that have never had a candle nor a backfill. Taken before the first trade of this start, and with `untilMs` taken then too, backfilled buckets all end before any trade's bucket.
 */
export async function marketsWithoutHistory(
  store: Pick<Store, 'query'>,
  catalog: MarketCatalog,
): Promise<MarketInfo[]> {
  const markets: MarketInfo[] = [];
  for (const market of catalog.list()) if (!(await hasHistory(store, market.marketId))) markets.push(market);
  return markets;
}

const INSERT_CHUNK = 5_000;

const BETWEEN_MARKETS_MS = 10;

/** Backfills the given markets that have an index price; returns the number of bars written. */
export async function backfillHistory(options: BackfillOptions): Promise<number> {
  let written = 0;
  const untilMs = options.untilMs;
  for (const market of options.markets) {
    // A few milliseconds for the event loop between markets. PGlite runs on this thread and its queries
    // resolve as microtasks, so a chain of them never lets the server read a request: without this pause a
    // first start answered nothing, health checks included, until every market's history was written
    // (about a second). One turn is not enough: accepting a connection and reading its request take two.
    await new Promise((resolve) => setTimeout(resolve, BETWEEN_MARKETS_MS));
    const index = options.engine.market.indexPrice(market.marketId);
    if (index === undefined) continue;
    let history: Map<Period, HistoryBar[]>;
    try {
      history = await options.source.history(market.symbol, untilMs, formatPrice(market, index.priceTicks));
    } catch (error) {
      options.logger.warn(
        { err: error, symbol: market.symbol },
        'history backfill failed; the chart starts empty',
      );
      continue;
    }
    const bars = toBars(market, history, untilMs, options.source.name);
    if (bars.length === 0) continue;
    const fromMs = Math.min(...bars.map((bar) => bar.openTimeMs));
    await options.store.transaction(async (tx) => {
      for (let start = 0; start < bars.length; start += INSERT_CHUNK) {
        await upsertBars(tx, bars.slice(start, start + INSERT_CHUNK), 'keep');
      }
      await tx.query(
        `insert into market_backfills (market_id, source, from_ms, to_ms, bar_count) values ($1, $2, $3, $4, $5)
         on conflict (market_id) do nothing`,
        [market.marketId, options.source.name, fromMs, untilMs, bars.length],
      );
    });
    written += bars.length;
    options.logger.info(
      { symbol: market.symbol, source: options.source.name, bars: bars.length },
      'history backfilled',
    );
  }
  return written;
}

async function hasHistory(store: Pick<Store, 'query'>, marketId: number): Promise<boolean> {
  const { rows } = await store.query(
    `select 1 from market_backfills where market_id = $1
     union all select 1 from candles where market_id = $1 limit 1`,
    [marketId],
  );
  return rows.length > 0;
}

/** Source bars as candles in the market's ticks and minor units; a bar that does not convert is left out. */
export function toBars(
  market: MarketInfo,
  history: Map<Period, HistoryBar[]>,
  untilMs: number,
  source: string,
): Bar[] {
  const bars: Bar[] = [];
  for (const [period, list] of history) {
    for (const bar of list) {
      if (nextBucketStartMs(period, bar.openTimeMs) > untilMs) continue;
      const [open, high, low, close] = [bar.open, bar.high, bar.low, bar.close].map((text) =>
        priceTextToTicks(market, text),
      );
      const volume = decimalTextToMinor(bar.volume, market.baseScale);
      const turnover = decimalTextToMinor(bar.turnover, market.quoteScale);
      if (open === undefined || high === undefined || low === undefined || close === undefined) continue;
      if (
        volume === undefined ||
        turnover === undefined ||
        low > Math.min(open, close) ||
        high < Math.max(open, close)
      )
        continue;
      bars.push({
        marketId: market.marketId,
        period,
        openTimeMs: bar.openTimeMs,
        open,
        high,
        low,
        close,
        // Volume is what traded on this exchange: a bar from a price source (simulated, or another
        // exchange's history) records none, so that no client shows it as trades (template-era clients
        // ignore `source`). Its prices are kept; its volume was only checked to be well formed.
        volume: 0n,
        turnover: 0n,
        tradeCount: 0,
        firstTradeId: null,
        lastTradeId: null,
        source,
      });
    }
  }
  return bars;
}
