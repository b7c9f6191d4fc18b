// One scenario table, run against both book implementations (the exchange-core pattern): each row is the
// book before, one incoming order, the trades it makes, and the book and balances after. Every user starts
// with 1,000 BASE and 100,000 QUOTE, and so do two of the exchange's own owners, `house` and `marketMaker`;
// the market has scale 0, tick 1 and lot 1, so amounts read as written.
import { describe, expect, it } from 'vitest';
import type { AccountOwner, TradeEvent } from '../src/index.ts';
import { BASE, BOOKS, MARKET, QUOTE, TestExchange } from './test-exchange.ts';

type Row = [owner: AccountOwner, side: 'buy' | 'sell', priceTicks: number, quantityLots: number];
type Pair = [available: number, locked: number];

type Scenario = {
  name: string;
  fees?: [makerFeePpm: number, takerFeePpm: number];
  /** The market-order band, when not the default 5 %. */
  bandPpm?: number;
  resting: Row[];
  order: {
    owner: AccountOwner;
    side: 'buy' | 'sell';
    kind: 'limit' | 'market';
    price?: number;
    lots: number;
    quoteMax?: number;
    timeInForce?: 'gtc' | 'ioc' | 'fok' | 'postOnly';
  };
  /** Why the taker's rest was cancelled, when it was. */
  cancelReason?: string;
  trades: [makerOwner: AccountOwner, priceTicks: number, quantityLots: number][];
  status: 'resting' | 'filled' | 'cancelled';
  bookAfter: { bids: [number, number][]; asks: [number, number][] };
  balancesAfter: Partial<Record<AccountOwner, { base: Pair; quote: Pair }>>;
};

