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

export interface MinerOutlook {
  /** units x the daily amount per unit x days: what the rent yields if the daily amount stays as it is. */
  output: bigint;
  /** output x price, rounded down: the output's worth at the given price, in the pay currency. */
  value: bigint;
  /** value - paid: negative when the rent returns less than it costs. */
  net: bigint;
  /**
   * The price of one whole earned coin at which value equals paid, rounded up (at that price or above the
   * rent at least pays back); null when the output is zero (no price pays it back).
   */
  breakEven: bigint | null;
}

/**
 * What a miner rent returns over its term at one price, under two stated assumptions: the daily amount per
 * unit stays `perUnit` for every day of the term, and the earned coin keeps the price `price`. `perUnit` and
 * `output` are minor units at `earnScale` (10^earnScale of them make one coin); `paid`, `price` (the pay
 * currency's minor units per whole coin), `value`, `net` and `breakEven` share the pay currency's scale.
 */
export function minerOutlook({
  units,
  perUnit,
  days,
  earnScale,
  paid,
  price,
}: {
  units: bigint;
  perUnit: bigint;
  days: number;
  earnScale: number;
  paid: bigint;
  price: bigint;
}): MinerOutlook {
  const one = 10n ** BigInt(earnScale);
  const output = minerDaily({ units, perUnit }) * BigInt(days);
  const value = (output * price) / one;
  const breakEven = output === 0n ? null : (paid * one + output - 1n) / output;
  return { output, value, net: value - paid, breakEven };
}
