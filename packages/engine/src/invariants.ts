import { invariant } from './invariant.ts';
import { CHANGE_WALLET_INDEX, OUTSIDE_OWNER_KEY } from './ledger/accounts.ts';
import { quoteAmountOf } from './spot/amounts.ts';
import type { Market, Order } from './spot/types.ts';
import type { EngineState } from './state.ts';

/**
 * Checks every rule the engine promises (exchange-core's validateInternalState). It walks the whole state,
 * so tests call it after every command and the runner may call it after a restore or periodically.
 * Throws an EngineInvariantError naming the first rule that does not hold.
 */
export function checkStateInvariants(state: EngineState): void {
  const expectedLocked = new Map<number, bigint>();
  for (const market of state.markets.values()) checkMarket(state, market, expectedLocked);
  checkOwnerLists(state);
  for (const withdrawal of state.withdrawals.values()) {
    invariant(
      withdrawal.withdrawalId < state.nextWithdrawalId,
      `withdrawal ${withdrawal.withdrawalId} from the future`,
    );
    invariant(withdrawal.amount > withdrawal.feeAmount && withdrawal.feeAmount >= 0n, 'withdrawal amounts');
    invariant(
      withdrawal.account.walletIndex === CHANGE_WALLET_INDEX,
      'withdrawal holds outside the change wallet',
    );
    const key = withdrawal.account.key;
    expectedLocked.set(key, (expectedLocked.get(key) ?? 0n) + withdrawal.amount);
  }
  checkAccounts(state, expectedLocked);
  invariant(state.idempotency.size <= state.options.idempotencyMaxKeys, 'too many idempotency keys');
}

/** Per currency the accounts sum to zero; only the outside world is below zero; locked equals the holds. */
function checkAccounts(state: EngineState, expectedLocked: Map<number, bigint>): void {
  const sums = new Map<number, bigint>();
  for (const account of state.ledger.accounts.values()) {
    invariant(state.currencies.has(account.currencyId), `account ${account.key} in unknown currency`);
    const isOutside = account.ownerKey === OUTSIDE_OWNER_KEY;
    invariant(
      isOutside || account.available >= 0n,
      `account ${describe(account)} available ${account.available}`,
    );
    invariant(account.locked >= 0n, `account ${describe(account)} locked ${account.locked}`);
    const expected = expectedLocked.get(account.key) ?? 0n;
    invariant(
      account.locked === expected,
      `account ${describe(account)} locks ${account.locked} but its holds total ${expected}`,
    );
    expectedLocked.delete(account.key);
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
  }
  invariant(expectedLocked.size === 0, 'a hold refers to an account the ledger does not have');
  for (const [currencyId, sum] of sums)
    invariant(sum === 0n, `currency ${currencyId} sums to ${sum}, not zero`);
}

function describe(account: { owner: unknown; wallet: string; currencyId: number }): string {
  return `${String(account.owner)}/${account.wallet}/${account.currencyId}`;
}

function checkMarket(state: EngineState, market: Market, expectedLocked: Map<number, bigint>): void {
  market.book.checkIntegrity();
  const bestBid = market.book.bestBidTicks();
  const bestAsk = market.book.bestAskTicks();
  invariant(bestBid === 0 || bestAsk === 0 || bestBid < bestAsk, `market ${market.marketId} is crossed`);
  let count = 0;
  const visit = (order: Order): void => {
    checkRestingOrder(state, market, order);
    const key = order.holdAccount.key;
    expectedLocked.set(key, (expectedLocked.get(key) ?? 0n) + order.lockedAmount);
    count += 1;
  };
  market.book.forEachOrder('buy', visit);
  market.book.forEachOrder('sell', visit);
  invariant(count === market.book.orderCount, `market ${market.marketId} counts orders wrongly`);
  // Stop-limit orders waiting for their trigger hold like resting orders, outside the book.
  for (const order of market.stops) {
    invariant(order.stopTicks > 0 && order.filledLots === 0, `stop order ${order.orderId} is not waiting`);
    checkRestingOrder(state, market, order);
    const key = order.holdAccount.key;
    expectedLocked.set(key, (expectedLocked.get(key) ?? 0n) + order.lockedAmount);
  }
}

/** A resting order holds exactly its remaining lots at its limit price (buy) or its remaining base (sell). */
function checkRestingOrder(state: EngineState, market: Market, order: Order): void {
  const id = order.orderId;
  invariant(state.orders.get(id) === order, `resting order ${id} is not registered`);
  invariant(id < state.nextOrderId, `order ${id} from the future`);
  invariant(order.marketId === market.marketId && order.kind === 'limit', `order ${id} does not belong here`);
  invariant(
    order.remainingLots > 0 && order.remainingLots + order.filledLots === order.quantityLots,
    `order ${id} lots`,
  );
  const isBuy = order.side === 'buy';
  const expectedHold = isBuy
    ? quoteAmountOf(order.priceTicks, order.remainingLots, market.quoteMinorPerTickLot)
    : BigInt(order.remainingLots) * market.lotBaseMinor;
  invariant(
    order.lockedAmount === expectedHold,
    `order ${id} holds ${order.lockedAmount}, expected ${expectedHold}`,
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
    state.ledger.accounts.get(order.holdAccount.key) === order.holdAccount,
    `order ${id} hold account is not in the ledger`,
  );
}

function checkOwnerLists(state: EngineState): void {
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
    invariant(count <= state.options.maxOpenOrdersPerOwner, `owner ${ownerKey} has too many open orders`);
    total += count;
  }
  let resting = 0;
  for (const market of state.markets.values()) resting += market.book.orderCount + market.stops.length;
  invariant(
    total === state.orders.size && resting === state.orders.size,
    'order registry, owner lists and books disagree',
  );
}
