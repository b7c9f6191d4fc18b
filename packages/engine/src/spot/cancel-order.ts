import { invariant } from '../invariant.ts';
import { ownerKeyOf } from '../ledger/accounts.ts';
import type { CommandContext } from '../kernel/context.ts';
import { MAX_MARKET_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount } from '../validate.ts';
import type { CancelAllOrdersCommand, CancelOrderCommand } from './commands.ts';
import type { CancelAllOrdersReply, CancelOrderReply, CancelReason } from './events.ts';
import { orderCancelledEvent, unregisterOrder } from './owner-orders.ts';
import { SpotReasonCode } from './reason-codes.ts';
import type { SpotState } from './state.ts';
import type { Market } from './market.ts';
import type { Order } from './types.ts';

export function cancelOrder(ctx: CommandContext, state: SpotState, command: CancelOrderCommand): number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey === 0) return ResultCode.invalidOwner;
  if (!isCount(command.orderId, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidId;
  const order = state.orders.get(command.orderId);
  if (order === undefined) return ResultCode.orderNotFound;
  if (order.ownerKey !== ownerKey) return ResultCode.notOrderOwner;
  const releasedAmount = cancelResting(ctx, state, order, 'user', true);
  const reply: CancelOrderReply = {
    orderId: order.orderId,
    filledLots: order.filledLots,
    remainingLots: order.remainingLots,
    releasedAmount,
  };
  ctx.reply(reply);
  return ResultCode.ok;
}

/**
 * Cancels every resting order of the owner, of one market or of all, oldest first: each is one
 * `orderCancelled` (reason `user`) with its hold released. No open order is not a refusal: the reply lists
 * none. Bounded by the owner's open-order limit.
 */
export function cancelAllOrders(
  ctx: CommandContext,
  state: SpotState,
  command: CancelAllOrdersCommand,
): number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey === 0) return ResultCode.invalidOwner;
  const { marketId } = command;
  if (marketId !== undefined) {
    if (!isCount(marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
    if (!state.markets.has(marketId)) return ResultCode.marketNotFound;
  }
  const orderIds: number[] = [];
  let order = state.traders.get(ownerKey)?.head ?? null;
  while (order !== null) {
    const next = order.ownerNext;
    if (marketId === undefined || order.marketId === marketId) {
      cancelResting(ctx, state, order, 'user', true);
      orderIds.push(order.orderId);
    }
    order = next;
  }
  const reply: CancelAllOrdersReply = { orderIds };
  ctx.reply(reply);
  return ResultCode.ok;
}

/**
 * Takes a resting order out of the engine and voids what it still holds. `removeFromBook` is false when the
 * book has already unlinked it (self-trade prevention during matching). Returns the released amount.
 */
export function cancelResting(
  ctx: CommandContext,
  state: SpotState,
  order: Order,
  reason: CancelReason,
  removeFromBook: boolean,
): bigint {
  if (removeFromBook) {
    const market = state.markets.get(order.marketId) as Market;
    // A stop-limit order still waiting for its trigger is in the market's stops, not in the book.
    if (order.stopTicks > 0) {
      const index = market.stops.indexOf(order);
      invariant(index >= 0, `stop order ${order.orderId} is not waiting in its market`);
      market.stops.splice(index, 1);
    } else {
      market.book.remove(order);
    }
  }
  const releasedAmount = order.lockedAmount;
  if (releasedAmount > 0n) {
    state.ledger.release(order, releasedAmount, SpotReasonCode.orderRelease);
  }
  unregisterOrder(state, order);
  if (ctx.ledger.recordEvents) ctx.emit(orderCancelledEvent(order, reason, releasedAmount));
  return releasedAmount;
}
