// Market-order price protection (issue 21, defect 2), cancel-all and the order types' input rules, on both
// books. The band's reference is the latest mark when the market has one, else the best opposite price;
// the band is configurable per market, survives snapshots, and is written to a snapshot only when it is not
// the default (so snapshots and state hashes of exchanges that never set it are unchanged).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARKET_BAND_PPM, Engine, ResultCode, SpotResultCode } from '../src/index.ts';
import type { CancelAllOrdersReply, OrderAcceptedEvent, OrderCancelledEvent } from '../src/index.ts';
import { BOOKS, MARKET, TestExchange, stateWithoutCounters } from './test-exchange.ts';

function exchange(book: (typeof BOOKS)[number]): TestExchange {
  const ex = new TestExchange({ book }).setUpSimpleMarket();
  for (const user of [1, 2, 3]) ex.fund(user, 1_000n, 1_000_000n);
  return ex;
}

function recordMark(ex: TestExchange, priceTicks: number): void {
  ex.ok({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: 60_000,
    samples: [[MARKET, [['a', priceTicks, ex.timeMs + 1]]]],
  });
}

describe.each(BOOKS)('market-order protection on the %s book', (book) => {
  it('cuts a market buy at the band around the mark, not around the best ask, and says band', () => {
    const ex = exchange(book);
    recordMark(ex, 100);
    expect(ex.engine.market.markPrice(MARKET)?.markTicks).toBe(100);
    ex.limit(2, 'sell', 103, 1);
    ex.limit(2, 'sell', 105, 1);
    ex.limit(2, 'sell', 106, 1);
    // 5 % over the mark 100 is 105; 5 % over the best ask 103 would have been 109 (108.15 rounded up).
    expect(ex.engine.spot.marketBandLimit(MARKET, 'buy')).toBe(105);
    expect(ex.engine.spot.marketBandLimit(MARKET, 'sell')).toBe(95);
    const outcome = ex.market(1, 'buy', 3);
    const accepted = outcome.events.find(
      (event): event is OrderAcceptedEvent => event.type === 'orderAccepted',
    );
    expect(accepted?.bandTicks).toBe(105);
    const trades = outcome.events.filter((event) => event.type === 'trade');
    expect(trades.map((trade) => (trade.type === 'trade' ? trade.priceTicks : 0))).toEqual([103, 105]);
    const cancelled = outcome.events.find(
      (event): event is OrderCancelledEvent => event.type === 'orderCancelled',
    );
    expect(cancelled).toMatchObject({ reason: 'marketBand', filledLots: 2, remainingLots: 1 });
    expect(outcome.reply).toMatchObject({ status: 'cancelled', filledLots: 2, remainingLots: 0 });
    expect(ex.engine.spot.depth(MARKET, 5).asks).toEqual([[106, 1]]);
  });

  it('says funds when the budget runs out inside the band, and book when the book runs out', () => {
    const ex = exchange(book);
    ex.limit(2, 'sell', 100, 5);
    const funds = ex.market(1, 'buy', 5, 250n);
    expect(funds.events.find((event) => event.type === 'orderCancelled')).toMatchObject({
      reason: 'marketFunds',
      filledLots: 2,
      releasedAmount: 50n,
    });
    const empty = ex.market(3, 'buy', 9);
    expect(empty.events.find((event) => event.type === 'orderCancelled')).toMatchObject({
      reason: 'marketBook',
      filledLots: 3,
    });
  });

  it('sets the band per market, refuses a bad one, and keeps it through a snapshot', () => {
    const ex = exchange(book);
    expect(ex.engine.spot.market(MARKET)?.bandPpm).toBe(DEFAULT_MARKET_BAND_PPM);
    const before = stateWithoutCounters(ex.engine);
    expect(ex.engine.snapshot()).not.toContain('bandPpm');
    for (const [command, code] of [
      [{ type: 'setMarketBand', marketId: MARKET, bandPpm: 900_001 }, SpotResultCode.invalidBand],
      [{ type: 'setMarketBand', marketId: MARKET, bandPpm: -1 }, SpotResultCode.invalidBand],
      [{ type: 'setMarketBand', marketId: MARKET, bandPpm: 1.5 }, SpotResultCode.invalidBand],
      [{ type: 'setMarketBand', marketId: 99, bandPpm: 10 }, ResultCode.marketNotFound],
    ] as const) {
      expect(ex.apply(command).code).toBe(code);
    }
    expect(stateWithoutCounters(ex.engine)).toBe(before);
    expect(ex.ok({ type: 'setMarketBand', marketId: MARKET, bandPpm: 20_000 }).events).toEqual([
      { type: 'marketBandChanged', marketId: MARKET, bandPpm: 20_000 },
    ]);
    const restored = Engine.restore(ex.engine.snapshot(), { book });
    expect(restored.spot.market(MARKET)?.bandPpm).toBe(20_000);
    expect(restored.stateHash()).toBe(ex.engine.stateHash());
    ex.ok({ type: 'setMarketBand', marketId: MARKET, bandPpm: DEFAULT_MARKET_BAND_PPM });
    expect(ex.engine.snapshot()).not.toContain('bandPpm');
  });
});

