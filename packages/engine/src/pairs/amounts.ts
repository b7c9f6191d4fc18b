import { PPM } from '../limits.ts';

/**
 * The quote amount of `lots` at `priceTicks`: price x lots x quote minor units per tick and lot. The product of
 * the two safe integers is taken in floating point only when it is provably exact (at most 2^53 - 1); a
 * product that is not exact is at least 2^53 in floating point too, so the test never misjudges.
 */
export function quoteAmountOf(priceTicks: number, lots: number, quoteMinorPerTickLot: bigint): bigint {
  const product = priceTicks * lots;
  return product <= Number.MAX_SAFE_INTEGER
    ? BigInt(product) * quoteMinorPerTickLot
    : BigInt(priceTicks) * BigInt(lots) * quoteMinorPerTickLot;
}

/** A fee in parts per million of what a side receives, rounded down: the fee never exceeds the exact rate. */
export function feeOf(received: bigint, feePpm: bigint): bigint {
  return (received * feePpm) / PPM;
}
