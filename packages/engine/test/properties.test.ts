// Property tests (fast-check): random command sequences on a small exchange. After EVERY command the test
// checks, with its own code and only the public read side, that each currency sums to zero, no balance but
// the outside world's is negative, no book is crossed, and locked funds equal what open orders and pending
// withdrawals hold, and no trade has one owner on both sides or two of the exchange's own owners (no wash
// trade). The fast book and the reference book run side by side and must agree on every outcome.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, SpotResultCode, encodeEvents, encodeValue } from '../src/index.ts';
import type {
  AccountOwner,
  CancelAllOrdersReply,
  Command,
  Outcome,
  PlaceOrderReply,
  Wallet,
} from '../src/index.ts';
import { stateWithoutCounters } from './test-exchange.ts';

const A = 1;
const B = 2;
const Q = 3;
const CURRENCIES = [A, B, Q];
const OWNERS: AccountOwner[] = [1, 2, 3, 'marketMaker', 'house'];
const WALLETS: Wallet[] = ['change', 'lever', 'micro'];

const genesis: Command[] = [
  { type: 'addCurrency', currencyId: A, code: 'A', scale: 0 },
  { type: 'addCurrency', currencyId: B, code: 'B', scale: 0 },
  { type: 'addCurrency', currencyId: Q, code: 'Q', scale: 0 },
  {
    type: 'addMarket',
    marketId: 1,
    baseCurrencyId: A,
    quoteCurrencyId: Q,
    tickSize: '1',
    lotSize: '1',
    minimumLots: 1,
    makerFeePpm: 1000,
    takerFeePpm: 2500,
  },
  {
    type: 'addMarket',
    marketId: 2,
    baseCurrencyId: B,
    quoteCurrencyId: Q,
    tickSize: '1',
    lotSize: '10',
    minimumLots: 2,
    makerFeePpm: 0,
    takerFeePpm: 100_000,
  },
  { type: 'systemFund', owner: 'marketMaker', currencyId: A, amount: 5000n },
  { type: 'systemFund', owner: 'marketMaker', currencyId: B, amount: 5000n },
  { type: 'systemFund', owner: 'marketMaker', currencyId: Q, amount: 500_000n },
  { type: 'systemFund', owner: 'house', currencyId: A, amount: 3000n },
  { type: 'systemFund', owner: 'house', currencyId: B, amount: 3000n },
  { type: 'systemFund', owner: 'house', currencyId: Q, amount: 300_000n },
  ...[1, 2, 3].flatMap((userId): Command[] => [
    { type: 'deposit', userId, currencyId: A, amount: 300n },
    { type: 'deposit', userId, currencyId: B, amount: 3000n },
    { type: 'deposit', userId, currencyId: Q, amount: 30_000n },
  ]),
];

