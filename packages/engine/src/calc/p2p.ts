// P2P fiat trade formulas (docs/p2p.md, "Rounding"), shared by the engine, the server and the web: prices are
// fiat cents per whole coin, coin amounts minor units at the coin's scale, fees basis points of the amount.

const BP = 10_000n;

/** Fiat cents for `amount` minor units at `priceCents` per coin: rounded half up to the cent. */
export function p2pFiatCents({
  amount,
  priceCents,
  scale,
}: {
  amount: bigint;
  priceCents: bigint;
  scale: number;
}): bigint {
  const unit = 10n ** BigInt(scale);
  return (amount * priceCents * 2n + unit) / (2n * unit);
}

/** The coin amount a fiat sum buys at `priceCents`: rounded down to the minor unit (never more than paid for). */
export function p2pAmountForFiat({
  fiatCents,
  priceCents,
  scale,
}: {
  fiatCents: bigint;
  priceCents: bigint;
  scale: number;
}): bigint {
  if (priceCents <= 0n) return 0n;
  return (fiatCents * 10n ** BigInt(scale)) / priceCents;
}

/** A floating ad's price: the reference plus `floatBp` basis points (negative: under), half up to the cent. */
export function p2pFloatingPrice({
  referenceCents,
  floatBp,
}: {
  referenceCents: bigint;
  floatBp: number;
}): bigint {
  const numerator = referenceCents * (BP + BigInt(floatBp));
  return (numerator * 2n + BP) / (2n * BP);
}

/** A side's fee: `feeBp` basis points of the amount, rounded down. */
export function p2pFee({ amount, feeBp }: { amount: bigint; feeBp: number }): bigint {
  return (amount * BigInt(feeBp)) / BP;
}

/** The start of the Asia/Shanghai day (UTC+8, no daylight saving) holding `timeMs`, and the next day's. */
export const P2P_DAY_OFFSET_MS = 8 * 60 * 60 * 1000;
export const P2P_DAY_MS = 24 * 60 * 60 * 1000;

/** The Asia/Shanghai day number of an instant (days since 1970-01-01 in UTC+8). */
export function p2pDayOf(timeMs: number): number {
  return Math.floor((timeMs + P2P_DAY_OFFSET_MS) / P2P_DAY_MS);
}

/** The instant the Asia/Shanghai day after `timeMs` begins (00:00 UTC+8). */
export function p2pNextDayStart(timeMs: number): number {
  return (p2pDayOf(timeMs) + 1) * P2P_DAY_MS - P2P_DAY_OFFSET_MS;
}
