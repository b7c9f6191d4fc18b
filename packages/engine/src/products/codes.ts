// Result and reason codes of the products area (token sales, cloud mining, defi staking). The engine's
// ResultCode and ReasonCode include these; the numbers are never reused.

export const ProductsResultCode = {
  /** A term is out of range (quantity, price, days, rates, window). */
  productInvalidTerms: 1300,
  /** The quantity is not a whole number of units in 1..the most one purchase may take. */
  productInvalidQuantity: 1301,
  /** A miner's recorded amount outside its disclosed range. */
  productRateOutOfRange: 1302,
  /** The house account lacks what the product must hold to open (or to keep its promises after an edit). */
  productHouseShort: 2300,
  /** No product with that id (or not of the kind the command is for). */
  productNotFound: 3300,
  /** The product is not selling: not open, or outside its sale window. */
  productNotSelling: 3301,
  /** The purchase would take the product beyond its total. */
  productSoldOut: 3302,
  /** The purchase would take the user beyond the product's per-user cap. */
  productUserCapReached: 3303,
  /** The product is not in a state this command applies to (open an open product, close a draft, ...). */
  productWrongState: 3304,
  /** The day is not the product's next day to accrue, or has not ended yet. */
  productDayNotDue: 3305,
  /** A miner's rate for a day that has already started, or a product whose rule records no rates. */
  productRateTooLate: 3306,
  /** No holding with that id of this user. */
  productHoldingNotFound: 3307,
  /** The holding's policy does not allow leaving early, or it has ended. */
  productExitNotAllowed: 3308,
  /** The amount to extract is above the holding's extractable earnings. */
  productNothingToExtract: 3309,
  /** A term that holdings depend on cannot change while holdings run (a miner's rate rule or range). */
  productTermsLocked: 3310,
  /** Nothing is due: no holding of the product has matured. */
  productNothingDue: 3311,
} as const;

export const ProductsReasonCode = {
  /** The house holds a product's unsold tokens or promised yields (owner `products`, ref: the product). */
  productReserveHold: 600,
  /** ...and releases what it no longer needs to hold (a close, an edit, rounding, a rate below the maximum). */
  productReserveRelease: 601,
  /** Accrual: the day's promise leaves the reserve... */
  productAccrualRelease: 602,
  /** ...and the day's earnings are held for the holders (owner `products.earned`, ref: the product). */
  productAccrued: 603,
  /** A token sale's payment, user's ico wallet to the house's. */
  productIcoPayment: 604,
  /** The tokens bought, from the house's reserve hold to the user's ico wallet. */
  productIcoTokens: 605,
  /** A miner's rent, user's miner wallet to the house's. */
  productMinerRent: 606,
  /** A miner's fee, user's miner wallet to the fees account's. */
  productMinerFee: 607,
  /** Miner earnings extracted, from the earned hold to the user's miner wallet. */
  productExtract: 608,
  /** A defi stake's principal is held on the user's defi wallet (owner `products.stake`, ref: the stake). */
  productStake: 609,
  /** At maturity or an early exit the principal is released to the user. */
  productPrincipalReturn: 610,
  /** At maturity the earnings, from the earned hold to the user's defi wallet. */
  productEarningsPaid: 611,
  /** An early exit forfeits the accrued earnings back to the house. */
  productForfeit: 612,
  /** A product's hold re-opened at a new amount: what it held is released first, then the new amount held. */
  productHoldResize: 613,
} as const;