const scenarios: Scenario[] = [
  {
    name: 'a buy walks asks from the lowest price, oldest first, filling at the makers\u2019 prices',
    resting: [
      [2, 'sell', 101, 5],
      [3, 'sell', 100, 2],
      [4, 'sell', 100, 3],
    ],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 101, lots: 7 },
    trades: [
      [3, 100, 2],
      [4, 100, 3],
      [2, 101, 2],
    ],
    status: 'filled',
    bookAfter: { bids: [], asks: [[101, 3]] },
    balancesAfter: {
      1: { base: [1007, 0], quote: [99298, 0] },
      2: { base: [995, 3], quote: [100202, 0] },
      3: { base: [998, 0], quote: [100200, 0] },
      4: { base: [997, 0], quote: [100300, 0] },
    },
  },
  {
    name: 'a sell walks bids from the highest price and its rest rests',
    resting: [
      [2, 'buy', 99, 2],
      [3, 'buy', 100, 1],
      [4, 'buy', 98, 5],
    ],
    order: { owner: 1, side: 'sell', kind: 'limit', price: 99, lots: 4 },
    trades: [
      [3, 100, 1],
      [2, 99, 2],
    ],
    status: 'resting',
    bookAfter: { bids: [[98, 5]], asks: [[99, 1]] },
    balancesAfter: {
      1: { base: [996, 1], quote: [100298, 0] },
      2: { base: [1002, 0], quote: [99802, 0] },
      3: { base: [1001, 0], quote: [99900, 0] },
      4: { base: [1000, 0], quote: [99510, 490] },
    },
  },
  {
    name: 'a buy below the best ask rests with price x lots locked',
    resting: [[2, 'sell', 105, 3]],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 100, lots: 4 },
    trades: [],
    status: 'resting',
    bookAfter: { bids: [[100, 4]], asks: [[105, 3]] },
    balancesAfter: { 1: { base: [1000, 0], quote: [99600, 400] }, 2: { base: [997, 3], quote: [100000, 0] } },
  },
  {
    name: 'a buy filled below its limit gets the surplus back and rests the rest at its limit',
    resting: [[2, 'sell', 100, 4]],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 102, lots: 10 },
    trades: [[2, 100, 4]],
    status: 'resting',
    bookAfter: { bids: [[102, 6]], asks: [] },
    balancesAfter: { 1: { base: [1004, 0], quote: [98988, 612] }, 2: { base: [996, 0], quote: [100400, 0] } },
  },
  {
    name: 'a market buy stops at its quote maximum and the unspent hold is released',
    resting: [
      [2, 'sell', 100, 5],
      [3, 'sell', 110, 5],
    ],
    bandPpm: 200_000,
    order: { owner: 1, side: 'buy', kind: 'market', lots: 10, quoteMax: 1000 },
    trades: [
      [2, 100, 5],
      [3, 110, 4],
    ],
    status: 'cancelled',
    cancelReason: 'marketFunds',
    bookAfter: { bids: [], asks: [[110, 1]] },
    balancesAfter: { 1: { base: [1009, 0], quote: [99060, 0] }, 3: { base: [995, 1], quote: [100440, 0] } },
  },
  {
    name: 'a market buy without a maximum is bounded by the available balance, the book empties',
    resting: [[2, 'sell', 100, 3]],
    order: { owner: 1, side: 'buy', kind: 'market', lots: 5 },
    trades: [[2, 100, 3]],
    status: 'cancelled',
    cancelReason: 'marketBook',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: { 1: { base: [1003, 0], quote: [99700, 0] } },
  },
  {
    name: 'a market sell into an empty book is cancelled and returns its hold',
    resting: [],
    order: { owner: 1, side: 'sell', kind: 'market', lots: 5 },
    trades: [],
    status: 'cancelled',
    cancelReason: 'marketBook',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: { 1: { base: [1000, 0], quote: [100000, 0] } },
  },
  {
    name: 'a market sell walks the bids until it is filled',
    resting: [
      [2, 'buy', 100, 2],
      [3, 'buy', 90, 2],
    ],
    bandPpm: 100_000,
    order: { owner: 1, side: 'sell', kind: 'market', lots: 3 },
    trades: [
      [2, 100, 2],
      [3, 90, 1],
    ],
    status: 'filled',
    bookAfter: { bids: [[90, 1]], asks: [] },
    balancesAfter: { 1: { base: [997, 0], quote: [100290, 0] }, 3: { base: [1001, 0], quote: [99820, 90] } },
  },
  {
    name: 'a market buy stops at the default 5 % band over the best ask (no mark yet); the reason says band',
    resting: [
      [2, 'sell', 100, 2],
      [3, 'sell', 105, 2],
      [4, 'sell', 106, 2],
    ],
    order: { owner: 1, side: 'buy', kind: 'market', lots: 6 },
    trades: [
      [2, 100, 2],
      [3, 105, 2],
    ],
    status: 'cancelled',
    cancelReason: 'marketBand',
    bookAfter: { bids: [], asks: [[106, 2]] },
    balancesAfter: { 1: { base: [1004, 0], quote: [99590, 0] }, 4: { base: [998, 2], quote: [100000, 0] } },
  },
  {
    name: 'a market sell stops at the band under the best bid, rounded inwards (95.0 of 100 is allowed)',
    resting: [
      [2, 'buy', 100, 1],
      [3, 'buy', 95, 1],
      [4, 'buy', 94, 1],
    ],
    order: { owner: 1, side: 'sell', kind: 'market', lots: 3 },
    trades: [
      [2, 100, 1],
      [3, 95, 1],
    ],
    status: 'cancelled',
    cancelReason: 'marketBand',
    bookAfter: { bids: [[94, 1]], asks: [] },
    balancesAfter: { 1: { base: [998, 0], quote: [100195, 0] } },
  },
  {
    name: 'with the band off a market buy walks every level',
    bandPpm: 0,
    resting: [
      [2, 'sell', 100, 1],
      [3, 'sell', 200, 1],
    ],
    order: { owner: 1, side: 'buy', kind: 'market', lots: 2 },
    trades: [
      [2, 100, 1],
      [3, 200, 1],
    ],
    status: 'filled',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: { 1: { base: [1002, 0], quote: [99700, 0] } },
  },
  {
    name: 'an immediate-or-cancel buy takes what crosses and cancels the rest, releasing its hold',
    resting: [
      [2, 'sell', 100, 2],
      [3, 'sell', 102, 2],
    ],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 101, lots: 5, timeInForce: 'ioc' },
    trades: [[2, 100, 2]],
    status: 'cancelled',
    cancelReason: 'iocUnfilled',
    bookAfter: { bids: [], asks: [[102, 2]] },
    balancesAfter: { 1: { base: [1002, 0], quote: [99800, 0] } },
  },
  {
    name: 'a fill-or-kill buy that the book can fill fills completely',
    resting: [
      [2, 'sell', 100, 2],
      [3, 'sell', 101, 2],
    ],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 101, lots: 3, timeInForce: 'fok' },
    trades: [
      [2, 100, 2],
      [3, 101, 1],
    ],
    status: 'filled',
    bookAfter: { bids: [], asks: [[101, 1]] },
    balancesAfter: { 1: { base: [1003, 0], quote: [99699, 0] } },
  },
  {
    name: 'a post-only sell that does not cross rests whole',
    resting: [[2, 'buy', 100, 2]],
    order: { owner: 1, side: 'sell', kind: 'limit', price: 101, lots: 3, timeInForce: 'postOnly' },
    trades: [],
    status: 'resting',
    bookAfter: { bids: [[100, 2]], asks: [[101, 3]] },
    balancesAfter: { 1: { base: [997, 3], quote: [100000, 0] } },
  },
  {
    name: 'self-trade prevention cancels the resting order of the same owner and matching goes on',
    resting: [
      [1, 'sell', 100, 2],
      [2, 'sell', 100, 3],
    ],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 100, lots: 4 },
    trades: [[2, 100, 3]],
    status: 'resting',
    bookAfter: { bids: [[100, 1]], asks: [] },
    balancesAfter: { 1: { base: [1003, 0], quote: [99600, 100] }, 2: { base: [997, 0], quote: [100300, 0] } },
  },
  {
    name: 'two system owners never trade: the house buying cancels the market maker\u2019s ask and takes the user\u2019s',
    resting: [
      ['marketMaker', 'sell', 100, 2],
      [2, 'sell', 101, 3],
    ],
    order: { owner: 'house', side: 'buy', kind: 'market', lots: 4 },
    trades: [[2, 101, 3]],
    status: 'cancelled',
    cancelReason: 'marketBook',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: {
      house: { base: [1003, 0], quote: [99697, 0] },
      marketMaker: { base: [1000, 0], quote: [100000, 0] },
      2: { base: [997, 0], quote: [100303, 0] },
    },
  },
  {
    name: 'two system owners never trade: a market maker ask crossing the house\u2019s bid cancels the bid and rests',
    resting: [
      ['house', 'buy', 100, 5],
      [3, 'buy', 99, 1],
    ],
    order: { owner: 'marketMaker', side: 'sell', kind: 'limit', price: 99, lots: 3 },
    trades: [[3, 99, 1]],
    status: 'resting',
    bookAfter: { bids: [], asks: [[99, 2]] },
    balancesAfter: {
      house: { base: [1000, 0], quote: [100000, 0] },
      marketMaker: { base: [997, 2], quote: [100099, 0] },
      3: { base: [1001, 0], quote: [99901, 0] },
    },
  },
  {
    name: 'a user trades with the market maker like with anyone',
    resting: [
      ['marketMaker', 'buy', 100, 2],
      ['house', 'buy', 100, 1],
    ],
    order: { owner: 1, side: 'sell', kind: 'limit', price: 100, lots: 3 },
    trades: [
      ['marketMaker', 100, 2],
      ['house', 100, 1],
    ],
    status: 'filled',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: {
      1: { base: [997, 0], quote: [100300, 0] },
      marketMaker: { base: [1002, 0], quote: [99800, 0] },
      house: { base: [1001, 0], quote: [99900, 0] },
    },
  },
  {
    name: 'fees come out of what each side receives, rounded down (maker sells, taker buys)',
    fees: [1000, 2000],
    resting: [[2, 'sell', 50, 999]],
    order: { owner: 1, side: 'buy', kind: 'limit', price: 50, lots: 999 },
    trades: [[2, 50, 999]],
    status: 'filled',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: {
      1: { base: [1998, 0], quote: [50050, 0] },
      2: { base: [1, 0], quote: [149901, 0] },
      fees: { base: [1, 0], quote: [49, 0] },
    },
  },
  {
    name: 'fees come out of what each side receives, rounded down (maker buys, taker sells)',
    fees: [1000, 2000],
    resting: [[2, 'buy', 50, 999]],
    order: { owner: 1, side: 'sell', kind: 'limit', price: 50, lots: 999 },
    trades: [[2, 50, 999]],
    status: 'filled',
    bookAfter: { bids: [], asks: [] },
    balancesAfter: {
      1: { base: [1, 0], quote: [149851, 0] },
      2: { base: [1999, 0], quote: [50050, 0] },
      fees: { base: [0, 0], quote: [99, 0] },
    },
  },
];

