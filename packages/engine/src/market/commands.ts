/**
 * Records the index (mark) price of a market: the price source's price, converted to the market's ticks by
 * the scheduler that submits it. Leverage and seconds contracts settle on the index in force at a command's
 * time, so the index lives in the journal like every other input: a replay meets the same prices.
 */
export type RecordIndexPriceCommand = { type: 'recordIndexPrice'; marketId: number; priceTicks: number };

export type MarketDataCommand = RecordIndexPriceCommand;
