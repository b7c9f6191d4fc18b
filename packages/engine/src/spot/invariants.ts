import { invariant } from '../invariant.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { MAX_MARKET_BAND_PPM } from '../limits.ts';
import { quoteAmountOf } from '../pairs/amounts.ts';
import type { SpotState } from './state.ts';
import type { Market } from './market.ts';
import type { Order } from './types.ts';

/**
 * The spot area's rules: books are sound and uncrossed, every resting order (and every stop-limit order
 * waiting for its trigger) holds exactly what its rest needs through an open ledger hold, owner lists and
 * the registry agree, and every spot hold in the ledger belongs to such an order (a taker's hold never
 * outlives its command: the ledger lists orders' holds through the order index, and its own check of the
 * open holds' count shows one left open). Band settings stay within their bounds.
 */
export function checkSpotInvariants(state: SpotState, ledger: Ledger): void {
  for (const market of state.markets.values()) checkMarket(state, ledger, market);
  checkOwnerLists(state);
  const spotHolds = ledger.holds.countOf('spot');
  invariant(
    spotHolds === state.orders.size,
    `${spotHolds} spot holds for ${state.orders.size} resting orders`,
  );
}

function checkMarket(state: SpotState, ledger: Ledger, market: Market): void {
  market.book.checkIntegrity();
  const bestBid = market.book.bestBidTicks();
  const bestAsk = market.book.bestAskTicks();
  invariant(bestBid === 0 || bestAsk === 0 || bestBid < bestAsk, `market ${market.marketId} is crossed`);
  let count = 0;
  const visit = (order: Order): void => {
    checkRestingOrder(state, ledger, market, order);
    count += 1;
  };
  market.book.forEachOrder('buy', visit);
  market.book.forEachOrder('sell', visit);
  invariant(count === market.book.orderCount, `market ${market.marketId} counts orders wrongly`);
  invariant(
    Number.isSafeInteger(market.bandPpm) && market.bandPpm >= 0 && market.bandPpm <= MAX_MARKET_BAND_PPM,
    `market ${market.marketId} band ${market.bandPpm}`,
  );
  // Stop-limit orders waiting for their trigger hold like resting orders, outside the book.
  for (const order of market.stops) {
    invariant(order.stopTicks > 0 && order.filledLots === 0, `stop order ${order.orderId} is not waiting`);
    checkRestingOrder(state, ledger, market, order);
  }
}

/** A resting order holds exactly its remaining lots at its limit price (buy) or its remaining base (sell). */
function checkRestingOrder(state: SpotState, ledger: Ledger, market: Market, order: Order): void {
  const id = order.orderId;
  invariant(state.orders.get(id) === order, `resting order ${id} is not registered`);
  invariant(id < state.orderIds.value, `order ${id} from the future`);
  invariant(order.marketId === market.marketId && order.kind === 'limit', `order ${id} does not belong here`);
  invariant(order.remainingLots > 0 && order.remainingLots <= order.quantityLots, `order ${id} lots`);
  const isBuy = order.side === 'buy';
  const expectedHold = isBuy
    ? quoteAmountOf(order.priceTicks, order.remainingLots, market.quoteMinorPerTickLot)
    : BigInt(order.remainingLots) * market.lotBaseMinor;
  invariant(
    order.lockedAmount === expectedHold,
    `order ${id} holds ${order.lockedAmount}, expected ${expectedHold}`,
  );
  invariant(
    ledger.holds.has(order.hold) && order.hold.area === 'spot' && order.hold.ref === id,
    `order ${id} hold is not open in the ledger`,
  );
  const holdCurrency = isBuy ? market.quoteCurrencyId : market.baseCurrencyId;
  const receiveCurrency = isBuy ? market.baseCurrencyId : market.quoteCurrencyId;
  invariant(
    order.holdAccount.currencyId === holdCurrency && order.holdAccount.ownerKey === order.ownerKey,
    `order ${id} hold account`,
  );
  invariant(
    order.receiveAccount.currencyId === receiveCurrency && order.receiveAccount.ownerKey === order.ownerKey,
    `order ${id} receive account`,
  );
  invariant(
    ledger.accounts.get(order.holdAccount.key) === order.holdAccount,
    `order ${id} hold account is not in the ledger`,
  );
}

function checkOwnerLists(state: SpotState): void {
  let total = 0;
  for (const [ownerKey, trader] of state.traders) {
    invariant(trader.ownerKey === ownerKey, `trader ${ownerKey} filed under the wrong key`);
    let count = 0;
    let previousId = 0;
    let previous: Order | null = null;
    for (let order = trader.head; order !== null; order = order.ownerNext) {
      invariant(
        order.trader === trader && order.ownerKey === ownerKey,
        `order ${order.orderId} in the wrong owner list`,
      );
      invariant(order.ownerPrevious === previous, `order ${order.orderId} badly linked in its owner list`);
      invariant(state.orders.get(order.orderId) === order, `listed order ${order.orderId} is not registered`);
      invariant(order.orderId > previousId, `owner ${ownerKey} list out of order`);
      previousId = order.orderId;
      previous = order;
      count += 1;
    }
    invariant(trader.tail === previous, `owner ${ownerKey} list tail is wrong`);
    invariant(
      count === trader.openOrderCount,
      `owner ${ownerKey} list counts ${trader.openOrderCount}, links ${count}`,
    );
    invariant(count <= state.maxOpenOrdersPerOwner, `owner ${ownerKey} has too many open orders`);
    total += count;
  }
  let resting = 0;
  for (const market of state.markets.values()) resting += market.book.orderCount + market.stops.length;
  invariant(
    total === state.orders.size && resting === state.orders.size,
    'order registry, owner lists and books disagree',
  );
}
