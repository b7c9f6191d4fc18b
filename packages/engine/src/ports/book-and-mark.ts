// The one tie between the price area and spot, both ways, in one place: a price sample's mark reads the
// book (best bid and ask), and a market order's price-protection band reads the mark. Neither area imports
// the other; each reads through its port here, bound in areas.ts (PORTS).
import { optionalPort, port } from '../kernel/ports.ts';

/** What a price sample reads of spot: the pair's tick (to format prices) and its book's best prices. */
export type BookReads = {
  hasMarket(marketId: number): boolean;
  market(marketId: number): { tickSize: string } | undefined;
  bestPrices(marketId: number): { bidTicks: number; askTicks: number } | undefined;
};

/** What the band reads of the prices: the pair's latest mark. */
export type MarkReads = { markPrice(marketId: number): { markTicks: number | null } | undefined };

/** Prices read the book. */
export const PRICES_BOOK = port<BookReads>('prices.book');
/** Spot reads the mark; an engine without the price area has none, and market orders then have no band. */
export const SPOT_MARKS = optionalPort<MarkReads>('spot.marks');
