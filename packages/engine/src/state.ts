import type { EngineEvent } from './events.ts';
import type { Account } from './ledger/accounts.ts';
import type { IndexPrice } from './market/index-price.ts';
import type { PriceChain } from './market/price-record.ts';
import { IdempotencyStore } from './idempotency.ts';
import { Ledger } from './ledger/ledger.ts';
import {
  DEFAULT_IDEMPOTENCY_MAX_KEYS,
  DEFAULT_IDEMPOTENCY_WINDOW_MS,
  DEFAULT_MAX_OPEN_ORDERS_PER_OWNER,
} from './limits.ts';
import { SpotMatcher } from './spot/matcher.ts';
import type { Trader } from './spot/trader.ts';
import { MicroState } from './micro/state.ts';
import type { Market, Order } from './spot/types.ts';

export type Currency = { readonly currencyId: number; readonly code: string; readonly scale: number };

/** A pending withdrawal: `amount` is held on the user's change wallet until it is completed or rejected. */
export type Withdrawal = {
  readonly withdrawalId: number;
  readonly userId: number;
  readonly currencyId: number;
  readonly amount: bigint;
  readonly feeAmount: bigint;
  readonly account: Account;
  readonly requestedTimeMs: number;
  readonly memo: string | undefined;
};

/** Behaviour that must be the same on every replica; it is part of the snapshot and the state hash. */
export type EngineOptions = {
  idempotencyWindowMs: number;
  idempotencyMaxKeys: number;
  maxOpenOrdersPerOwner: number;
};

export const defaultEngineOptions: EngineOptions = {
  idempotencyWindowMs: DEFAULT_IDEMPOTENCY_WINDOW_MS,
  idempotencyMaxKeys: DEFAULT_IDEMPOTENCY_MAX_KEYS,
  maxOpenOrdersPerOwner: DEFAULT_MAX_OPEN_ORDERS_PER_OWNER,
};

export type BookImplementation = 'fast' | 'reference';

/** Everything the command handlers of every area read and change. */
export class EngineState {
  readonly ledger = new Ledger();
  readonly currencies = new Map<number, Currency>();
  readonly markets = new Map<number, Market>();
  readonly orders = new Map<number, Order>();
  /** Spot traders by owner key: open-order lists and cached change accounts. */
  readonly traders = new Map<number, Trader>();
  readonly withdrawals = new Map<number, Withdrawal>();
  /** The latest journaled index (mark) price per market id. */
  readonly indexPrices = new Map<number, IndexPrice>();
  /** Each market's price chain: the latest sample's index, mark and link, and the last published head. */
  readonly priceChains = new Map<number, PriceChain>();
  /** Seconds contracts: configuration and running orders. */
  readonly micro = new MicroState();
  /** The last accepted envelope's sequence number. */
  lastSeq = 0;
  nextOrderId = 1;
  nextTradeId = 1;
  nextWithdrawalId = 1;
  /** The command time in force: never decreases, even when a later envelope carries an earlier time. */
  timeMs = 0;
  /** The reply of the command being applied, set by its handler. */
  reply: unknown = undefined;
  readonly options: EngineOptions;
  readonly bookImplementation: BookImplementation;
  /** Reused for every placement: settles the fills the book reports. */
  readonly spotMatcher: SpotMatcher = new SpotMatcher(this);

  readonly idempotency: IdempotencyStore;

  constructor(options: EngineOptions, bookImplementation: BookImplementation) {
    this.options = options;
    this.bookImplementation = bookImplementation;
    this.idempotency = new IdempotencyStore(options.idempotencyWindowMs, options.idempotencyMaxKeys);
  }

  get events(): EngineEvent[] {
    return this.ledger.events;
  }
}
