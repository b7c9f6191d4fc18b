// The published rules of the products area (token sales, cloud mining, defi staking; docs/products.md) as
// pure bigint functions, shared by the engine, the server and the web. Amounts are minor units; rates basis
// points (1 % = 100); days are whole UTC days. Rounding is always down, and always in the house's favour by
// at most one minor unit per holding and day: the house never promises what it does not hold.

/** One UTC day in milliseconds; day n runs from n x DAY_MS to (n + 1) x DAY_MS. */
export const DAY_MS = 86_400_000;
/** Basis points in one: 10,000. */
export const PRODUCT_BP = 10_000n;
/** The day count of an APR. */
export const APR_DAYS = 365n;

/** The UTC day (days since 1970-01-01) of a time in milliseconds. */
export function dayOf(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

/** A token sale's price: quantity x price (whole tokens times the price of one). */
export function icoCost({ quantity, price }: { quantity: bigint; price: bigint }): bigint {
  return quantity * price;
}

/** A miner rent: rent = quantity x price, fee = rent x feeBp / 10,000 rounded down, paid = rent + fee. */
export function minerCost({ quantity, price, feeBp }: { quantity: bigint; price: bigint; feeBp: number }): {
  rent: bigint;
  fee: bigint;
  paid: bigint;
} {
  const rent = quantity * price;
  const fee = (rent * BigInt(feeBp)) / PRODUCT_BP;
  return { rent, fee, paid: rent + fee };
}

/**
 * A defi stake's daily earnings: principal x APR / 365, rounded down to the minor unit. The same amount every
 * day of the period, so the whole promise is exactly `defiDaily x days`.
 */
export function defiDaily({ principal, aprBp }: { principal: bigint; aprBp: number }): bigint {
  return (principal * BigInt(aprBp)) / (PRODUCT_BP * APR_DAYS);
}

/** What a defi stake earns over its period: defiDaily x days. */
export function defiPromise({
  principal,
  aprBp,
  days,
}: {
  principal: bigint;
  aprBp: number;
  days: number;
}): bigint {
  return defiDaily({ principal, aprBp }) * BigInt(days);
}

/** A miner holding's daily amount: units x the day's amount per unit (exact, no rounding). */
export function minerDaily({ units, perUnit }: { units: bigint; perUnit: bigint }): bigint {
  return units * perUnit;
}

/** Progress in percent with two decimals, rounded down, as hundredths: sold x 10,000 / total. */
export function progressHundredths({ part, whole }: { part: bigint; whole: bigint }): bigint {
  return whole <= 0n ? 0n : (part * 10_000n) / whole;
}
