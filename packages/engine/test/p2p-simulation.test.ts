// A seeded simulation of P2P trade: merchants posting buy and sell ads, users taking them, paying,
// releasing, cancelling, appealing, arbiters deciding, and the clock timing out unpaid orders, with the
// invariants checked as it runs. The same envelopes through the journal codec into a fresh engine, and from
// a mid-way snapshot, must reach the same state hash, pinned below: a change of that hash is a change of
// behaviour and must be deliberate.
import { describe, expect, it } from 'vitest';
import { Engine, decodeEnvelope, encodeEnvelope } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { Random } from './simulation.ts';

const COUNT = 20_000;
const USDT = 2;
const BTC = 1;
const MERCHANTS = [1, 2, 3];
const USERS = [4, 5, 6, 7, 8, 9, 10, 11];
const WINDOWS = [10, 15, 30].map((minutes) => minutes * 60_000);
const PINNED_HASH = '017d3351332793d4be69d73a62d84a919cdd97de4483c5c1d2a2f46fc47da833';

function run(seed: number, count: number, snapshotAt: number) {
  const random = new Random(seed);
  const engine = Engine.create();
  const envelopes: Envelope[] = [];
  let seq = 0;
  let timeMs = Date.UTC(2026, 0, 1);
  let snapshot = '';
  let newestOrder = 0;
  const ends = new Map<string, number>();
  const apply = (command: Command, advanceMs: number) => {
    timeMs += advanceMs;
    const envelope: Envelope = { seq: ++seq, timeMs, command };
    envelopes.push(envelope);
    const outcome = engine.apply(envelope);
    for (const event of outcome.events) {
      if (event.type === 'p2pOrderCreated') newestOrder = event.orderId;
      if (event.type === 'p2pOrderChanged' && event.end !== null)
        ends.set(event.end, (ends.get(event.end) ?? 0) + 1);
    }
    if (seq % 500 === 0) engine.checkInvariants();
    if (seq === snapshotAt) snapshot = engine.snapshot();
    return outcome;
  };
  apply({ type: 'addCurrency', currencyId: BTC, code: 'BTC', scale: 8 }, 0);
  apply({ type: 'addCurrency', currencyId: USDT, code: 'USDT', scale: 6 }, 0);
  apply(
    { type: 'p2pConfigure', makerFeeBp: 10, takerFeeBp: 0, appealWaitMs: 5 * 60_000, cancellationsPerDay: 3 },
    0,
  );
  apply({ type: 'p2pSetReference', currencyId: BTC, fiat: 'CNY', priceCents: 68_000_000n }, 0);
  for (const merchant of MERCHANTS)
    apply({ type: 'p2pSetMerchant', userId: merchant, approved: true, acceptor: merchant === 3 }, 0);
  for (const user of [...MERCHANTS, ...USERS]) {
    apply({ type: 'deposit', userId: user, currencyId: USDT, amount: 50_000_000_000n }, 0);
    apply({ type: 'deposit', userId: user, currencyId: BTC, amount: 1_000_000_000n }, 0);
  }
  while (seq < count) {
    const roll = random.next();
    const gap = random.pick([0, 0, 1, 250, 1_000, 5_000, 60_000, 400_000]);
    if (roll < 0.06) {
      const btc = random.chance(0.3);
      const floating = btc && random.chance(0.5);
      apply(
        {
          type: 'p2pPostAd',
          userId: random.pick(MERCHANTS),
          side: random.chance(0.5) ? 'sell' : 'buy',
          currencyId: btc ? BTC : USDT,
          fiat: 'CNY',
          total: btc
            ? BigInt(random.integer(1, 50)) * 10_000_000n
            : BigInt(random.integer(100, 5_000)) * 1_000_000n,
          priceCents: floating
            ? 0n
            : btc
              ? 67_000_000n + BigInt(random.integer(0, 2_000_000))
              : BigInt(random.integer(700, 730)),
          floatBp: floating ? random.integer(-200, 200) : null,
          minFiatCents: 10_000n,
          maxFiatCents: 5_000_000_000n,
          windowMs: random.pick(WINDOWS),
          methodIds: [random.integer(1, 9)],
          terms: '',
        },
        gap,
      );
    } else if (roll < 0.1) {
      apply(
        {
          type: 'p2pSetAdStatus',
          userId: random.pick(MERCHANTS),
          adId: random.integer(1, 60),
          status: random.pick(['online', 'paused', 'closed'] as const),
        },
        gap,
      );
    } else if (roll < 0.4) {
      apply(
        {
          type: 'p2pTakeAd',
          userId: random.pick([...USERS, ...MERCHANTS]),
          adId: random.integer(1, 60),
          amount: random.chance(0.5)
            ? BigInt(random.integer(20, 3_000)) * 1_000_000n
            : BigInt(random.integer(1, 5)) * 10_000_000n,
          methodId: random.integer(0, 9),
        },
        gap,
      );
    } else if (roll < 0.9) {
      const orderId = Math.max(1, newestOrder - random.integer(0, 8));
      const order = engine.p2p.order(orderId);
      const type = random.pick([
        'p2pMarkPaid',
        'p2pMarkPaid',
        'p2pRelease',
        'p2pCancel',
        'p2pAppeal',
        'p2pReject',
      ] as const);
      const userId =
        order === undefined || random.chance(0.1)
          ? random.pick(USERS)
          : type === 'p2pMarkPaid' || type === 'p2pCancel'
            ? order.buyerId
            : type === 'p2pRelease'
              ? order.sellerId
              : type === 'p2pReject'
                ? order.makerId
                : random.chance(0.5)
                  ? order.buyerId
                  : order.sellerId;
      apply({ type, userId, orderId } as Command, gap);
    } else if (roll < 0.95) {
      apply(
        {
          type: 'p2pDecide',
          orderId: Math.max(1, newestOrder - random.integer(0, 20)),
          to: random.chance(0.5) ? 'buyer' : 'seller',
          arbiterId: 100,
        },
        gap,
      );
    } else if (roll < 0.97) {
      apply(
        {
          type: 'p2pSetReference',
          currencyId: BTC,
          fiat: 'CNY',
          priceCents: BigInt(random.integer(66_000_000, 70_000_000)),
        },
        gap,
      );
    } else apply({ type: 'p2pTick' }, random.pick([1_000, 60_000, 900_000]));
  }
  engine.checkInvariants();
  return { engine, envelopes, snapshot, ends };
}

