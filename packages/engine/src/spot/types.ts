import type { Account, AccountOwner } from '../ledger/accounts.ts';
import type { Hold } from '../ledger/holds.ts';
import type { PriceLevel } from './price-level.ts';
import { SpotReasonCode } from './reason-codes.ts';
import type { Trader } from './trader.ts';

export type Side = 'buy' | 'sell';
export type OrderKind = 'limit' | 'market';
/**
 * How long a limit order lives: gtc rests until filled or cancelled; ioc takes what it can at once and
 * cancels the rest; fok fills completely at once or is refused; postOnly rests without taking, or is refused.
 */
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'postOnly';
export const TIMES_IN_FORCE: readonly TimeInForce[] = ['gtc', 'ioc', 'fok', 'postOnly'];

/**
 * One order, from acceptance until it is done or cancelled. The same record is the taker while it matches
 * and the resting order afterwards. The fast book links orders into its price levels through the
 * `previous`/`next`/`level` fields (an intrusive list, so resting an order allocates nothing more); the
 * owner's open-order list uses `ownerPrevious`/`ownerNext` the same way.
 *
 * An order is its own hold in the ledger's registry (area 'spot', ref: the order id; quote for a buy, base
 * for a sell, on the change-wallet account the order pays from), opened by the ledger when the order is
 * placed: one record per order, nothing more to allocate. The registry only counts it; the spot area lists
 * it (see `listedByArea`).
 *
 * It implements Hold rather than extending it, and so repeats the hold's fields on purpose: with `extends
 * Hold`, V8 did not inline the base constructor into a placement, so every order was allocated through the
 * generic construct stub and the hold's constructor was a call of its own (callgrind: about 400
 * instructions per operation of the engine bench). Keep the fields below in step with `Hold`'s (the
 * compiler checks their names and types through `implements`).
 */
export class Order implements Hold {
  // The hold's fields (ledger/holds.ts) that vary. The constant ones (area, ref, reason, no expiry, and the
  // registry's links, which an order never uses: see `listedByArea`) and the owner (its account's) are
  // getters below: with hundreds of thousands of orders created and promoted to the old generation, every
  // field less is less for the garbage collector to copy.
  readonly account: Account;
  amount: bigint;
  open = false;

  readonly orderId: number;
  readonly trader: Trader;
  readonly marketId: number;
  readonly side: Side;
  readonly kind: OrderKind;
  /** The limit price; 0 for a market order. */
  readonly priceTicks: number;
  /**
   * A market order's band limit or a stop-limit order's stop (see `bandTicks`, `stopTicks`): only market
   * orders have a band and only limit orders a stop, so one field serves both.
   */
  private conditionTicks = 0;
  readonly quantityLots: number;
  remainingLots: number;
  /** Quote paid (buy) or received before fees (sell) over all fills so far; its history row's figure. */
  quoteFilled = 0n;
  /** Fees paid over all fills so far, in the currency it receives (base for a buy, quote for a sell). */
  feePaid = 0n;
  /**
   * Command time of its latest fill less its acceptance time (see `updatedTimeMs`): a small integer, where
   * a second time field would cost each order a boxed number of its own.
   */
  private updatedAfterMs = 0;
  readonly clientOrderId: string | undefined;
  readonly acceptedTimeMs: number;
  /** The change-wallet account the order receives into (base for a buy, quote for a sell). */
  readonly receiveAccount: Account;

  previous: Order | null = null;
  next: Order | null = null;
  level: PriceLevel | null = null;
  ownerPrevious: Order | null = null;
  ownerNext: Order | null = null;

  constructor(
    orderId: number,
    trader: Trader,
    marketId: number,
    side: Side,
    kind: OrderKind,
    priceTicks: number,
    quantityLots: number,
    lockedAmount: bigint,
    clientOrderId: string | undefined,
    acceptedTimeMs: number,
    holdAccount: Account,
    receiveAccount: Account,
  ) {
    this.account = holdAccount;
    this.amount = lockedAmount;
    this.orderId = orderId;
    this.trader = trader;
    this.marketId = marketId;
    this.side = side;
    this.kind = kind;
    this.priceTicks = priceTicks;
    this.quantityLots = quantityLots;
    this.remainingLots = quantityLots;
    this.clientOrderId = clientOrderId;
    this.acceptedTimeMs = acceptedTimeMs;
    this.receiveAccount = receiveAccount;
  }

