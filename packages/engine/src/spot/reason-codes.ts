/** The spot area's reason codes for balance events (the 300s). */
export const SpotReasonCode = {
  /** Pending: an order's funds move to locked. */
  orderHold: 300,
  /** Void: a cancelled order, or the unfilled rest of a market order, returns its hold. */
  orderRelease: 301,
  /** Void: a buy filled below its limit price returns the difference. */
  orderPriceImprovement: 302,
  /** Post: one leg of a trade, from the payer's hold to the receiver. */
  tradeSettlement: 303,
  /** A trade fee, from what the side received to the fees account. */
  tradeFee: 304,
} as const;
