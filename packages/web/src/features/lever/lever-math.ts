import { divideRounded, formatDecimal, pow10, tryParseDecimal } from '@fairex/shared/decimal.ts';

// The order panel's figures (spec 01 section 9, spec 03 section 4), in bigint minor units: the entry price
// with the spread, the contract value, the margin and the fee, and the stop dialog's expected profit and
// loss. The figures the server decides are the server's; these show the same rule before submitting.

/** Percents ("0.1", "12.5") are read to this many decimals. */
const PERCENT_SCALE = 6;
const HUNDRED_PERCENT = 100n * pow10(PERCENT_SCALE);

/** Decimals of a decimal text ("67000.50" -> 2). */
export function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

function parse(text: string, scale: number): bigint | null {
  const parsed = tryParseDecimal(text.trim(), scale);
  return parsed.ok ? parsed.value : null;
}

export function percentMinor(percent: string): bigint | null {
  return parse(percent, PERCENT_SCALE);
}

export interface LeverTerms {
  /** The market's price decimals. */
  priceScale: number;
  /** The quote currency's decimals (amounts). */
  quoteScale: number;
  /** Base currency per lot, decimal text. */
  shareNum: string;
  spread: string;
  feePercent: string;
}

export interface LeverPreview {
  /** Entry price in ticks: mark plus the spread for a long, minus it for a short (rounded against the user). */
  entry: bigint;
  /** share x lever_share_num, at the share number's decimals. */
  number: bigint;
  numberScale: number;
  /** Contract value, margin and fee in quote minor units. */
  value: bigint;
  margin: bigint;
  fee: bigint;
}

/**
 * The figures of `lots` lots at `price` (the mark for a market order, the target for a limit one) and
 * `multiple`: null while an input is not a number the rule takes.
 */
export function previewLever(input: {
  terms: LeverTerms;
  side: 1 | 2;
  price: string;
  lots: number;
  multiple: number;
}): LeverPreview | null {
  const { terms } = input;
  if (!Number.isSafeInteger(input.lots) || input.lots <= 0 || input.multiple <= 0) return null;
  const price = parse(input.price, terms.priceScale);
  const spread = percentMinor(terms.spread);
  const feeRate = percentMinor(terms.feePercent);
  const numberScale = decimalsOf(terms.shareNum);
  const shareNum = parse(terms.shareNum, numberScale);
  if (price === null || price <= 0n || spread === null || feeRate === null || shareNum === null) return null;
  const move = divideRounded(price * spread, HUNDRED_PERCENT, 'up');
  const entry = input.side === 1 ? price + move : price - move;
  if (entry <= 0n) return null;
  const number = shareNum * BigInt(input.lots);
  // entry (priceScale) x number (numberScale) -> quote minor units.
  const valueScale = terms.priceScale + numberScale;
  const rawValue = entry * number;
  const toQuote = (amount: bigint, rounding: 'up' | 'down') =>
    valueScale >= terms.quoteScale
      ? divideRounded(amount, pow10(valueScale - terms.quoteScale), rounding)
      : amount * pow10(terms.quoteScale - valueScale);
  const value = toQuote(rawValue, 'down');
  const margin = toQuote(divideRounded(rawValue, BigInt(input.multiple), 'up'), 'up');
  const fee = toQuote(divideRounded(rawValue * feeRate, HUNDRED_PERCENT, 'up'), 'up');
  return { entry, number, numberScale, value, margin, fee };
}

/**
 * The stop dialog's expected profit (take-profit) or loss (stop-loss): (stop - entry) x number for a long,
 * the reverse for a short, in quote minor units; null while the price is not a number.
 */
export function expectedAtStop(input: {
  side: 1 | 2;
  entry: string;
  stop: string;
  number: string;
  priceScale: number;
  quoteScale: number;
}): bigint | null {
  const entry = parse(input.entry, input.priceScale);
  const stop = parse(input.stop, input.priceScale);
  const numberScale = decimalsOf(input.number);
  const number = parse(input.number, numberScale);
  if (entry === null || stop === null || number === null || stop <= 0n) return null;
  const difference = input.side === 1 ? stop - entry : entry - stop;
  const scale = input.priceScale + numberScale;
  const raw = difference * number;
  return scale >= input.quoteScale
    ? divideRounded(raw, pow10(scale - input.quoteScale), 'floor')
    : raw * pow10(input.quoteScale - scale);
}

