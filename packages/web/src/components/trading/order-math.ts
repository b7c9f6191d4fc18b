import { divideRounded, formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import { compareDecimals, readDecimal } from '../../format/index.ts';
import type { SpotMarketInfo } from '../../data/spot.ts';

// The order form's arithmetic, on exact decimals: what a slider position buys or sells, and what an order
// costs. Inputs and results are decimal text; bigint does every step, so the number the form proposes is
// exactly what the balance allows and never a binary approximation of it.

/** Spec 01 section 9: the slider runs 0 to 100 in steps of 25. */
export const SLIDER_STEP = 25;
export const SLIDER_MARKS = [0, 25, 50, 75, 100] as const;

/** Units of 10^-scale in a decimal text, or null when the text is not a plain non-negative decimal. */
export function unitsAt(text: string | null | undefined, scale: number): bigint | null {
  const value = readDecimal(text);
  if (value === null || value.minor < 0n) return null;
  if (value.scale <= scale) return value.minor * pow10(scale - value.scale);
  // More decimals than the scale: round down, the only safe direction for an amount one can spend.
  return divideRounded(value.minor, pow10(value.scale - scale), 'down');
}

/**
 * Keeps what a person types in a decimal field acceptable: digits and one point, at most `decimals`
 * places, no sign, no exponent. Returns the cleaned text (an empty field stays empty).
 */
export function cleanDecimalInput(text: string, decimals: number): string {
  let cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const point = cleaned.indexOf('.');
  if (point >= 0) {
    const fraction = cleaned.slice(point + 1).replace(/\./g, '');
    cleaned =
      decimals > 0 ? `${cleaned.slice(0, point)}.${fraction.slice(0, decimals)}` : cleaned.slice(0, point);
  }
  if (cleaned.startsWith('.')) cleaned = `0${cleaned}`;
  // "007" is 7; keep a single zero before the point.
  return cleaned.replace(/^0+(?=\d)/, '');
}

/** Whole lots of the market in a base amount (units at the quantity scale), rounded down to the step. */
function toSteps(quantityUnits: bigint, market: SpotMarketInfo): bigint {
  const step = unitsAt(market.number_step, market.number_scale) ?? 1n;
  return step > 0n ? (quantityUnits / step) * step : quantityUnits;
}

export interface SliderInput {
  side: 'buy' | 'sell';
  percent: number;
  /** The spendable balance: the quote currency to buy with, the base currency to sell. */
  available: string | null | undefined;
  /** The price a buy is computed at (the limit price, or the latest price in market mode). */
  price: string | null | undefined;
  market: SpotMarketInfo;
}

/**
 * The quantity a slider position stands for (spec 01 section 5): a buy spends `percent` of the available
 * quote balance at the price, a sell offers `percent` of the holdings. Rounded down to the market's
 * quantity step, so the order it proposes is always one the balance covers. Null when it cannot be worked
 * out (no balance, no price for a buy).
 */
export function sliderQuantity({ side, percent, available, price, market }: SliderInput): string | null {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) return null;
  const scale = market.number_scale;
  if (side === 'sell') {
    const holdings = unitsAt(available, scale);
    if (holdings === null) return null;
    return formatDecimal(toSteps((holdings * BigInt(percent)) / 100n, market), scale);
  }
  const quoteUnits = unitsAt(available, market.legal_scale);
  const priceUnits = unitsAt(price, market.price_scale);
  if (quoteUnits === null || priceUnits === null || priceUnits === 0n) return null;
  // quantity = available x percent / 100 / price, at the quantity scale:
  // (q / 10^ls) x p / 100 / (pr / 10^ps) x 10^ns = q x p x 10^(ps + ns) / (100 x pr x 10^ls)
  const numerator = quoteUnits * BigInt(percent) * pow10(market.price_scale + scale);
  const denominator = 100n * priceUnits * pow10(market.legal_scale);
  return formatDecimal(toSteps(numerator / denominator, market), scale);
}

/** price x quantity in the quote currency, at its scale, rounded down (what the order costs or yields). */
export function orderTotal(
  price: string | null | undefined,
  quantity: string | null | undefined,
  market: SpotMarketInfo,
): string | null {
  const priceUnits = unitsAt(price, market.price_scale);
  const quantityUnits = unitsAt(quantity, market.number_scale);
  if (priceUnits === null || quantityUnits === null) return null;
  const productScale = market.price_scale + market.number_scale;
  const product = priceUnits * quantityUnits;
  const value =
    productScale <= market.legal_scale
      ? product * pow10(market.legal_scale - productScale)
      : divideRounded(product, pow10(productScale - market.legal_scale), 'down');
  return formatDecimal(value, market.legal_scale);
}

/** True when the text is a positive amount at the scale (zero, empty and unreadable are not). */
export function isPositive(text: string | null | undefined, scale: number): boolean {
  const units = unitsAt(text, scale);
  return units !== null && units > 0n;
}

/** Which slider mark a quantity matches exactly, for showing the slider where the typed amount puts it. */
export function sliderPercentOf(input: Omit<SliderInput, 'percent'> & { quantity: string }): number {
  for (const mark of [...SLIDER_MARKS].reverse()) {
    if (mark === 0) continue;
    if (sliderQuantity({ ...input, percent: mark }) === input.quantity) return mark;
  }
  return 0;
}

/** The smallest quantity an order may have: the market's minimum, and never less than one lot. */
export function minimumQuantity(market: SpotMarketInfo): string {
  const step = market.number_step;
  return compareDecimals(step, market.min_number) === 1 ? step : market.min_number;
}

export type AmountCheck =
  | { ok: true }
  | { ok: false; reason: 'empty' }
  | { ok: false; reason: 'belowMinimum'; minimum: string }
  | { ok: false; reason: 'belowMinimumTotal'; minimum: string };

/**
 * Whether an order's amount may be sent, before the server is asked. An empty field asks for an amount;
 * an amount below one lot or the market's minimum (zero included) is refused with the market's own
 * figure, as is a limit order whose total is below the minimum total. Exact: compared as decimals, never
 * after rounding the amount to the quantity scale (0.00001 is below 0.0001, not zero).
 */
export function checkOrderAmount(
  amount: string,
  limitPrice: string | null,
  market: SpotMarketInfo,
): AmountCheck {
  if (amount.trim() === '' || readDecimal(amount) === null) return { ok: false, reason: 'empty' };
  const minimum = minimumQuantity(market);
  if (compareDecimals(amount, minimum) === -1 || compareDecimals(amount, '0') !== 1) {
    return { ok: false, reason: 'belowMinimum', minimum };
  }
  if (limitPrice !== null && compareDecimals(market.min_total, '0') === 1) {
    const total = orderTotal(limitPrice, amount, market);
    if (total !== null && compareDecimals(total, market.min_total) === -1) {
      return { ok: false, reason: 'belowMinimumTotal', minimum: market.min_total };
    }
  }
  return { ok: true };
}
