import type { PriceSourceQuote } from './commands.ts';

/** The market's index price is now `priceTicks`, from the time of the command that recorded it. */
export type IndexPriceRecordedEvent = { type: 'indexPriceRecorded'; marketId: number; priceTicks: number };

/**
 * One link of a market's price chain. `indexTicks`/`markTicks` are null while no good sample has been seen;
 * a stale sample repeats the last good values. `hash` = SHA-256(prevHash || canonical record), see
 * price-record.ts; `head` marks a sample published as the market's head.
 */
export type PriceSampledEvent = {
  type: 'priceSampled';
  marketId: number;
  seq: number;
  timeMs: number;
  sourceTimeMs: number | null;
  indexTicks: number | null;
  markTicks: number | null;
  stale: boolean;
  sources: PriceSourceQuote[];
  prevHash: string;
  hash: string;
  head: boolean;
};

export type MarketDataEvent = IndexPriceRecordedEvent | PriceSampledEvent;
