import { fail } from '../invariant.ts';
import { CHANGE_WALLET_INDEX, TRADING_SYSTEM_OWNERS, ownerKeyOf } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import {
  MAX_CLIENT_ORDER_ID_LENGTH,
  MAX_MARKET_ID,
  MAX_PRICE_TICKS,
  MAX_QUANTITY_LOTS,
  PPM,
} from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import type { CommandContext } from '../kernel/context.ts';
import { isAmount, isCount, isText } from '../validate.ts';
import type { PlaceOrderCommand } from './commands.ts';
import type { CancelReason, OrderAcceptedEvent, PlaceOrderReply } from './events.ts';
import {
  orderCancelledEvent,
  orderDoneEvent,
  registerOrder,
  traderOf,
  unregisterOrder,
} from './owner-orders.ts';
import { SpotReasonCode } from './reason-codes.ts';
import { SpotResultCode } from './result-codes.ts';
import type { SpotState } from './state.ts';
import type { Trader } from './trader.ts';
import { Order, TIMES_IN_FORCE } from './types.ts';
import type { Market } from './market.ts';
import type { Side, TimeInForce } from './types.ts';

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
  if (command.kind === 'market') {
    order.bandTicks = bandLimitTicks(state.markTicks(market.marketId), market, command.side);
  }
  if (command.stopTicks !== undefined) order.stopTicks = command.stopTicks;
  const timeInForce = command.timeInForce ?? 'gtc';
  emitAccepted(ctx, order, holdAmount, timeInForce);
  ledger.hold(order);
  if (order.stopTicks > 0) {
    // A stop-limit order holds its funds now and waits, outside the book, for a trade to reach its stop.
    market.stops.push(order);
    registerOrder(state, order);
    const pending: PlaceOrderReply = {
      orderId: order.orderId,
      status: 'pending',
      filledLots: 0,
      remainingLots: order.remainingLots,
      quoteFilled: 0n,
      feePaid: 0n,
      tradeCount: 0,
    };
    ctx.reply(pending);
    return ResultCode.ok;
  }

  const matcher = state.matcher;
  matcher.begin(ctx, market);
  market.book.match(order, matcher);
  const rests = order.kind === 'limit' && (timeInForce === 'gtc' || timeInForce === 'postOnly');
  finishTaker(ctx, state, market, order, rests);
  const reply: PlaceOrderReply = {
    orderId: order.orderId,
    status: order.remainingLots === 0 ? 'filled' : rests ? 'resting' : 'cancelled',
    filledLots: order.filledLots,
    remainingLots: rests ? order.remainingLots : 0,
    quoteFilled: order.quoteFilled,
    feePaid: order.feePaid,
    tradeCount: matcher.tradeCount,
  };
  ctx.reply(reply);
  // Most markets have no stop order waiting: no call then.
  if (market.stops.length > 0) triggerStops(ctx, state, market, matcher.lastPriceTicks);
  return ResultCode.ok;
}

/**
 * After trades at `lastPriceTicks`, the waiting stop-limit orders of the market whose stop that price
 * reached (a buy stop at or below it, a sell stop at or above it) enter the market, oldest first, each as a
 * limit order that matches and rests like any other; their own trades move the last price and may trigger
 * more. Each order leaves the stops once, so the loop ends.
 */
function triggerStops(ctx: CommandContext, state: SpotState, market: Market, lastPriceTicks: number): void {
  let last = lastPriceTicks;
  while (last > 0 && market.stops.length > 0) {
    const index = market.stops.findIndex((order) =>
      order.side === 'buy' ? last >= order.stopTicks : last <= order.stopTicks,
    );
    if (index < 0) return;
    const order = market.stops[index] as Order;
    market.stops.splice(index, 1);
    const stopTicks = order.stopTicks;
    order.stopTicks = 0;
    ctx.emit({
      type: 'orderTriggered',
      orderId: order.orderId,
      owner: order.owner,
      marketId: order.marketId,
      stopTicks,
      lastPriceTicks: last,
    });
    const matcher = state.matcher;
    matcher.begin(ctx, market);
    market.book.match(order, matcher);
    // Registered when it was placed: it rests without registering again, or leaves the registry when done.
    finishTaker(ctx, state, market, order, true, true);
    if (matcher.lastPriceTicks > 0) last = matcher.lastPriceTicks;
  }
}

