// Exact decimal arithmetic on bigint minor units. An amount is an integer count of 10^-scale units of its
// currency (a price: of its market's price unit). Decimal strings exist only at the edges: parsed once,
// range-checked, and formatted back. No JavaScript number ever holds money.

/**
 * How a division that does not come out even is rounded.
 * - down: toward zero; up: away from zero
 * - floor: toward minus infinity; ceil: toward plus infinity
 * - halfUp: to the nearest, ties away from zero; halfEven: to the nearest, ties to the even neighbour
 */
export type Rounding = 'down' | 'up' | 'floor' | 'ceil' | 'halfUp' | 'halfEven';

/** Why a decimal string was refused. */
export type DecimalErrorCode = 'empty' | 'format' | 'exponent' | 'sign' | 'scale' | 'range';

export const INT64_MAX = 9_223_372_036_854_775_807n;
/** The largest scale the helpers accept; far above any currency, low enough to keep numbers small. */
export const MAX_SCALE = 30;
/** Longest decimal string considered at all; anything longer is refused before any arithmetic. */
export const MAX_DECIMAL_TEXT_LENGTH = 64;

export interface ParseDecimalOptions {
  /** Accept a leading minus sign (default false). A plus sign is never accepted. */
  allowNegative?: boolean;
  /** Smallest accepted value in minor units (default: 0, or -INT64_MAX with allowNegative). */
  min?: bigint;
  /** Largest accepted value in minor units (default INT64_MAX, the bigint column limit). */
  max?: bigint;
}

export type ParseDecimalResult = { ok: true; value: bigint } | { ok: false; code: DecimalErrorCode };

export class DecimalError extends Error {
  readonly code: DecimalErrorCode;
  constructor(code: DecimalErrorCode, text: string) {
    super(`Invalid decimal (${code}): ${JSON.stringify(text.slice(0, MAX_DECIMAL_TEXT_LENGTH))}`);
    this.name = 'DecimalError';
    this.code = code;
  }
}

const DECIMAL_BODY = /^(\d+)(?:\.(\d+))?$/;
const POWERS_OF_TEN: bigint[] = Array.from({ length: 2 * MAX_SCALE + 1 }, (_, index) => 10n ** BigInt(index));

/** 10^exponent for 0 <= exponent <= 2 x MAX_SCALE, from a table. */
export function pow10(exponent: number): bigint {
  const value = POWERS_OF_TEN[exponent];
  if (value === undefined) throw new RangeError(`pow10 exponent out of range: ${exponent}`);
  return value;
}

function assertScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) {
    throw new RangeError(`Scale must be an integer from 0 to ${MAX_SCALE}, got ${scale}`);
  }
}

/**
 * Parses a plain decimal string ("12", "0.5", "-3.25") into minor units at `scale`. Refuses exponent
 * notation, a plus sign, a minus sign unless allowed, a missing digit on either side of the point, digits
 * beyond `scale` unless they are zeros, and values outside [min, max].
 */
export function tryParseDecimal(
  text: string,
  scale: number,
  options: ParseDecimalOptions = {},
): ParseDecimalResult {
  assertScale(scale);
  if (typeof text !== 'string') return { ok: false, code: 'format' };
  if (text.length === 0) return { ok: false, code: 'empty' };
  if (text.length > MAX_DECIMAL_TEXT_LENGTH) return { ok: false, code: 'range' };
  if (/[eE]/.test(text)) return { ok: false, code: 'exponent' };
  let body = text;
  let negative = false;
  if (text[0] === '+') return { ok: false, code: 'sign' };
  if (text[0] === '-') {
    if (!options.allowNegative) return { ok: false, code: 'sign' };
    negative = true;
    body = text.slice(1);
  }
  const match = DECIMAL_BODY.exec(body);
  if (!match) return { ok: false, code: 'format' };
  const integerDigits = match[1] ?? '';
  const fractionDigits = match[2] ?? '';
  // Extra digits are acceptable only when they are zeros: "1.500" at scale 2 is exactly 1.50.
  if (fractionDigits.length > scale && /[1-9]/.test(fractionDigits.slice(scale))) {
    return { ok: false, code: 'scale' };
  }
  const magnitude = BigInt(integerDigits + fractionDigits.slice(0, scale).padEnd(scale, '0'));
  const value = negative ? -magnitude : magnitude;
  const min = options.min ?? (options.allowNegative ? -INT64_MAX : 0n);
  const max = options.max ?? INT64_MAX;
  if (value < min || value > max) return { ok: false, code: 'range' };
  return { ok: true, value };
}

