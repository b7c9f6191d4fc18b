// What the seconds contracts area reads of other areas: declared here, bound in areas.ts (PORTS).
import { port } from '../kernel/ports.ts';

/** Whether a trading pair exists. */
export type MicroPairReads = { hasMarket(marketId: number): boolean };

/** A pair's latest price sample and its chain's newest link. */
export type MicroPriceReads = {
  markPrice(
    marketId: number,
  ):
    | { seq: number; timeMs: number; stale: boolean; indexTicks: number | null; markTicks: number | null }
    | undefined;
  priceChain(marketId: number): { latest: { seq: number; hash: string } } | undefined;
};

export const MICRO_PAIRS = port<MicroPairReads>('micro.pairs');
export const MICRO_PRICES = port<MicroPriceReads>('micro.prices');
