// Reading bars for a chart: stored candles in a time range, with the bar still being folded in memory laid
// over the stored one (the store is at most one flush interval behind), and, until the market's first trade
// with a user, bars of the recorded index price after the stored history, so that a chart keeps drawing.
import type { Queryable } from '../store/index.ts';
import type { Bar } from './candles.ts';
import { BAR_COLUMNS, barFromRow } from './candles.ts';
import type { MarketInfo } from './market-catalog.ts';
import type { MarketData } from './market-data.ts';
import type { Period } from './periods.ts';
import { bucketStartMs, nominalLengthMs } from './periods.ts';

/** The most bars one request returns: the newest ones of a longer range. */
export const MAX_BARS = 1_500;

/** The `source` of a bar made from the recorded index price (docs/market-data.md). */
export const INDEX_SOURCE = 'index';

export async function barsInRange(
  db: Queryable,
  marketData: MarketData,
  market: MarketInfo,
  period: Period,
  fromMs: number,
  toMs: number,
): Promise<Bar[]> {
  const { rows } = await db.query<Parameters<typeof barFromRow>[0]>(
    `select ${BAR_COLUMNS} from candles
      where market_id = $1 and period = $2 and open_time_ms between $3 and $4
      order by open_time_ms desc limit ${MAX_BARS}`,
    [market.marketId, period, fromMs, toMs],
  );
  const bars = rows.map(barFromRow).reverse();
  const live = marketData.candles.latest(market.marketId, period);
  if (live !== undefined && live.openTimeMs >= fromMs && live.openTimeMs <= toMs) {
    const last = bars[bars.length - 1];
    if (last !== undefined && last.openTimeMs === live.openTimeMs) bars[bars.length - 1] = live;
    else if (last === undefined || last.openTimeMs < live.openTimeMs) {
      bars.push(live);
      if (bars.length > MAX_BARS) bars.shift();
    }
  }
  const index = await indexBars(db, marketData, market, period, fromMs, toMs, bars);
  if (index.length === 0) return bars;
  const merged = [...bars, ...index].sort((a, b) => a.openTimeMs - b.openTimeMs);
  return merged.slice(Math.max(0, merged.length - MAX_BARS));
}

/**
 * Bars of the recorded index price (stale samples left out) for the buckets of the range that have no
 * stored bar and start before the market's first bar of trades: before any user trades, a chart keeps
 * drawing from the price record; from the first trade on, only trades make bars. A bucket is never both
 * (the bucket of the first trade is a bar of trades alone), and index bars carry no volume. Monthly bars,
 * whose length is not fixed, get none.
 */
export async function indexBars(
  db: Queryable,
  marketData: MarketData,
  market: MarketInfo,
  period: Period,
  fromMs: number,
  toMs: number,
  stored: readonly Bar[],
): Promise<Bar[]> {
  if (period === '1mon') return [];
  let endMs = toMs;
  if (marketData.candles.latest(market.marketId, period) !== undefined) {
    const first = await db.query<{ first: bigint | number | null }>(
      `select min(open_time_ms) as first from candles
        where market_id = $1 and period = $2 and source = 'trades'`,
      [market.marketId, period],
    );
    const firstTrade = first.rows[0]?.first;
    // The live bar is the first when nothing is stored yet.
    const firstMs = Math.min(
      firstTrade === null || firstTrade === undefined ? Infinity : Number(firstTrade),
      marketData.candles.latest(market.marketId, period)?.openTimeMs ?? Infinity,
    );
    endMs = Math.min(endMs, firstMs - 1);
  }
  if (endMs < fromMs) return [];
  const lengthMs = nominalLengthMs(period);
  // bucketStartMs(t) = floor((t + offset) / length) * length - offset for every fixed-length period.
  const offsetMs = (lengthMs - (bucketStartMs(period, 100 * lengthMs) % lengthMs)) % lengthMs;
  const { rows } = await db.query<{
    bucket: bigint | number;
    open: bigint | number;
    high: bigint | number;
    low: bigint | number;
    close: bigint | number;
  }>(
    `select bucket, (array_agg(index_ticks order by seq))[1] as open, max(index_ticks) as high,
            min(index_ticks) as low, (array_agg(index_ticks order by seq desc))[1] as close
       from (select ((time_ms + $4) / $5) * $5 - $4 as bucket, seq, index_ticks from price_samples
              where market_id = $1 and time_ms >= $2 and time_ms <= $3 and not stale
                and index_ticks is not null) as samples
      group by bucket order by bucket desc limit ${MAX_BARS}`,
    [market.marketId, fromMs, endMs, offsetMs, lengthMs],
  );
  const taken = new Set(stored.map((bar) => bar.openTimeMs));
  const bars: Bar[] = [];
  // The index is recorded in the market's price ticks, the unit of the trade bars.
  const ticks = (value: bigint | number) => Number(value);
  for (const row of rows.reverse()) {
    const openTimeMs = Number(row.bucket);
    if (taken.has(openTimeMs) || openTimeMs < fromMs) continue;
    bars.push({
      marketId: market.marketId,
      period,
      openTimeMs,
      open: ticks(row.open),
      high: ticks(row.high),
      low: ticks(row.low),
      close: ticks(row.close),
      volume: 0n,
      turnover: 0n,
      tradeCount: 0,
      firstTradeId: null,
      lastTradeId: null,
      source: INDEX_SOURCE,
    });
  }
  return bars;
}
