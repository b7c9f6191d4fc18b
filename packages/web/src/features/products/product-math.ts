import { formatDecimal, pow10 } from '@fairex/shared/decimal.ts';
import { MAX_PRODUCT_QUANTITY } from '@fairex/shared';
import {
  defiDaily,
  defiPromise,
  icoCost,
  minerCost as minerCostRule,
  minerOutlook,
  progressHundredths,
} from '@fairex/engine/calc';
import { readDecimal, type ExactDecimal } from '../../format/index.ts';

// The previews the product screens show before the server decides: what a purchase costs, what a stake
// earns, how much of a sale is sold. Decimal text in, decimal text out, bigint in between; a JavaScript number
// only ever holds a count of whole units or a time. The rules themselves are the engine's published formulas
// (`@fairex/engine/calc`, docs/products.md), so a preview is the number the server's reply confirms.

/**
 * A whole quantity as typed (spec 02 section 5: ICO and miner at least 1, defi a whole number of coins):
 * digits only, at least 1, at most the contract's largest purchase; null otherwise.
 */
export function wholeQuantity(text: string): bigint | null {
  const trimmed = text.trim();
  if (!/^\d{1,10}$/.test(trimmed)) return null;
  const value = BigInt(trimmed);
  return value >= 1n && value <= BigInt(MAX_PRODUCT_QUANTITY) ? value : null;
}

/** Keeps only the digits of a typed defi amount (spec 02 section 5: non-numeric input becomes empty). */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '').replace(/^0+(?=\d)/, '');
}

function exact(text: string | null | undefined): ExactDecimal | null {
  const value = readDecimal(text);
  return value === null || value.minor < 0n ? null : value;
}

function textOf(minor: bigint, scale: number): string {
  return formatDecimal(minor, scale);
}

/** A token purchase: quantity x price, exact, at the price's scale ("12.50" x 3 = "37.50"). */
export function timesQuantity(price: string, quantity: bigint): string | null {
  const value = exact(price);
  return value === null ? null : textOf(icoCost({ quantity, price: value.minor }), value.scale);
}

/** A percent text as basis points ("2.5" -> 250); null when it has more than two decimals or is junk. */
export function percentBp(percent: string): number | null {
  const value = exact(percent);
  if (value === null || value.scale > 2) return null;
  const bp = value.minor * pow10(2 - value.scale);
  return bp <= 10_000_000n ? Number(bp) : null;
}

export interface MinerCost {
  /** price x units. */
  rent: string;
  /** rent x fee% / 100, rounded down to the pay currency's minor unit (the rule in docs/products.md). */
  fee: string;
  /** rent + fee: what leaves the miner wallet. */
  paid: string;
}

/**
 * A miner purchase (spec 02 section 9): the rent is price x quantity, the fee a percent of the rent (rounded
 * down at the price's scale, which is the pay currency's), the payment their sum.
 */
export function minerCost(price: string, quantity: bigint, feePercent: string): MinerCost | null {
  const unit = exact(price);
  const feeBp = percentBp(feePercent);
  if (unit === null || feeBp === null) return null;
  const { rent, fee, paid } = minerCostRule({ quantity, price: unit.minor, feeBp });
  return { rent: textOf(rent, unit.scale), fee: textOf(fee, unit.scale), paid: textOf(paid, unit.scale) };
}

export interface MinerOutlookText {
  /** units x today's daily amount per unit x the term's days, in the earned coin. */
  output: string;
  /** The output at the mark price, rounded down, in the pay currency. */
  value: string;
  /** What leaves the wallet: rent + fee. */
  cost: string;
  /** value - cost (negative: a loss). */
  net: string;
  /** True when value - cost is below zero. */
  loss: boolean;
  /** The earned coin's price at which the value would equal the cost (null: the output is zero). */
  breakEven: string | null;
}

/**
 * What `units` of a miner return over the term if today's daily amount per unit holds every day and the coin
 * keeps today's mark price (the engine's `minerOutlook`). Prices and costs are brought to the finer of the
 * rent's and the mark's scales; null when a figure is unreadable.
 */
