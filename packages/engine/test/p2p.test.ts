// The P2P area: escrow opened with the order, its three exits, the payment window, appeals, the daily
// cancellation limit, and a property over random action sequences (release, cancel and timeout racing at the
// same command time) checking the escrow rules after every command.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { p2pNextDayStart } from '../src/calc/p2p.ts';
import { Engine, P2pReasonCode, P2pResultCode, ResultCode } from '../src/index.ts';
import type { Command, EngineEvent, Envelope, Outcome } from '../src/index.ts';
import { TestExchange } from './test-exchange.ts';

const USDT = 2;
const MERCHANT = 10;
const BUYER = 20;
const OTHER = 21;
const WINDOW = 15 * 60_000;
/** 2026-01-01 00:00 Asia/Shanghai is 2025-12-31 16:00 UTC. */
const DAY_START = Date.UTC(2025, 11, 31, 16);

class P2pExchange extends TestExchange {
  constructor() {
    super();
    this.timeMs = DAY_START + 3_600_000;
    this.ok({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 2 });
  }

  deposit(userId: number, amount: bigint): this {
    this.ok({ type: 'deposit', userId, currencyId: USDT, amount });
    return this;
  }

  merchant(userId = MERCHANT, acceptor = false): this {
    this.ok({ type: 'p2pSetMerchant', userId, approved: true, acceptor });
    return this;
  }

  postAd(side: 'buy' | 'sell', total: bigint, userId = MERCHANT, windowMs = WINDOW): Outcome {
    return this.apply({
      type: 'p2pPostAd',
      userId,
      side,
      currencyId: USDT,
      fiat: 'CNY',
      total,
      priceCents: 720n,
      floatBp: null,
      minFiatCents: 100n,
      maxFiatCents: 10_000_000n,
      windowMs,
      methodIds: [1],
      terms: '',
    });
  }

  postAdCommand(
    total = 10_000n,
    side: 'buy' | 'sell' = 'sell',
    userId = MERCHANT,
    windowMs = WINDOW,
  ): Command {
    return {
      type: 'p2pPostAd',
      userId,
      side,
      currencyId: USDT,
      fiat: 'CNY',
      total,
      priceCents: 720n,
      floatBp: null,
      minFiatCents: 100n,
      maxFiatCents: 10_000_000n,
      windowMs,
      methodIds: [1],
      terms: '',
    };
  }

  take(userId: number, adId: number, amount: bigint, methodId = 0): Outcome {
    return this.apply({ type: 'p2pTakeAd', userId, adId, amount, methodId });
  }

  act(
    type: 'p2pMarkPaid' | 'p2pRelease' | 'p2pCancel' | 'p2pAppeal' | 'p2pReject',
    userId: number,
    orderId: number,
  ) {
    return this.apply({ type, userId, orderId } as Command);
  }

  /** A tick `advanceMs` later. */
  tick(advanceMs: number): Outcome {
    return this.apply({ type: 'p2pTick' }, undefined, advanceMs);
  }

  balance(userId: number | 'fees') {
    return this.engine.ledger.balance(userId, 'change', USDT);
  }
}

function ended(outcome: Outcome): { orderId: number; end: string | null }[] {
  return outcome.events.flatMap((event) =>
    event.type === 'p2pOrderChanged' && event.end !== null
      ? [{ orderId: event.orderId, end: event.end }]
      : [],
  );
}

