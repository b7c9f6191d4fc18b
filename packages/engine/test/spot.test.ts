import { describe, expect, it } from 'vitest';
import { Engine, ResultCode } from '../src/index.ts';
import type { Command, EngineEvent } from '../src/index.ts';
import { BASE, BOOKS, MARKET, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

function types(events: EngineEvent[]): string[] {
  return events.map((event) => (event.type === 'balanceChanged' ? `balance:${event.reason}` : event.type));
}

describe.each(BOOKS)('spot orders on the %s book', (book) => {
  const setUp = () => {
    const exchange = new TestExchange({ book }).setUpSimpleMarket(1000, 2000);
    for (const user of [1, 2, 3]) exchange.fund(user, 1000n, 100_000n);
    return exchange;
  };

  it('emits accepted, hold and rested for an order that rests, and open orders list it', () => {
    const exchange = setUp();
    const outcome = exchange.apply({
      type: 'placeOrder',
      owner: 1,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 90,
      quantityLots: 3,
      clientOrderId: 'abc-1',
    });
    expect(types(outcome.events)).toEqual(['orderAccepted', 'balance:300', 'orderRested']);
    expect(outcome.events[0]).toMatchObject({ orderId: 1, holdAmount: 270n, clientOrderId: 'abc-1' });
    expect(exchange.engine.spot.openOrders(1)).toEqual([
      {
        orderId: 1,
        owner: 1,
        marketId: MARKET,
        side: 'buy',
        kind: 'limit',
        priceTicks: 90,
        quantityLots: 3,
        filledLots: 0,
        remainingLots: 3,
        lockedAmount: 270n,
        quoteFilled: 0n,
        feePaid: 0n,
        clientOrderId: 'abc-1',
        acceptedTimeMs: exchange.timeMs,
        updatedTimeMs: exchange.timeMs,
      },
    ]);
    expect(exchange.engine.spot.openOrders(1, 99)).toEqual([]);
    expect(exchange.engine.spot.openOrders(2)).toEqual([]);
  });

  it('closes an order with its whole record, fills of earlier commands and a snapshot in between included', () => {
    const exchange = setUp();
    const acceptedTimeMs = exchange.timeMs + 1;
    exchange.limit(2, 'sell', 100, 1000);
    const first = exchange.limit(1, 'buy', 100, 300);
    // The resting maker's running totals survive a snapshot and restore.
    (exchange as { engine: Engine }).engine = Engine.restore(exchange.engine.snapshot(), { book });
    const second = exchange.limit(3, 'buy', 100, 700);
    const trades = [...first.events, ...second.events].filter((event) => event.type === 'trade');
    const done = second.events.find((event) => event.type === 'orderDone' && event.orderId === 1);
    expect(done).toEqual({
      type: 'orderDone',
      orderId: 1,
      owner: 2,
      marketId: MARKET,
      filledLots: 1000,
      releasedAmount: 0n,
      side: 'sell',
      kind: 'limit',
      priceTicks: 100,
      quantityLots: 1000,
      quoteFilled: trades.reduce((sum, trade) => sum + trade.quoteAmount, 0n),
      feePaid: trades.reduce((sum, trade) => sum + trade.makerFee, 0n),
      acceptedTimeMs,
    });
    expect(done).toMatchObject({ quoteFilled: 100_000n, feePaid: 100n });
    const cancelled = exchange.limit(1, 'buy', 90, 5).reply as { orderId: number };
    const cancel = exchange.apply({ type: 'cancelOrder', owner: 1, orderId: cancelled.orderId });
    expect(cancel.events.find((event) => event.type === 'orderCancelled')).toMatchObject({
      side: 'buy',
      kind: 'limit',
      priceTicks: 90,
      quantityLots: 5,
      quoteFilled: 0n,
      feePaid: 0n,
    });
  });

  it('writes a closing event with its fields in one order, the client order id last and only when given', () => {
    const exchange = setUp();
    const closing = [
      'side',
      'kind',
      'priceTicks',
      'quantityLots',
      'quoteFilled',
      'feePaid',
      'acceptedTimeMs',
    ];
    const done = ['type', 'orderId', 'owner', 'marketId', 'filledLots', 'releasedAmount', ...closing];
    const cancelled = [
      ...['type', 'orderId', 'owner', 'marketId', 'reason', 'filledLots', 'remainingLots', 'releasedAmount'],
      ...closing,
    ];
    exchange.apply({
      type: 'placeOrder',
      owner: 2,
      marketId: MARKET,
      side: 'sell',
      kind: 'limit',
      priceTicks: 100,
      quantityLots: 10,
      clientOrderId: 'maker-1',
    });
    exchange.limit(2, 'sell', 100, 10);
    const taker = exchange.limit(1, 'buy', 100, 20);
    const makersDone = taker.events.filter((event) => event.type === 'orderDone' && event.owner === 2);
    expect(makersDone.map((event) => Object.keys(event))).toEqual([[...done, 'clientOrderId'], done]);
    const takerDone = taker.events.find((event) => event.type === 'orderDone' && event.owner === 1);
    expect(Object.keys(takerDone ?? {})).toEqual(done);
    const resting = exchange.apply({
      type: 'placeOrder',
      owner: 1,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 90,
      quantityLots: 5,
      clientOrderId: 'rest-1',
    });
    const { orderId } = resting.reply as { orderId: number };
    const cancel = exchange.apply({ type: 'cancelOrder', owner: 1, orderId });
    const event = cancel.events.find((candidate) => candidate.type === 'orderCancelled');
    expect(Object.keys(event ?? {})).toEqual([...cancelled, 'clientOrderId']);
    expect(event).toMatchObject({ clientOrderId: 'rest-1', reason: 'user', remainingLots: 5 });
  });

  it('settles a trade as linked transfers: trade, two posts, price improvement, two fees, done', () => {
    const exchange = setUp();
    exchange.limit(2, 'sell', 100, 1000);
    const outcome = exchange.limit(1, 'buy', 105, 500);
    expect(types(outcome.events)).toEqual([
      'orderAccepted',
      'balance:300',
      'trade',
      'balance:303',
      'balance:303',
      'balance:303',
      'balance:303',
      'balance:302',
      'balance:304',
      'balance:304',
      'balance:304',
      'balance:304',
      'orderDone',
    ]);
    const trade = outcome.events.find((event) => event.type === 'trade');
    expect(trade).toEqual({
      type: 'trade',
      tradeId: 1,
      marketId: MARKET,
      priceTicks: 100,
      quantityLots: 500,
      baseAmount: 500n,
      quoteAmount: 50_000n,
      makerOrderId: 1,
      makerOwner: 2,
      takerOrderId: 2,
      takerOwner: 1,
      makerSide: 'sell',
      makerFee: 50n,
      makerFeeCurrencyId: QUOTE,
      takerFee: 1n,
      takerFeeCurrencyId: BASE,
    });
    // Both legs of one transfer carry one transfer id, and the legs of every transfer sum to zero.
    const byTransfer = new Map<number, bigint>();
    for (const event of outcome.events) {
      if (event.type !== 'balanceChanged') continue;
      const delta = event.availableAfter - event.availableBefore + event.lockedAfter - event.lockedBefore;
      byTransfer.set(event.transferId, (byTransfer.get(event.transferId) ?? 0n) + delta);
    }
    for (const [transferId, sum] of byTransfer) {
      // A hold or release moves within one account; a transfer or post between two.
      expect({ transferId, sum }).toEqual({ transferId, sum: 0n });
    }
    expect(outcome.reply).toEqual({
      orderId: 2,
      status: 'filled',
      filledLots: 500,
      remainingLots: 0,
      quoteFilled: 50_000n,
      feePaid: 1n,
      tradeCount: 1,
    });
  });

  it('cancels a resting order, returning exactly what it still holds', () => {
    const exchange = setUp();
    exchange.limit(1, 'buy', 100, 10);
    exchange.limit(2, 'sell', 100, 4);
    const cancel = exchange.apply({ type: 'cancelOrder', owner: 1, orderId: 1 });
    expect(cancel.code).toBe(0);
    expect(cancel.reply).toEqual({ orderId: 1, filledLots: 4, remainingLots: 6, releasedAmount: 600n });
    expect(types(cancel.events)).toEqual(['balance:301', 'orderCancelled']);
    expect(exchange.change(1, QUOTE)).toEqual([99_600n, 0n]);
    expect(exchange.engine.spot.openOrders(1)).toEqual([]);
    expect(exchange.apply({ type: 'cancelOrder', owner: 1, orderId: 1 }).code).toBe(ResultCode.orderNotFound);
  });

  it('refuses to cancel another owner\u2019s order, and a filled order is no longer found', () => {
    const exchange = setUp();
    exchange.limit(1, 'sell', 100, 2);
    expect(exchange.apply({ type: 'cancelOrder', owner: 2, orderId: 1 }).code).toBe(ResultCode.notOrderOwner);
    exchange.limit(2, 'buy', 100, 2);
    expect(exchange.apply({ type: 'cancelOrder', owner: 1, orderId: 1 }).code).toBe(ResultCode.orderNotFound);
    expect(exchange.apply({ type: 'cancelOrder', owner: 1, orderId: 99 }).code).toBe(
      ResultCode.orderNotFound,
    );
  });

  it('aggregates depth per price, best first, limited to the levels asked for', () => {
    const exchange = setUp();
    exchange.limit(1, 'buy', 98, 1);
    exchange.limit(2, 'buy', 99, 2);
    exchange.limit(3, 'buy', 99, 3);
    exchange.limit(1, 'sell', 101, 4);
    exchange.limit(2, 'sell', 103, 5);
    exchange.limit(3, 'sell', 102, 6);
    expect(exchange.engine.spot.depth(MARKET, 2)).toEqual({
      bids: [
        [99, 5],
        [98, 1],
      ],
      asks: [
        [101, 4],
        [102, 6],
      ],
    });
    expect(exchange.engine.spot.depth(MARKET, 0)).toEqual({ bids: [], asks: [] });
    expect(exchange.engine.spot.depth(42, 5)).toEqual({ bids: [], asks: [] });
    expect(exchange.engine.spot.bestPrices(MARKET)).toEqual({ bidTicks: 99, askTicks: 101 });
  });

  it('lets the market maker trade like a user, but not the fees account', () => {
    const exchange = setUp();
    exchange.ok({ type: 'systemFund', owner: 'marketMaker', currencyId: BASE, amount: 50n });
    expect(exchange.limit('marketMaker', 'sell', 100, 5).code).toBe(0);
    expect(exchange.limit(1, 'buy', 100, 5).code).toBe(0);
    expect(exchange.change('marketMaker', QUOTE)).toEqual([500n - 0n, 0n]);
    expect(exchange.limit('fees', 'buy', 100, 1).code).toBe(ResultCode.ownerCannotTrade);
    expect(exchange.limit('outside', 'buy', 100, 1).code).toBe(ResultCode.ownerCannotTrade);
  });

  const refusals: [string, Partial<Extract<Command, { type: 'placeOrder' }>>, number][] = [
    ['an unknown owner', { owner: 0 }, ResultCode.invalidOwner],
    ['a fractional user id', { owner: 1.5 }, ResultCode.invalidOwner],
    ['an unknown market', { marketId: 7 }, ResultCode.marketNotFound],
    ['a bad side', { side: 'up' as never }, ResultCode.invalidSide],
    ['a bad kind', { kind: 'stop' as never }, ResultCode.invalidOrderKind],
    ['zero lots', { quantityLots: 0 }, ResultCode.invalidQuantity],
    ['fractional lots', { quantityLots: 1.5 }, ResultCode.invalidQuantity],
    ['lots as text', { quantityLots: '3' as never }, ResultCode.invalidQuantity],
    ['lots below the market minimum', { quantityLots: 1 }, ResultCode.quantityBelowMinimum],
    ['a missing price', { priceTicks: undefined }, ResultCode.invalidPrice],
    ['a zero price', { priceTicks: 0 }, ResultCode.invalidPrice],
    ['a negative price', { priceTicks: -5 }, ResultCode.invalidPrice],
    ['a price beyond the limit', { priceTicks: 1e13 }, ResultCode.invalidPrice],
    ['a price on a market order', { kind: 'market', priceTicks: 100 }, ResultCode.invalidPrice],
    ['a quote maximum on a limit order', { quoteAmountMax: 10n }, ResultCode.invalidAmount],
    [
      'a quote maximum on a market sell',
      { kind: 'market', priceTicks: undefined, side: 'sell', quoteAmountMax: 10n },
      ResultCode.invalidAmount,
    ],
    [
      'a zero quote maximum',
      { kind: 'market', priceTicks: undefined, quoteAmountMax: 0n },
      ResultCode.invalidAmount,
    ],
    [
      'a quote maximum beyond the balance',
      { kind: 'market', priceTicks: undefined, quoteAmountMax: 100_001n },
      ResultCode.insufficientFunds,
    ],
    [
      'a client order id that is too long',
      { clientOrderId: 'x'.repeat(65) },
      ResultCode.invalidClientOrderId,
    ],
    [
      'a client order id with a control character',
      { clientOrderId: 'a\nb' },
      ResultCode.invalidClientOrderId,
    ],
    ['more than the balance pays for', { priceTicks: 50_001 }, ResultCode.insufficientFunds],
    ['a buyer without any quote', { owner: 9 }, ResultCode.insufficientFunds],
  ];

  it.each(refusals)('refuses %s without changing anything', (_name, change, code) => {
    const exchange = new TestExchange({ book }).setUpSimpleMarket(0, 0, 2);
    exchange.fund(1, 1000n, 100_000n);
    exchange.limit(1, 'sell', 200, 2);
    const before = stateWithoutCounters(exchange.engine);
    const command = {
      type: 'placeOrder',
      owner: 1,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 2,
      quantityLots: 2,
      ...change,
    } as Record<string, unknown>;
    for (const key of Object.keys(command)) if (command[key] === undefined) delete command[key];
    const outcome = exchange.apply(command as Command);
    expect(outcome).toEqual({ seq: exchange.seq, code, events: [] });
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
  });

  it('limits the open orders of one owner', () => {
    const exchange = new TestExchange({ book, maxOpenOrdersPerOwner: 3 }).setUpSimpleMarket();
    exchange.fund(1, 1000n, 100_000n);
    for (let index = 0; index < 3; index += 1) expect(exchange.limit(1, 'buy', 10 + index, 1).code).toBe(0);
    expect(exchange.limit(1, 'buy', 20, 1).code).toBe(ResultCode.tooManyOpenOrders);
    expect(exchange.market(1, 'sell', 1).code).toBe(0);
  });
});
