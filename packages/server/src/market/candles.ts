// Candles from trades: the projection that turns each committed spot trade with a user on at least one side
// (spot_trades.with_user; the only trades public figures count) into the bars of every period.
// Bars are folded in memory (only the latest bar of a market and period can change, because trades arrive
// in time order), written to the candles table at most once a second together with the last trade folded,
// and on start-up the trades after that mark are folded again, so the table always equals a recomputation
// from the trades with a user in spot_trades. `candlesFromTrades` is that recomputation, used by tests.
import type { Queryable, Store } from '../store/index.ts';
import type { Period } from './periods.ts';
import { bucketStartMs, PERIODS } from './periods.ts';

/** A committed trade as market data needs it. */
export interface TradeFact {
  tradeId: number;
  marketId: number;
  priceTicks: number;
  quantityLots: number;
  baseAmount: bigint;
  quoteAmount: bigint;
  timeMs: number;
  /** The side of the order that took liquidity. */
  takerSide: 'buy' | 'sell';
}

export interface Bar {
  marketId: number;
  period: Period;
  openTimeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base minor units. */
  volume: bigint;
  /** Quote minor units. */
  turnover: bigint;
  tradeCount: number;
  firstTradeId: number | null;
  lastTradeId: number | null;
  /** 'trades', or the source that backfilled the bar. */
  source: string;
}

export const CANDLE_PROGRESS = 'candles';

/** The bar after folding `trade` into `bar`, or a new bar when the trade opens a new bucket. */
export function foldTrade(bar: Bar | undefined, period: Period, trade: TradeFact): Bar {
  const openTimeMs = bucketStartMs(period, trade.timeMs);
  if (bar === undefined || bar.openTimeMs !== openTimeMs) {
    return {
      marketId: trade.marketId,
      period,
      openTimeMs,
      open: trade.priceTicks,
      high: trade.priceTicks,
      low: trade.priceTicks,
      close: trade.priceTicks,
      volume: trade.baseAmount,
      turnover: trade.quoteAmount,
      tradeCount: 1,
      firstTradeId: trade.tradeId,
      lastTradeId: trade.tradeId,
      source: 'trades',
    };
  }
  return {
    ...bar,
    high: Math.max(bar.high, trade.priceTicks),
    low: Math.min(bar.low, trade.priceTicks),
    close: trade.priceTicks,
    volume: bar.volume + trade.baseAmount,
    turnover: bar.turnover + trade.quoteAmount,
    tradeCount: bar.tradeCount + 1,
    lastTradeId: trade.tradeId,
  };
}

/** Every bar of one market and period, recomputed from its trades (in trade id order). */
export function candlesFromTrades(trades: readonly TradeFact[], period: Period): Bar[] {
  const bars: Bar[] = [];
  let current: Bar | undefined;
  for (const trade of trades) {
    const next = foldTrade(current, period, trade);
    if (next.openTimeMs !== current?.openTimeMs && current !== undefined) bars.push(current);
    current = next;
  }
  if (current !== undefined) bars.push(current);
  return bars;
}

const barKey = (marketId: number, period: Period) => `${marketId}:${period}`;

interface BarRow {
  market_id: number;
  period: Period;
  open_time_ms: bigint;
  open_ticks: bigint;
  high_ticks: bigint;
  low_ticks: bigint;
  close_ticks: bigint;
  volume: string;
  turnover: string;
  trade_count: number;
  first_trade_id: bigint | null;
  last_trade_id: bigint | null;
  source: string;
}

export function barFromRow(row: BarRow): Bar {
  return {
    marketId: row.market_id,
    period: row.period,
    openTimeMs: Number(row.open_time_ms),
    open: Number(row.open_ticks),
    high: Number(row.high_ticks),
    low: Number(row.low_ticks),
    close: Number(row.close_ticks),
    // Only trades make volume: a stored bar from a price source (backfilled or simulated history, even one
    // an older version stored with the source's volume) is served with none, in every reply shape.
    volume: row.source === 'trades' ? BigInt(row.volume) : 0n,
    turnover: row.source === 'trades' ? BigInt(row.turnover) : 0n,
    tradeCount: row.trade_count,
    firstTradeId: row.first_trade_id === null ? null : Number(row.first_trade_id),
    lastTradeId: row.last_trade_id === null ? null : Number(row.last_trade_id),
    source: row.source,
  };
}

