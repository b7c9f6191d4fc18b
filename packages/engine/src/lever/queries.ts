// The read side of the lever area: `engine.lever.<query>` on the server, other areas through the ports they declare.
// Every view is a copy; the state is never handed out. Each query is proportional to what it returns.
import type { LeverSide, SetLeverPairCommand } from './commands.ts';
import type { LeverRules } from './events.ts';

/** A pair's lever rules as configured (what new positions copy). */
export type LeverPairView = Omit<SetLeverPairCommand, 'type'> & { quoteCurrencyId: number };

/** A live record: a limit entry (status 0) or a holding (status 1). Closed and revoked ones live in projections. */
export type LeverPositionView = {
  positionId: number;
  userId: number;
  marketId: number;
  quoteCurrencyId: number;
  status: 0 | 1;
  side: LeverSide;
  share: number;
  lots: number;
  multiple: number;
  entryTicks: number;
  contractValue: bigint;
  /** caution_money now (after overnight fees) and at open (origin_caution_money). */
  margin: bigint;
  originMargin: bigint;
  fee: bigint;
  /** Accumulated overnight_money. */
  overnightPaid: bigint;
  takeProfitTicks: number;
  stopLossTicks: number;
  placedMs: number;
  /** When it became a holding (0 while an entry). */
  openedMs: number;
  /** The last day whose overnight fee was charged (or the day it opened: that day is never charged). */
  lastChargedDay: number;
  rules: LeverRules;
  /** Holdings: the profit at the pair's current mark (0 for an entry or without a mark). */
  profit: bigint;
  /**
   * Holdings: the mark at which the user's positions in this quote currency are liquidated, the other pairs'
   * marks held fixed (calc `leverLiquidationTicks`); null when no mark of this pair can liquidate them.
   */
  liquidationTicks: number | null;
};

/**
 * The cross-margin account of a user in one quote currency. `riskRateBp` = (balance + margins + profits)
 * / origin margins x 10,000, rounded down; null without holdings (the spec's 0).
 */
export type LeverRiskView = {
  userId: number;
  quoteCurrencyId: number;
  /** The lever wallet's available balance. */
  balance: bigint;
  margin: bigint;
  originMargin: bigint;
  profit: bigint;
  /** balance + margin + profit: the risk rate's numerator. */
  equity: bigint;
  riskRateBp: number | null;
  /** The threshold in force: the highest copied onto the user's holdings in this currency (0 without). */
  thresholdBp: number;
  /** What the lever wallet must keep (transfers out above it only). */
  reserved: bigint;
  holdings: number;
  entries: number;
};

/** The house's exposure on one pair: lots of holdings and of waiting entries, and the limit. */
export type LeverExposureView = {
  marketId: number;
  longLots: number;
  shortLots: number;
  /** Longs minus shorts, entries included: what the limit applies to. */
  netLots: number;
  limitLots: number;
};

/** The insurance fund's lever wallet in one currency. */
export type LeverInsuranceView = { currencyId: number; balance: bigint };

export type LeverQueries = {
  /** Every configured pair, by market id. */
  pairs(): LeverPairView[];
  pair(marketId: number): LeverPairView | undefined;
  /** A user's live records (entries and holdings), id order; `status` filters. */
  positions(userId: number, status?: 0 | 1): LeverPositionView[];
  /** One live record, or undefined when it is closed, revoked or never existed. */
  position(positionId: number): LeverPositionView | undefined;
  /** The user's cross-margin account in a quote currency. */
  risk(userId: number, quoteCurrencyId: number): LeverRiskView;
  /**
   * The users holding an open position on the pair (entries do not count), ascending; proportional to the
   * answer. Whom a mark move of the pair concerns: their profits and risk rate moved with it.
   */
  holdersOf(marketId: number): number[];
  /** The users holding an open position in the quote currency, ascending; proportional to the answer. */
  holdersIn(quoteCurrencyId: number): number[];
  /** Quote currencies in which the user has live records. */
  currenciesOf(userId: number): number[];
  /** Per configured pair, the house's exposure. */
  exposure(): LeverExposureView[];
  /** The insurance fund's balance per currency it holds. */
  insuranceFund(): LeverInsuranceView[];
};
