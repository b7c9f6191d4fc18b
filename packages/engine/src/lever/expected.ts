// What the lever area reads of other areas: declared here, bound in areas.ts (PORTS), never imported.
import { port } from '../kernel/ports.ts';

/** A trading pair's specification, as far as leverage needs it. */
export type LeverPairReads = {
  market(marketId: number): { quoteCurrencyId: number; quoteMinorPerTickLot: bigint } | undefined;
};

/** A pair's mark: the latest price sample's, and whether it is fresh enough to act on. */
export type LeverPriceReads = {
  markPrice(marketId: number): { markTicks: number | null } | undefined;
  isMarkFresh(marketId: number, maxAgeMs: number): boolean;
};

export const LEVER_PAIRS = port<LeverPairReads>('lever.pairs');
export const LEVER_PRICES = port<LeverPriceReads>('lever.prices');