describe.each(BOOKS)('cancel all and order-type input on the %s book', (book) => {
  it('cancels all of one owner in one market or everywhere, releasing every hold', () => {
    const ex = exchange(book);
    ex.ok({
      type: 'addMarket',
      marketId: 2,
      baseCurrencyId: 2,
      quoteCurrencyId: 1,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    });
    ex.limit(1, 'buy', 90, 2);
    ex.limit(1, 'sell', 120, 3);
    ex.limit(2, 'buy', 91, 1);
    ex.ok({
      type: 'placeOrder',
      owner: 1,
      marketId: 2,
      side: 'sell',
      kind: 'limit',
      priceTicks: 5,
      quantityLots: 1,
    });
    expect(ex.apply({ type: 'cancelAllOrders', owner: 1, marketId: 99 }).code).toBe(
      ResultCode.marketNotFound,
    );
    expect(ex.apply({ type: 'cancelAllOrders', owner: 0 }).code).toBe(ResultCode.invalidOwner);
    const one = ex.ok({ type: 'cancelAllOrders', owner: 1, marketId: MARKET });
    expect((one.reply as CancelAllOrdersReply).orderIds).toEqual([1, 2]);
    expect(ex.engine.spot.openOrders(1).map((order) => order.marketId)).toEqual([2]);
    expect(ex.engine.spot.openOrders(2)).toHaveLength(1);
    const all = ex.ok({ type: 'cancelAllOrders', owner: 1 });
    expect((all.reply as CancelAllOrdersReply).orderIds).toEqual([4]);
    expect(ex.engine.spot.openOrders(1)).toEqual([]);
    expect(ex.change(1, 1)[1]).toBe(0n);
    expect(ex.change(1, 2)[1]).toBe(0n);
    // Nothing left to cancel is not a refusal.
    expect((ex.ok({ type: 'cancelAllOrders', owner: 1 }).reply as CancelAllOrdersReply).orderIds).toEqual([]);
  });

  it('refuses a time in force on a market order or an unknown one, and changes nothing', () => {
    const ex = exchange(book);
    ex.limit(2, 'sell', 100, 1);
    const before = stateWithoutCounters(ex.engine);
    const base = { type: 'placeOrder', owner: 1, marketId: MARKET, side: 'buy', quantityLots: 1 } as const;
    for (const command of [
      { ...base, kind: 'market', timeInForce: 'ioc' },
      { ...base, kind: 'limit', priceTicks: 100, timeInForce: 'day' },
      { ...base, kind: 'limit', priceTicks: 100, timeInForce: 7 },
    ]) {
      expect(ex.apply(command as never).code).toBe(SpotResultCode.invalidTimeInForce);
    }
    expect(ex.apply({ ...base, kind: 'limit', priceTicks: 100, timeInForce: 'postOnly' }).code).toBe(
      SpotResultCode.postOnlyWouldTake,
    );
    expect(
      ex.apply({ ...base, kind: 'limit', priceTicks: 100, quantityLots: 2, timeInForce: 'fok' }).code,
    ).toBe(SpotResultCode.fillOrKillUnfilled);
    expect(stateWithoutCounters(ex.engine)).toBe(before);
  });

  it('does not count an own resting order as fillable for fill-or-kill (self-trade prevention)', () => {
    const ex = exchange(book);
    ex.limit(1, 'sell', 100, 2);
    ex.limit(2, 'sell', 100, 1);
    const fok = {
      type: 'placeOrder',
      owner: 1,
      marketId: MARKET,
      side: 'buy',
      kind: 'limit',
      priceTicks: 100,
    } as const;
    expect(ex.apply({ ...fok, quantityLots: 2, timeInForce: 'fok' }).code).toBe(
      SpotResultCode.fillOrKillUnfilled,
    );
    expect(ex.apply({ ...fok, quantityLots: 1, timeInForce: 'fok' }).reply).toMatchObject({
      status: 'filled',
    });
  });
});