describe.each(BOOKS)('spot scenarios on the %s book', (book) => {
  it.each(scenarios)('$name', (scenario) => {
    const exchange = new TestExchange({ book }).setUpSimpleMarket(...(scenario.fees ?? [0, 0]));
    for (const user of [1, 2, 3, 4]) exchange.fund(user, 1000n, 100_000n);
    for (const system of ['house', 'marketMaker'] as const) {
      for (const [currencyId, amount] of [
        [BASE, 1000n],
        [QUOTE, 100_000n],
      ] as const)
        expect(exchange.apply({ type: 'systemFund', owner: system, currencyId, amount }).code).toBe(0);
    }
    if (scenario.bandPpm !== undefined) {
      expect(
        exchange.apply({ type: 'setMarketBand', marketId: MARKET, bandPpm: scenario.bandPpm }).code,
      ).toBe(0);
    }
    for (const [owner, side, price, lots] of scenario.resting) {
      expect(exchange.limit(owner, side, price, lots).code).toBe(0);
    }
    const { order } = scenario;
    const outcome = exchange.apply({
      type: 'placeOrder',
      owner: order.owner,
      marketId: MARKET,
      side: order.side,
      kind: order.kind,
      quantityLots: order.lots,
      ...(order.price === undefined ? {} : { priceTicks: order.price }),
      ...(order.quoteMax === undefined ? {} : { quoteAmountMax: BigInt(order.quoteMax) }),
      ...(order.timeInForce === undefined ? {} : { timeInForce: order.timeInForce }),
    });
    expect(outcome.code).toBe(0);
    const trades = outcome.events.filter((event): event is TradeEvent => event.type === 'trade');
    expect(trades.map((trade) => [trade.makerOwner, trade.priceTicks, trade.quantityLots])).toEqual(
      scenario.trades,
    );
    expect((outcome.reply as { status: string }).status).toBe(scenario.status);
    const takerId = (outcome.reply as { orderId: number }).orderId;
    const cancelled = outcome.events.find(
      (event) => event.type === 'orderCancelled' && event.orderId === takerId,
    );
    expect(cancelled?.type === 'orderCancelled' ? cancelled.reason : undefined).toBe(scenario.cancelReason);
    expect(exchange.engine.spot.depth(MARKET, 10)).toEqual(scenario.bookAfter);
    for (const [owner, expected] of Object.entries(scenario.balancesAfter)) {
      const key: AccountOwner = /^\d+$/.test(owner) ? Number(owner) : (owner as AccountOwner);
      const toBig = ([available, locked]: Pair) => [BigInt(available), BigInt(locked)];
      expect({ owner, base: exchange.change(key, BASE), quote: exchange.change(key, QUOTE) }).toEqual({
        owner,
        base: toBig(expected!.base),
        quote: toBig(expected!.quote),
      });
    }
  });
});
