// The leverage formulas (spec 01 section 9, spec 03 section 4), in exact integer arithmetic. The engine
// decides with them and the web shows the same numbers before an order is sent. Pure: no imports, no
// state, one named-object parameter per function.
//
// Units: prices are integer ticks of the spot market, sizes integer lots (`number = share x lotsPerShare`),
// amounts bigint minor units of the quote currency; `quoteMinorPerTickLot` is the quote amount of one lot
// at one tick, so `price x lots x quoteMinorPerTickLot` is exact. Rates are parts per million (ppm); risk
// rates and the liquidation threshold basis points (bp, 10,000 = 100 %).
//
// Rounding, stated once: every rounding goes toward the house and never creates money. A long's entry is
// rounded up and a short's down (the user never gets a better price than the exact spread gives); the
// margin, the fee, the overnight fee and the liquidation fee are rounded up; profits are exact; the risk
// rate is rounded down (toward liquidation); liquidation prices are the exact integer boundary of the
// exact comparison `equity x 10,000 <= threshold x origin margins`, so the displayed price is the trigger.

const MILLION = 1_000_000n;
const BP = 10_000n;

/** 1 long, 2 short. */
export type LeverCalcSide = 1 | 2;

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator < numerator ? quotient + 1n : quotient;
}

/** Floor division for any signs (bigint division truncates toward zero); denominator positive. */
function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator > numerator ? quotient - 1n : quotient;
}

/** Ticks as a number, clamped into [-(2^53 - 1), 2^53 - 1]. */
function toTicks(value: bigint): number {
  const limit = BigInt(Number.MAX_SAFE_INTEGER);
  if (value > limit) return Number.MAX_SAFE_INTEGER;
  if (value < -limit) return -Number.MAX_SAFE_INTEGER;
  return Number(value);
}

/** The entry price at market: mark x (1 + spread) rounded up for a long, mark x (1 - spread) down for a short. */
export function leverEntryTicks({
  markTicks,
  spreadPpm,
  side,
}: {
  markTicks: number;
  spreadPpm: number;
  side: LeverCalcSide;
}): number {
  const mark = BigInt(markTicks);
  const spread = BigInt(spreadPpm);
  return side === 1
    ? Number(ceilDiv(mark * (MILLION + spread), MILLION))
    : Number((mark * (MILLION - spread)) / MILLION);
}

/**
 * The mark at which a limit entry opens: for a long the highest mark whose market entry (mark plus spread)
 * is at or below the target, for a short the lowest whose market entry (mark minus spread) is at or above.
 * A long opens when the mark is at or below it, a short when at or above.
 */
export function leverEntryTriggerTicks({
  targetTicks,
  spreadPpm,
  side,
}: {
  targetTicks: number;
  spreadPpm: number;
  side: LeverCalcSide;
}): number {
  const target = BigInt(targetTicks);
  const spread = BigInt(spreadPpm);
  if (side === 1) {
    let mark = (target * MILLION) / (MILLION + spread);
    while (leverEntryTicks({ markTicks: Number(mark + 1n), spreadPpm, side }) <= targetTicks) mark += 1n;
    while (mark > 0n && leverEntryTicks({ markTicks: Number(mark), spreadPpm, side }) > targetTicks)
      mark -= 1n;
    return Number(mark);
  }
  if (spread >= MILLION) return Number.MAX_SAFE_INTEGER;
  let mark = ceilDiv(target * MILLION, MILLION - spread);
  while (mark > 1n && leverEntryTicks({ markTicks: Number(mark - 1n), spreadPpm, side }) >= targetTicks)
    mark -= 1n;
  while (leverEntryTicks({ markTicks: Number(mark), spreadPpm, side }) < targetTicks) mark += 1n;
  return Number(mark);
}

/** `all_money`: price x lots x quote per tick-lot (exact). */
export function leverContractValue({
  priceTicks,
  lots,
  quoteMinorPerTickLot,
}: {
  priceTicks: number;
  lots: number;
  quoteMinorPerTickLot: bigint;
}): bigint {
  return BigInt(priceTicks) * BigInt(lots) * quoteMinorPerTickLot;
}

/** `caution_money`: contract value / multiple, rounded up. */
export function leverMargin({
  contractValue,
  multiple,
}: {
  contractValue: bigint;
  multiple: number;
}): bigint {
  return ceilDiv(contractValue, BigInt(multiple));
}

/** A fee in ppm of an amount, rounded up (opening fee, overnight fee, liquidation fee). */
export function leverFee({ amount, ratePpm }: { amount: bigint; ratePpm: number }): bigint {
  return ceilDiv(amount * BigInt(ratePpm), MILLION);
}

