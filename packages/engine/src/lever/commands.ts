// Commands of the lever area (leveraged contracts against the house, spec 01 sections 2-5, 7, 9 and spec 03
// section 4). Amounts are bigint minor units of the pair's quote currency; prices are integer ticks of the
// spot market; sizes are lots of the spot market (`number = share x lotsPerShare`).

/** 1 long (buy), 2 short (sell). */
export type LeverSide = 1 | 2;

/** Batch close: 0 all, 1 longs only, 2 shorts only. */
export type LeverBatchWhich = 0 | 1 | 2;

/**
 * Configures (or replaces) a pair's lever rules. Every value is copied onto each position at open, so a
 * change applies to new positions and entries only. Rates are parts per million (1 % = 10,000 ppm); the
 * liquidation threshold is a risk rate in basis points (10 % = 1,000 bp).
 */
export type SetLeverPairCommand = {
  type: 'setLeverPair';
  marketId: number;
  /** false closes the pair to new positions and entries (open ones run on). */
  enabled: boolean;
  /** `lever_share_num`: spot lots per share (lot). */
  lotsPerShare: number;
  /** The multiples offered (`multiple.muit`), each 1..1000, distinct. */
  multiples: number[];
  /** Lot limits (`lever_share_limit`): at least `minShare`, at most `maxShare` when it is above 0. */
  minShare: number;
  maxShare: number;
  /** The spread, ppm of the mark: a long enters above the mark, a short below. */
  spreadPpm: number;
  /** The opening fee (`lever_trade_fee`), ppm of the contract value. */
  feePpm: number;
  /** The overnight fee, ppm of the contract value at entry, per day. */
  overnightPpm: number;
  /** Liquidation when the risk rate (bp) is at or below this; 1..9,999 bp. */
  liquidationThresholdBp: number;
  /** The disclosed liquidation fee to the insurance fund, ppm of the liquidated contract value; 0 for none. */
  liquidationFeePpm: number;
  /** The house's largest net exposure on the pair, in lots (|longs - shorts|, entries included). */
  exposureLimitLots: number;
};

/** Opens a position at the mark plus the spread (long) or minus it (short). */
export type OpenLeverPositionCommand = {
  type: 'openLeverPosition';
  userId: number;
  marketId: number;
  side: LeverSide;
  share: number;
  multiple: number;
};

/**
 * Places a limit entry (status 0): margin and fee are held at submit, priced on the target. A long's target
 * must be below the mark, a short's above; it opens at the target when the market price a long would pay
 * (mark plus spread) falls to it, or the price a short would get (mark minus spread) rises to it.
 */
export type SubmitLeverEntryCommand = {
  type: 'submitLeverEntry';
  userId: number;
  marketId: number;
  side: LeverSide;
  share: number;
  multiple: number;
  targetTicks: number;
};

/** Revokes a limit entry (status 0 to 4): its margin and fee return to the user. */
export type RevokeLeverEntryCommand = { type: 'revokeLeverEntry'; userId: number; positionId: number };

/** Closes a holding (status 1 to 3) at the pair's mark. */
export type CloseLeverPositionCommand = { type: 'closeLeverPosition'; userId: number; positionId: number };

/** Closes all of a user's holdings, or only longs or shorts (`lever/batch_close`). */
export type CloseLeverPositionsCommand = {
  type: 'closeLeverPositions';
  userId: number;
  which: LeverBatchWhich;
};

/** Sets (or clears with 0) a holding's take-profit and stop-loss prices. */
export type SetLeverStopsCommand = {
  type: 'setLeverStops';
  userId: number;
  positionId: number;
  takeProfitTicks: number;
  stopLossTicks: number;
};

/**
 * Charges the overnight fee for every day up to `day` (whole UTC days since 1970-01-01) not yet charged:
 * each holding opened before a day's start pays once for that day. Run twice, it charges once; after three
 * missed days, it charges three times. `day` may not be after the day of the command time.
 */
export type ChargeLeverOvernightCommand = { type: 'chargeLeverOvernight'; day: number };

export type LeverCommand =
  | SetLeverPairCommand
  | OpenLeverPositionCommand
  | SubmitLeverEntryCommand
  | RevokeLeverEntryCommand
  | CloseLeverPositionCommand
  | CloseLeverPositionsCommand
  | SetLeverStopsCommand
  | ChargeLeverOvernightCommand;

/** The reply of `openLeverPosition` and `submitLeverEntry`: the record as it stands. */
export type LeverOpenReply = {
  positionId: number;
  status: 0 | 1;
  entryTicks: number;
  lots: number;
  margin: bigint;
  fee: bigint;
};

/** The reply of `revokeLeverEntry`. */
export type LeverRevokeReply = { positionId: number; marginRefund: bigint; feeRefund: bigint };

/** The reply of `closeLeverPosition`. */
export type LeverCloseReply = { positionId: number; closeTicks: number; profit: bigint; returned: bigint };

/** The reply of `closeLeverPositions`: the positions closed, in id order. */
export type LeverBatchCloseReply = { closed: LeverCloseReply[] };

/** The reply of `setLeverStops`. */
export type LeverStopsReply = { positionId: number; takeProfitTicks: number; stopLossTicks: number };

/** The reply of `chargeLeverOvernight`: charges made and their sum (per currency). */
export type LeverOvernightReply = {
  day: number;
  charges: number;
  totals: { currencyId: number; charged: bigint }[];
};
