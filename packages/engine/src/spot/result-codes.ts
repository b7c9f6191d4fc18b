// The spot area's own refusal codes (registered through the area's `resultCodes`; the kernel checks that no
// code is taken twice). They sit in the shared ranges of result-codes.ts so a code's class still reads from
// its number: 1000s invalid input, 3000s wrong state, 4000s configuration.
import { PairResultCode } from '../pairs/codes.ts';

export const SpotResultCode = {
  /** A time in force other than gtc, ioc, fok or postOnly, or one on a market order. */
  invalidTimeInForce: 1020,
  /** A stop price that is not a price, or a stop on a market order or a limit order that is not gtc. */
  invalidStopPrice: 1021,
  /** A post-only order would take from the book at once. */
  postOnlyWouldTake: 3008,
  /** A fill-or-kill order cannot fill completely at once. */
  fillOrKillUnfilled: 3009,
  /** The pairs' codes (pairs/codes.ts), registered with the spot area, which keeps the pairs. */
  ...PairResultCode,
} as const;

export type SpotResultCodeName = keyof typeof SpotResultCode;
