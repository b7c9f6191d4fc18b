import { leverEntryTicks, leverLiquidationTicks, leverOrderQuote } from '@fairex/engine/calc';
import type { LeverCalcTerms } from '@fairex/shared/api/lever.ts';
import { divideRounded, formatDecimal, pow10, tryParseDecimal } from '@fairex/shared/decimal.ts';
import { readDecimal } from '../../format/index.ts';

// The order panel's figures (spec 01 section 9, spec 03 section 4) with the engine's own formulas
// (`@fairex/engine/calc`): the entry price with the spread, the contract value, the margin, the fee and the
// cross-margin liquidation price, in integer ticks, lots and quote minor units; and the stop dialog's
// expected profit and loss. The server decides; these show the same rule before submitting.

/** Percents ("0.1", "12.5") are read to this many decimals. */
const PERCENT_SCALE = 6;

/** Decimals of a decimal text ("67000.50" -> 2). */
export function decimalsOf(text: string): number {
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

function parse(text: string, scale: number): bigint | null {
  const parsed = tryParseDecimal(text.replace(/,/g, '').trim(), scale);
  return parsed.ok ? parsed.value : null;
}

export function percentMinor(percent: string): bigint | null {
  return parse(percent, PERCENT_SCALE);
}

/** A price text as whole ticks of the market; null when it is not a positive price on the tick. */
export function toTicks(calc: LeverCalcTerms, price: string): number | null {
  const units = parse(price, calc.price_scale);
  const tick = parse(calc.tick_size, calc.price_scale);
  if (units === null || tick === null || units <= 0n || tick <= 0n || units % tick !== 0n) return null;
  const ticks = units / tick;
  return ticks <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(ticks) : null;
}

export function ticksText(calc: LeverCalcTerms, ticks: number): string {
  const tick = parse(calc.tick_size, calc.price_scale) ?? 1n;
  return formatDecimal(BigInt(ticks) * tick, calc.price_scale);
}

export interface LeverPreview {
  /** The entry price in ticks: the mark plus/minus the spread at market, the target for a limit order. */
  entryTicks: number;
  lots: number;
  /** Quote minor units. */
  value: bigint;
  margin: bigint;
  fee: bigint;
  /** The account's liquidation price for this pair once the order opens, ticks (null: none). */
  liquidationTicks: number | null;
}

/**
 * The figures of `share` lots at `price` (the mark for a market order, the target for a limit order) and
 * `multiple`, as the engine computes them; null while an input is not a number the rule takes.
 */
export function previewLever(input: {
  calc: LeverCalcTerms;
  side: 1 | 2;
  mode: 0 | 1;
  price: string;
  share: number;
  multiple: number;
}): LeverPreview | null {
  const { calc, side } = input;
  if (!Number.isSafeInteger(input.share) || input.share <= 0 || input.multiple <= 0) return null;
  const priceTicks = toTicks(calc, input.price);
  if (priceTicks === null) return null;
  const entryTicks =
    input.mode === 1
      ? leverEntryTicks({ markTicks: priceTicks, spreadPpm: calc.spread_ppm, side })
      : priceTicks;
  if (entryTicks <= 0) return null;
  const q = BigInt(calc.quote_minor_per_tick_lot);
  const quote = leverOrderQuote({
    priceTicks: entryTicks,
    share: input.share,
    lotsPerShare: calc.lots_per_share,
    multiple: input.multiple,
    feePpm: calc.fee_ppm,
    quoteMinorPerTickLot: q,
  });
  let liquidationTicks: number | null = null;
  const account = calc.account;
  if (account !== null) {
    const signed = side === 1 ? quote.lots : -quote.lots;
    liquidationTicks = leverLiquidationTicks({
      netLots: account.net_lots + signed,
      quoteMinorPerTickLot: q,
      // The margin moves from the balance into margins (no change); the fee leaves; the new holding's
      // mark term is taken out as the others' are.
      restEquity: BigInt(account.rest_equity_minor) - quote.fee - BigInt(signed) * BigInt(entryTicks) * q,
      originMargin: BigInt(account.origin_margin_minor) + quote.margin,
      thresholdBp: Math.max(account.threshold_bp, calc.threshold_bp),
    });
  }
  return {
    entryTicks,
    lots: quote.lots,
    value: quote.contractValue,
    margin: quote.margin,
    fee: quote.fee,
    liquidationTicks: liquidationTicks !== null && liquidationTicks > 0 ? liquidationTicks : null,
  };
}

/** The most lots whose margin and fee `available` (quote minor units) carries, at `percent` of it. */
export function lotsForShare(input: {
  calc: LeverCalcTerms;
  side: 1 | 2;
  mode: 0 | 1;
  price: string;
  multiple: number;
  available: bigint;
  percent: number;
  max: number;
}): number {
  const one = previewLever({ ...input, share: 1 });
  if (one === null) return 0;
  const perLot = one.margin + one.fee;
  if (perLot <= 0n) return 0;
  let count = (input.available * BigInt(input.percent)) / 100n / perLot;
  if (input.max > 0 && count > BigInt(input.max)) count = BigInt(input.max);
  return Number(count);
}

/**
 * A stop price typed as zero or below (refused at once: 0 means "no stop" only when the field is cleared),
 * read exactly from its digits, never through a float ("0.000000001" is above zero). Unreadable text is not
 * judged here (the side note and the server refuse it).
 */
export function notAbovePositive(text: string): boolean {
  const value = readDecimal(text.trim());
  return value !== null && value.minor <= 0n;
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

/** The risk bar's state: none (no holdings), safe, warn (within the margin above the threshold), danger. */
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

/** A decimal text at `scale` as minor units (null when it is not one). */
export function minorOf(text: string, scale: number): bigint | null {
  return parse(text, scale);
}

export function amountText(minor: bigint, scale: number): string {
  return formatDecimal(minor, scale);
}
