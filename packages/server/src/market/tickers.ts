// 24-hour rolling tickers from this exchange's own trades: last price, change, high, low, volume and turnover.
// Each market keeps one-minute buckets of the last 24 hours; the window is the buckets that end after
// now - 24 h, so it is exact to the minute. Backfilled history never enters a ticker: a market with no trade
// in the window shows its last price (if it ever traded), no change, and zero volume.
import type { Bar, TradeFact } from './candles.ts';

const MINUTE_MS = 60_000;
export const TICKER_WINDOW_MS = 24 * 60 * MINUTE_MS;

interface MinuteBucket {
  startMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: bigint;
  turnover: bigint;
}

export interface Ticker {
  marketId: number;
  /** Last trade price in ticks; undefined when the market never traded. */
  lastTicks: number | undefined;
  lastTradeTimeMs: number | undefined;
  /** The first price of the window (what the change is measured from). */
  openTicks: number | undefined;
  highTicks: number | undefined;
  lowTicks: number | undefined;
  /** Base minor units. */
  volume: bigint;
  /** Quote minor units. */
  turnover: bigint;
}

class MarketWindow {
  readonly buckets: MinuteBucket[] = [];
  lastTicks: number | undefined;
  lastTradeTimeMs: number | undefined;

  add(trade: TradeFact): void {
    const startMs = Math.floor(trade.timeMs / MINUTE_MS) * MINUTE_MS;
    const last = this.buckets[this.buckets.length - 1];
    if (last !== undefined && last.startMs === startMs) {
      last.high = Math.max(last.high, trade.priceTicks);
      last.low = Math.min(last.low, trade.priceTicks);
      last.close = trade.priceTicks;
      last.volume += trade.baseAmount;
      last.turnover += trade.quoteAmount;
    } else {
      this.buckets.push({
        startMs,
        open: trade.priceTicks,
        high: trade.priceTicks,
        low: trade.priceTicks,
        close: trade.priceTicks,
        volume: trade.baseAmount,
        turnover: trade.quoteAmount,
      });
    }
    this.lastTicks = trade.priceTicks;
    this.lastTradeTimeMs = trade.timeMs;
  }

  /** Drops buckets that ended before the window. */
  trim(nowMs: number): void {
    let drop = 0;
    while (
      drop < this.buckets.length &&
      (this.buckets[drop] as MinuteBucket).startMs + MINUTE_MS <= nowMs - TICKER_WINDOW_MS
    ) {
      drop++;
    }
    if (drop > 0) this.buckets.splice(0, drop);
  }
}

export class TickerBook {
  readonly #windows = new Map<number, MarketWindow>();

  #window(marketId: number): MarketWindow {
    let window = this.#windows.get(marketId);
    if (window === undefined) {
      window = new MarketWindow();
      this.#windows.set(marketId, window);
    }
    return window;
  }

  /** Sets the last trade of a market that has not traded in the window (read at start-up). */
  setLast(marketId: number, priceTicks: number, timeMs: number): void {
    const window = this.#window(marketId);
    if (window.lastTradeTimeMs === undefined || window.lastTradeTimeMs < timeMs) {
      window.lastTicks = priceTicks;
      window.lastTradeTimeMs = timeMs;
    }
  }

  /** Adds a stored one-minute bar of trades (at start-up, oldest first, before any trade is added). */
  addMinuteBar(bar: Bar): void {
    const window = this.#window(bar.marketId);
    const last = window.buckets[window.buckets.length - 1];
    if (last !== undefined && last.startMs >= bar.openTimeMs) return;
    const { open, high, low, close, volume, turnover } = bar;
    window.buckets.push({ startMs: bar.openTimeMs, open, high, low, close, volume, turnover });
  }

  /** Adds a committed trade; trades of a market must come in time order (the runner's times never fall). */
  add(trade: TradeFact): void {
    this.#window(trade.marketId).add(trade);
  }

  /** Whether a user ever traded the market (its last price is known). */
  hasTraded(marketId: number): boolean {
    return this.#windows.get(marketId)?.lastTicks !== undefined;
  }

  ticker(marketId: number, nowMs: number): Ticker {
    const window = this.#window(marketId);
    window.trim(nowMs);
    const ticker: Ticker = {
      marketId,
      lastTicks: window.lastTicks,
      lastTradeTimeMs: window.lastTradeTimeMs,
      openTicks: undefined,
      highTicks: undefined,
      lowTicks: undefined,
      volume: 0n,
      turnover: 0n,
    };
    for (const bucket of window.buckets) {
      ticker.openTicks ??= bucket.open;
      ticker.highTicks = Math.max(ticker.highTicks ?? bucket.high, bucket.high);
      ticker.lowTicks = Math.min(ticker.lowTicks ?? bucket.low, bucket.low);
      ticker.volume += bucket.volume;
      ticker.turnover += bucket.turnover;
    }
    return ticker;
  }
}