describe('p2p seeded simulation', () => {
  const live = run(2026_0020, COUNT, COUNT / 2);
  const finalHash = live.engine.stateHash();

  it('exercises every exit', () => {
    for (const end of [
      'released',
      'buyerCancelled',
      'timedOut',
      'acceptorRejected',
      'arbiterToBuyer',
      'arbiterToSeller',
    ])
      expect(live.ends.get(end) ?? 0, end).toBeGreaterThan(3);
  });

  it('replays the journaled envelopes into a fresh engine to the same state hash', () => {
    const replica = Engine.create();
    for (const envelope of live.envelopes) replica.apply(decodeEnvelope(encodeEnvelope(envelope)));
    expect(replica.stateHash()).toBe(finalHash);
  });

  it('replays them without events (Engine.replay) to the same result codes and state hash', () => {
    const applied = Engine.create();
    const quiet = Engine.create();
    const codes = live.envelopes.map((envelope) => applied.apply(envelope).code);
    expect(live.envelopes.map((envelope) => quiet.replay(envelope))).toEqual(codes);
    expect(quiet.stateHash()).toBe(finalHash);
  });

  it('continues from the mid-way snapshot to the same hash', () => {
    const restored = Engine.restore(live.snapshot);
    for (const envelope of live.envelopes.slice(COUNT / 2)) restored.apply(envelope);
    expect(restored.stateHash()).toBe(finalHash);
  });

  it('ends at the pinned state hash', () => {
    expect(finalHash).toBe(PINNED_HASH);
  });
});
