// The price source port. A source knows the current price of each symbol ("BTC/USDT") as decimal text in
// quote currency per base unit, and can tell the history that precedes it. The index scheduler turns its
// prices into journaled index prices; the backfill turns its history into candles marked with its name.
import type { Period } from './periods.ts';

export interface PriceQuote {
  /** Quote currency per whole base unit, plain decimal text. */
  price: string;
  /** When the source saw this price, in milliseconds since the epoch. */
  timeMs: number;
}

/** One bar of a source's history; prices and amounts are plain decimal text. */
export interface HistoryBar {
  openTimeMs: number;
  open: string;
  high: string;
  low: string;
  close: string;
  /** Base currency traded in the bar. */
  volume: string;
  /** Quote currency traded in the bar. */
  turnover: string;
}

export interface PriceSource {
  /** Short lowercase name, also the `source` of the candles it backfills ('simulated', 'binance'). */
  readonly name: string;
  /**
   * Whether the source can price the symbol at all (absent: it may; a live feed learns only by waiting). A
   * market no source can price (a token only users trade, such as IEPN/USDT) is not waited for at start.
   */
  knows?(symbol: string): boolean;
  /** Begins watching these symbols. */
  start(symbols: readonly string[]): void;
  /**
   * Continues from a recorded price (the journaled index at start-up). A simulator walks on from it; a
   * live feed ignores it.
   */
  resume(symbol: string, price: string, timeMs: number): void;
  /** The latest price at `nowMs`, or undefined when the source has none (yet) for the symbol. */
  latest(symbol: string, nowMs: number): PriceQuote | undefined;
  /**
   * Complete bars of every period that ended at or before `untilMs`, oldest first, as far back as the source
   * offers (enough for every chart interval to show history). `endPrice` is where the history must arrive
   * (a simulator ends its made-up history there; a real exchange's history ends where it ends).
   */
  history(symbol: string, untilMs: number, endPrice: string): Promise<Map<Period, HistoryBar[]>>;
  close(): Promise<void>;
}
