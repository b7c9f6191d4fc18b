import { formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import type { Language } from '../i18n/languages.ts';
import {
  NO_VALUE,
  atScale,
  groupThousands,
  readDecimal,
  roundedText,
  type ExactDecimal,
} from './decimal-text.ts';

// Display formats for prices, amounts and changes. Every function takes the server's decimal string
// and returns text; none of them turns money into a JavaScript number. All five interface languages
// write numbers with "," between thousands and "." before the fraction, so one grouping serves all.

/** A price or amount rounded to `decimals` places with thousands grouped: "67,012.3400". */
export function formatFixed(text: string | null | undefined, decimals: number): string {
  const value = readDecimal(text);
  if (value === null) return NO_VALUE;
  return groupThousands(roundedText(value, decimals));
}

/**
 * A pair's price as every screen writes it: the pair's price precision (its `price_scale`), thousands
 * grouped, "30,100.00". The order book, the open orders, the order lists, the trades and the toasts all
 * go through this one function, so the same price never reads with 2 places on one screen and 5 on
 * another. Before the pair's precision is known the server's text is shown as it is, grouped.
 */
export function formatPrice(text: string | null | undefined, priceScale: number | undefined): string {
  if (priceScale === undefined) {
    return readDecimal(text) === null ? NO_VALUE : groupThousands(text as string);
  }
  return formatFixed(text, priceScale);
}

/** A signed percent change: "+1.25%", "-0.40%", "0.00%". */
export function formatPercent(text: string | null | undefined, decimals = 2): string {
  const value = readDecimal(text);
  if (value === null) return NO_VALUE;
  const rounded = roundedText(value, decimals);
  const sign = atScale(value, decimals) > 0n ? '+' : '';
  return `${sign}${groupThousands(rounded)}%`;
}

interface CompactUnit {
  /** The unit's size as a power of ten. */
  exponent: number;
  suffix: string;
}

// Largest first. Chinese counts in 万 (10^4) and 亿 (10^8), Traditional script 萬 and 億 (spec 02
// section 9); the other languages in thousands, millions and billions.
const UNITS_WESTERN: readonly CompactUnit[] = [
  { exponent: 9, suffix: 'B' },
  { exponent: 6, suffix: 'M' },
  { exponent: 3, suffix: 'K' },
];
const UNITS_SIMPLIFIED: readonly CompactUnit[] = [
  { exponent: 8, suffix: '亿' },
  { exponent: 4, suffix: '万' },
];
const UNITS_TRADITIONAL: readonly CompactUnit[] = [
  { exponent: 8, suffix: '億' },
  { exponent: 4, suffix: '萬' },
];

export function compactUnits(language: Language): readonly CompactUnit[] {
  if (language === 'zh') return UNITS_SIMPLIFIED;
  if (language === 'hk') return UNITS_TRADITIONAL;
  return UNITS_WESTERN;
}

/**
 * A large volume or turnover in the reader's units: "1.23M" / "123.46万". A value takes the largest
 * unit it reaches; when rounding carries it up to the next unit (999,999.9 would read "1000.00K")
 * the next unit is used instead ("1.00M"). Values below the smallest unit are shown in full, rounded
 * to `decimals` places; values below one keep up to SMALL_VALUE_DECIMALS places ("0.0029").
 */
export function formatCompact(text: string | null | undefined, language: Language, decimals = 2): string {
  const value = readDecimal(text);
  if (value === null) return NO_VALUE;
  const magnitude: ExactDecimal = {
    minor: value.minor < 0n ? -value.minor : value.minor,
    scale: value.scale,
  };
  if (!reaches(magnitude, 0)) return formatFraction(value, decimals);
  const units = [...compactUnits(language), { exponent: 0, suffix: '' }];
  const reached = units.findIndex((unit) => reaches(magnitude, unit.exponent));
  let index = reached < 0 ? units.length - 1 : reached;
  let steps = stepsIn(magnitude, units[index]!.exponent, decimals);
  const larger = units[index - 1];
  if (larger !== undefined && steps >= pow10(larger.exponent - units[index]!.exponent + decimals)) {
    index -= 1;
    steps = stepsIn(magnitude, larger.exponent, decimals);
  }
  const sign = value.minor < 0n && steps !== 0n ? '-' : '';
  return `${sign}${groupThousands(formatDecimal(steps, decimals))}${units[index]!.suffix}`;
}

/** Places a value below one may use, so that 0.0029 BTC of volume does not read as "0.00". */
export const SMALL_VALUE_DECIMALS = 6;

/** A value below one: up to SMALL_VALUE_DECIMALS places, trailing zeros dropped down to `decimals`. */
function formatFraction(value: ExactDecimal, decimals: number): string {
  const places = Math.max(decimals, SMALL_VALUE_DECIMALS);
  const rounded = atScale(value, places);
  const text = formatDecimal(rounded, places, { trim: true, minDecimals: decimals });
  return rounded === 0n ? text.replace(/^-/, '') : text;
}

/** True when the magnitude is at least 10^exponent. */
function reaches(magnitude: ExactDecimal, exponent: number): boolean {
  return magnitude.minor >= pow10(exponent + magnitude.scale);
}

/** The magnitude divided by 10^exponent, rounded to `decimals` places, in steps of 10^-decimals. */
function stepsIn(magnitude: ExactDecimal, exponent: number, decimals: number): bigint {
  // Dividing by 10^exponent only moves the decimal point: the same digits at a larger scale.
  return atScale({ minor: magnitude.minor, scale: magnitude.scale + exponent }, decimals);
}
