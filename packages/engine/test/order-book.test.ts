// The book interface itself, on both implementations: priority order, levels, removal and integrity.
import { describe, expect, it } from 'vitest';
import { Ledger } from '../src/ledger/ledger.ts';
import { FastOrderBook } from '../src/spot/fast-book.ts';
import type { MatchHandler, OrderBook } from '../src/spot/order-book.ts';
import { ReferenceOrderBook } from '../src/spot/reference-book.ts';
import { Trader } from '../src/spot/trader.ts';
import { Order } from '../src/spot/types.ts';
import type { Side } from '../src/spot/types.ts';

const implementations: [string, () => OrderBook][] = [
  ['fast', () => new FastOrderBook(1n)],
  ['reference', () => new ReferenceOrderBook(1n)],
];

describe.each(implementations)('the %s order book', (_name, createBook) => {
  const ledger = new Ledger();
  let nextId = 1;
  const order = (
    ownerKey: number,
    side: Side,
    priceTicks: number,
    lots: number,
    kind: 'limit' | 'market' = 'limit',
  ) =>
    new Order(
      nextId++,
      new Trader(ownerKey),
      1,
      side,
      kind,
      priceTicks,
      lots,
      BigInt(priceTicks * lots),
      undefined,
      0,
      ledger.account(ownerKey, 0, 2),
      ledger.account(ownerKey, 0, 1),
    );
  const ids = (book: OrderBook, side: Side) => {
    const result: number[] = [];
    book.forEachOrder(side, (resting) => result.push(resting.orderId));
    return result;
  };

  it('keeps each side best price first, oldest first within a price', () => {
    const book = createBook();
    const bids = [
      order(1, 'buy', 100, 1),
      order(2, 'buy', 101, 1),
      order(3, 'buy', 100, 1),
      order(4, 'buy', 99, 1),
    ];
    const asks = [order(5, 'sell', 105, 1), order(6, 'sell', 103, 2), order(7, 'sell', 103, 3)];
    for (const resting of [...bids, ...asks]) book.rest(resting);
    const idOf = (index: number, list: Order[]) => (list[index] as Order).orderId;
    expect(ids(book, 'buy')).toEqual([idOf(1, bids), idOf(0, bids), idOf(2, bids), idOf(3, bids)]);
    expect(ids(book, 'sell')).toEqual([idOf(1, asks), idOf(2, asks), idOf(0, asks)]);
    expect([book.bestBidTicks(), book.bestAskTicks(), book.orderCount]).toEqual([101, 103, 7]);
    expect(book.lotsAtPrice('sell', 103)).toBe(5);
    expect(book.lotsAtPrice('buy', 98)).toBe(0);
    book.checkIntegrity();
  });

  it('removes an order from the middle of a level and drops an emptied level', () => {
    const book = createBook();
    const [a, b, c] = [order(1, 'sell', 103, 1), order(2, 'sell', 103, 2), order(3, 'sell', 104, 3)];
    for (const resting of [a, b, c]) book.rest(resting as Order);
    book.remove(b as Order);
    expect(book.depth(5)).toEqual({
      bids: [],
      asks: [
        [103, 1],
        [104, 3],
      ],
    });
    book.remove(a as Order);
    expect(book.depth(5)).toEqual({ bids: [], asks: [[104, 3]] });
    expect(book.bestAskTicks()).toBe(104);
    book.checkIntegrity();
  });

  it('matches a taker against the opposite side and reports fills and self-trades in order', () => {
    const book = createBook();
    const makers = [
      order(1, 'sell', 101, 2),
      order(2, 'sell', 100, 1),
      order(3, 'sell', 100, 4),
      order(4, 'sell', 102, 9),
    ];
    for (const maker of makers) book.rest(maker);
    const taker = order(3, 'buy', 101, 6);
    const log: string[] = [];
    const handler: MatchHandler = {
      fill: (maker, lots) => {
        taker.remainingLots -= lots;
        log.push(`fill ${maker.ownerKey}@${maker.priceTicks}x${lots} left ${maker.remainingLots}`);
      },
      selfTrade: (maker) => log.push(`self ${maker.ownerKey}`),
    };
    book.match(taker, handler);
    expect(log).toEqual(['fill 2@100x1 left 0', 'self 3', 'fill 1@101x2 left 0']);
    expect(taker.remainingLots).toBe(3);
    expect(book.depth(5)).toEqual({ bids: [], asks: [[102, 9]] });
    book.checkIntegrity();
  });

  it('bounds a market buy by what it still holds', () => {
    const book = createBook();
    book.rest(order(1, 'sell', 100, 5));
    book.rest(order(2, 'sell', 120, 5));
    const taker = order(3, 'buy', 0, 10, 'market');
    taker.lockedAmount = 750n;
    const fills: number[] = [];
    book.match(taker, {
      fill: (maker, lots) => {
        fills.push(lots);
        taker.remainingLots -= lots;
        taker.lockedAmount -= BigInt(maker.priceTicks * lots);
      },
      selfTrade: () => undefined,
    });
    // 5 lots at 100 cost 500; the remaining 250 pays for 2 lots at 120.
    expect(fills).toEqual([5, 2]);
    expect(taker.lockedAmount).toBe(10n);
  });
});