describe('p2p escrow', () => {
  it('escrows a sell ad at posting and each order in the command that creates it', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    expect(x.postAd('sell', 20_000n).code).toBe(P2pResultCode.p2pEscrowShort);
    x.ok({ type: 'p2pTick' });
    expect(x.postAd('sell', 6_000n).code).toBe(ResultCode.ok);
    expect(x.balance(MERCHANT)).toEqual({ available: 4_000n, locked: 6_000n });
    const outcome = x.take(BUYER, 1, 1_000n);
    expect(outcome.code).toBe(ResultCode.ok);
    expect(outcome.reply).toEqual({ orderId: 1, deadlineMs: x.timeMs + WINDOW });
    const holds = x.engine.ledger.holds(MERCHANT).sort((a, b) => (a.area < b.area ? 1 : -1));
    expect(holds.map((hold) => [hold.area, hold.ref, hold.amount])).toEqual([
      ['p2p.ad', 1, 5_000n],
      ['p2p', 1, 1_000n],
    ]);
    // 1,000 coins at 7.20 = 72.00 fiat.
    expect(x.engine.p2p.order(1)?.fiatCents).toBe(7_200n);
  });

  it('releases to the buyer with fees per side to the fee account', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 20_000n);
    x.ok({
      type: 'p2pConfigure',
      makerFeeBp: 100,
      takerFeeBp: 50,
      appealWaitMs: 60_000,
      cancellationsPerDay: 3,
    });
    x.ok(x.postAdCommand());
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    expect(x.engine.p2p.order(1)?.escrow).toBe(1_010n);
    expect(x.act('p2pRelease', BUYER, 1).code).toBe(P2pResultCode.p2pNotParty);
    x.ok({ type: 'p2pMarkPaid', userId: BUYER, orderId: 1 });
    const outcome = x.act('p2pRelease', MERCHANT, 1);
    expect(ended(outcome)).toEqual([{ orderId: 1, end: 'released' }]);
    expect(x.balance(BUYER).available).toBe(995n);
    expect(x.balance('fees').available).toBe(15n);
  });

  it('returns a buyer-cancelled order into its sell ad, counted against the buyer', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 4_000n, methodId: 0 });
    expect(x.act('p2pCancel', MERCHANT, 1).code).toBe(P2pResultCode.p2pNotParty);
    expect(ended(x.act('p2pCancel', BUYER, 1))).toEqual([{ orderId: 1, end: 'buyerCancelled' }]);
    expect(x.engine.p2p.ad(1)?.remaining).toBe(10_000n);
    expect(x.engine.p2p.ad(1)?.held).toBe(10_000n);
    expect(x.engine.p2p.counters(BUYER, x.timeMs).cancellations).toBe(1);
  });

  it('cancels an unpaid order at the window end, never a paid one', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    x.ok({ type: 'p2pTakeAd', userId: OTHER, adId: 1, amount: 1_000n, methodId: 0 });
    x.ok({ type: 'p2pMarkPaid', userId: OTHER, orderId: 2 });
    expect(ended(x.tick(WINDOW - 3))).toEqual([]);
    const outcome = x.tick(1);
    expect(outcome.timeEvents).toBeGreaterThan(0);
    expect(ended(outcome)).toEqual([{ orderId: 1, end: 'timedOut' }]);
    expect(ended(x.tick(10 * WINDOW))).toEqual([]);
    expect(x.engine.p2p.order(2)?.status).toBe('paid');
    expect(x.balance(OTHER).available).toBe(0n);
  });

  it('lets the timeout win a mark-paid at the deadline itself, and the hold is returned once', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    const deadline = x.engine.p2p.order(1)!.deadlineMs;
    const outcome = x.apply(
      { type: 'p2pMarkPaid', userId: BUYER, orderId: 1 },
      undefined,
      deadline - x.timeMs,
    );
    expect(outcome.code).toBe(P2pResultCode.p2pOrderNotFound);
    expect(ended(outcome)).toEqual([{ orderId: 1, end: 'timedOut' }]);
    expect(x.engine.p2p.ad(1)?.held).toBe(10_000n);
  });

  it('keeps an appealed order locked until the arbiter decides, after the disclosed wait', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    expect(x.apply({ type: 'p2pDecide', orderId: 1, to: 'buyer', arbiterId: 1 }).code).toBe(
      P2pResultCode.p2pWrongState,
    );
    x.ok({ type: 'p2pMarkPaid', userId: BUYER, orderId: 1 });
    expect(x.act('p2pAppeal', BUYER, 1).code).toBe(P2pResultCode.p2pAppealTooEarly);
    x.tick(10 * 60_000);
    expect(x.act('p2pAppeal', OTHER, 1).code).toBe(P2pResultCode.p2pNotParty);
    x.ok({ type: 'p2pAppeal', userId: MERCHANT, orderId: 1 });
    expect(x.act('p2pCancel', BUYER, 1).code).toBe(P2pResultCode.p2pWrongState);
    x.tick(24 * 3_600_000);
    expect(x.engine.p2p.order(1)?.status).toBe('appealed');
    const outcome = x.apply({ type: 'p2pDecide', orderId: 1, to: 'seller', arbiterId: 7 });
    expect(ended(outcome)).toEqual([{ orderId: 1, end: 'arbiterToSeller' }]);
    expect(x.balance(MERCHANT)).toEqual({ available: 1_000n, locked: 9_000n });
  });

  it('lets only an acceptor reject its deal, before paid', () => {
    const x = new P2pExchange().merchant(MERCHANT, true).deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    expect(x.engine.p2p.order(1)?.acceptor).toBe(true);
    expect(x.act('p2pReject', BUYER, 1).code).toBe(P2pResultCode.p2pNotParty);
    expect(ended(x.act('p2pReject', MERCHANT, 1))).toEqual([{ orderId: 1, end: 'acceptorRejected' }]);
    expect(x.engine.p2p.counters(BUYER, x.timeMs).cancellations).toBe(0);
  });

  it('escrows the taker for a buy ad and returns it to its available balance on a cancel', () => {
    const x = new P2pExchange().merchant().deposit(OTHER, 500n);
    x.ok(x.postAdCommand(5_000n, 'buy'));
    expect(x.take(OTHER, 1, 1_000n, 3).code).toBe(P2pResultCode.p2pEscrowShort);
    x.ok({ type: 'p2pTakeAd', userId: OTHER, adId: 1, amount: 400n, methodId: 3 });
    expect(x.balance(OTHER)).toEqual({ available: 100n, locked: 400n });
    expect(x.engine.p2p.ad(1)?.remaining).toBe(4_600n);
    x.ok({ type: 'p2pCancel', userId: MERCHANT, orderId: 1 });
    expect(x.balance(OTHER)).toEqual({ available: 500n, locked: 0n });
    expect(x.engine.p2p.ad(1)?.remaining).toBe(5_000n);
  });

  it('closes a sell ad returning its unsold escrow while its open orders keep theirs', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 10_000n);
    x.ok(x.postAdCommand(10_000n));
    x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
    x.ok({ type: 'p2pSetAdStatus', userId: MERCHANT, adId: 1, status: 'closed' });
    expect(x.balance(MERCHANT)).toEqual({ available: 9_000n, locked: 1_000n });
    x.ok({ type: 'p2pCancel', userId: BUYER, orderId: 1 });
    expect(x.balance(MERCHANT)).toEqual({ available: 10_000n, locked: 0n });
  });

  it('refuses bad input having changed nothing', () => {
    const x = new P2pExchange().deposit(MERCHANT, 10_000n);
    expect(x.postAd('sell', 1_000n).code).toBe(P2pResultCode.p2pNotMerchant);
    x.merchant();
    const before = x.engine.snapshot();
    for (const command of [
      { ...x.postAdCommand(), windowMs: 1 },
      { ...x.postAdCommand(), fiat: 'XXX' },
      { ...x.postAdCommand(), floatBp: 100, priceCents: 0n },
      { ...x.postAdCommand(), minFiatCents: 10n, maxFiatCents: 5n },
      { ...x.postAdCommand(), total: -1n },
      { ...x.postAdCommand(), methodIds: [] },
    ] as Command[]) {
      const outcome = x.apply(command);
      expect(outcome.code).not.toBe(ResultCode.ok);
      expect(outcome.events).toEqual([]);
    }
    x.ok(x.postAdCommand(1_000n));
    expect(x.take(MERCHANT, 1, 10n).code).toBe(P2pResultCode.p2pOwnAd);
    expect(x.take(BUYER, 1, 1n).code).toBe(P2pResultCode.p2pAmountOutOfLimits);
    expect(x.take(BUYER, 1, 2_000n).code).toBe(P2pResultCode.p2pAdExhausted);
    expect(x.take(BUYER, 2, 100n).code).toBe(P2pResultCode.p2pAdNotFound);
    expect(before).not.toBe(x.engine.snapshot());
  });
});