export function minerOutlookText(
  terms: { perUnit: string; days: number; price: string; feePercent: string },
  units: bigint,
  mark: string,
): MinerOutlookText | null {
  const perUnit = exact(terms.perUnit);
  const unitPrice = exact(terms.price);
  const markPrice = exact(mark);
  const feeBp = percentBp(terms.feePercent);
  if (perUnit === null || unitPrice === null || markPrice === null || feeBp === null) return null;
  if (!Number.isSafeInteger(terms.days) || terms.days < 0) return null;
  const { paid } = minerCostRule({ quantity: units, price: unitPrice.minor, feeBp });
  const scale = Math.max(unitPrice.scale, markPrice.scale);
  const outlook = minerOutlook({
    units,
    perUnit: perUnit.minor,
    days: terms.days,
    earnScale: perUnit.scale,
    paid: paid * pow10(scale - unitPrice.scale),
    price: markPrice.minor * pow10(scale - markPrice.scale),
  });
  return {
    output: textOf(outlook.output, perUnit.scale),
    value: textOf(outlook.value, scale),
    cost: textOf(paid * pow10(scale - unitPrice.scale), scale),
    net: textOf(outlook.net, scale),
    loss: outlook.net < 0n,
    breakEven: outlook.breakEven === null ? null : textOf(outlook.breakEven, scale),
  };
}

/** Basis points as a percent text, by integer arithmetic: 850 -> "8.5", 1200 -> "12", 5 -> "0.05". */
export function bpPercent(bp: number): string {
  if (!Number.isSafeInteger(bp) || bp < 0) return '';
  return formatDecimal(BigInt(bp), 2, { trim: true });
}

export interface StakePreview {
  /** floor(principal x APR / 365) at the currency's scale: what one day accrues. */
  daily: string;
  /** daily x days: what the period accrues in all. */
  earnings: string;
  /** principal + earnings: what returns at maturity. */
  returned: string;
}

/**
 * What a stake earns under the published rule (docs/products.md): each day accrues floor(principal x APR_bp /
 * 10,000 / 365) minor units of the staked currency, for the product's days; principal and earnings return at the
 * end. `scale` is the staked currency's (read from the balance the server sent).
 */
export function stakePreview(coins: bigint, aprBp: number, days: number, scale: number): StakePreview {
  const principal = coins * pow10(scale);
  const daily = defiDaily({ principal, aprBp });
  const earnings = defiPromise({ principal, aprBp, days });
  return {
    daily: textOf(daily, scale),
    earnings: textOf(earnings, scale),
    returned: textOf(principal + earnings, scale),
  };
}

/** The number of decimals of a decimal text (its scale); 0 for junk. */
export function scaleOf(text: string | null | undefined): number {
  return readDecimal(text)?.scale ?? 0;
}

/** part / whole x 100 to two decimals, rounded down ("33.33"); null when whole is zero or unreadable. */
export function shareText(part: string, whole: string): string | null {
  const a = exact(part);
  const b = exact(whole);
  if (a === null || b === null || b.minor === 0n) return null;
  const scale = Math.max(a.scale, b.scale);
  return formatDecimal(
    progressHundredths({ part: a.minor * pow10(scale - a.scale), whole: b.minor * pow10(scale - b.scale) }),
    2,
  );
}

/** a - b, exact, or null when either is unreadable. */
export function minus(a: string, b: string): string | null {
  const x = readDecimal(a);
  const y = readDecimal(b);
  if (x === null || y === null) return null;
  const scale = Math.max(x.scale, y.scale);
  return textOf(x.minor * pow10(scale - x.scale) - y.minor * pow10(scale - y.scale), scale);
}

/** Whether a decimal text is above zero. */
export function positive(text: string | null | undefined): boolean {
  const value = readDecimal(text);
  return value !== null && value.minor > 0n;
}

/** Whether a is greater than b (both decimal text; false when either is unreadable). */
export function exceeds(a: string, b: string): boolean {
  const difference = minus(a, b);
  return difference !== null && positive(difference);
}

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** Tenths of a second: the countdown refreshes every 100 ms (spec 02 section 9). */
  tenths: number;
  over: boolean;
}

/** The time from now to an end, split for a countdown; zero and `over` once the end has passed. */
export function remaining(endMs: number, nowMs: number): Remaining {
  const left = Math.max(0, Math.floor(endMs - nowMs));
  const tenthsTotal = Math.floor(left / 100);
  return {
    days: Math.floor(tenthsTotal / 864_000),
    hours: Math.floor(tenthsTotal / 36_000) % 24,
    minutes: Math.floor(tenthsTotal / 600) % 60,
    seconds: Math.floor(tenthsTotal / 10) % 60,
    tenths: tenthsTotal % 10,
    over: left === 0,
  };
}

/** A countdown as "12d 03:04:05.6". */
export function countdownText(left: Remaining, dayUnit: string): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${left.days}${dayUnit} ${two(left.hours)}:${two(left.minutes)}:${two(left.seconds)}.${left.tenths}`;
}
