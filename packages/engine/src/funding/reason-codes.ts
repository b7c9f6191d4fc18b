/** The funding area's reason codes for balance events: funding (the 100s) and withdrawals (the 200s). */
export const FundingReasonCode = {
  /** Outside world -> a user's change wallet. */
  deposit: 100,
  /** Outside world -> a system account (genesis funding of the market maker, the insurance fund...). */
  systemFund: 101,
  /** Between two wallets of one owner, same currency. */
  walletTransfer: 102,
  /** The house's change wallet -> a user's change wallet, labelled (never a deposit). */
  houseTransfer: 103,
  /** A flash exchange: the user pays the house in one currency... */
  flashPayment: 110,
  /** ...the house pays the user in the other... */
  flashPayout: 111,
  /** ...and the user pays the exchange fee from what arrived to the fees account. */
  flashFee: 112,

  /** Pending: available -> locked while an administrator decides. */
  withdrawalHold: 200,
  /** Void: the rejected withdrawal's hold returns to available. */
  withdrawalRelease: 201,
  /** Post: the withdrawn amount (less the fee) leaves to the outside world. */
  withdrawalPayout: 202,
  /** Post: the withdrawal fee goes to the fees account. */
  withdrawalFee: 203,
} as const;
