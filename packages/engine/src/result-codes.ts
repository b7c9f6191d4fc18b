// Result codes are grouped by numeric range (exchange-core style) so a caller can tell the class of a
// refusal from the number alone: 0 ok, 1000s invalid input, 2000s insufficient funds, 3000s not found /
// not owner / wrong state, 4000s configuration. Names are stable; the server maps each name to an i18n key.

export const ResultCode = {
  ok: 0,

  invalidEnvelope: 1000,
  sequenceNotIncreasing: 1001,
  unknownCommand: 1002,
  invalidIdempotencyKey: 1003,
  idempotencyKeyReused: 1004,
  invalidId: 1005,
  invalidOwner: 1006,
  invalidWallet: 1007,
  sameWallet: 1008,
  invalidAmount: 1009,
  invalidPrice: 1010,
  invalidQuantity: 1011,
  quantityBelowMinimum: 1012,
  invalidSide: 1013,
  invalidOrderKind: 1014,
  invalidMemo: 1015,
  invalidClientOrderId: 1016,
  feeNotBelowAmount: 1017,
  ownerCannotTrade: 1018,
  invalidField: 1019,
  /** A time in force other than gtc, ioc, fok or postOnly, or one on a market order. */
  invalidTimeInForce: 1020,
  /** A stop price that is not a price, or a stop on a market order or a limit order that is not gtc. */
  invalidStopPrice: 1021,

  insufficientFunds: 2000,
  /** The house lacks the inventory to pay a flash exchange. */
  houseInsufficientFunds: 2001,

  currencyNotFound: 3000,
  marketNotFound: 3001,
  orderNotFound: 3002,
  notOrderOwner: 3003,
  withdrawalNotFound: 3004,
  withdrawalNotPending: 3005,
  tooManyOpenOrders: 3006,
  priceLevelFull: 3007,
  /** A post-only order would take from the book at once. */
  postOnlyWouldTake: 3008,
  /** A fill-or-kill order cannot fill completely at once. */
  fillOrKillUnfilled: 3009,

  currencyExists: 4000,
  marketExists: 4001,
  invalidCurrencyCode: 4002,
  invalidScale: 4003,
  invalidTickSize: 4004,
  invalidLotSize: 4005,
  tickLotNotIntegral: 4006,
  invalidFeeRate: 4007,
  sameCurrency: 4008,
  invalidMinimumLots: 4009,
  quoteMinorMismatch: 4010,
  invalidBand: 4011,
} as const;

export type ResultCodeName = keyof typeof ResultCode;
export type ResultCodeValue = (typeof ResultCode)[ResultCodeName];

const namesByCode = new Map<number, ResultCodeName>(
  (Object.keys(ResultCode) as ResultCodeName[]).map((name) => [ResultCode[name], name]),
);

/** The stable name of a code (`'insufficientFunds'` for 2000); `'unknown'` for a number that is no code. */
export function resultCodeName(code: number): ResultCodeName | 'unknown' {
  return namesByCode.get(code) ?? 'unknown';
}

/** The range a code belongs to, for callers that only need the class of a refusal. */
export function resultCodeCategory(
  code: number,
): 'ok' | 'invalidInput' | 'insufficientFunds' | 'state' | 'config' | 'unknown' {
  if (code === 0) return 'ok';
  if (code >= 1000 && code < 2000) return 'invalidInput';
  if (code >= 2000 && code < 3000) return 'insufficientFunds';
  if (code >= 3000 && code < 4000) return 'state';
  if (code >= 4000 && code < 5000) return 'config';
  return 'unknown';
}