function emitAccepted(ctx: CommandContext, order: Order, holdAmount: bigint, timeInForce: TimeInForce): void {
  // The events of the hot paths are not even built while the engine replays without events (Engine.replay).
  if (!ctx.ledger.recordEvents) return;
  const event: OrderAcceptedEvent = {
    type: 'orderAccepted',
    orderId: order.orderId,
    owner: order.owner,
    marketId: order.marketId,
    side: order.side,
    kind: order.kind,
    priceTicks: order.priceTicks,
    quantityLots: order.quantityLots,
    holdAmount,
  };
  if (order.clientOrderId !== undefined) event.clientOrderId = order.clientOrderId;
  if (timeInForce !== 'gtc') event.timeInForce = timeInForce;
  if (order.bandTicks > 0) event.bandTicks = order.bandTicks;
  if (order.stopTicks > 0) event.stopTicks = order.stopTicks;
  ctx.emit(event);
}

/**
 * A market order's protection limit: the reference price (the latest mark, else the best opposite price
 * when the order arrives) moved by the market's band, rounded outwards for a buy and inwards for a sell so
 * the band is never narrower than configured, and at least one tick. 0 (no limit) when the band is off or
 * there is no reference (an empty opposite side and no mark: nothing can fill anyway).
 */
export function bandLimitTicks(markTicks: number | null, market: Market, side: Side): number {
  const bandPpm = market.bandPpm;
  if (bandPpm === 0) return 0;
  const referenceTicks =
    markTicks !== null && markTicks > 0
      ? markTicks
      : side === 'buy'
        ? market.book.bestAskTicks()
        : market.book.bestBidTicks();
  if (referenceTicks === 0) return 0;
  const reference = BigInt(referenceTicks);
  const band = BigInt(bandPpm);
  if (side === 'buy') {
    const limit = (reference * (PPM + band) + PPM - 1n) / PPM;
    return limit > BigInt(MAX_PRICE_TICKS) ? MAX_PRICE_TICKS : Number(limit);
  }
  const limit = (reference * (PPM - band)) / PPM;
  return limit < 1n ? 1 : Number(limit);
}

/** Why a market order stopped with lots left: no more book, the next price past its band, or its funds. */
function marketUnfilledReason(market: Market, order: Order): CancelReason {
  const bestTicks = order.side === 'buy' ? market.book.bestAskTicks() : market.book.bestBidTicks();
  if (bestTicks === 0) return 'marketBook';
  const limit = order.bandTicks;
  if (limit > 0 && (order.side === 'buy' ? bestTicks > limit : bestTicks < limit)) return 'marketBand';
  return 'marketFunds';
}

/**
 * After matching: the rest of a gtc or post-only limit order rests; the rest of a market or
 * immediate-or-cancel order is cancelled, with the reason it stopped; a filled order is done.
 */
function finishTaker(
  ctx: CommandContext,
  state: SpotState,
  market: Market,
  order: Order,
  rests: boolean,
  registered = false,
): void {
  if (order.remainingLots > 0 && rests) {
    market.book.rest(order);
    if (!registered) registerOrder(state, order);
    if (ctx.ledger.recordEvents)
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
  if (registered) unregisterOrder(state, order);
  const releasedAmount = order.lockedAmount;
  if (releasedAmount > 0n) {
    // A filled limit order holds nothing here: a limit buy returns its price improvement per fill.
    if (order.kind !== 'market' && order.remainingLots === 0)
      fail(`filled limit order ${order.orderId} still holds ${releasedAmount}`);
    state.ledger.release(order, releasedAmount, SpotReasonCode.orderRelease);
  }
  if (!ctx.ledger.recordEvents) return;
  if (order.remainingLots === 0) {
    ctx.emit(orderDoneEvent(order, releasedAmount));
  } else {
    const reason = order.kind === 'market' ? marketUnfilledReason(market, order) : 'iocUnfilled';
    ctx.emit(orderCancelledEvent(order, reason, releasedAmount));
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
  const timeInForce = command.timeInForce;
  if (timeInForce !== undefined && !(kind === 'limit' && TIMES_IN_FORCE.includes(timeInForce))) {
    return SpotResultCode.invalidTimeInForce;
  }
  const { stopTicks } = command;
  if (
    stopTicks !== undefined &&
    !(kind === 'limit' && (timeInForce ?? 'gtc') === 'gtc' && isCount(stopTicks, MAX_PRICE_TICKS))
  ) {
    return SpotResultCode.invalidStopPrice;
  }
  const trader = state.traders.get(ownerKey);
  if (timeInForce === 'postOnly') {
    const bestTicks = side === 'buy' ? market.book.bestAskTicks() : market.book.bestBidTicks();
    if (bestTicks > 0 && (side === 'buy' ? bestTicks <= priceTicks : bestTicks >= priceTicks)) {
      return SpotResultCode.postOnlyWouldTake;
    }
  } else if (timeInForce === 'fok') {
    if (market.book.fillableLots(side, priceTicks, ownerKey, quantityLots) < quantityLots) {
      return SpotResultCode.fillOrKillUnfilled;
    }
  }
  if (kind === 'limit' && timeInForce !== 'ioc' && timeInForce !== 'fok') {
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
