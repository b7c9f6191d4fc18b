// The public face of the engine package. Everything the server needs is exported from here.

export { Engine } from './engine.ts';
export type { AccountView, Balance, EngineCreateOptions, MarketView } from './engine.ts';
export { ResultCode, resultCodeCategory, resultCodeName } from './result-codes.ts';
export type { ResultCodeName, ResultCodeValue } from './result-codes.ts';
export { ReasonCode, reasonName } from './ledger/reason-codes.ts';
export type { Reason, ReasonName } from './ledger/reason-codes.ts';
export { SYSTEM_OWNERS, TRADING_SYSTEM_OWNERS, WALLETS } from './ledger/accounts.ts';
export type { AccountOwner, SystemOwner, Wallet } from './ledger/accounts.ts';
export {
  BIGINT_FIELDS,
  decodeEnvelope,
  decodeEvents,
  decodeValue,
  encodeEnvelope,
  encodeEvents,
  encodeValue,
} from './codec.ts';
export { EngineInvariantError } from './invariant.ts';
export { sha256Hex, sha256HexOfText } from './hash/sha256.ts';
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot.ts';
export * from './limits.ts';
export { quoteAmountOf, feeOf } from './spot/amounts.ts';
export { hasUserSide } from './spot/events.ts';
export type { Currency, EngineOptions, BookImplementation } from './state.ts';
export type { IndexPrice } from './market/index-price.ts';
export {
  BASIS_CAP_PPM,
  BASIS_EMA_SAMPLES,
  GENESIS_HASH,
  PRICE_RECORD_VERSION,
  canonicalPriceRecord,
  chainHash,
  formatTicks,
} from './market/price-record.ts';
export type { CanonicalSample, MarkPrice, PriceHead } from './market/price-record.ts';
export type * from './commands.ts';
export type * from './events.ts';
export type { Depth, DepthLevel, OrderKind, OrderView, Side, TimeInForce } from './spot/types.ts';
export { TIMES_IN_FORCE } from './spot/types.ts';
