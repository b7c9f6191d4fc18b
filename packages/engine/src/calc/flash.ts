// The flash exchange's price formula (spec 02 sections 2.4 and 5), in exact bigint arithmetic:
//
//   received = amount x price(from) x (1 - fee) / price(to), rounded down, at most 8 decimals
//
// with the coin priced in the legal currency. The server prices an exchange with it when it executes one
// (the engine command then carries the amounts), and the web shows the same numbers while the user types.
// Pure: no imports, no state, one named-object parameter per function.

/** At most this many decimals of a flash exchange reach the user, even in a currency that keeps more. */
export const FLASH_DECIMALS = 8;

const MILLION = 1_000_000n;

function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** The terms of one exchange: direction, the coin's price and the two currencies' minor-unit scales. */
export type FlashTerms = {
  /** 0: legal -> coin (e.g. USDT to BTC); 1: coin -> legal. */
  direction: 0 | 1;
  /** The coin's price in the legal currency: priceMinor x 10^-priceScale (positive). */
  priceMinor: bigint;
  priceScale: number;
  /** Decimal places of the coin's and the legal currency's minor units. */
  coinScale: number;
  legalScale: number;
  /** The fee, in parts per million of what the user receives (below 1,000,000). */
  feePpm: bigint;
};

export type FlashQuote = {
  /** What the house pays, before the fee (receiving currency's minor units). */
  payout: bigint;
  /** payout - received: the fee, including what the rounding to 8 decimals kept back. */
  fee: bigint;
  /** What reaches the user. */
  received: bigint;
};

/** Gross amount in the receiving currency as the exact fraction amount x numerator / denominator. */
function grossFactor(terms: FlashTerms): { numerator: bigint; denominator: bigint } {
  const { direction, priceMinor, priceScale, coinScale, legalScale } = terms;
  return direction === 0
    ? { numerator: pow10(priceScale) * pow10(coinScale), denominator: priceMinor * pow10(legalScale) }
    : { numerator: priceMinor * pow10(legalScale), denominator: pow10(priceScale) * pow10(coinScale) };
}

/** The receiving currency's step: received is a multiple of it (1, or 10^(scale - 8) beyond 8 decimals). */
function receiveStep(terms: FlashTerms): bigint {
  const scale = terms.direction === 0 ? terms.coinScale : terms.legalScale;
  return scale > FLASH_DECIMALS ? pow10(scale - FLASH_DECIMALS) : 1n;
}

/** Prices paying `amount` (minor units of the paying currency): payout, fee and what the user receives. */
export function flashQuote(input: FlashTerms & { amount: bigint }): FlashQuote {
  const { numerator, denominator } = grossFactor(input);
  const gross = input.amount * numerator;
  const payout = gross / denominator;
  let received = (gross * (MILLION - input.feePpm)) / (denominator * MILLION);
  const step = receiveStep(input);
  received -= received % step;
  return { payout, fee: payout - received, received };
}

/**
 * The least amount to pay (minor units of the paying currency) for `received` to reach at least `wanted`
 * (minor units of the receiving currency): the inverse of flashQuote, rounded up.
 */
export function flashPayment(input: FlashTerms & { wanted: bigint }): bigint {
  const { numerator, denominator } = grossFactor(input);
  const step = receiveStep(input);
  const wanted = ((input.wanted + step - 1n) / step) * step;
  const perPaid = numerator * (MILLION - input.feePpm);
  const product = wanted * denominator * MILLION;
  return product / perPaid + (product % perPaid === 0n ? 0n : 1n);
}

/**
 * The largest amount to pay (minor units of the paying currency) whose payout (flashQuote's, before the fee)
 * is at most `payoutMax`: what a desk holding `payoutMax` of the receiving currency can fill. Exact: payout
 * = floor(amount x n / d) <= payoutMax exactly when amount x n < (payoutMax + 1) x d.
 */
export function flashLargestAmount(input: FlashTerms & { payoutMax: bigint }): bigint {
  if (input.payoutMax < 0n) return 0n;
  const { numerator, denominator } = grossFactor(input);
  return ((input.payoutMax + 1n) * denominator - 1n) / numerator;
}
