// The pairs' own refusal codes, registered with the spot area's (which keeps the pairs' registry). They sit
// in the shared ranges of result-codes.ts: 4000s configuration.

export const PairResultCode = {
  /** A market-order price band outside 0..MAX_MARKET_BAND_PPM. */
  invalidBand: 4011,
} as const;

export type PairResultCodeName = keyof typeof PairResultCode;