const owner = fc.constantFrom(...OWNERS);
const user = fc.constantFrom(1, 2, 3);
const currency = fc.constantFrom(...CURRENCIES);
const amount = fc.bigInt({ min: 1n, max: 20_000n });

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('deposit' as const),
      userId: user,
      currencyId: currency,
      amount,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      type: fc.constant('placeOrder' as const),
      owner,
      marketId: fc.constantFrom(1, 2),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constant('limit' as const),
      priceTicks: fc.integer({ min: 97, max: 103 }),
      quantityLots: fc.integer({ min: 1, max: 30 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        type: fc.constant('placeOrder' as const),
        owner,
        marketId: fc.constantFrom(1, 2),
        side: fc.constantFrom('buy' as const, 'sell' as const),
        kind: fc.constant('market' as const),
        quantityLots: fc.integer({ min: 1, max: 40 }),
        quoteAmountMax: fc.bigInt({ min: 1n, max: 6000n }),
      },
      { requiredKeys: ['type', 'owner', 'marketId', 'side', 'kind', 'quantityLots'] },
    ),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('placeOrder' as const),
      owner,
      marketId: fc.constantFrom(1, 2),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constant('limit' as const),
      priceTicks: fc.integer({ min: 97, max: 103 }),
      quantityLots: fc.integer({ min: 1, max: 30 }),
      timeInForce: fc.constantFrom('gtc' as const, 'ioc' as const, 'fok' as const, 'postOnly' as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('placeOrder' as const),
      owner,
      marketId: fc.constantFrom(1, 2),
      side: fc.constantFrom('buy' as const, 'sell' as const),
      kind: fc.constant('limit' as const),
      priceTicks: fc.integer({ min: 97, max: 103 }),
      quantityLots: fc.integer({ min: 1, max: 30 }),
      stopTicks: fc.integer({ min: 97, max: 103 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        type: fc.constant('cancelAllOrders' as const),
        owner,
        marketId: fc.constantFrom(1, 2),
      },
      { requiredKeys: ['type', 'owner'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('setMarketBand' as const),
      marketId: fc.constantFrom(1, 2),
      // Off, 0.5 % to 5 % (prices here span 97..103, so narrow bands stop market orders), and past the range.
      bandPpm: fc.constantFrom(0, 5_000, 10_000, 20_000, 50_000, 200_000),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('cancelOrder' as const),
      owner,
      orderId: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('transfer' as const),
      userId: user,
      currencyId: currency,
      fromWallet: fc.constantFrom(...WALLETS),
      toWallet: fc.constantFrom(...WALLETS),
      amount,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('requestWithdrawal' as const),
      userId: user,
      currencyId: currency,
      amount,
      feeAmount: fc.bigInt({ min: 0n, max: 50n }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constantFrom('completeWithdrawal' as const, 'rejectWithdrawal' as const),
      withdrawalId: fc.integer({ min: 1, max: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('setMarketFees' as const),
      marketId: fc.constantFrom(1, 2),
      makerFeePpm: fc.integer({ min: 0, max: 100_000 }),
      takerFeePpm: fc.integer({ min: 0, max: 100_000 }),
    }),
  },
);

/** The promised rules, checked from the outside through the read side only. */
function checkFromOutside(engine: Engine): void {
  const sums = new Map<number, bigint>();
  const locked = new Map<string, bigint>();
  for (const account of engine.ledger.accounts()) {
    sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
    if (account.owner !== 'outside') expect(account.available).toBeGreaterThanOrEqual(0n);
    expect(account.locked).toBeGreaterThanOrEqual(0n);
    if (account.locked > 0n)
      locked.set(`${account.owner}/${account.wallet}/${account.currencyId}`, account.locked);
  }
  for (const sum of sums.values()) expect(sum).toBe(0n);
  for (const marketId of [1, 2]) {
    const best = engine.spot.bestPrices(marketId);
    if (best !== undefined && best.bidTicks > 0 && best.askTicks > 0)
      expect(best.bidTicks).toBeLessThan(best.askTicks);
  }
  const held = new Map<string, bigint>();
  const add = (key: string, value: bigint) => held.set(key, (held.get(key) ?? 0n) + value);
  for (const holder of OWNERS) {
    for (const order of engine.spot.openOrders(holder)) {
      const market = engine.spot.market(order.marketId)!;
      add(
        `${holder}/change/${order.side === 'buy' ? market.quoteCurrencyId : market.baseCurrencyId}`,
        order.lockedAmount,
      );
    }
  }
  for (const withdrawal of engine.funding.pendingWithdrawals())
    add(`${withdrawal.userId}/change/${withdrawal.currencyId}`, withdrawal.amount);
  expect(Object.fromEntries(locked)).toEqual(Object.fromEntries(held));
}

/** What the generated sequences really did, so the properties are known not to hold vacuously. */
const tally = {
  trades: 0,
  selfTrades: 0,
  /** Resting orders of one system owner cancelled because another system owner's order met them. */
  systemPairsPrevented: 0,
  userSystemTrades: 0,
  refused: 0,
  marketOrders: 0,
  /** How market orders with lots left ended: out of funds, stopped at the band, or out of book. */
  marketReasons: { marketFunds: 0, marketBand: 0, marketBook: 0 },
  iocCancelled: 0,
  fokFilled: 0,
  fokRefused: 0,
  postOnlyRested: 0,
  postOnlyRefused: 0,
  cancelAllCancelled: 0,
  stopsPending: 0,
  stopsTriggered: 0,
  codes: {} as Record<number, number>,
};

/**
 * Stop-limit orders: a new one waits without trading; one is triggered only by a trade of its market in
 * the same command at a price that reached its stop (at or above a buy stop, at or below a sell stop), and
 * the trades before its trigger include that price.
 */
function checkStops(next: Command, outcome: Outcome): void {
  if (outcome.code !== 0) return;
  if (next.type === 'placeOrder' && next.stopTicks !== undefined) {
    const reply = outcome.reply as PlaceOrderReply;
    expect(reply.status).toBe('pending');
    expect(outcome.events.some((event) => event.type === 'trade')).toBe(false);
    tally.stopsPending += 1;
  }
  const sides = new Map<number, 'buy' | 'sell'>();
  let lastTrade = 0;
  for (const event of outcome.events) {
    if (event.type === 'orderAccepted') sides.set(event.orderId, event.side);
    if (event.type === 'trade') lastTrade = event.priceTicks;
    if (event.type === 'orderTriggered') {
      expect(event.lastPriceTicks).toBe(lastTrade);
      tally.stopsTriggered += 1;
    }
  }
}

/**
 * The rules of the order types and of market-order protection, for one applied command, from its
 * outcome and the read side after it.
 */
function checkOrderRules(engine: Engine, next: Command, outcome: Outcome): void {
  if (next.type === 'cancelAllOrders') {
    if (outcome.code !== 0) return;
    expect(engine.spot.openOrders(next.owner, next.marketId)).toEqual([]);
    const cancelled = outcome.events.filter((event) => event.type === 'orderCancelled');
    expect(cancelled.map((event) => event.orderId)).toEqual((outcome.reply as CancelAllOrdersReply).orderIds);
    tally.cancelAllCancelled += cancelled.length;
    return;
  }
  if (next.type !== 'placeOrder') return;
  const timeInForce = next.timeInForce ?? 'gtc';
  if (outcome.code === SpotResultCode.fillOrKillUnfilled) tally.fokRefused += 1;
  if (outcome.code === SpotResultCode.postOnlyWouldTake) tally.postOnlyRefused += 1;
  if (outcome.code !== 0) return;
  const reply = outcome.reply as PlaceOrderReply;
  const accepted = outcome.events.find((event) => event.type === 'orderAccepted');
  if (accepted?.type !== 'orderAccepted') throw new Error('a placed order has no orderAccepted event');
  const takerTrades = outcome.events.filter(
    (event) => event.type === 'trade' && event.takerOrderId === reply.orderId,
  );
  const rested = outcome.events.some(
    (event) => event.type === 'orderRested' && event.orderId === reply.orderId,
  );
  if (timeInForce === 'fok') {
    // Fill-or-kill: all of it at once, or refused (nothing changed).
    expect(reply.status).toBe('filled');
    expect(reply.filledLots).toBe(next.quantityLots);
    tally.fokFilled += 1;
  }
  if (timeInForce === 'ioc') {
    expect(rested).toBe(false);
    expect(reply.status).not.toBe('resting');
    if (reply.status === 'cancelled') tally.iocCancelled += 1;
  }
  if (timeInForce === 'postOnly') {
    // Post-only never takes: it rests whole.
    expect(takerTrades).toEqual([]);
    expect(reply.status).toBe('resting');
    expect(reply.remainingLots).toBe(next.quantityLots);
    tally.postOnlyRested += 1;
  }
  if (next.kind !== 'market') return;
  // A market order never fills past its protection limit.
  const bandTicks = accepted.bandTicks ?? 0;
  for (const trade of takerTrades) {
    if (trade.type !== 'trade' || bandTicks === 0) continue;
    if (next.side === 'buy') expect(trade.priceTicks).toBeLessThanOrEqual(bandTicks);
    else expect(trade.priceTicks).toBeGreaterThanOrEqual(bandTicks);
  }
  const cancelled = outcome.events.find(
    (event) => event.type === 'orderCancelled' && event.orderId === reply.orderId,
  );
  if (cancelled?.type !== 'orderCancelled') return;
  // Stop orders its trades triggered came into the book after it stopped; the book then is not the one it met.
  if (outcome.events.some((event) => event.type === 'orderTriggered')) return;
  // The reason a market order stopped is true of the book it left behind.
  const best = engine.spot.bestPrices(next.marketId)!;
  const opposite = next.side === 'buy' ? best.askTicks : best.bidTicks;
  const market = engine.spot.market(next.marketId)!;
  switch (cancelled.reason) {
    case 'marketBook':
      expect(opposite).toBe(0);
      break;
    case 'marketBand':
      expect(bandTicks).toBeGreaterThan(0);
      if (next.side === 'buy') expect(opposite).toBeGreaterThan(bandTicks);
      else expect(opposite).toBeLessThan(bandTicks);
      break;
    case 'marketFunds': {
      // Only a buy runs out of funds: what its hold had left buys no lot at the best ask.
      expect(next.side).toBe('buy');
      expect(opposite).toBeGreaterThan(0);
      const released = cancelled.releasedAmount;
      expect(released).toBeLessThan(BigInt(opposite) * market.quoteMinorPerTickLot);
      break;
    }
    default:
      throw new Error(`a market order ended with reason ${cancelled.reason}`);
  }
  tally.marketReasons[cancelled.reason] += 1;
}

const isSystem = (owner: AccountOwner) => typeof owner === 'string';

function run(commands: Command[]): { fast: Engine; reference: Engine } {
  const fast = Engine.create();
  const reference = Engine.create({ book: 'reference' });
  let seq = 0;
  for (const next of [...genesis, ...commands]) {
    seq += 1;
    const envelope = { seq, timeMs: seq * 1000, command: next };
    const before = stateWithoutCounters(fast);
    const outcome = fast.apply(envelope);
    const oracle = reference.apply(envelope);
    expect(encodeEvents(oracle.events)).toBe(encodeEvents(outcome.events));
    expect([oracle.code, encodeValue(oracle.reply)]).toEqual([outcome.code, encodeValue(outcome.reply)]);
    if (outcome.code !== 0) expect(stateWithoutCounters(fast)).toBe(before);
    tally.refused += outcome.code === 0 ? 0 : 1;
    tally.codes[outcome.code] = (tally.codes[outcome.code] ?? 0) + 1;
    for (const event of outcome.events) {
      if (event.type === 'trade') {
        tally.trades += 1;
        expect(event.makerOwner).not.toBe(event.takerOwner);
        expect(isSystem(event.makerOwner) && isSystem(event.takerOwner)).toBe(false);
        if (isSystem(event.makerOwner) || isSystem(event.takerOwner)) tally.userSystemTrades += 1;
      }
      if (event.type === 'orderCancelled' && event.reason === 'selfTrade') {
        tally.selfTrades += 1;
        if (next.type === 'placeOrder' && event.owner !== next.owner) tally.systemPairsPrevented += 1;
      }
      if (event.type === 'orderAccepted' && event.kind === 'market') tally.marketOrders += 1;
    }
    fast.checkInvariants();
    reference.checkInvariants();
    checkFromOutside(fast);
    checkOrderRules(fast, next, outcome);
    checkStops(next, outcome);
  }
  return { fast, reference };
}

describe('properties after every command', () => {
  it('money is conserved, nothing goes negative, books stay uncrossed, locks match holds; both books agree', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 80, size: 'max' }), (commands) => {
        const { fast, reference } = run(commands);
        expect(reference.stateHash()).toBe(fast.stateHash());
      }),
      { numRuns: 150, seed: 1337 },
    );
    expect(tally.trades).toBeGreaterThan(400);
    expect(tally.selfTrades).toBeGreaterThan(50);
    expect(tally.systemPairsPrevented).toBeGreaterThan(20);
    expect(tally.userSystemTrades).toBeGreaterThan(50);
    expect(tally.marketOrders).toBeGreaterThan(100);
    expect(tally.refused).toBeGreaterThan(100);
    for (const count of Object.values(tally.marketReasons)) expect(count).toBeGreaterThan(2);
    expect(tally.iocCancelled).toBeGreaterThan(10);
    expect(tally.fokFilled).toBeGreaterThan(10);
    expect(tally.fokRefused).toBeGreaterThan(10);
    expect(tally.postOnlyRested).toBeGreaterThan(10);
    expect(tally.postOnlyRefused).toBeGreaterThan(10);
    expect(tally.cancelAllCancelled).toBeGreaterThan(10);
    expect(tally.stopsPending).toBeGreaterThan(50);
    expect(tally.stopsTriggered).toBeGreaterThan(20);
  }, 60_000);

  it('a snapshot at any point continues exactly like the engine it was taken from', () => {
    fc.assert(
      fc.property(
        fc.array(command, { minLength: 2, maxLength: 50, size: 'max' }),
        fc.nat(),
        (commands, cut) => {
          const split = cut % commands.length;
          const { fast } = run(commands.slice(0, split));
          const restored = Engine.restore(fast.snapshot());
          let seq = fast.lastSeq;
          for (const next of commands.slice(split)) {
            seq += 1;
            const envelope = { seq, timeMs: seq * 1000, command: next };
            expect(encodeValue(restored.apply(envelope))).toBe(encodeValue(fast.apply(envelope)));
          }
          expect(restored.stateHash()).toBe(fast.stateHash());
        },
      ),
      { numRuns: 100, seed: 4242 },
    );
  }, 60_000);
});
