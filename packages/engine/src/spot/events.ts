import type { AccountOwner } from '../ledger/accounts.ts';
import type { PairEvent } from '../pairs/events.ts';
import type { OrderKind, Side, TimeInForce } from './types.ts';

/** The order passed validation and its funds are held (the next event is the hold). */
export type OrderAcceptedEvent = {
  type: 'orderAccepted';
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  side: Side;
  kind: OrderKind;
  /** 0 for a market order. */
  priceTicks: number;
  quantityLots: number;
  holdAmount: bigint;
  clientOrderId?: string;
  /** Present only for a limit order that is not gtc. */
  timeInForce?: TimeInForce;
  /** A market order's price-protection limit, present when the band applies. */
  bandTicks?: number;
  /** A stop-limit order's stop price: it waits for its trigger instead of matching. */
  stopTicks?: number;
};

/** A trade at `lastPriceTicks` reached a waiting stop-limit order's stop: it now matches as a limit order. */
export type OrderTriggeredEvent = {
  type: 'orderTriggered';
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  stopTicks: number;
  lastPriceTicks: number;
};

/** The unfilled rest of a limit order now rests in the book. */
export type OrderRestedEvent = {
  type: 'orderRested';
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  side: Side;
  priceTicks: number;
  remainingLots: number;
  lockedAmount: bigint;
};

/**
 * Why an order ended before it filled: the owner cancelled it (`user`, also cancel-all), a taker of the same
 * owner met it (self-trade prevention cancels the resting order), a market order stopped with lots left
 * because its funds ran out (`marketFunds`), the next price was past its protection band (`marketBand`) or
 * the other side of the book was empty (`marketBook`), or an immediate-or-cancel order took what it could
 * (`iocUnfilled`). `marketUnfilled` is the single market reason of journals written before the three.
 */
export type CancelReason =
  'user' | 'selfTrade' | 'marketUnfilled' | 'marketFunds' | 'marketBand' | 'marketBook' | 'iocUnfilled';

/**
 * The whole order as it ends, carried by its closing event (done or cancelled): the spot projection writes
 * the order's one history row from this event alone, however many commands ago the order was placed.
 */
export type ClosedOrderFields = {
  side: Side;
  kind: OrderKind;
  /** 0 for a market order. */
  priceTicks: number;
  quantityLots: number;
  /** Quote paid (buy) or received before fees (sell) over all of the order's fills. */
  quoteFilled: bigint;
  /** Fees paid over all of the order's fills, in the currency it received (base for a buy, quote for a sell). */
  feePaid: bigint;
  acceptedTimeMs: number;
  clientOrderId?: string;
};

export type OrderCancelledEvent = {
  type: 'orderCancelled';
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  reason: CancelReason;
  filledLots: number;
  remainingLots: number;
  releasedAmount: bigint;
} & ClosedOrderFields;

/** The order filled completely. `releasedAmount` is what a market buy's hold had left over. */
export type OrderDoneEvent = {
  type: 'orderDone';
  orderId: number;
  owner: AccountOwner;
  marketId: number;
  filledLots: number;
  releasedAmount: bigint;
} & ClosedOrderFields;

/**
 * One fill, at the maker's price. The buyer pays `quoteAmount` and receives `baseAmount`; the seller the
 * reverse. Each side's fee is taken from what it receives: a buyer's fee is in base, a seller's in quote.
 */
export type TradeEvent = {
  type: 'trade';
  tradeId: number;
  marketId: number;
  priceTicks: number;
  quantityLots: number;
  baseAmount: bigint;
  quoteAmount: bigint;
  makerOrderId: number;
  makerOwner: AccountOwner;
  takerOrderId: number;
  takerOwner: AccountOwner;
  makerSide: Side;
  makerFee: bigint;
  makerFeeCurrencyId: number;
  takerFee: bigint;
  takerFeeCurrencyId: number;
};

/**
 * True when a user is on at least one side of a trade. Only such trades count in public figures (volume,
 * trade count, tape, candles, tickers); the engine lets no trade between two system owners happen, but a
 * journal written before that rule may hold some.
 */
export function hasUserSide(trade: Pick<TradeEvent, 'makerOwner' | 'takerOwner'>): boolean {
  return typeof trade.makerOwner === 'number' || typeof trade.takerOwner === 'number';
}

export type SpotEvent =
  | PairEvent
  | OrderAcceptedEvent
  | OrderRestedEvent
  | OrderTriggeredEvent
  | OrderCancelledEvent
  | OrderDoneEvent
  | TradeEvent;

export type PlaceOrderReply = {
  orderId: number;
  /**
   * Where the order stands after this command: resting in the book, filled, cancelled unfilled, or (a
   * stop-limit order) waiting for its trigger.
   */
  status: 'resting' | 'filled' | 'cancelled' | 'pending';
  filledLots: number;
  remainingLots: number;
  /** Quote paid (buy) or received before fees (sell) over all fills of this command. */
  quoteFilled: bigint;
  /** Fees this order paid as taker, in the currency it received. */
  feePaid: bigint;
  tradeCount: number;
};

export type CancelOrderReply = {
  orderId: number;
  filledLots: number;
  remainingLots: number;
  releasedAmount: bigint;
};

/** The orders a cancel-all took out of the book, oldest first. */
export type CancelAllOrdersReply = { orderIds: number[] };
