import { formatDecimal, tryParseDecimal } from '@fairex/shared/decimal.ts';

// The panel's preview and the proof view's recomputation, in bigint minor units: the same rule the engine
// applies (docs/micro.md), written again here so a reader's browser checks the server's result.

/** A percent as decimal text ("85", "12.5") in basis points; null when it is not one. */
export function basisPoints(percent: string): bigint | null {
  const parsed = tryParseDecimal(percent, 2);
  return parsed.ok ? parsed.value : null;
}

export interface Preview {
  stake: bigint;
  fee: bigint;
  /** Stake plus fee: what leaves the micro wallet. */
  total: bigint;
  /** What a win returns: stake + floor(stake x ratio). */
  winPayout: bigint;
}

/** The amounts of an order of `number` at `scale`; null while the number is not a valid amount. */
export function previewOrder(input: {
  number: string;
  scale: number;
  feePercent: string;
  profitRatio: string;
}): Preview | null {
  const stake = tryParseDecimal(input.number.trim(), input.scale, { min: 1n });
  const feeBp = basisPoints(input.feePercent);
  const ratioBp = basisPoints(input.profitRatio);
  if (!stake.ok || feeBp === null || ratioBp === null) return null;
  const fee = (stake.value * feeBp) / 10_000n;
  return {
    stake: stake.value,
    fee,
    total: stake.value + fee,
    winPayout: stake.value + (stake.value * ratioBp) / 10_000n,
  };
}

export function formatAmount(minor: bigint, scale: number): string {
  return formatDecimal(minor, scale);
}

/** The number of decimals of a decimal text ("67000.50" -> 2). */
function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/**
 * The outcome and payout by the rule from the proof's fields: void when a sample is missing, stale, or
 * farther than the bound from acceptance or expiry; else up wins above, down below, a draw on equal prices.
 */
export function recompute(proof: {
  type: 1 | 2;
  number: string;
  profit_ratio: string;
  accepted_time: number;
  expiry_time: number;
  max_sample_age_ms: number;
  open: { time: number; price: string | null; stale: boolean } | null;
  end: { time: number; price: string | null; stale: boolean } | null;
}): { outcome: 'win' | 'loss' | 'draw' | 'void'; payout: string } {
  const scale = decimalsOf(proof.number);
  const stake = tryParseDecimal(proof.number, scale);
  const ratioBp = basisPoints(proof.profit_ratio);
  if (!stake.ok || ratioBp === null) return { outcome: 'void', payout: proof.number };
  const { open, end } = proof;
  const fresh =
    open !== null &&
    end !== null &&
    open.price !== null &&
    end.price !== null &&
    !open.stale &&
    !end.stale &&
    open.time > proof.accepted_time &&
    open.time <= proof.expiry_time &&
    open.time - proof.accepted_time <= proof.max_sample_age_ms &&
    end.time <= proof.expiry_time &&
    proof.expiry_time - end.time <= proof.max_sample_age_ms;
  if (!fresh) return { outcome: 'void', payout: proof.number };
  const priceScale = Math.max(decimalsOf(open.price as string), decimalsOf(end.price as string));
  const openTicks = tryParseDecimal(open.price as string, priceScale);
  const endTicks = tryParseDecimal(end.price as string, priceScale);
  if (!openTicks.ok || !endTicks.ok) return { outcome: 'void', payout: proof.number };
  if (openTicks.value === endTicks.value) return { outcome: 'draw', payout: proof.number };
  const upWins = endTicks.value > openTicks.value;
  if (upWins === (proof.type === 1))
    return { outcome: 'win', payout: formatDecimal(stake.value + (stake.value * ratioBp) / 10_000n, scale) };
  return { outcome: 'loss', payout: formatDecimal(0n, scale) };
}
