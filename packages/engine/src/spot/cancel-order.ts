import { ownerKeyOf } from '../ledger/accounts.ts';
import { ResultCode } from '../result-codes.ts';
import type { CommandContext } from '../kernel/context.ts';
import { isCount } from '../validate.ts';
import type { CancelOrderCommand } from './commands.ts';
import type { CancelOrderReply, CancelReason } from './events.ts';
import { unregisterOrder } from './owner-orders.ts';
import { SpotReasonCode } from './reason-codes.ts';
import type { SpotState } from './state.ts';
import type { Market, Order } from './types.ts';

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
  if (removeFromBook) (state.markets.get(order.marketId) as Market).book.remove(order);
  const releasedAmount = order.lockedAmount;
  if (releasedAmount > 0n) {
    state.ledger.release(order, releasedAmount, SpotReasonCode.orderRelease);
  }
  unregisterOrder(state, order);
  ctx.emit({
    type: 'orderCancelled',
    orderId: order.orderId,
    owner: order.owner,
    marketId: order.marketId,
    reason,
    filledLots: order.filledLots,
    remainingLots: order.remainingLots,
    releasedAmount,
  });
  return releasedAmount;
}
