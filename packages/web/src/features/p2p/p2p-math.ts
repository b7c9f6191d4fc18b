// The P2P screens' arithmetic and rules, pure and tested (p2p-math.test.ts). Money stays bigint minor units
// between the decimal texts the server sent; the formulas are the engine's own (`@fairex/engine/calc`,
// docs/p2p.md "Rounding": fiat = amount x price rounded half up to the cent, and an order taken by fiat gets
// amount = fiat / price rounded down to the coin's scale), so the screen and the server cannot disagree.
import { p2pAmountForFiat, p2pFiatCents } from '@fairex/engine/calc';
import { formatDecimal, tryParseDecimal } from '@fairex/shared/decimal.ts';
import type { P2pOrder, P2pOrderStatus } from '@fairex/shared/api/p2p.ts';

/** Fiat amounts and prices have two decimals (cents). */
export const FIAT_SCALE = 2;

function parse(text: string, scale: number): bigint | null {
  const result = tryParseDecimal(text.trim(), scale);
  return result.ok ? result.value : null;
}

/** The fiat an amount of coins costs at a price: half up to the cent; null for unreadable input. */
export function fiatForAmount(amount: string, price: string, coinScale: number): string | null {
  const coins = parse(amount, coinScale);
  const cents = parse(price, FIAT_SCALE);
  if (coins === null || cents === null) return null;
  return formatDecimal(p2pFiatCents({ amount: coins, priceCents: cents, scale: coinScale }), FIAT_SCALE);
}

/** The coins a fiat amount buys at a price: rounded down to the coin's scale; null for unreadable input. */
export function amountForFiat(fiat: string, price: string, coinScale: number): string | null {
  const money = parse(fiat, FIAT_SCALE);
  const cents = parse(price, FIAT_SCALE);
  if (money === null || cents === null || cents <= 0n) return null;
  return formatDecimal(
    p2pAmountForFiat({ fiatCents: money, priceCents: cents, scale: coinScale }),
    coinScale,
  );
}

export type LimitCheck = 'ok' | 'unreadable' | 'belowMin' | 'aboveMax';

/** Whether a fiat amount typed into the take dialog is within an ad's per-order limits. */
export function checkFiatLimits(fiat: string, min: string, max: string): LimitCheck {
  const value = parse(fiat, FIAT_SCALE);
  const low = parse(min, FIAT_SCALE);
  const high = parse(max, FIAT_SCALE);
  if (value === null || value <= 0n || low === null || high === null) return 'unreadable';
  if (value < low) return 'belowMin';
  if (value > high) return 'aboveMax';
  return 'ok';
}

/** Whether a decimal text reads as a positive amount at a scale (the forms' first check). */
export function isPositiveAt(text: string, scale: number): boolean {
  const value = parse(text, scale);
  return value !== null && value > 0n;
}

/** Remaining milliseconds as "mm:ss" (or "h:mm:ss"), never negative; whole seconds rounded up. */
export function countdownText(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

/** An average release time in seconds as minutes and seconds for the statistics line. */
export function splitDuration(seconds: number): { minutes: number; seconds: number } {
  const whole = Math.max(0, Math.round(seconds));
  return { minutes: Math.floor(whole / 60), seconds: whole % 60 };
}

/** The order room's stepper: 0 pay, 1 release (paid or in appeal), 2 done; the last step's outcome. */
export function stepOf(status: P2pOrderStatus): { step: 0 | 1 | 2; error: boolean } {
  switch (status) {
    case 'unpaid':
      return { step: 0, error: false };
    case 'paid':
      return { step: 1, error: false };
    case 'appealed':
      return { step: 1, error: true };
    case 'completed':
      return { step: 2, error: false };
    case 'cancelled':
      return { step: 2, error: true };
  }
}

export interface OrderActions {
  /** The buyer: "I have paid" (unpaid, window still open). */
  pay: boolean;
  /** The buyer: cancel (before paid). */
  cancel: boolean;
  /** The seller: release, at any time before the order ends (docs/p2p.md; in appeal it gives up the dispute). */
  release: boolean;
  /** Either party: appeal, once the disclosed wait after "paid" has passed. */
  appeal: boolean;
  /** Milliseconds until an appeal may be filed (paid orders before the wait ends), else null. */
  appealInMs: number | null;
  /** The countdown's target: the payment window's end while unpaid. */
  deadline: number | null;
}

/** What the viewer may do with an order now; the server checks every one of these again. */
export function orderActions(
  order: Pick<P2pOrder, 'my_side' | 'status' | 'deadline_time' | 'appeal_after_time'>,
  now: number,
): OrderActions {
  const buyer = order.my_side === 'buy';
  const unpaid = order.status === 'unpaid';
  const open = unpaid && now < order.deadline_time;
  const paid = order.status === 'paid';
  const appealAt = order.appeal_after_time;
  const appealReady = paid && appealAt !== null && now >= appealAt;
  return {
    pay: buyer && open,
    cancel: buyer && unpaid,
    release: !buyer && (unpaid || paid || order.status === 'appealed'),
    appeal: appealReady,
    appealInMs: paid && appealAt !== null && now < appealAt ? appealAt - now : null,
    deadline: unpaid ? order.deadline_time : null,
  };
}

/** Cancellations left today before the limit restricts new orders (never below zero). */
export function cancellationsLeft(counters: { cancellations_today: number; limit: number }): number {
  return Math.max(0, counters.limit - counters.cancellations_today);
}

/** Masks an account number for lists (the order room shows it whole to the two parties). */
export function maskAccount(account: string): string {
  if (account.length <= 6) return account;
  return `${account.slice(0, 3)}****${account.slice(-3)}`;
}

/** The asset a screen starts on: USDT when the exchange lists it (most P2P trade is in it), else the first. */
export function defaultAsset<T extends { name: string }>(assets: readonly T[]): T | undefined {
  return assets.find((asset) => asset.name === 'USDT') ?? assets[0];
}
