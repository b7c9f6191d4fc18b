// The spot pushes on their own, with a stand-in engine: balances as each batch left them, book pushes only
// from a committed head and at a bounded rate, and the live book as a last resort under sustained load.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { CommittedBatch } from '../../src/engine-runner/index.ts';
import { LastPrices } from '../../src/spot/last-prices.ts';
import type { SpotMarket, SpotMarkets } from '../../src/spot/markets.ts';
import { BOOK_PUSH_INTERVAL_MS, MAX_BOOK_STALENESS_MS, startSpotPushes } from '../../src/spot/pushes.ts';
import { startBalancePushes } from '../../src/wallets/balance-pushes.ts';

type Batch = CommittedBatch<Command, EngineEvent>;

const market: SpotMarket = {
  marketId: 1,
  symbol: 'BTC/USDT',
  baseCurrencyId: 1,
  quoteCurrencyId: 3,
  baseCode: 'BTC',
  quoteCode: 'USDT',
  baseScale: 8,
  quoteScale: 6,
  priceScale: 2,
  tickUnits: 1n,
  quantityScale: 4,
  lotBaseMinor: 10_000n,
  quoteMinorPerTickLot: 1n,
  minimumLots: 1,
  minNotionalMinor: 0n,
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  isDisplay: true,
  displayOrder: 1,
  logo: null,
  leverShareSize: 10_000n,
  leverSpreadPpm: 0,
  leverFeePpm: 0,
};

function setup(options: { tick?: boolean } = {}) {
  const engine = {
    lastSeq: 0,
    spot: { depth: vi.fn(() => ({ bids: [[2_999_999, 5]], asks: [[3_000_000, 15]] })) },
    ledger: {
      currency: (id: number) =>
        id === 1 ? { currencyId: 1, code: 'BTC', scale: 8 } : { currencyId: 3, code: 'USDT', scale: 6 },
    },
  };
  const published: { channel: string; payload: Record<string, unknown> }[] = [];
  const toUser: { userId: number; payload: Record<string, unknown> }[] = [];
  /** Users with no socket anywhere. */
  const offline = new Set<number>();
  const listeners = new Set<(batch: Batch) => void>();
  let tickListener: (() => void) | undefined;
  const realtime = {
    publish: (channel: string, _event: string, payload: unknown) =>
      void published.push({ channel, payload: payload as never }),
    toUser: (userId: number, _event: string, payload: unknown) =>
      void toUser.push({ userId, payload: payload as never }),
    mayReachUser: (userId: number) => !offline.has(userId),
  };
  const onCommitted = (next: (batch: Batch) => void) => {
    listeners.add(next);
    return () => void listeners.delete(next);
  };
  // update_balance is the wallets area's push; it listens first, as the wallets plugin registers first.
  /** The users each balance push counted as told, with the batch's last seq (read-your-writes). */
  const acknowledged: [number, number][] = [];
  startBalancePushes({
    engine: engine as unknown as Engine,
    realtime: realtime as never,
    onCommitted,
    acknowledge: (userId, seq) => void acknowledged.push([userId, seq]),
  });
  const pushes = startSpotPushes({
    engine: engine as unknown as Engine,
    realtime: realtime as never,
    markets: { cachedById: () => market, byId: async () => market } as unknown as SpotMarkets,
    lastPrices: new LastPrices({ query: async () => ({ rows: [], rowCount: 0 }) } as never),
    onCommitted,
    ...(options.tick
      ? {
          tick: (next: () => void) => {
            tickListener = next;
            return () => (tickListener = undefined);
          },
        }
      : {}),
  });
  const tick = () => tickListener?.();
  const commit = (seq: number, events: EngineEvent[]) => {
    for (const listener of listeners)
      listener({
        firstSeq: seq,
        lastSeq: seq,
        entries: [
          { envelope: { seq, timeMs: 0, command: {} as Command }, outcome: { seq, code: 0, events } },
        ],
      });
  };
  return { engine, published, toUser, offline, pushes, commit, tick, acknowledged };
}

const balance = (
  owner: number | 'fees',
  currencyId: number,
  availableAfter: bigint,
  lockedAfter: bigint,
): EngineEvent => ({
  type: 'balanceChanged',
  transferId: 1,
  owner,
  wallet: 'change',
  currencyId,
  availableBefore: 0n,
  availableAfter,
  lockedBefore: 0n,
  lockedAfter,
  reason: 303,
  referenceId: 1,
});

const rested: EngineEvent = {
  type: 'orderRested',
  orderId: 1,
  owner: 7,
  marketId: 1,
  side: 'sell',
  priceTicks: 3_000_000,
  remainingLots: 15,
  lockedAmount: 150_000n,
};

