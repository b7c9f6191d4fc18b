// The decimal text of a pair's tick and lot sizes, and the fee rates' bounds.
import { MAX_FEE_PPM } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isNatural } from '../validate.ts';

/** A positive decimal as an integer and a power of ten: "0.0100" is { units: 100n, scale: 4 }. */
export type Decimal = { units: bigint; scale: number };

const decimalPattern = /^(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?$/;

export function parsePositiveDecimal(text: unknown): Decimal | undefined {
  if (typeof text !== 'string' || !decimalPattern.test(text)) return undefined;
  const [whole = '', fraction = ''] = text.split('.');
  const units = BigInt(whole + fraction);
  return units > 0n ? { units, scale: fraction.length } : undefined;
}

/** value x 10^exponent when that is a whole number, otherwise undefined. */
export function scaledInteger(value: Decimal, exponent: number): bigint | undefined {
  const shift = exponent - value.scale;
  if (shift >= 0) return value.units * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  return value.units % divisor === 0n ? value.units / divisor : undefined;
}

export function checkFees(makerFeePpm: unknown, takerFeePpm: unknown): number {
  return isNatural(makerFeePpm, MAX_FEE_PPM) && isNatural(takerFeePpm, MAX_FEE_PPM)
    ? ResultCode.ok
    : ResultCode.invalidFeeRate;
}
