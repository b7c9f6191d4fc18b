// The public face of the engine package. Everything the server needs is exported from here.

export { Engine } from './engine.ts';
export type { EngineCreateOptions, EngineRestoreOptions } from './engine.ts';
export { AREAS, resultCodeName } from './areas.ts';
export type { EngineQueries, ResultCodeName } from './areas.ts';
export type { AccountView, Balance, HoldView, LedgerQueries } from './ledger/area.ts';
export type { MarketView, SpotQueries } from './spot/area.ts';
export type { FundingQueries, PendingWithdrawalView } from './funding/area.ts';
export type { MarketQueries } from './prices/area.ts';
export type { MicroExposureView, MicroQueries } from './micro/area.ts';
export type * from './lever/queries.ts';
export type { LeverSnapshotSection } from './lever/snapshot.ts';
export { LeverReasonCode, LeverResultCode } from './lever/codes.ts';
export type { HoldingView, ProductView, ProductsQueries } from './products/reads.ts';
export { ProductsReasonCode, ProductsResultCode } from './products/codes.ts';
export type { EarlyExitPolicy, MinerRateKind, ProductKind, ProductStatus } from './products/state.ts';
export { command, defineArea } from './kernel/area.ts';
export type {
  AnyArea,
  Area,
  AreaQueries,
  AreaSetup,
  CommandSpec,
  QueriesOf,
  SnapshotSections,
} from './kernel/area.ts';
export type { CommandContext, PriceUpdate } from './kernel/context.ts';
export type { Counter } from './kernel/counters.ts';
export { Hold } from './ledger/holds.ts';
export type { Account } from './ledger/accounts.ts';
export type { Ledger } from './ledger/ledger.ts';
export { ResultCode, resultCodeCategory } from './result-codes.ts';
export type { ResultCodeValue } from './result-codes.ts';
export { SpotResultCode } from './spot/result-codes.ts';
export { ReasonCode, reasonName } from './reason-codes.ts';
export type { Reason, ReasonName } from './reason-codes.ts';
export { SYSTEM_OWNERS, TRADING_SYSTEM_OWNERS, WALLETS } from './ledger/accounts.ts';
export type { AccountOwner, SystemOwner, Wallet } from './ledger/accounts.ts';
export { ownerKeyOf } from './ledger/accounts.ts';
export {
  BIGINT_FIELDS,
  bigintFieldsOf,
  codecFor,
  decodeEnvelope,
  decodeEnvelopeBytes,
  decodeEvents,
  decodeValue,
  encodeEnvelope,
  encodeEvents,
  encodeValue,
} from './codec.ts';
export { EngineInvariantError, invariant } from './invariant.ts';
export { sha256Hex, sha256HexOfText } from './hash/sha256.ts';
export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './kernel/snapshot.ts';
export * from './limits.ts';
export { quoteAmountOf, feeOf } from './pairs/amounts.ts';
export { hasUserSide } from './spot/events.ts';
export type { Currency, EngineOptions, BookImplementation } from './state.ts';
export type { IndexPrice } from './prices/index-price.ts';
export {
  BASIS_CAP_PPM,
  BASIS_EMA_SAMPLES,
  GENESIS_HASH,
  PRICE_RECORD_VERSION,
  canonicalPriceRecord,
  chainHash,
  formatTicks,
} from './prices/price-record.ts';
export type { CanonicalSample, MarkPrice, PriceHead } from './prices/price-record.ts';
export type * from './commands.ts';
export type * from './events.ts';
export type { Depth, DepthLevel, OrderKind, OrderView, Side, TimeInForce } from './spot/types.ts';
export { TIMES_IN_FORCE } from './spot/types.ts';
export {
  MICRO_INDEX_RULE_VERSION,
  MICRO_RULE_VERSION,
  microFee,
  microProfit,
  microOutcome,
  microPayout,
  microExposure,
  microRuleVersion,
  settleMicro,
  settlementTicks,
} from './micro/rules.ts';
export { MicroResultCode, MicroReasonCode } from './micro/codes.ts';
export type {
  MicroDirection,
  MicroOutcome,
  MicroPriceKind,
  MicroSample,
  MicroVoidReason,
} from './micro/rules.ts';
export type { MicroConfigView, MicroOrderView } from './micro/reads.ts';
export * from './p2p/index.ts';
export { FREEZE_KINDS, FreezeResultCode, NOT_FROZEN, frozenBy, isFreezeKind } from './kernel/freezes.ts';
export type { FreezeDeclaration, FreezeKind, FreezeRule } from './kernel/freezes.ts';
export type { FreezeQueries } from './freeze/area.ts';
export type { MicroCurrencyConfig } from './micro/state.ts';
export type { LogQueries, LogStatus } from './log/area.ts';
export { LogResultCode } from './log/codes.ts';
export type { LogResultCodeName } from './log/codes.ts';
export { LOG_ENTRY_VERSION, liabilitiesEntry, pricesEntry } from './log/entries.ts';
export type { BatchSample, LiabilitiesEntryFields } from './log/entries.ts';
export type { LogCheckpoint } from './log/state.ts';
export type {
  LiabilitiesCapturedEvent,
  LiabilitiesIdentity,
  LiabilitiesPublishedEvent,
  LogAppendedEvent,
  LogCheckpointEvent,
  LogEvent,
} from './log/events.ts';