describe('spot pushes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends each user wallet as the batch left it, and nothing for system accounts', () => {
    const { toUser, commit, engine } = setup();
    engine.lastSeq = 1;
    commit(1, [
      balance(7, 1, 90_000_000n, 10_000_000n),
      balance(7, 1, 75_000_000n, 25_000_000n),
      balance('fees', 3, 5n, 0n),
    ]);
    expect(toUser).toEqual([
      {
        userId: 7,
        payload: {
          type: 'update_balance',
          currency_id: 1,
          currency_name: 'BTC',
          wallet: 'change',
          balance: '0.75000000',
          lock_balance: '0.25000000',
        },
      },
    ]);
  });

  it('builds no balance push for a user no socket could receive', () => {
    const { toUser, offline, commit, engine } = setup();
    offline.add(7);
    engine.lastSeq = 1;
    commit(1, [balance(7, 1, 90_000_000n, 10_000_000n), balance(8, 1, 1n, 0n)]);
    expect(toUser.map((push) => push.userId)).toEqual([8]);
  });

  it('counts each user told of a balance as acknowledged up to the batch, so their next read waits for it', () => {
    const { commit, engine, offline, acknowledged } = setup();
    offline.add(9);
    engine.lastSeq = 4;
    commit(4, [balance(7, 1, 1n, 0n), balance(9, 1, 1n, 0n), balance('fees', 3, 5n, 0n)]);
    expect(acknowledged).toEqual([[7, 4]]);
  });

  it('pushes the book at once from a committed head, then at most every interval', () => {
    const { published, commit, engine } = setup();
    engine.lastSeq = 1;
    commit(1, [rested]);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({
      channel: 'market:BTC/USDT',
      payload: {
        type: 'transaction',
        seq: 1,
        last_price: '',
        out: [{ price: '30000.00', number: '0.0015' }],
        in: [{ price: '29999.99', number: '0.0005' }],
      },
    });
    engine.lastSeq = 2;
    commit(2, [rested]);
    expect(published).toHaveLength(1);
    vi.advanceTimersByTime(BOOK_PUSH_INTERVAL_MS);
    expect(published).toHaveLength(2);
    expect(published[1]?.payload.seq).toBe(2);
  });

  it('waits while the engine is ahead of the journal, and sends the live book only after the staleness limit', () => {
    const { published, commit, engine } = setup();
    // A command applied after this batch is not committed yet: its effect must not be shown.
    engine.lastSeq = 2;
    commit(1, [rested]);
    expect(published).toHaveLength(0);
    vi.advanceTimersByTime(BOOK_PUSH_INTERVAL_MS);
    expect(published).toHaveLength(0);
    vi.advanceTimersByTime(MAX_BOOK_STALENESS_MS);
    expect(published).toHaveLength(1);
  });

  it('carries the last committed trade price', () => {
    const { published, commit, engine } = setup();
    engine.lastSeq = 1;
    commit(1, [
      {
        type: 'trade',
        tradeId: 1,
        marketId: 1,
        priceTicks: 3_000_000,
        quantityLots: 10,
        baseAmount: 100_000n,
        quoteAmount: 30_000_000n,
        makerOrderId: 1,
        makerOwner: 7,
        takerOrderId: 2,
        takerOwner: 8,
        makerSide: 'sell',
        makerFee: 0n,
        makerFeeCurrencyId: 3,
        takerFee: 0n,
        takerFeeCurrencyId: 1,
      },
    ]);
    expect(published[0]?.payload.last_price).toBe('30000.00');
  });

  it('with the market-data tick, pushes a changed book at the tick and only from a committed head', () => {
    const { published, commit, engine, tick, pushes } = setup({ tick: true });
    engine.lastSeq = 1;
    commit(1, [rested]);
    expect(published).toHaveLength(0);
    tick();
    expect(published).toHaveLength(1);
    tick();
    expect(published).toHaveLength(1); // nothing changed since
    // Ahead of the journal at the tick: the push waits for the batch that brings the journal level.
    engine.lastSeq = 3;
    commit(2, [rested]);
    tick();
    expect(published).toHaveLength(1);
    commit(3, []);
    expect(published).toHaveLength(2);
    // No timer of its own: time alone sends nothing.
    engine.lastSeq = 4;
    commit(4, [rested]);
    vi.advanceTimersByTime(MAX_BOOK_STALENESS_MS * 2);
    expect(published).toHaveLength(2);
    pushes.stop();
    tick();
    expect(published).toHaveLength(2);
  });

  it('stops listening and cancels a pending push', () => {
    const { published, commit, engine, pushes } = setup();
    engine.lastSeq = 5;
    commit(1, [rested]);
    pushes.stop();
    vi.advanceTimersByTime(MAX_BOOK_STALENESS_MS * 2);
    commit(2, [rested]);
    expect(published).toHaveLength(0);
  });
});
