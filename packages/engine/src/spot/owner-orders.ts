import type { SpotState } from './state.ts';
import { Trader } from './trader.ts';
import type { CancelReason, OrderCancelledEvent, OrderDoneEvent } from './events.ts';
import type { Order, OrderView } from './types.ts';

/** The owner's trader record, created on first use (only once a command has passed validation). */
export function traderOf(state: SpotState, ownerKey: number): Trader {
  let trader = state.traders.get(ownerKey);
  if (trader === undefined) {
    trader = new Trader(ownerKey);
    state.traders.set(ownerKey, trader);
  }
  return trader;
}

/** Makes a resting order findable by id and by owner. */
export function registerOrder(state: SpotState, order: Order): void {
  state.orders.set(order.orderId, order);
  const trader = order.trader;
  order.ownerNext = null;
  order.ownerPrevious = trader.tail;
  if (trader.tail === null) trader.head = order;
  else trader.tail.ownerNext = order;
  trader.tail = order;
  trader.openOrderCount += 1;
}

/** Forgets an order that left the book (filled or cancelled). */
export function unregisterOrder(state: SpotState, order: Order): void {
  state.orders.delete(order.orderId);
  const trader = order.trader;
  const previous = order.ownerPrevious;
  const next = order.ownerNext;
  if (previous === null) trader.head = next;
  else previous.ownerNext = next;
  if (next === null) trader.tail = previous;
  else next.ownerPrevious = previous;
  order.ownerPrevious = null;
  order.ownerNext = null;
  trader.openOrderCount -= 1;
}

export function orderView(order: Order): OrderView {
  const view: OrderView = {
    orderId: order.orderId,
    owner: order.owner,
    marketId: order.marketId,
    side: order.side,
    kind: order.kind,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    filledLots: order.filledLots,
    remainingLots: order.remainingLots,
    lockedAmount: order.lockedAmount,
    quoteFilled: order.quoteFilled,
    feePaid: order.feePaid,
    acceptedTimeMs: order.acceptedTimeMs,
    updatedTimeMs: order.updatedTimeMs,
  };
  if (order.clientOrderId !== undefined) view.clientOrderId = order.clientOrderId;
  if (order.stopTicks > 0) view.stopTicks = order.stopTicks;
  return view;
}

/** The owner's open orders, oldest first, optionally of one market. */
export function openOrderViews(state: SpotState, ownerKey: number, marketId?: number): OrderView[] {
  const views: OrderView[] = [];
  for (let order = state.traders.get(ownerKey)?.head ?? null; order !== null; order = order.ownerNext) {
    if (marketId === undefined || order.marketId === marketId) views.push(orderView(order));
  }
  return views;
}

/**
 * An order's closing events carry the whole order (side, kind, price, quantity, fill totals, acceptance
 * time, client id), so that its one history row is built from that event alone, however many commands ago
 * it was placed. Each is one object literal with its fields in a fixed order (no spread of a second object:
 * copying properties one by one at run time cost more than the rest of a cancel), the client id last and
 * only when the order has one.
 */
export function orderDoneEvent(order: Order, releasedAmount: bigint): OrderDoneEvent {
  const event: OrderDoneEvent = {
    type: 'orderDone',
    orderId: order.orderId,
    owner: order.owner,
    marketId: order.marketId,
    filledLots: order.filledLots,
    releasedAmount,
    side: order.side,
    kind: order.kind,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteFilled: order.quoteFilled,
    feePaid: order.feePaid,
    acceptedTimeMs: order.acceptedTimeMs,
  };
  if (order.clientOrderId !== undefined) event.clientOrderId = order.clientOrderId;
  return event;
}

/** The `orderCancelled` event of an order leaving with lots unfilled (fields as `orderDoneEvent`). */
export function orderCancelledEvent(
  order: Order,
  reason: CancelReason,
  releasedAmount: bigint,
): OrderCancelledEvent {
  const event: OrderCancelledEvent = {
    type: 'orderCancelled',
    orderId: order.orderId,
    owner: order.owner,
    marketId: order.marketId,
    reason,
    filledLots: order.filledLots,
    remainingLots: order.remainingLots,
    releasedAmount,
    side: order.side,
    kind: order.kind,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    quoteFilled: order.quoteFilled,
    feePaid: order.feePaid,
    acceptedTimeMs: order.acceptedTimeMs,
  };
  if (order.clientOrderId !== undefined) event.clientOrderId = order.clientOrderId;
  return event;
}