describe('the daily cancellation limit (00:00 Asia/Shanghai)', () => {
  // [cancellations so far, hours after 00:00 of the next cancellation, restricted after it, may take after it]
  const cases: [number, number, boolean][] = [
    [1, 1, false],
    [2, 1, false],
    [3, 1, false],
    [4, 1, true],
    [5, 1, true],
  ];
  it.each(cases)(
    'after %i cancellations in a day (at hour %i), restricted: %s',
    (count, _hour, restricted) => {
      const x = new P2pExchange().merchant().deposit(MERCHANT, 100_000n);
      x.ok(x.postAdCommand(100_000n));
      for (let index = 0; index < count; index += 1) {
        const taken = x.take(BUYER, 1, 1_000n);
        if (taken.code !== ResultCode.ok) {
          expect(taken.code).toBe(P2pResultCode.p2pRestricted);
          break;
        }
        x.ok({ type: 'p2pCancel', userId: BUYER, orderId: (taken.reply as { orderId: number }).orderId });
      }
      const counters = x.engine.p2p.counters(BUYER, x.timeMs);
      expect(counters.restrictedUntilMs !== null).toBe(restricted);
      expect(x.take(BUYER, 1, 1_000n).code === P2pResultCode.p2pRestricted).toBe(restricted);
      expect(x.take(OTHER, 1, 1_000n).code).toBe(ResultCode.ok);
    },
  );

  it('counts timeouts, restricts at the fourth until 00:00 Asia/Shanghai, and resets then', () => {
    const x = new P2pExchange().merchant().deposit(MERCHANT, 100_000n);
    x.ok(x.postAdCommand(100_000n));
    for (let index = 0; index < 4; index += 1) {
      x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
      x.tick(WINDOW);
    }
    const counters = x.engine.p2p.counters(BUYER, x.timeMs);
    expect(counters).toEqual({ cancellations: 4, restrictedUntilMs: DAY_START + 86_400_000 });
    expect(p2pNextDayStart(x.timeMs)).toBe(DAY_START + 86_400_000);
    expect(x.take(BUYER, 1, 1_000n).code).toBe(P2pResultCode.p2pRestricted);
    x.tick(DAY_START + 86_400_000 - 2 - x.timeMs);
    expect(x.take(BUYER, 1, 1_000n).code).toBe(P2pResultCode.p2pRestricted);
    x.tick(1);
    expect(x.engine.p2p.counters(BUYER, x.timeMs)).toEqual({ cancellations: 0, restrictedUntilMs: null });
    expect(x.take(BUYER, 1, 1_000n).code).toBe(ResultCode.ok);
  });

  it('does not count a release, a rejection by an acceptor or the merchant side', () => {
    const x = new P2pExchange().merchant(MERCHANT, true).deposit(MERCHANT, 100_000n);
    x.ok(x.postAdCommand(100_000n));
    for (let index = 1; index <= 5; index += 1) {
      x.ok({ type: 'p2pTakeAd', userId: BUYER, adId: 1, amount: 1_000n, methodId: 0 });
      x.ok({ type: index % 2 === 0 ? 'p2pReject' : 'p2pRelease', userId: MERCHANT, orderId: index });
    }
    expect(x.engine.p2p.counters(BUYER, x.timeMs).cancellations).toBe(0);
    expect(x.engine.p2p.counters(MERCHANT, x.timeMs).cancellations).toBe(0);
  });
});

