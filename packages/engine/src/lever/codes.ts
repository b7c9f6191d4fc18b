// Result and reason codes of the lever (leveraged contracts against the house) area. The engine's
// ResultCode and ReasonCode include these; the numbers are never reused. Result codes keep the kernel's
// thousands (1xxx bad input, 2xxx funds, 3xxx not found / wrong state) with the lever hundred, x200.

export const LeverResultCode = {
  /** The multiple is not one the pair offers. */
  leverMultipleNotOffered: 1200,
  /** The lots (`share`) are below the pair's minimum or above its maximum (when the maximum is above 0). */
  leverShareOutOfRange: 1201,
  /** A limit entry's target is on the wrong side: a long target must be below the mark, a short's above. */
  leverTargetWrongSide: 1202,
  /** A stop is on the wrong side: long take-profit above entry and mark, stop-loss below both; short reverse. */
  leverStopWrongSide: 1203,
  /** The overnight day is after the day of the command time (a day is charged only once it has begun). */
  leverDayNotReached: 1204,
  /** Opening would leave the risk rate of the quote currency at or below the liquidation threshold. */
  leverRiskTooHigh: 2200,
  /** The pair is not configured for leverage, or disabled. */
  leverPairNotOpen: 3200,
  /** No lever position or entry with that id belongs to the user. */
  leverPositionNotFound: 3201,
  /** The record is not in the status the command needs (revoke: an entry, status 0; close, stops: status 1). */
  leverWrongStatus: 3202,
  /** The pair has no fresh mark price: nothing opens or closes on an old price. */
  leverNoMark: 3203,
  /** The order would take the house's net exposure on the pair past its configured limit. */
  leverExposureLimit: 3204,
} as const;

export type LeverResultCodeName = keyof typeof LeverResultCode;

export const LeverReasonCode = {
  /** Open: the margin (caution_money) moves to locked on the user's lever wallet. */
  leverMarginHold: 500,
  /** Open at market: the opening fee, from the user's lever wallet to the fees account's lever wallet. */
  leverFee: 501,
  /** Limit entry: the fee waits in a hold of its own on the user's lever wallet until the entry opens. */
  leverEntryFeeHold: 502,
  /** A limit entry opened: its fee hold is posted to the fees account. */
  leverEntryFee: 503,
  /** Revoke: margin and fee holds of a limit entry return to the user. */
  leverEntryRevoked: 504,
  /** Close: what is left of the margin returns to the user's available balance. */
  leverMarginRelease: 505,
  /** Close with a profit: the profit, from the house's lever wallet to the user. */
  leverProfit: 506,
  /** Close with a loss: the loss, from the margin (then the lever balance, then other margins) to the house. */
  leverLoss: 507,
  /** A loss the user could not cover: the insurance fund pays the house. */
  leverShortfall: 508,
  /** The disclosed liquidation fee, from the liquidated user to the insurance fund. */
  leverLiquidationFee: 509,
  /** The overnight fee, from the margin first and then the lever balance, to the house. */
  leverOvernight: 510,
} as const;
