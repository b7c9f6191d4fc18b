// Events of the lever area, projected by the server into its records and pushes. Every amount is bigint
// minor units of the quote currency; every price integer ticks; `markTicks` is the mark the engine used.
import type { LeverSide } from './commands.ts';

/** The rule values copied onto a record when it is placed; later changes of the pair never touch it. */
export type LeverRules = {
  lotsPerShare: number;
  spreadPpm: number;
  feePpm: number;
  overnightPpm: number;
  liquidationThresholdBp: number;
  liquidationFeePpm: number;
};

/** A pair's lever rules were set; the server re-reads them from `engine.lever.pair(marketId)`. */
export type LeverPairConfiguredEvent = { type: 'leverPairConfigured'; marketId: number; enabled: boolean };

/** The fields every record event carries. */
export type LeverRecordFields = {
  positionId: number;
  userId: number;
  marketId: number;
  quoteCurrencyId: number;
  side: LeverSide;
  share: number;
  /** share x lotsPerShare: the contract size in spot lots (`number`). */
  lots: number;
  multiple: number;
  /** The entry price: the mark plus/minus the spread at market, the target for a limit entry. */
  entryTicks: number;
  /** entry x lots x quote per tick-lot (`all_money`). */
  contractValue: bigint;
  /** caution_money at open (`origin_caution_money`). */
  margin: bigint;
  fee: bigint;
  rules: LeverRules;
};

/** A limit entry (status 0) was placed: margin and fee held on the user's lever wallet. */
export type LeverEntryPlacedEvent = LeverRecordFields & {
  type: 'leverEntryPlaced';
  placedMs: number;
  /** The mark when the entry was placed. */
  markTicks: number;
};

/** A limit entry was revoked (status 4): margin and fee returned. */
export type LeverEntryRevokedEvent = {
  type: 'leverEntryRevoked';
  positionId: number;
  userId: number;
  marketId: number;
  quoteCurrencyId: number;
  marginRefund: bigint;
  feeRefund: bigint;
};

/** A position opened (status 1): at market (`fromEntry` false) or a limit entry whose target the mark crossed. */
export type LeverPositionOpenedEvent = LeverRecordFields & {
  type: 'leverPositionOpened';
  fromEntry: boolean;
  openedMs: number;
  /** The mark the entry price came from (market) or that crossed the target (entry). */
  markTicks: number;
};

/** Take-profit and stop-loss set on a holding (0: none). */
export type LeverStopsSetEvent = {
  type: 'leverStopsSet';
  positionId: number;
  userId: number;
  marketId: number;
  takeProfitTicks: number;
  stopLossTicks: number;
};

export type LeverCloseReason = 'user' | 'batch' | 'takeProfit' | 'stopLoss' | 'liquidation';

/**
 * A holding closed (status 3) at `closeTicks` (the mark). `profit` is (close - entry) x lots x quote per
 * tick-lot for a long, the reverse for a short. Money moved: `returned` to the user's available balance
 * (margin left plus profit paid); on a loss, `lossFromMargin`, `lossFromBalance` and `lossFromOtherMargins`
 * went to the house, and `shortfall` was paid to the house by the insurance fund; `houseUnpaid` is profit
 * the house could not pay (its lever wallet was empty; disclosed, never silently dropped).
 */
export type LeverPositionClosedEvent = {
  type: 'leverPositionClosed';
  positionId: number;
  userId: number;
  marketId: number;
  quoteCurrencyId: number;
  side: LeverSide;
  lots: number;
  entryTicks: number;
  closeTicks: number;
  markTicks: number;
  reason: LeverCloseReason;
  closedMs: number;
  /** The margin at close (after overnight fees) and at open. */
  margin: bigint;
  originMargin: bigint;
  overnightPaid: bigint;
  profit: bigint;
  returned: bigint;
  lossFromMargin: bigint;
  lossFromBalance: bigint;
  lossFromOtherMargins: bigint;
  shortfall: bigint;
  /** Loss neither the user nor the insurance fund could pay: the house bears it (no money moves). */
  uncovered: bigint;
  houseUnpaid: bigint;
};

/**
 * Cross margin: a closed position's loss beyond its own margin and the lever balance was taken from another
 * holding's margin (`positionId`), now `margin`; `byPositionId` is the position whose close took it.
 */
export type LeverMarginUsedEvent = {
  type: 'leverMarginUsed';
  positionId: number;
  userId: number;
  byPositionId: number;
  amount: bigint;
  margin: bigint;
};

/**
 * A user's positions in one quote currency were liquidated: the risk rate `riskRateBp` was at or below
 * `thresholdBp` at the marks listed (`markTicks` is the mark of `marketId`, the pair whose update or command
 * found it). Each position's close precedes this event as its own `leverPositionClosed` (reason
 * 'liquidation'), profitable positions first. `equity` and
 * `originMargin` are the risk rate's numerator and denominator; `shortfall` the insurance fund paid in all;
 * `liquidationFee` what the fund received from what the user had left.
 */
export type LeverLiquidatedEvent = {
  type: 'leverLiquidated';
  userId: number;
  quoteCurrencyId: number;
  marketId: number;
  markTicks: number;
  marks: [marketId: number, markTicks: number][];
  timeMs: number;
  riskRateBp: number;
  thresholdBp: number;
  equity: bigint;
  originMargin: bigint;
  positionIds: number[];
  shortfall: bigint;
  liquidationFee: bigint;
};

/**
 * One day's overnight fee of one holding: `charged` = fromMargin + fromBalance went to the house; `unpaid`
 * is what neither could pay (never taken below zero).
 */
export type LeverOvernightChargedEvent = {
  type: 'leverOvernightCharged';
  positionId: number;
  userId: number;
  marketId: number;
  quoteCurrencyId: number;
  day: number;
  fee: bigint;
  fromMargin: bigint;
  fromBalance: bigint;
  unpaid: bigint;
  /** The position's margin and accumulated `overnight_money` after the charge. */
  margin: bigint;
  overnightTotal: bigint;
};

export type LeverEvent =
  | LeverPairConfiguredEvent
  | LeverEntryPlacedEvent
  | LeverEntryRevokedEvent
  | LeverPositionOpenedEvent
  | LeverStopsSetEvent
  | LeverPositionClosedEvent
  | LeverMarginUsedEvent
  | LeverLiquidatedEvent
  | LeverOvernightChargedEvent;