// ------------------------------------------------------------------------------------------ property

type Step =
  | { kind: 'take'; user: number; ad: number; amount: number; gap: number }
  | {
      kind: 'act';
      action: 'p2pMarkPaid' | 'p2pRelease' | 'p2pCancel' | 'p2pAppeal' | 'p2pReject';
      /** Who acts: the order's buyer, its seller, its ad's owner, or anyone. */
      role: 'buyer' | 'seller' | 'maker' | number;
      /** How many orders back from the newest. */
      order: number;
      gap: number;
    }
  | { kind: 'decide'; order: number; to: 'buyer' | 'seller'; gap: number }
  | { kind: 'status'; ad: number; status: 'online' | 'paused' | 'closed'; gap: number }
  | { kind: 'deadline'; order: number; offset: number };

const USERS = [MERCHANT, 11, BUYER, OTHER];
const gap = fc.constantFrom(0, 0, 0, 1, 1, 1_000, 1_000, 61_000, 300_000);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('take' as const),
      user: fc.constantFrom(...USERS),
      ad: fc.integer({ min: 1, max: 3 }),
      amount: fc.integer({ min: 2, max: 400 }),
      gap,
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('act' as const),
      action: fc.constantFrom(
        'p2pMarkPaid' as const,
        'p2pMarkPaid' as const,
        'p2pRelease' as const,
        'p2pCancel' as const,
        'p2pAppeal' as const,
        'p2pAppeal' as const,
        'p2pReject' as const,
      ),
      role: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('buyer' as const, 'seller' as const, 'maker' as const) },
        { weight: 1, arbitrary: fc.constantFrom(...USERS) },
      ),
      order: fc.integer({ min: 0, max: 3 }),
      gap,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      order: fc.integer({ min: 0, max: 3 }),
      to: fc.constantFrom('buyer' as const, 'seller' as const),
      gap,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      ad: fc.integer({ min: 1, max: 3 }),
      status: fc.constantFrom('online' as const, 'online' as const, 'paused' as const, 'closed' as const),
      gap,
    }),
  },
  // Jump to an order's deadline (plus -1, 0 or +1 ms), so the clock races the next action at the same time.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deadline' as const),
      order: fc.integer({ min: 0, max: 3 }),
      offset: fc.integer({ min: -1, max: 1 }),
    }),
  },
);

