// The published rule of seconds (micro) contracts, as pure functions. Version `fairex-micro-v1`; the
// public description is docs/micro.md and must stay equal to this code. Every amount is bigint minor units,
// every price integer ticks; nothing here reads state, a clock or randomness.

export const MICRO_RULE_VERSION = 'fairex-micro-v1';

/** 1 = up (wins when the end price is above the open price), 2 = down (wins when it is below). */
export type MicroDirection = 1 | 2;
export type MicroOutcome = 'win' | 'loss' | 'draw' | 'void';
/**
 * Why an order is void: no sample of its market after acceptance and at or before expiry (`noOpenSample`);
 * the first such sample stale, without a mark, or later than the staleness bound after acceptance
 * (`staleOpen`); the last sample at or before expiry stale, without a mark, or older than the bound at
 * expiry (`staleEnd`).
 */
export type MicroVoidReason = 'noOpenSample' | 'staleOpen' | 'staleEnd';

/** One recorded price sample, as far as the rule reads it (the price record's chain link). */
export type MicroSample = {
  readonly seq: number;
  readonly timeMs: number;
  readonly markTicks: number | null;
  readonly stale: boolean;
  readonly hash: string;
};

/** Basis points: 1 % = 100. */
export const BASIS_POINTS = 10_000n;

/** The fee paid at submit: stake x feeBp / 10,000, rounded down (never more than the published rate). */
export function microFee({ stake, feeBp }: { stake: bigint; feeBp: number }): bigint {
  return (stake * BigInt(feeBp)) / BASIS_POINTS;
}

/**
 * The profit a win adds to the returned stake: stake x profitRatioBp / 10,000, rounded down (the rounding
 * is at most one minor unit and stays with the house reserve). A win pays stake + profit in total.
 */
export function microProfit({ stake, profitRatioBp }: { stake: bigint; profitRatioBp: number }): bigint {
  return (stake * BigInt(profitRatioBp)) / BASIS_POINTS;
}

/** True when a sample may open an order accepted at `acceptedMs` that expires at `expiryMs`. */
export function isFreshOpen({
  sample,
  acceptedMs,
  maxSampleAgeMs,
}: {
  sample: MicroSample;
  acceptedMs: number;
  maxSampleAgeMs: number;
}): boolean {
  return !sample.stale && sample.markTicks !== null && sample.timeMs - acceptedMs <= maxSampleAgeMs;
}

/** True when the last sample at or before expiry may end an order. */
export function isFreshEnd({
  sample,
  expiryMs,
  maxSampleAgeMs,
}: {
  sample: MicroSample;
  expiryMs: number;
  maxSampleAgeMs: number;
}): boolean {
  return !sample.stale && sample.markTicks !== null && expiryMs - sample.timeMs <= maxSampleAgeMs;
}

/** Up wins when end > open, down wins when end < open; equal prices are a draw. */
export function microOutcome({
  direction,
  openTicks,
  endTicks,
}: {
  direction: MicroDirection;
  openTicks: number;
  endTicks: number;
}): 'win' | 'loss' | 'draw' {
  if (endTicks === openTicks) return 'draw';
  const upWins = endTicks > openTicks;
  return upWins === (direction === 1) ? 'win' : 'loss';
}

/**
 * What returns to the user's micro wallet at settlement: a win the stake plus the profit, a draw and a void
 * the stake, a loss nothing. The fee comes back only on a void.
 */
export function microPayout({
  outcome,
  stake,
  profit,
  fee,
}: {
  outcome: MicroOutcome;
  stake: bigint;
  profit: bigint;
  fee: bigint;
}): { payout: bigint; feeRefund: bigint } {
  switch (outcome) {
    case 'win':
      return { payout: stake + profit, feeRefund: 0n };
    case 'draw':
      return { payout: stake, feeRefund: 0n };
    case 'void':
      return { payout: stake, feeRefund: fee };
    case 'loss':
      return { payout: 0n, feeRefund: 0n };
  }
}

/**
 * The house's worst-case payout for one pair, payable currency and expiry second, as published:
 * max(sum of the up orders' profits, sum of the down orders' profits). An order is refused when it would
 * take this above the configured cap.
 */
export function microExposure({ up, down }: { up: bigint; down: bigint }): bigint {
  return up > down ? up : down;
}

/** Whether adding an order's profit on one side keeps the bucket's exposure within the cap. */
export function withinExposureCap({
  up,
  down,
  direction,
  profit,
  cap,
}: {
  up: bigint;
  down: bigint;
  direction: MicroDirection;
  profit: bigint;
  cap: bigint;
}): boolean {
  const after = direction === 1 ? { up: up + profit, down } : { up, down: down + profit };
  return microExposure(after) <= cap;
}

/**
 * The whole rule for one order, from the two recorded samples alone (what a verifier recomputes):
 * void when a sample is missing or not fresh, else the outcome by the two marks.
 */
export function settleMicro({
  direction,
  acceptedMs,
  expiryMs,
  maxSampleAgeMs,
  open,
  end,
}: {
  direction: MicroDirection;
  acceptedMs: number;
  expiryMs: number;
  maxSampleAgeMs: number;
  open: MicroSample | null;
  end: MicroSample | null;
}): { outcome: MicroOutcome; voidReason: MicroVoidReason | null } {
  if (open === null || open.timeMs <= acceptedMs || open.timeMs > expiryMs)
    return { outcome: 'void', voidReason: 'noOpenSample' };
  if (!isFreshOpen({ sample: open, acceptedMs, maxSampleAgeMs }))
    return { outcome: 'void', voidReason: 'staleOpen' };
  if (
    end === null ||
    end.seq < open.seq ||
    end.timeMs > expiryMs ||
    !isFreshEnd({ sample: end, expiryMs, maxSampleAgeMs })
  )
    return { outcome: 'void', voidReason: 'staleEnd' };
  return {
    outcome: microOutcome({
      direction,
      openTicks: open.markTicks as number,
      endTicks: end.markTicks as number,
    }),
    voidReason: null,
  };
}
