// The published rule of seconds (micro) contracts, as pure functions. Two versions, one per settlement price,
// recorded on each order when it is accepted: `fairex-micro-v2` settles on the recorded index (the median of
// the sources), what every order accepted by the exchange now settles on; `fairex-micro-v1` on the mark, what
// orders journaled before v2 existed settle on, so that their journals replay unchanged. The public
// description is docs/micro.md and must stay equal to this code. Every amount is bigint minor units,
// every price integer ticks; nothing here reads state, a clock or randomness.

/** The rule of orders that settle on the mark (journaled before the index rule; replay only). */
export const MICRO_RULE_VERSION = 'fairex-micro-v1';
/** The rule of orders that settle on the recorded index: every order the exchange accepts now. */
export const MICRO_INDEX_RULE_VERSION = 'fairex-micro-v2';

/**
 * The recorded price an order settles on: `index` (the sample's median of the fresh sources, not smoothed)
 * or `mark` (index plus the book's smoothed basis, which trails the index after a sharp move, so that the
 * public gap between them told the likely direction: orders without the field, journaled before).
 */
export type MicroPriceKind = 'mark' | 'index';

export function microRuleVersion(price: MicroPriceKind): string {
  return price === 'index' ? MICRO_INDEX_RULE_VERSION : MICRO_RULE_VERSION;
}

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
  /** The sample's index; null on an order that settles on the mark (its snapshot row never held it). */
  readonly indexTicks: number | null;
  readonly stale: boolean;
  readonly hash: string;
};

/** The sample's price an order of `price` settles on. */
export function settlementTicks(sample: MicroSample, price: MicroPriceKind): number | null {
  return price === 'index' ? sample.indexTicks : sample.markTicks;
}

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
  price = 'mark',
}: {
  sample: MicroSample;
  acceptedMs: number;
  maxSampleAgeMs: number;
  price?: MicroPriceKind;
}): boolean {
  return (
    !sample.stale && settlementTicks(sample, price) !== null && sample.timeMs - acceptedMs <= maxSampleAgeMs
  );
}

/** True when the last sample at or before expiry may end an order. */
export function isFreshEnd({
  sample,
  expiryMs,
  maxSampleAgeMs,
  price = 'mark',
}: {
  sample: MicroSample;
  expiryMs: number;
  maxSampleAgeMs: number;
  price?: MicroPriceKind;
}): boolean {
  return (
    !sample.stale && settlementTicks(sample, price) !== null && expiryMs - sample.timeMs <= maxSampleAgeMs
  );
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
 * void when a sample is missing or not fresh, else the outcome by the two samples' index (rule v2) or mark
 * (rule v1, `price` 'mark', the default of orders journaled before the index rule).
 */
export function settleMicro({
  direction,
  acceptedMs,
  expiryMs,
  maxSampleAgeMs,
  open,
  end,
  price = 'mark',
}: {
  direction: MicroDirection;
  acceptedMs: number;
  expiryMs: number;
  maxSampleAgeMs: number;
  open: MicroSample | null;
  end: MicroSample | null;
  price?: MicroPriceKind;
}): { outcome: MicroOutcome; voidReason: MicroVoidReason | null } {
  if (open === null || open.timeMs <= acceptedMs || open.timeMs > expiryMs)
    return { outcome: 'void', voidReason: 'noOpenSample' };
  if (!isFreshOpen({ sample: open, acceptedMs, maxSampleAgeMs, price }))
    return { outcome: 'void', voidReason: 'staleOpen' };
  if (
    end === null ||
    end.seq < open.seq ||
    end.timeMs > expiryMs ||
    !isFreshEnd({ sample: end, expiryMs, maxSampleAgeMs, price })
  )
    return { outcome: 'void', voidReason: 'staleEnd' };
  return {
    outcome: microOutcome({
      direction,
      openTicks: settlementTicks(open, price) as number,
      endTicks: settlementTicks(end, price) as number,
    }),
    voidReason: null,
  };
}