const ORDER_EXIT_REASONS: Record<number, readonly string[]> = {
  [P2pReasonCode.p2pRelease]: ['released', 'arbiterToBuyer'],
  [P2pReasonCode.p2pFee]: ['released', 'arbiterToBuyer'],
  [P2pReasonCode.p2pCancelReturn]: ['buyerCancelled', 'timedOut', 'acceptorRejected'],
  [P2pReasonCode.p2pOrderToAd]: ['buyerCancelled', 'timedOut', 'acceptorRejected'],
  [P2pReasonCode.p2pDecidedReturn]: ['arbiterToSeller'],
};

/** Every way an order ended over all runs: the property must see each exit. */
const seenEnds = new Set<string>();

type Tracked = { escrow: bigint; status: string; deadlineMs: number; sellerId: number };

/** Checks one outcome against the model of open orders; updates the model. */
function checkOutcome(events: readonly EngineEvent[], timeMs: number, open: Map<number, Tracked>): void {
  const ends = new Map<number, string>();
  for (const event of events) {
    if (event.type === 'p2pOrderChanged' && event.end !== null) ends.set(event.orderId, event.end);
  }
  const left = new Map<number, bigint>();
  const endedEscrow = new Map<number, bigint>();
  for (const event of events) {
    if (event.type === 'p2pOrderCreated')
      open.set(event.orderId, {
        escrow: event.amount + event.sellerFee,
        status: 'unpaid',
        deadlineMs: event.deadlineMs,
        sellerId: event.sellerId,
      });
    if (event.type === 'balanceChanged' && event.lockedAfter < event.lockedBefore) {
      const exits = ORDER_EXIT_REASONS[event.reason];
      if (exits === undefined) continue;
      // Escrow leaves only by the three exits, each with its order ending the matching way in the same outcome.
      const end = ends.get(event.referenceId);
      expect(end !== undefined && exits.includes(end)).toBe(true);
      left.set(
        event.referenceId,
        (left.get(event.referenceId) ?? 0n) + event.lockedBefore - event.lockedAfter,
      );
    }
    if (event.type === 'p2pOrderChanged') {
      const order = open.get(event.orderId);
      expect(order).toBeDefined();
      if (event.end === null) order!.status = event.status;
      else {
        if (event.end === 'timedOut') {
          expect(order!.status).toBe('unpaid');
          expect(order!.deadlineMs).toBeLessThanOrEqual(timeMs);
        }
        if (event.end === 'buyerCancelled' || event.end === 'acceptorRejected')
          expect(order!.status).toBe('unpaid');
        if (event.end.startsWith('arbiter')) expect(order!.status).toBe('appealed');
        endedEscrow.set(event.orderId, order!.escrow);
        open.delete(event.orderId);
      }
    }
  }
  // What left each ended order's escrow is its whole escrow, no more, no less.
  for (const [orderId, escrow] of endedEscrow) expect(left.get(orderId) ?? 0n).toBe(escrow);
  for (const end of ends.values()) seenEnds.add(end);
}

