// The journaled index (mark) price: recordIndexPrice keeps the latest price per market in the state, the
// snapshot and the state hash; it moves no money; a refusal changes nothing; and a replay or a restore
// meets exactly the prices the live engine held.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, ResultCode } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { MARKET, TestExchange, stateWithoutCounters } from './test-exchange.ts';

function exchangeWithMarket(): TestExchange {
  return new TestExchange().setUpSimpleMarket().fund(1, 100n, 10_000n);
}

describe('recordIndexPrice', () => {
  it('records the price with the command time and emits one event', () => {
    const exchange = exchangeWithMarket();
    expect(exchange.engine.market.indexPrice(MARKET)).toBeUndefined();
    const outcome = exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 6_700_000 });
    expect(outcome.events).toEqual([{ type: 'indexPriceRecorded', marketId: MARKET, priceTicks: 6_700_000 }]);
    expect(exchange.engine.market.indexPrice(MARKET)).toEqual({
      priceTicks: 6_700_000,
      timeMs: exchange.timeMs,
    });
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 6_700_001 });
    expect(exchange.engine.market.indexPrice(MARKET)).toEqual({
      priceTicks: 6_700_001,
      timeMs: exchange.timeMs,
    });
  });

  it('moves no money', () => {
    const exchange = exchangeWithMarket();
    const before = exchange.engine.ledger.accounts();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 42 });
    expect(exchange.engine.ledger.accounts()).toEqual(before);
  });

  it.each([
    [{ marketId: 2, priceTicks: 10 }, ResultCode.marketNotFound],
    [{ marketId: 0, priceTicks: 10 }, ResultCode.invalidId],
    [{ marketId: 1.5, priceTicks: 10 }, ResultCode.invalidId],
    [{ marketId: '1', priceTicks: 10 }, ResultCode.invalidId],
    [{ marketId: MARKET, priceTicks: 0 }, ResultCode.invalidPrice],
    [{ marketId: MARKET, priceTicks: -5 }, ResultCode.invalidPrice],
    [{ marketId: MARKET, priceTicks: 2.5 }, ResultCode.invalidPrice],
    [{ marketId: MARKET, priceTicks: 1e13 }, ResultCode.invalidPrice],
    [{ marketId: MARKET, priceTicks: '100' }, ResultCode.invalidPrice],
  ])('refuses %o with code %i and changes nothing', (fields, code) => {
    const exchange = exchangeWithMarket();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 99 });
    const before = stateWithoutCounters(exchange.engine);
    const outcome = exchange.apply({ type: 'recordIndexPrice', ...fields } as unknown as Command);
    expect(outcome).toEqual({ seq: exchange.seq, code, events: [] });
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
  });

  it('survives a snapshot and is part of the state hash', () => {
    const exchange = exchangeWithMarket();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 123 });
    const restored = Engine.restore(exchange.engine.snapshot());
    expect(restored.market.indexPrice(MARKET)).toEqual(exchange.engine.market.indexPrice(MARKET));
    expect(restored.stateHash()).toBe(exchange.engine.stateHash());
    const hashAt123 = exchange.engine.stateHash();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 124 });
    expect(exchange.engine.stateHash()).not.toBe(hashAt123);
  });

  it('leaves the snapshot of a state without index prices as it was before they existed', () => {
    const exchange = exchangeWithMarket();
    expect(JSON.parse(exchange.engine.snapshot())).not.toHaveProperty('indexPrices');
  });

  it('refuses a snapshot with an index price for a market it does not have', () => {
    const exchange = exchangeWithMarket();
    exchange.ok({ type: 'recordIndexPrice', marketId: MARKET, priceTicks: 123 });
    const document = JSON.parse(exchange.engine.snapshot()) as { indexPrices: number[][] };
    document.indexPrices = [[7, 1, 1]];
    expect(() => Engine.restore(JSON.stringify(document))).toThrow(/unknown market 7/);
  });
});

describe('index price properties', () => {
  const genesis: Command[] = [
    { type: 'addCurrency', currencyId: 1, code: 'A', scale: 0 },
    { type: 'addCurrency', currencyId: 2, code: 'B', scale: 0 },
    { type: 'addCurrency', currencyId: 3, code: 'Q', scale: 0 },
    ...[1, 2].map((base): Command => ({
      type: 'addMarket',
      marketId: base,
      baseCurrencyId: base,
      quoteCurrencyId: 3,
      tickSize: '1',
      lotSize: '1',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    })),
  ];
  // Mostly valid prices on the two markets, sometimes an unknown market or a bad price.
  const command = fc.record({
    type: fc.constant('recordIndexPrice' as const),
    marketId: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(1, 2) },
      { weight: 1, arbitrary: fc.integer() },
    ),
    priceTicks: fc.oneof(
      { weight: 9, arbitrary: fc.integer({ min: 1, max: 1_000_000_000_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: -10, max: 0 }) },
    ),
  });

  it('holds the last accepted price per market, and a replay and a restore agree with the live engine', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(command, fc.integer({ min: 0, max: 5000 })), { maxLength: 60 }),
        (steps) => {
          const live = Engine.create();
          const envelopes: Envelope[] = [];
          let timeMs = 1_000;
          const expected = new Map<number, { priceTicks: number; timeMs: number }>();
          const apply = (commandToApply: Command, advanceMs: number) => {
            timeMs += advanceMs;
            const envelope: Envelope = { seq: envelopes.length + 1, timeMs, command: commandToApply };
            envelopes.push(envelope);
            return live.apply(envelope);
          };
          for (const setup of genesis) expect(apply(setup, 1).code).toBe(0);
          let snapshotAt = -1;
          let snapshot = '';
          for (const [[index, advanceMs], position] of steps.map((step, at) => [step, at] as const)) {
            const outcome = apply(index, advanceMs);
            if (outcome.code === 0) expected.set(index.marketId, { priceTicks: index.priceTicks, timeMs });
            else expect(outcome.events).toEqual([]);
            if (position === Math.floor(steps.length / 2)) {
              snapshotAt = envelopes.length;
              snapshot = live.snapshot();
            }
          }
          live.checkInvariants();
          for (const marketId of [1, 2])
            expect(live.market.indexPrice(marketId)).toEqual(expected.get(marketId));
          const replayed = Engine.create();
          for (const envelope of envelopes) replayed.apply(envelope);
          expect(replayed.stateHash()).toBe(live.stateHash());
          if (snapshotAt >= 0) {
            const restored = Engine.restore(snapshot);
            for (const envelope of envelopes.slice(snapshotAt)) restored.apply(envelope);
            expect(restored.stateHash()).toBe(live.stateHash());
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