  /**
   * The spot area lists its orders' holds itself (spot/area.ts, `forEachHold`): the ledger's registry
   * counts an order but does not link it into its list.
   */
  get listedByArea(): boolean {
    return true;
  }

  /** The owner's key and name, from the hold's account (an order pays from its owner's change wallet). */
  get ownerKey(): number {
    return this.account.ownerKey;
  }

  get owner(): AccountOwner {
    return this.account.owner;
  }

  get area(): string {
    return 'spot';
  }

  /** The hold's reference: the order id. */
  get ref(): number {
    return this.orderId;
  }

  get reason(): number {
    return SpotReasonCode.orderHold;
  }

  /** An order's hold never expires. */
  get expiresAtMs(): number | undefined {
    return undefined;
  }

  /** Never linked into the registry's list (listed by the area): always null, and never set. */
  get registryPrevious(): Hold | null {
    return null;
  }

  set registryPrevious(_hold: Hold | null) {
    throw new Error('a spot order is not linked into the hold registry');
  }

  get registryNext(): Hold | null {
    return null;
  }

  set registryNext(_hold: Hold | null) {
    throw new Error('a spot order is not linked into the hold registry');
  }

  /** Lots filled so far: what is no longer remaining (a cancel leaves `remainingLots` as it was). */
  get filledLots(): number {
    return this.quantityLots - this.remainingLots;
  }

  /** A market order's price-protection limit (the worst price it may fill at); 0 when it has none. */
  get bandTicks(): number {
    return this.kind === 'market' ? this.conditionTicks : 0;
  }

  /** Set only on a market order, when it is placed. */
  set bandTicks(ticks: number) {
    this.conditionTicks = ticks;
  }

  /**
   * A stop-limit order's stop price while it waits for its trigger (in its market's `stops`, holding its
   * funds, not in the book); 0 for any other order and once triggered.
   */
  get stopTicks(): number {
    return this.kind === 'market' ? 0 : this.conditionTicks;
  }

  /** Set only on a limit order: when it is placed, and to 0 when it triggers. */
  set stopTicks(ticks: number) {
    this.conditionTicks = ticks;
  }

  /** Command time of its latest fill; its acceptance time until it fills. */
  get updatedTimeMs(): number {
    return this.acceptedTimeMs + this.updatedAfterMs;
  }

  set updatedTimeMs(timeMs: number) {
    this.updatedAfterMs = timeMs - this.acceptedTimeMs;
  }

  /** The order's hold: the order itself. */
  get hold(): Hold {
    return this;
  }

  /** What the order still holds: its hold's amount. */
  get lockedAmount(): bigint {
    return this.amount;
  }

  /** Only for a hold the ledger does not keep yet (tests of a book alone); the ledger changes it otherwise. */
  set lockedAmount(amount: bigint) {
    this.amount = amount;
  }

  /** The change-wallet account the order pays from (quote for a buy, base for a sell). */
  get holdAccount(): Account {
    return this.account;
  }
}

/** Public, copyable view of an open order for the gateway. */
export type OrderView = {
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  side: Side;
  kind: OrderKind;
  priceTicks: number;
  quantityLots: number;
  filledLots: number;
  remainingLots: number;
  lockedAmount: bigint;
  /** Quote paid (buy) or received before fees (sell) over all fills so far. */
  quoteFilled: bigint;
  /** Fees paid over all fills so far, in the currency it receives. */
  feePaid: bigint;
  clientOrderId?: string;
  acceptedTimeMs: number;
  /** Command time of its latest fill; its acceptance time until it fills. */
  updatedTimeMs: number;
  /** Present while a stop-limit order waits for its trigger. */
  stopTicks?: number;
};

export type DepthLevel = [priceTicks: number, quantityLots: number];
export type Depth = { bids: DepthLevel[]; asks: DepthLevel[] };