export const BAR_COLUMNS = `market_id, period, open_time_ms, open_ticks, high_ticks, low_ticks, close_ticks, volume,
  turnover, trade_count, first_trade_id, last_trade_id, source`;

interface TradeRow {
  trade_id: bigint;
  market_id: number;
  price_ticks: bigint;
  quantity_lots: bigint;
  base_amount: string;
  quote_amount: string;
  maker_side: 'buy' | 'sell';
  time_ms: bigint;
}

export const TRADE_COLUMNS =
  'trade_id, market_id, price_ticks, quantity_lots, base_amount, quote_amount, maker_side, time_ms';

export function tradeFromRow(row: TradeRow): TradeFact {
  return {
    tradeId: Number(row.trade_id),
    marketId: row.market_id,
    priceTicks: Number(row.price_ticks),
    quantityLots: Number(row.quantity_lots),
    baseAmount: BigInt(row.base_amount),
    quoteAmount: BigInt(row.quote_amount),
    timeMs: Number(row.time_ms),
    takerSide: row.maker_side === 'buy' ? 'sell' : 'buy',
  };
}

export class CandleProjection {
  readonly #store: Pick<Store, 'query' | 'transaction'>;
  /** The latest bar from trades per market and period. */
  readonly #latest = new Map<string, Bar>();
  readonly #dirty = new Set<string>();
  /** Bars that ended with changes not yet stored (a trade opened the next bucket before the flush). */
  #completed: Bar[] = [];
  #lastTradeId = 0;
  #flushedTradeId = 0;
  #flushing: Promise<void> | undefined;
  #writing = false;

  constructor(store: Pick<Store, 'query' | 'transaction'>) {
    this.#store = store;
  }

  get lastTradeId(): number {
    return this.#lastTradeId;
  }