/** Like tryParseDecimal, but throws a DecimalError. */
export function parseDecimal(text: string, scale: number, options: ParseDecimalOptions = {}): bigint {
  const result = tryParseDecimal(text, scale, options);
  if (!result.ok) throw new DecimalError(result.code, String(text));
  return result.value;
}

export interface FormatDecimalOptions {
  /** Drop trailing fraction zeros (and the point when nothing is left). Default false: exactly `scale` decimals. */
  trim?: boolean;
  /** With trim: keep at least this many decimals. */
  minDecimals?: number;
}

/** Formats minor units at `scale` as a plain decimal string ("-0.05", "12.50000000"). */
export function formatDecimal(minor: bigint, scale: number, options: FormatDecimalOptions = {}): string {
  assertScale(scale);
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(scale + 1, '0');
  const integerPart = digits.slice(0, digits.length - scale);
  let fractionPart = digits.slice(digits.length - scale);
  if (options.trim) {
    const keep = Math.min(options.minDecimals ?? 0, scale);
    let end = fractionPart.length;
    while (end > keep && fractionPart[end - 1] === '0') end -= 1;
    fractionPart = fractionPart.slice(0, end);
  }
  const sign = negative ? '-' : '';
  return fractionPart.length > 0 ? `${sign}${integerPart}.${fractionPart}` : `${sign}${integerPart}`;
}

/** Inserts a thousands separator into the integer part of a plain decimal string. */
export function groupThousands(text: string, separator = ','): string {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const point = body.indexOf('.');
  const integer = point < 0 ? body : body.slice(0, point);
  const fraction = point < 0 ? '' : body.slice(point);
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  return `${negative ? '-' : ''}${grouped}${fraction}`;
}

/** numerator / denominator as an integer, rounded as asked. */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  // The sign of the exact quotient; BigInt division truncated toward zero.
  const step = numerator < 0n !== denominator < 0n ? -1n : 1n;
  switch (rounding) {
    case 'down':
      return quotient;
    case 'up':
      return quotient + step;
    case 'floor':
      return step < 0n ? quotient - 1n : quotient;
    case 'ceil':
      return step > 0n ? quotient + 1n : quotient;
    case 'halfUp':
    case 'halfEven': {
      const twiceRemainder = 2n * (remainder < 0n ? -remainder : remainder);
      const absDenominator = denominator < 0n ? -denominator : denominator;
      if (twiceRemainder > absDenominator) return quotient + step;
      if (twiceRemainder < absDenominator) return quotient;
      if (rounding === 'halfUp') return quotient + step;
      return quotient % 2n === 0n ? quotient : quotient + step;
    }
  }
}

/** a x b / divisor, computed exactly and rounded once. */
export function mulDiv(a: bigint, b: bigint, divisor: bigint, rounding: Rounding): bigint {
  return divideRounded(a * b, divisor, rounding);
}

/** Re-expresses minor units at another scale; rounding applies only when the scale shrinks. */
export function rescale(minor: bigint, fromScale: number, toScale: number, rounding: Rounding): bigint {
  assertScale(fromScale);
  assertScale(toScale);
  if (toScale >= fromScale) return minor * pow10(toScale - fromScale);
  return divideRounded(minor, pow10(fromScale - toScale), rounding);
}

/**
 * The product of two scaled numbers at `resultScale`, e.g. price (price scale) x quantity (base scale) ->
 * value in quote minor units.
 */
export function multiplyScaled(
  a: bigint,
  aScale: number,
  b: bigint,
  bScale: number,
  resultScale: number,
  rounding: Rounding,
): bigint {
  return rescale(a * b, aScale + bScale, resultScale, rounding);
}

/** The quotient of two scaled numbers at `resultScale`, e.g. quote value / price -> base quantity. */
export function divideScaled(
  a: bigint,
  aScale: number,
  b: bigint,
  bScale: number,
  resultScale: number,
  rounding: Rounding,
): bigint {
  assertScale(aScale);
  assertScale(bScale);
  assertScale(resultScale);
  // a/10^aScale / (b/10^bScale) x 10^resultScale = a x 10^(resultScale + bScale - aScale) / b
  const exponent = resultScale + bScale - aScale;
  if (exponent >= 0) return divideRounded(a * pow10(exponent), b, rounding);
  return divideRounded(a, b * pow10(-exponent), rounding);
}

export const PPM = 1_000_000n;

/** amount x ppm / 1,000,000: a rate in parts per million (10,000 ppm = 1 %) applied to an amount. */
export function applyPpm(amount: bigint, ppm: bigint | number, rounding: Rounding): bigint {
  return mulDiv(amount, BigInt(ppm), PPM, rounding);
}
