import { MAX_SCALE, divideRounded, formatDecimal, pow10 } from '@fairex/shared/decimal.ts';

export { groupThousands } from '@fairex/shared/decimal.ts';

// Prices and amounts reach the browser as decimal strings. These functions round, compare and group
// them with bigint arithmetic on the exact digits, so what the screen shows is the server's number
// rounded once, never a binary floating-point approximation of it.

/** A decimal string read exactly: `minor` units of 10^-scale. */
export interface ExactDecimal {
  minor: bigint;
  scale: number;
}

/** Shown where a value is missing or unreadable, so that nothing made up ever fills the gap. */
export const NO_VALUE = '--';

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Longer text is refused before any arithmetic: no honest price or amount needs more digits. */
const MAX_TEXT_LENGTH = 64;

/** Reads "12.5", "-0.003" or "7" exactly; anything else (empty, exponent, text) gives null. */
export function readDecimal(text: string | null | undefined): ExactDecimal | null {
  if (typeof text !== 'string' || text.length > MAX_TEXT_LENGTH || !PLAIN_DECIMAL.test(text)) return null;
  const point = text.indexOf('.');
  const scale = point < 0 ? 0 : text.length - point - 1;
  if (scale > MAX_SCALE) return null;
  // Display values have no int64 limit: BigInt reads any length of digits exactly.
  return { minor: BigInt(point < 0 ? text : text.slice(0, point) + text.slice(point + 1)), scale };
}

/** The value at another scale, rounded half away from zero when digits are dropped. */
export function atScale(value: ExactDecimal, scale: number): bigint {
  if (scale >= value.scale) return value.minor * pow10(scale - value.scale);
  return divideRounded(value.minor, pow10(value.scale - scale), 'halfUp');
}

/** The decimal rounded to exactly `decimals` places, as a plain string ("1.2300"). */
export function roundedText(value: ExactDecimal, decimals: number): string {
  const text = formatDecimal(atScale(value, decimals), decimals);
  // A tiny negative value rounds to zero; "-0.00" would read as a loss that is not there.
  return /^-0(?:\.0+)?$/.test(text) ? text.slice(1) : text;
}

/** -1, 0 or 1 as a is below, equal to or above b; unreadable values sort below every number. */
export function compareDecimals(a: string | null | undefined, b: string | null | undefined): -1 | 0 | 1 {
  const left = readDecimal(a);
  const right = readDecimal(b);
  if (left === null || right === null) {
    if (left === right) return 0;
    return left === null ? -1 : 1;
  }
  const scale = Math.max(left.scale, right.scale);
  const difference = atScale(left, scale) - atScale(right, scale);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

export type Direction = 'up' | 'down' | 'flat';

/** Which way a signed change points: the colour of a price follows it. */
export function directionOf(change: string | null | undefined): Direction {
  const value = readDecimal(change);
  if (value === null || value.minor === 0n) return 'flat';
  return value.minor > 0n ? 'up' : 'down';
}