/** What an order costs at `priceTicks` (the market entry, or a limit entry's target): size, value, margin, fee. */
export function leverOrderQuote({
  priceTicks,
  share,
  lotsPerShare,
  multiple,
  feePpm,
  quoteMinorPerTickLot,
}: {
  priceTicks: number;
  share: number;
  lotsPerShare: number;
  multiple: number;
  feePpm: number;
  quoteMinorPerTickLot: bigint;
}): { lots: number; contractValue: bigint; margin: bigint; fee: bigint } {
  const lots = share * lotsPerShare;
  const contractValue = leverContractValue({ priceTicks, lots, quoteMinorPerTickLot });
  return {
    lots,
    contractValue,
    margin: leverMargin({ contractValue, multiple }),
    fee: leverFee({ amount: contractValue, ratePpm: feePpm }),
  };
}

/** Profit at `markTicks`: long (mark - entry) x lots x quote per tick-lot, short the reverse. Exact. */
export function leverProfit({
  side,
  entryTicks,
  markTicks,
  lots,
  quoteMinorPerTickLot,
}: {
  side: LeverCalcSide;
  entryTicks: number;
  markTicks: number;
  lots: number;
  quoteMinorPerTickLot: bigint;
}): bigint {
  const move = BigInt(markTicks - entryTicks) * BigInt(lots) * quoteMinorPerTickLot;
  return side === 1 ? move : -move;
}

/**
 * The risk rate (`hazard_rate`) in bp: (balance + margins + profits) / origin margins x 10,000, rounded
 * down; null without origin margin (no holdings: the spec's 0).
 */
export function leverRiskRateBp({
  equity,
  originMargin,
}: {
  equity: bigint;
  originMargin: bigint;
}): number | null {
  if (originMargin <= 0n) return null;
  return toTicks(floorDiv(equity * BP, originMargin));
}

/** True when the risk rate is at or below the threshold, compared exactly (no rounded rate involved). */
export function leverAtOrBelowThreshold({
  equity,
  originMargin,
  thresholdBp,
}: {
  equity: bigint;
  originMargin: bigint;
  thresholdBp: number;
}): boolean {
  return originMargin > 0n && equity * BP <= BigInt(thresholdBp) * originMargin;
}

/**
 * The liquidation price of a user's positions in one pair, cross margin with the other pairs' marks held
 * fixed. The user's equity as a function of this pair's mark m is `restEquity + netLots x quote per
 * tick-lot x m` (restEquity: balance + margins + every profit with this pair's mark term taken out, i.e.
 * minus the signed entries of this pair). Liquidation is `equity x 10,000 <= threshold x originMargin`:
 * with net longs (netLots > 0) at every mark at or below the returned price, with net shorts at every mark
 * at or above it. Null when the pair's net is 0 (its mark cannot move the equity). The price may be 0 or
 * below (no positive mark liquidates a net long) or beyond any real price (no mark liquidates a net short).
 */
export function leverLiquidationTicks({
  netLots,
  quoteMinorPerTickLot,
  restEquity,
  originMargin,
  thresholdBp,
}: {
  netLots: number;
  quoteMinorPerTickLot: bigint;
  restEquity: bigint;
  originMargin: bigint;
  thresholdBp: number;
}): number | null {
  if (netLots === 0 || originMargin <= 0n) return null;
  const limit = BigInt(thresholdBp) * originMargin - BP * restEquity;
  const perTick = BP * BigInt(Math.abs(netLots)) * quoteMinorPerTickLot;
  // netLots > 0: BP x n x q x m <= limit  <=>  m <= floor(limit / (BP n q)).
  // netLots < 0: -BP x |n| x q x m <= limit  <=>  m >= ceil(-limit / (BP |n| q)).
  return netLots > 0 ? toTicks(floorDiv(limit, perTick)) : toTicks(-floorDiv(limit, perTick));
}

/**
 * The liquidation price of one position alone (the form's preview and a user with one position): balance
 * and margin as the account would have them after opening.
 */
export function leverPositionLiquidationTicks({
  side,
  lots,
  entryTicks,
  quoteMinorPerTickLot,
  margin,
  balance,
  thresholdBp,
}: {
  side: LeverCalcSide;
  lots: number;
  entryTicks: number;
  quoteMinorPerTickLot: bigint;
  margin: bigint;
  balance: bigint;
  thresholdBp: number;
}): number | null {
  const signed = side === 1 ? lots : -lots;
  const restEquity = balance + margin - BigInt(signed) * BigInt(entryTicks) * quoteMinorPerTickLot;
  return leverLiquidationTicks({
    netLots: signed,
    quoteMinorPerTickLot,
    restEquity,
    originMargin: margin,
    thresholdBp,
  });
}
