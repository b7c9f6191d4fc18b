/**
 * Records the index (mark) price of a market: the price source's price, converted to the market's ticks by
 * the scheduler that submits it. Leverage and seconds contracts settle on the index in force at a command's
 * time, so the index lives in the journal like every other input: a replay meets the same prices.
 */
export type RecordIndexPriceCommand = { type: 'recordIndexPrice'; marketId: number; priceTicks: number };

/** One source's price for a market: its short name, the price in the market's ticks, and when the source saw it. */
export type PriceSourceQuote = [name: string, priceTicks: number, timeMs: number];

/**
 * One price sample per listed market (the price scheduler sends one such command a second for every market).
 * The engine derives everything else: which sources are fresh (`timeMs` at most `maxAgeMs` before the
 * command time), whether the sample is stale (fewer than `minSources` fresh), the index (median of the fresh
 * prices), the mark (index plus the damped basis to the market's own book), the chain link (seq, prev hash,
 * hash) and whether the sample is a published head (the first sample of its market in each
 * `headIntervalMs` of command time). Sources are listed in ascending name order, each name once.
 */
export type RecordPriceSamplesCommand = {
  type: 'recordPriceSamples';
  maxAgeMs: number;
  minSources: number;
  headIntervalMs: number;
  samples: [marketId: number, sources: PriceSourceQuote[]][];
};

export type MarketDataCommand = RecordIndexPriceCommand | RecordPriceSamplesCommand;