/** Whether a stop price is on the allowed side (spec 03 section 4): long TP above, SL below; short reverse. */
export function stopSideOk(input: {
  side: 1 | 2;
  kind: 'profit' | 'loss';
  stop: string;
  entry: string;
  mark: string;
  priceScale: number;
}): boolean {
  const stop = parse(input.stop, input.priceScale);
  const entry = parse(input.entry, input.priceScale);
  const mark = parse(input.mark, input.priceScale);
  if (stop === null || entry === null || mark === null || stop <= 0n) return false;
  const above = stop > entry && stop > mark;
  const below = stop < entry && stop < mark;
  return (input.side === 1) === (input.kind === 'profit') ? above : below;
}

/** The risk bar's state: safe, warning (within the margin above the threshold) or danger (at or below). */
export function riskLevel(
  hazardRate: string,
  threshold: string,
  warning: string,
): 'none' | 'safe' | 'warn' | 'danger' {
  const rate = percentMinor(hazardRate);
  const limit = percentMinor(threshold);
  const warn = percentMinor(warning);
  if (rate === null || limit === null || warn === null || rate === 0n) return 'none';
  if (rate <= limit) return 'danger';
  if (rate <= warn) return 'warn';
  return 'safe';
}

/** The bar's filled share in whole percent (0..100): the risk rate, capped at twice the warning rate. */
export function riskFill(hazardRate: string, warning: string): number {
  const rate = percentMinor(hazardRate);
  const warn = percentMinor(warning);
  if (rate === null || warn === null || warn <= 0n || rate <= 0n) return 0;
  const full = warn * 2n;
  const capped = rate > full ? full : rate;
  return Number((capped * 100n) / full);
}

export function amountText(minor: bigint, scale: number): string {
  return formatDecimal(minor, scale);
}

function parseAmount(text: string, scale: number): bigint | null {
  return parse(text.replace(/,/g, ''), scale);
}

/**
 * The mark at which the account would be liquidated once this order opens, other positions' profits held
 * fixed (spec 03 section 4, cross margin): the price P where
 * (balance - margin - fee + margins + margin + profits + (P - entry) x number x side) / (margins + margin)
 * reaches the threshold. Rounded toward the entry side (a long's up, a short's down): the bar is reached no later
 * than shown. Null when the account could not be liquidated by this pair's mark alone.
 */
export function liquidationPreview(input: {
  side: 1 | 2;
  entry: bigint;
  number: bigint;
  numberScale: number;
  margin: bigint;
  fee: bigint;
  priceScale: number;
  quoteScale: number;
  risk: {
    lever_balance: string;
    origin_caution_money_all: string;
    profits_all: string;
    liquidation_threshold: string;
  };
}): bigint | null {
  const balance = parseAmount(input.risk.lever_balance, input.quoteScale);
  const margins = parseAmount(input.risk.origin_caution_money_all, input.quoteScale);
  const profits = parseAmount(input.risk.profits_all, input.quoteScale);
  const threshold = percentMinor(input.risk.liquidation_threshold);
  if (balance === null || margins === null || profits === null || threshold === null || input.number <= 0n)
    return null;
  const totalMargin = margins + input.margin;
  const equity = balance - input.fee + margins + profits; // balance - margin - fee + margins + margin + profits
  const floor = divideRounded(totalMargin * threshold, HUNDRED_PERCENT, 'up');
  // (P - entry) x number x side = floor - equity, in quote minor units; to ticks:
  // delta ticks = (floor - equity) x 10^(priceScale + numberScale - quoteScale) / number
  const gap = floor - equity;
  const exponent = input.priceScale + input.numberScale - input.quoteScale;
  const numerator = exponent >= 0 ? gap * pow10(exponent) : gap;
  const denominator = exponent >= 0 ? input.number : input.number * pow10(-exponent);
  const delta = divideRounded(numerator, denominator, 'ceil');
  const price = input.side === 1 ? input.entry + delta : input.entry - delta;
  return price > 0n ? price : null;
}
