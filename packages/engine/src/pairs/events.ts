// The pair events: a pair added with its whole specification, its fees or its market-order band changed.
import type { PairConfig } from './pair.ts';

/** A pair was added: its whole specification. */
export type MarketAddedEvent = { type: 'marketAdded' } & PairConfig;

export type MarketFeesChangedEvent = {
  type: 'marketFeesChanged';
  marketId: number;
  makerFeePpm: number;
  takerFeePpm: number;
};

export type MarketBandChangedEvent = { type: 'marketBandChanged'; marketId: number; bandPpm: number };

export type PairEvent = MarketAddedEvent | MarketFeesChangedEvent | MarketBandChangedEvent;
