// What the price area reads of other areas besides the book (ports/book-and-mark.ts): declared here, bound
// in areas.ts (PORTS).
import { port } from '../kernel/ports.ts';

/** Whether a trading pair exists: only pairs get index prices and price chains. */
export type PricePairReads = { hasMarket(marketId: number): boolean };

export const PRICE_PAIRS = port<PricePairReads>('prices.pairs');