  /**
   * Loads the progress mark and the latest bar of every market and period. The caller then folds the trades
   * committed after the mark (tradesAfter) and flushes.
   */
  async load(): Promise<void> {
    const progress = await this.#store.query<{ last_trade_id: bigint }>(
      'select last_trade_id from market_data_progress where name = $1',
      [CANDLE_PROGRESS],
    );
    this.#lastTradeId = Number(progress.rows[0]?.last_trade_id ?? 0n);
    this.#flushedTradeId = this.#lastTradeId;
    const { rows } = await this.#store.query<BarRow>(
      `select distinct on (market_id, period) ${BAR_COLUMNS}
         from candles where source = 'trades'
        order by market_id, period, open_time_ms desc`,
    );
    for (const row of rows) this.#latest.set(barKey(row.market_id, row.period), barFromRow(row));
  }

  /**
   * Folds a committed trade into the bars of every period and returns them. A trade at or below the mark
   * (already folded, e.g. read while catching up and then delivered again) changes nothing.
   */
  apply(trade: TradeFact): Bar[] {
    if (trade.tradeId <= this.#lastTradeId) return [];
    this.#lastTradeId = trade.tradeId;
    const changed: Bar[] = [];
    for (const period of PERIODS) {
      const key = barKey(trade.marketId, period);
      const previous = this.#latest.get(key);
      const bar = foldTrade(previous, period, trade);
      // A bar that ends with changes not yet stored (or being stored by a write that may fail) is kept.
      if (
        previous !== undefined &&
        previous.openTimeMs !== bar.openTimeMs &&
        (this.#dirty.has(key) || this.#writing)
      ) {
        this.#completed.push(previous);
      }
      this.#latest.set(key, bar);
      this.#dirty.add(key);
      changed.push(bar);
    }
    return changed;
  }

  latest(marketId: number, period: Period): Bar | undefined {
    return this.#latest.get(barKey(marketId, period));
  }

  /** Writes the changed bars and the progress mark in one transaction. Calls made meanwhile wait for it. */
  flush(): Promise<void> {
    const run = (this.#flushing ?? Promise.resolve()).catch(() => {}).then(() => this.#write());
    this.#flushing = run;
    return run;
  }

  async #write(): Promise<void> {
    if (this.#dirty.size === 0 && this.#flushedTradeId === this.#lastTradeId) return;
    const completed = this.#completed;
    const latest = [...this.#dirty].map((key) => this.#latest.get(key) as Bar);
    const bars = [...completed, ...latest];
    const lastTradeId = this.#lastTradeId;
    this.#completed = [];
    this.#dirty.clear();
    this.#writing = true;
    try {
      await this.#store.transaction(async (tx) => {
        await upsertBars(tx, bars);
        await tx.query(
          `insert into market_data_progress (name, last_trade_id, updated_at) values ($1, $2, now())
           on conflict (name) do update set last_trade_id = excluded.last_trade_id, updated_at = now()`,
          [CANDLE_PROGRESS, lastTradeId],
        );
      });
      this.#flushedTradeId = lastTradeId;
      this.#writing = false;
    } catch (error) {
      this.#writing = false;
      // Keep them pending: the next flush writes them again (stored bars are replaced, never added to).
      this.#completed = [...completed, ...this.#completed];
      for (const bar of latest) this.#dirty.add(barKey(bar.marketId, bar.period));
      throw error;
    }
  }
}

/** Trades read per query while catching up. */
const CATCH_UP_PAGE = 5_000;

/** Every trade with a user after `tradeId`, in id order, page by page. */
export async function* tradesAfter(db: Queryable, tradeId: number): AsyncGenerator<TradeFact[]> {
  let after = tradeId;
  for (;;) {
    const page = await db.query<TradeRow>(
      `select ${TRADE_COLUMNS} from spot_trades where trade_id > $1 and with_user
        order by trade_id limit ${CATCH_UP_PAGE}`,
      [after],
    );
    const trades = page.rows.map(tradeFromRow);
    if (trades.length > 0) yield trades;
    if (trades.length < CATCH_UP_PAGE) return;
    after = (trades[trades.length - 1] as TradeFact).tradeId;
  }
}

/** Inserts or replaces bars, one statement for all of them. */
export async function upsertBars(
  tx: Queryable,
  given: readonly Bar[],
  onConflict: 'replace' | 'keep' = 'replace',
) {
  // One statement may not touch a row twice: of two versions of a bar, the later one is written.
  const unique = new Map<string, Bar>();
  for (const bar of given) unique.set(`${bar.marketId}:${bar.period}:${bar.openTimeMs}`, bar);
  const bars = [...unique.values()];
  if (bars.length === 0) return;
  const conflict =
    onConflict === 'keep'
      ? 'do nothing'
      : `do update set open_ticks = excluded.open_ticks, high_ticks = excluded.high_ticks,
           low_ticks = excluded.low_ticks, close_ticks = excluded.close_ticks, volume = excluded.volume,
           turnover = excluded.turnover, trade_count = excluded.trade_count,
           first_trade_id = excluded.first_trade_id, last_trade_id = excluded.last_trade_id,
           source = excluded.source`;
  await tx.query(
    `insert into candles (${BAR_COLUMNS})
     select * from unnest($1::int[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[],
                          $7::bigint[], $8::numeric[], $9::numeric[], $10::int[], $11::bigint[], $12::bigint[],
                          $13::text[])
     on conflict (market_id, period, open_time_ms) ${conflict}`,
    [
      bars.map((bar) => bar.marketId),
      bars.map((bar) => bar.period),
      bars.map((bar) => bar.openTimeMs),
      bars.map((bar) => bar.open),
      bars.map((bar) => bar.high),
      bars.map((bar) => bar.low),
      bars.map((bar) => bar.close),
      bars.map((bar) => bar.volume.toString()),
      bars.map((bar) => bar.turnover.toString()),
      bars.map((bar) => bar.tradeCount),
      bars.map((bar) => bar.firstTradeId),
      bars.map((bar) => bar.lastTradeId),
      bars.map((bar) => bar.source),
    ],
  );
}