describe.each(BOOKS)('stop-limit orders on the %s book', (book) => {
  const stop = (owner: number, side: 'buy' | 'sell', priceTicks: number, stopTicks: number, lots = 1) =>
    ({
      type: 'placeOrder',
      owner,
      marketId: MARKET,
      side,
      kind: 'limit',
      priceTicks,
      quantityLots: lots,
      stopTicks,
    }) as const;

  it('holds at once, waits outside the book, and enters it when a trade reaches the stop', async () => {
    const ex = exchange(book);
    const placed = ex.ok(stop(1, 'buy', 106, 105, 2));
    expect(placed.reply).toMatchObject({ status: 'pending', filledLots: 0, remainingLots: 2 });
    expect(ex.change(1, 2)).toEqual([1_000_000n - 212n, 212n]);
    expect(ex.engine.spot.depth(MARKET, 5)).toEqual({ bids: [], asks: [] });
    expect(ex.engine.spot.openOrders(1)).toMatchObject([{ orderId: 1, stopTicks: 105, remainingLots: 2 }]);
    // A trade below the stop leaves it waiting.
    ex.limit(2, 'sell', 104, 1);
    expect(ex.limit(3, 'buy', 104, 1).events.some((event) => event.type === 'orderTriggered')).toBe(false);
    // A trade at 105 triggers it: it takes the ask at 106 and rests its rest at its limit.
    ex.limit(2, 'sell', 106, 1);
    ex.limit(2, 'sell', 105, 1);
    const trigger = ex.limit(3, 'buy', 105, 1);
    expect(trigger.events.find((event) => event.type === 'orderTriggered')).toMatchObject({
      orderId: 1,
      stopTicks: 105,
      lastPriceTicks: 105,
    });
    const trades = trigger.events.filter((event) => event.type === 'trade');
    expect(
      trades.map((trade) => (trade.type === 'trade' ? [trade.takerOrderId, trade.priceTicks] : [])),
    ).toEqual([
      [6, 105],
      [1, 106],
    ]);
    expect(ex.engine.spot.openOrders(1)).toMatchObject([{ orderId: 1, remainingLots: 1 }]);
    expect(ex.engine.spot.openOrders(1)[0]).not.toHaveProperty('stopTicks');
    expect(ex.engine.spot.depth(MARKET, 5).bids).toEqual([[106, 1]]);
  });

  it('cancels a waiting stop with its hold, keeps it through a snapshot, and refuses bad stops', async () => {
    const ex = exchange(book);
    ex.ok(stop(1, 'sell', 90, 95, 3));
    expect(ex.change(1, 1)).toEqual([997n, 3n]);
    const restored = Engine.restore(ex.engine.snapshot(), { book });
    expect(restored.stateHash()).toBe(ex.engine.stateHash());
    expect(restored.spot.openOrders(1)).toMatchObject([{ stopTicks: 95 }]);
    const before = stateWithoutCounters(ex.engine);
    const base = { type: 'placeOrder', owner: 1, marketId: MARKET, side: 'buy', quantityLots: 1 } as const;
    for (const command of [
      { ...base, kind: 'market', stopTicks: 100 },
      { ...base, kind: 'limit', priceTicks: 100, stopTicks: 0 },
      { ...base, kind: 'limit', priceTicks: 100, stopTicks: 1.5 },
      { ...base, kind: 'limit', priceTicks: 100, stopTicks: 100, timeInForce: 'ioc' },
    ]) {
      expect(ex.apply(command as never).code).toBe(SpotResultCode.invalidStopPrice);
    }
    expect(stateWithoutCounters(ex.engine)).toBe(before);
    const cancelled = ex.ok({ type: 'cancelOrder', owner: 1, orderId: 1 });
    expect(cancelled.reply).toMatchObject({ releasedAmount: 3n, remainingLots: 3 });
    expect(ex.change(1, 1)).toEqual([1_000n, 0n]);
    expect(ex.engine.spot.openOrders(1)).toEqual([]);
  });

  it('a triggered stop can trigger the next (a cascade), oldest first', async () => {
    const ex = exchange(book);
    ex.ok(stop(1, 'sell', 90, 99, 1));
    ex.ok(stop(2, 'sell', 90, 97, 1));
    ex.limit(3, 'buy', 99, 1);
    ex.limit(3, 'buy', 97, 1);
    ex.limit(3, 'buy', 96, 1);
    // A sale at 99 triggers the first stop; its sale at 97 triggers the second, which sells at 96.
    const outcome = ex.limit(2, 'sell', 99, 1);
    const order = outcome.events
      .filter((event) => event.type === 'orderTriggered' || event.type === 'trade')
      .map((event) =>
        event.type === 'trade'
          ? `trade ${event.priceTicks}`
          : `triggered ${event.type === 'orderTriggered' ? event.orderId : 0}`,
      );
    expect(order).toEqual(['trade 99', 'triggered 1', 'trade 97', 'triggered 2', 'trade 96']);
  });
});
