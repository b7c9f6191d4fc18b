// Reading bars for a chart: stored candles in a time range, with the bar still being folded in memory laid
// over the stored one (the store is at most one flush interval behind).
import type { Queryable } from '../store/index.ts';
import type { Bar } from './candles.ts';
import { BAR_COLUMNS, barFromRow } from './candles.ts';
import type { MarketInfo } from './market-catalog.ts';
import type { MarketData } from './market-data.ts';
import type { Period } from './periods.ts';

/** The most bars one request returns: the newest ones of a longer range. */
export const MAX_BARS = 1_500;

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
  return bars;
}
