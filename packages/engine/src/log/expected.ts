// What the transparency log reads of other areas: declared here, bound in areas.ts (PORTS).
import { port } from '../kernel/ports.ts';

/** A price sample's pair: its currencies, for the sample's symbol. */
export type LogPairReads = {
  market(marketId: number): { baseCurrencyId: number; quoteCurrencyId: number } | undefined;
};

/** Leveraged holdings, for the liabilities capture's profit and loss columns. */
export type LogLeverReads = {
  pairs(): readonly { quoteCurrencyId: number }[];
  holdersIn(quoteCurrencyId: number): number[];
  positions(userId: number, status?: 0 | 1): readonly { quoteCurrencyId: number; profit: bigint }[];
};

export const LOG_PAIRS = port<LogPairReads>('log.pairs');
export const LOG_LEVER = port<LogLeverReads>('log.lever');