describe('p2p escrow property', () => {
  it('holds the escrow rules over random action sequences, and replays to the same state', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 20, maxLength: 80 }),
        fc.integer({ min: 0, max: 200 }),
        (steps, feeBp) => {
          const x = new P2pExchange().merchant().merchant(11, true);
          for (const user of USERS) x.deposit(user, 20_000n);
          x.ok({
            type: 'p2pConfigure',
            makerFeeBp: feeBp,
            takerFeeBp: 200 - feeBp,
            appealWaitMs: 60_000,
            cancellationsPerDay: 3,
          });
          x.ok(x.postAdCommand(8_000n, 'sell', MERCHANT, 10 * 60_000));
          x.ok(x.postAdCommand(8_000n, 'buy', 11, 15 * 60_000));
          x.ok(x.postAdCommand(5_000n, 'sell', 11, 20 * 60_000));
          const envelopes: Envelope[] = [];
          let newestOrder = 0;
          const newest = () => newestOrder;
          const open = new Map<number, Tracked>();
          const record = (command: Command, advanceMs: number) => {
            const outcome = x.apply(command, undefined, advanceMs);
            envelopes.push({ seq: x.seq, timeMs: x.timeMs, command });
            checkOutcome(outcome.events, x.timeMs, open);
            for (const event of outcome.events)
              if (event.type === 'p2pOrderCreated') newestOrder = event.orderId;
            // Escrow held equals the sum of the open orders' escrow.
            let orderHolds = 0n;
            for (const user of USERS)
              for (const hold of x.engine.ledger.holds(user))
                if (hold.area === 'p2p') orderHolds += hold.amount;
            let expected = 0n;
            for (const order of open.values()) expected += order.escrow;
            expect(orderHolds).toBe(expected);
            // No balance below zero, and the currency sums to zero with the outside world (deposits).
            let sum = 0n;
            for (const account of x.engine.ledger.accounts()) {
              if (account.owner !== 'outside') {
                expect(account.available >= 0n && account.locked >= 0n).toBe(true);
              }
              sum += account.available + account.locked;
            }
            expect(sum).toBe(0n);
            return outcome;
          };
          const startSeq = x.seq;
          const before = x.engine.snapshot();
          const orderOf = (back: number) => Math.max(1, newest() - back);
          for (const s of steps) {
            switch (s.kind) {
              case 'take':
                record(
                  {
                    type: 'p2pTakeAd',
                    userId: s.user,
                    adId: s.ad,
                    amount: BigInt(s.amount) * 10n,
                    methodId: 1,
                  },
                  s.gap,
                );
                break;
              case 'act': {
                const order = x.engine.p2p.order(orderOf(s.order));
                let userId = typeof s.role === 'number' ? s.role : BUYER;
                if (order !== undefined && s.role === 'buyer') userId = order.buyerId;
                if (order !== undefined && s.role === 'seller') userId = order.sellerId;
                if (order !== undefined && s.role === 'maker') userId = order.makerId;
                record({ type: s.action, userId, orderId: orderOf(s.order) } as Command, s.gap);
                break;
              }
              case 'decide':
                record({ type: 'p2pDecide', orderId: orderOf(s.order), to: s.to, arbiterId: 99 }, s.gap);
                break;
              case 'status':
                record(
                  {
                    type: 'p2pSetAdStatus',
                    userId: s.ad === 1 ? MERCHANT : 11,
                    adId: s.ad,
                    status: s.status,
                  },
                  s.gap,
                );
                break;
              case 'deadline': {
                const order = x.engine.p2p.order(orderOf(s.order));
                const target = order === undefined ? x.timeMs : order.deadlineMs + s.offset;
                record({ type: 'p2pTick' }, Math.max(0, target - x.timeMs));
                break;
              }
            }
          }
          // Replay equals live: the same envelopes from the state before them reach the same hash.
          const replica = Engine.restore(before);
          for (const envelope of envelopes) replica.apply(envelope);
          expect(replica.stateHash()).toBe(x.engine.stateHash());
          expect(envelopes.length + startSeq).toBe(x.seq);
          // And a snapshot of the end state restores to the same hash.
          expect(Engine.restore(x.engine.snapshot()).stateHash()).toBe(x.engine.stateHash());
        },
      ),
      { numRuns: 150, seed: 2026_11_26 },
    );
    expect([...seenEnds].sort()).toEqual(
      [
        'acceptorRejected',
        'arbiterToBuyer',
        'arbiterToSeller',
        'buyerCancelled',
        'released',
        'timedOut',
      ].sort(),
    );
  });
});
