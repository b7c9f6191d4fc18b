// A reused idempotency key must name the same request: a true retry (the same command, field for field)
// answers with the first outcome, and the same key with any other parameter is refused and changes nothing.
// The rule holds across a snapshot and restore, and a snapshot written before the engine remembered the
// parameters restores to the same text and state hash.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, ResultCode } from '../src/index.ts';
import type { Command } from '../src/index.ts';
import { MARKET, QUOTE, TestExchange, stateWithoutCounters } from './test-exchange.ts';

const buy: Command = {
  type: 'placeOrder',
  owner: 1,
  marketId: MARKET,
  side: 'buy',
  kind: 'limit',
  priceTicks: 100,
  quantityLots: 5,
  clientOrderId: 'k1',
};

function funded(): TestExchange {
  return new TestExchange().setUpSimpleMarket().fund(1, 1000n, 100_000n).fund(2, 1000n, 100_000n);
}

describe('an idempotency key reused with other parameters', () => {
  it('refuses a sell at another price under the key of a buy, and changes nothing', () => {
    const exchange = funded();
    const first = exchange.ok(buy, 'k1');
    const before = stateWithoutCounters(exchange.engine);
    const sell: Command = { ...buy, side: 'sell', priceTicks: 120, quantityLots: 3 };
    const outcome = exchange.apply(sell, 'k1');
    expect(outcome).toEqual({ seq: exchange.seq, code: ResultCode.idempotencyKeyReused, events: [] });
    expect(stateWithoutCounters(exchange.engine)).toBe(before);
    expect(exchange.engine.spot.openOrders(1)).toEqual([
      expect.objectContaining({ orderId: (first.reply as { orderId: number }).orderId, side: 'buy' }),
    ]);
  });

  it('answers a true retry with the first outcome, marked duplicate', () => {
    const exchange = funded();
    const first = exchange.ok(buy, 'k1');
    const again = exchange.apply({ ...buy }, 'k1');
    expect(again).toMatchObject({ code: 0, duplicate: true, originalSeq: first.seq, reply: first.reply });
    expect(exchange.engine.spot.openOrders(1)).toHaveLength(1);
  });

  it('treats the same fields in another order as the same request', () => {
    const exchange = funded();
    exchange.ok(buy, 'k1');
    const reordered = Object.fromEntries(Object.entries(buy).reverse()) as Command;
    expect(exchange.apply(reordered, 'k1').duplicate).toBe(true);
  });

  it('refuses any single changed parameter (property)', () => {
    const change = fc.oneof(
      fc.constant<Partial<Command>>({ side: 'sell' }),
      fc.integer({ min: 1, max: 99 }).map((priceTicks) => ({ priceTicks }) as Partial<Command>),
      fc.integer({ min: 6, max: 50 }).map((quantityLots) => ({ quantityLots }) as Partial<Command>),
      fc.constant<Partial<Command>>({ kind: 'market', priceTicks: undefined }),
      fc.constant<Partial<Command>>({ marketId: 2 }),
      fc.constant<Partial<Command>>({ clientOrderId: 'k2' }),
    );
    fc.assert(
      fc.property(change, (changed) => {
        const exchange = funded();
        exchange.ok(buy, 'k1');
        const before = stateWithoutCounters(exchange.engine);
        const outcome = exchange.apply({ ...buy, ...changed } as Command, 'k1');
        expect(outcome.code).toBe(ResultCode.idempotencyKeyReused);
        expect(stateWithoutCounters(exchange.engine)).toBe(before);
      }),
      { seed: 20_261_126, numRuns: 60 },
    );
  });

  it('applies to every command, not only orders: a deposit key with another amount is refused', () => {
    const exchange = funded();
    const deposit: Command = {
      type: 'deposit',
      userId: 7,
      currencyId: QUOTE,
      amount: 10n,
      memo: 'deposit:1',
    };
    exchange.ok(deposit, 'deposit:1');
    expect(exchange.apply({ ...deposit, amount: 11n }, 'deposit:1').code).toBe(
      ResultCode.idempotencyKeyReused,
    );
    expect(exchange.apply({ ...deposit }, 'deposit:1').duplicate).toBe(true);
    expect(exchange.change(7, QUOTE)).toEqual([10n, 0n]);
  });

  it('keeps the rule across snapshot and restore', () => {
    const exchange = funded();
    exchange.ok(buy, 'k1');
    const restored = Engine.restore(exchange.engine.snapshot());
    const next = (command: Command, seq: number) =>
      restored.apply({ seq, timeMs: exchange.timeMs + seq, command, idempotencyKey: 'k1' });
    expect(next({ ...buy, priceTicks: 90 }, exchange.seq + 1).code).toBe(ResultCode.idempotencyKeyReused);
    expect(next(buy, exchange.seq + 2).duplicate).toBe(true);
  });

  it('restores a snapshot written before parameters were kept to the same text, and still answers retries', () => {
    const exchange = funded();
    exchange.ok(buy, 'k1');
    const current = JSON.parse(exchange.engine.snapshot()) as { idempotency: unknown[][] };
    // The earlier format: five fields per key, no parameters.
    for (const row of current.idempotency) row.length = 5;
    const older = JSON.stringify(current);
    const restored = Engine.restore(older);
    expect(restored.snapshot()).toBe(older);
    const retry = restored.apply({
      seq: exchange.seq + 1,
      timeMs: exchange.timeMs + 1,
      command: buy,
      idempotencyKey: 'k1',
    });
    expect(retry.duplicate).toBe(true);
  });
});
