// Result and reason codes of the micro area. The engine's ResultCode and ReasonCode include these; the
// numbers are never reused.

export const MicroResultCode = {
  /** The payable currency is not configured for seconds contracts, or closed (maxOpenOrders 0). */
  microCurrencyNotPayable: 3100,
  /** No seconds option with that duration. */
  microSecondsNotOffered: 3101,
  /** The pair has no exposure cap for that currency: not open to seconds contracts. */
  microPairNotOpen: 3102,
  /** The order would take the house's worst-case payout for its expiry second above the cap. */
  microExposureCapReached: 3103,
  /**
   * The market's latest price sample is stale, has no index, or is older than the staleness bound: an order
   * that settles on the index is not taken (it could only be void, or settle on an old price).
   */
  microPriceStale: 3104,
  /** The stake is below the currency's minimum or above its maximum. */
  microStakeOutOfRange: 1100,
} as const;

export const MicroReasonCode = {
  /** Pending: the stake moves to locked on the user's micro wallet. */
  microStakeHold: 400,
  /** The fee, from the user's micro wallet to the fees account's micro wallet... */
  microFee: 401,
  /** ...where it stays held until the order settles (a void refunds it). */
  microFeeHold: 402,
  /** Settled without a void: the fee's hold is released to the fees account. */
  microFeeRelease: 403,
  /** Void: the fee returns from the fees account to the user. */
  microFeeRefund: 404,
  /** Pending: the house reserve holds the order's possible profit. */
  microReserveHold: 405,
  /** Settled: the reserve's hold is released. */
  microReserveRelease: 406,
  /** Win, draw or void: the stake's hold is released to the user. */
  microStakeRelease: 407,
  /** Win: the profit, from the house reserve to the user. */
  microPayout: 408,
  /** Loss: the stake, from the user's hold to the house reserve. */
  microStakeLost: 409,
} as const;
