import { fail } from '../invariant.ts';
import { CHANGE_WALLET_INDEX, TRADING_SYSTEM_OWNERS, ownerKeyOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import { MAX_CLIENT_ORDER_ID_LENGTH, MAX_MARKET_ID, MAX_PRICE_TICKS, MAX_QUANTITY_LOTS } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import type { CommandContext } from '../kernel/context.ts';
import { isAmount, isCount, isText } from '../validate.ts';
import type { PlaceOrderCommand } from './commands.ts';
import type { PlaceOrderReply } from './events.ts';
import { registerOrder, traderOf } from './owner-orders.ts';
import { SpotReasonCode } from './reason-codes.ts';
import type { SpotState } from './state.ts';
import type { Trader } from './trader.ts';
import { Order } from './types.ts';
import type { Market } from './types.ts';

/** The checked fields of a placement, computed before anything changes. */
type Placement = {
  ownerKey: number;
  trader: Trader | undefined;
  market: Market;
  priceTicks: number;
  holdAccount: Account;
  holdAmount: bigint;
};

export function placeOrder(ctx: CommandContext, state: SpotState, command: PlaceOrderCommand): number {
  const placement = checkPlacement(state, command);
  if (typeof placement === 'number') return placement;
  const { market, priceTicks, holdAccount, holdAmount } = placement;
  const ledger = state.ledger;
  const trader = placement.trader ?? traderOf(state, placement.ownerKey);
  const receiveAccount = trader.changeAccount(
    ledger,
    command.side === 'buy' ? market.baseCurrencyId : market.quoteCurrencyId,
  );
  const order = new Order(
    state.orderIds.next(),
    trader,
    command.owner,
    market.marketId,
    command.side,
    command.kind,
    priceTicks,
    command.quantityLots,
    holdAmount,
    command.clientOrderId,
    ctx.timeMs,
    holdAccount,
    receiveAccount,
  );
  emitAccepted(ctx, order, holdAmount);
  ledger.hold(order);

  const matcher = state.matcher;
  matcher.begin(ctx, market, order);
  market.book.match(order, matcher);
  finishTaker(ctx, state, market, order);
  const reply: PlaceOrderReply = {
    orderId: order.orderId,
    status: order.remainingLots === 0 ? 'filled' : order.kind === 'limit' ? 'resting' : 'cancelled',
    filledLots: order.filledLots,
    remainingLots: order.kind === 'limit' ? order.remainingLots : 0,
    quoteFilled: matcher.quoteFilled,
    feePaid: matcher.feePaid,
    tradeCount: matcher.tradeCount,
  };
  ctx.reply(reply);
  return ResultCode.ok;
}

function emitAccepted(ctx: CommandContext, order: Order, holdAmount: bigint): void {
  if (order.clientOrderId === undefined) {
    ctx.emit({
      type: 'orderAccepted',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      side: order.side,
      kind: order.kind,
      priceTicks: order.priceTicks,
      quantityLots: order.quantityLots,
      holdAmount,
    });
  } else {
    ctx.emit({
      type: 'orderAccepted',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      side: order.side,
      kind: order.kind,
      priceTicks: order.priceTicks,
      quantityLots: order.quantityLots,
      holdAmount,
      clientOrderId: order.clientOrderId,
    });
  }
}

/** After matching: a limit rest rests, a market rest is cancelled, and a filled order is done. */
function finishTaker(ctx: CommandContext, state: SpotState, market: Market, order: Order): void {
  if (order.remainingLots > 0 && order.kind === 'limit') {
    market.book.rest(order);
    registerOrder(state, order);
    ctx.emit({
      type: 'orderRested',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      side: order.side,
      priceTicks: order.priceTicks,
      remainingLots: order.remainingLots,
      lockedAmount: order.lockedAmount,
    });
    return;
  }
  const releasedAmount = order.lockedAmount;
  if (releasedAmount > 0n) {
    // Only a market order can have a hold left here: a limit buy returns its price improvement per fill.
    if (order.kind !== 'market') fail(`filled limit order ${order.orderId} still holds ${releasedAmount}`);
    state.ledger.release(order, releasedAmount, SpotReasonCode.orderRelease);
  }
  if (order.remainingLots === 0) {
    ctx.emit({
      type: 'orderDone',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      filledLots: order.filledLots,
      releasedAmount,
    });
  } else {
    ctx.emit({
      type: 'orderCancelled',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      reason: 'marketUnfilled',
      filledLots: order.filledLots,
      remainingLots: order.remainingLots,
      releasedAmount,
    });
  }
}

function checkPlacement(state: SpotState, command: PlaceOrderCommand): Placement | number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey === 0) return ResultCode.invalidOwner;
  if (ownerKey < 0 && !TRADING_SYSTEM_OWNERS.includes(command.owner as never))
    return ResultCode.ownerCannotTrade;
  if (!isCount(command.marketId, MAX_MARKET_ID)) return ResultCode.invalidId;
  const market = state.markets.get(command.marketId);
  if (market === undefined) return ResultCode.marketNotFound;
  const { side, kind, quantityLots, quoteAmountMax, clientOrderId } = command;
  if (side !== 'buy' && side !== 'sell') return ResultCode.invalidSide;
  if (kind !== 'limit' && kind !== 'market') return ResultCode.invalidOrderKind;
  if (!isCount(quantityLots, MAX_QUANTITY_LOTS)) return ResultCode.invalidQuantity;
  if (quantityLots < market.minimumLots) return ResultCode.quantityBelowMinimum;
  let priceTicks = 0;
  if (kind === 'limit') {
    if (!isCount(command.priceTicks, MAX_PRICE_TICKS)) return ResultCode.invalidPrice;
    priceTicks = command.priceTicks;
  } else if (command.priceTicks !== undefined) {
    return ResultCode.invalidPrice;
  }
  if (quoteAmountMax !== undefined && !(kind === 'market' && side === 'buy' && isAmount(quoteAmountMax))) {
    return ResultCode.invalidAmount;
  }
  if (clientOrderId !== undefined && !isText(clientOrderId, MAX_CLIENT_ORDER_ID_LENGTH)) {
    return ResultCode.invalidClientOrderId;
  }
  const trader = state.traders.get(ownerKey);
  if (kind === 'limit') {
    if (trader !== undefined && trader.openOrderCount >= state.maxOpenOrdersPerOwner) {
      return ResultCode.tooManyOpenOrders;
    }
    // Matching only takes from the other side, so the level this order may rest on cannot shrink first.
    if (market.book.lotsAtPrice(side, priceTicks) + quantityLots > Number.MAX_SAFE_INTEGER) {
      return ResultCode.priceLevelFull;
    }
  }
  return checkFunds(state, command, ownerKey, trader, market, priceTicks);
}

function checkFunds(
  state: SpotState,
  command: PlaceOrderCommand,
  ownerKey: number,
  trader: Trader | undefined,
  market: Market,
  priceTicks: number,
): Placement | number {
  const isBuy = command.side === 'buy';
  const currencyId = isBuy ? market.quoteCurrencyId : market.baseCurrencyId;
  const account =
    trader === undefined
      ? state.ledger.findAccount(ownerKey, CHANGE_WALLET_INDEX, currencyId)
      : trader.changeAccount(state.ledger, currencyId);
  const available = account?.available ?? 0n;
  let holdAmount: bigint;
  if (!isBuy) holdAmount = BigInt(command.quantityLots) * market.lotBaseMinor;
  else if (command.kind === 'limit') holdAmount = market.quoteAmount(priceTicks, command.quantityLots);
  else holdAmount = command.quoteAmountMax ?? available;
  if (account === undefined || holdAmount === 0n || available < holdAmount)
    return ResultCode.insufficientFunds;
  return { ownerKey, trader, market, priceTicks, holdAccount: account, holdAmount };
}
