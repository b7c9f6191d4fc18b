// The names the API uses for an order's time in force and for why it ended, mapped from the engine's.
import type { CancelReason, TimeInForce } from '@fairex/engine';

/**
 * Why an order ended before it filled, as the API says it: the user cancelled it (one order or cancel all),
 * self-trade prevention cancelled it, a market order's funds ran out, its price-protection band stopped it,
 * the book had no more to match, or an immediate-or-cancel order cancelled what it could not take at once.
 */
export type PublicCancelReason = 'user' | 'self_trade' | 'funds' | 'band' | 'book' | 'ioc';

export function publicCancelReason(reason: CancelReason): PublicCancelReason {
  switch (reason) {
    case 'user':
      return 'user';
    case 'selfTrade':
      return 'self_trade';
    case 'marketFunds':
      return 'funds';
    case 'marketBand':
      return 'band';
    case 'iocUnfilled':
      return 'ioc';
    // Journals written before the three market reasons said only that the book had no more.
    case 'marketBook':
    case 'marketUnfilled':
      return 'book';
  }
}

/** The API's time-in-force names: gtc, ioc, fok, post_only. */
export type PublicTimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';

export function publicTimeInForce(timeInForce: TimeInForce): PublicTimeInForce {
  return timeInForce === 'postOnly' ? 'post_only' : timeInForce;
}

export function engineTimeInForce(timeInForce: PublicTimeInForce): TimeInForce {
  return timeInForce === 'post_only' ? 'postOnly' : timeInForce;
}
