import { FLASH_DECIMALS, flashPayment, flashQuote } from '@fairex/engine/calc';
import type { FlashTerms as Terms } from '@fairex/engine/calc';
import { formatDecimal, pow10, tryParseDecimal } from '@fairex/shared/decimal.ts';
import { readDecimal } from '../../format/index.ts';

// The flash page's two inputs drive each other through the price the server shows (spec 02 section 2.4),
// with the server's own formula (`@fairex/engine/calc`): received = paid x price(from) x (1 - fee) /
// price(to), rounded down, at most 8 decimals. This file only turns the page's decimal text into minor units
// and back. The server prices the exchange again when it executes it; these numbers are only what the
// screen expects.

export interface FlashTerms {
  /** 0: legal -> coin; 1: coin -> legal. */
  direction: 0 | 1;
  /** The coin's price in the legal currency, as the server gave it. */
  price: string;
  /** Fee in percent, e.g. "0.2". */
  feePercent: string;
  coinScale: number;
  legalScale: number;
}

/** The formula's terms in units of at most 8 decimals, and the decimals of each side; null when unusable. */
function terms(input: FlashTerms): { terms: Terms; payScale: number; receiveScale: number } | null {
  const price = readDecimal(input.price);
  const fee = tryParseDecimal(input.feePercent, 4);
  if (price === null || price.minor <= 0n || !fee.ok) return null;
  // A percent with 4 decimals is a count of parts per million: 0.2 % is 2000 ppm.
  const feePpm = fee.value;
  if (feePpm >= 1_000_000n) return null;
  const coinScale = Math.min(input.coinScale, FLASH_DECIMALS);
  const legalScale = Math.min(input.legalScale, FLASH_DECIMALS);
  return {
    terms: {
      direction: input.direction,
      priceMinor: price.minor,
      priceScale: price.scale,
      coinScale,
      legalScale,
      feePpm,
    },
    payScale: input.direction === 0 ? legalScale : coinScale,
    receiveScale: input.direction === 0 ? coinScale : legalScale,
  };
}

/** The decimal places the paying side accepts. */
export function payDecimals(input: FlashTerms): number {
  return Math.min(input.direction === 0 ? input.legalScale : input.coinScale, FLASH_DECIMALS);
}

export function receiveDecimals(input: FlashTerms): number {
  return Math.min(input.direction === 0 ? input.coinScale : input.legalScale, FLASH_DECIMALS);
}

/** What paying `paid` brings, rounded down; '' when the input is not an amount. */
export function receivedFor(input: FlashTerms, paid: string): string {
  const t = terms(input);
  const amount = t === null ? null : tryParseDecimal(paid.trim(), t.payScale);
  if (t === null || amount === null || !amount.ok) return '';
  return formatDecimal(flashQuote({ ...t.terms, amount: amount.value }).received, t.receiveScale);
}

/** What must be paid to receive at least `wanted`, rounded up; '' when the input is not an amount. */
export function paymentFor(input: FlashTerms, wanted: string): string {
  const t = terms(input);
  const amount = t === null ? null : tryParseDecimal(wanted.trim(), t.receiveScale);
  if (t === null || amount === null || !amount.ok) return '';
  return formatDecimal(flashPayment({ ...t.terms, wanted: amount.value }), t.payScale);
}

/**
 * Whether the legal side reaches the minimum (0.1): the amount paid when paying in the legal currency,
 * the amount received otherwise (spec 02 section 5).
 */
export function meetsMinimum(input: FlashTerms, paid: string, received: string, minimum: string): boolean {
  const legalSide = readDecimal(input.direction === 0 ? paid.trim() : received);
  const least = readDecimal(minimum);
  if (legalSide === null || least === null) return false;
  const scale = Math.max(legalSide.scale, least.scale);
  return legalSide.minor * pow10(scale - legalSide.scale) >= least.minor * pow10(scale - least.scale);
}
