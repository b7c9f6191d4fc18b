// Result and reason codes of the P2P area (docs/p2p.md). Its own hundreds: x400 for results, 700s for
// balance reasons. The numbers are never reused.

export const P2pResultCode = {
  /** The per-order fiat amount is outside the ad's minimum and maximum. */
  p2pAmountOutOfLimits: 1400,
  /** Floating price without a reference, or a price that rounds to nothing. */
  p2pNoReferencePrice: 1401,
  /** A fiat code the engine does not know. */
  p2pUnknownFiat: 1402,
  /** The payment window is not one of the offered lengths. */
  p2pInvalidWindow: 1403,
  /** Taking one's own ad. */
  p2pOwnAd: 1404,
  /** The seller's change wallet cannot escrow the amount plus its fee. */
  p2pEscrowShort: 2400,
  /** The ad has less left than the order asks for. */
  p2pAdExhausted: 2401,
  /** Not an approved merchant. */
  p2pNotMerchant: 3400,
  p2pAdNotFound: 3401,
  /** The ad is paused or closed. */
  p2pAdNotOnline: 3402,
  p2pOrderNotFound: 3403,
  /** The user is not the party the action belongs to (the buyer, the seller, the acceptor). */
  p2pNotParty: 3404,
  /** The order's state does not allow the action (paid already, ended, not appealed). */
  p2pWrongState: 3405,
  /** Four cancellations today: new orders wait for 00:00 Asia/Shanghai. */
  p2pRestricted: 3406,
  /** An appeal before the disclosed wait after "paid" has passed. */
  p2pAppealTooEarly: 3407,
  /** Not the ad's owner. */
  p2pNotAdOwner: 3408,
  /** Too many open orders or ads for one user. */
  p2pTooMany: 3409,
} as const;

export const P2pReasonCode = {
  /** A sell ad's total (and its maker fee) locked at posting. */
  p2pAdEscrow: 700,
  /** A sell ad closed: what its escrow still holds returns. */
  p2pAdReturn: 701,
  /** An order's escrow opened: the seller's coins (amount and the seller's fee) locked. */
  p2pOrderEscrow: 702,
  /** An order of a sell ad takes its part out of the ad's escrow (released, then held on the order). */
  p2pAdToOrder: 703,
  /** Released by the seller (or decided to the buyer): the coins, less the buyer's fee, to the buyer. */
  p2pRelease: 704,
  /** The fees of both sides, to the fee account. */
  p2pFee: 705,
  /** Cancelled before "paid" (buyer, timeout, acceptor's rejection): the escrow returns to the seller. */
  p2pCancelReturn: 706,
  /** An arbiter decided for the seller: the escrow returns to the seller. */
  p2pDecidedReturn: 707,
  /** A cancelled order's part goes back into its sell ad's escrow. */
  p2pOrderToAd: 708,
  /** The sell ad's escrow is re-opened with a returned order's part added (its old hold released first). */
  p2pAdMerge: 709,
} as const;

export type P2pReasonCodeName = keyof typeof P2pReasonCode;
