// closed_microorder pushes from committed batches: one message per user and batch listing the user's orders
// settled in it, and the user noted as told up to the batch (read-your-writes).
import { describe, expect, it } from 'vitest';
import { Engine } from '@fairex/engine';
import type { Command, EngineEvent, MicroOrderSettledEvent } from '@fairex/engine';
import type { CommittedBatch } from '../../src/engine-runner/index.ts';
import { startMicroPushes } from '../../src/micro/pushes.ts';

function engine(): Engine {
  const created = Engine.create();
  let seq = 0;
  for (const command of [
    { type: 'addCurrency', currencyId: 100, code: 'USDT', scale: 6 },
    { type: 'addCurrency', currencyId: 1, code: 'BTC', scale: 8 },
    {
      type: 'addMarket',
      marketId: 1,
      baseCurrencyId: 1,
      quoteCurrencyId: 100,
      tickSize: '0.01',
      lotSize: '0.0001',
      minimumLots: 1,
      makerFeePpm: 0,
      takerFeePpm: 0,
    },
  ] as Command[])
    expect(created.apply({ seq: ++seq, timeMs: 1, command }).code).toBe(0);
  return created;
}

const sample = {
  seq: 7,
  timeMs: 1_000,
  markTicks: 6_700_000,
  indexTicks: null,
  stale: false,
  hash: 'a'.repeat(64),
};

function settled(orderId: number, userId: number, outcome: 'win' | 'loss'): MicroOrderSettledEvent {
  return {
    type: 'microOrderSettled',
    orderId,
    userId,
    marketId: 1,
    currencyId: 100,
    direction: 1,
    seconds: 5,
    profitRatioBp: 8_500,
    stake: 1_000_000n,
    fee: 10_000n,
    acceptedMs: 500,
    expiryMs: 5_500,
    maxSampleAgeMs: 3_000,
    outcome,
    voidReason: null,
    open: sample,
    end: { ...sample, seq: 9, markTicks: 6_700_100 },
    payout: outcome === 'win' ? 1_850_000n : 0n,
    feeRefund: 0n,
    ruleVersion: 'fairex-micro-v1',
  };
}

describe('closed_microorder pushes', () => {
  it('sends one message per user and batch, with every order of the user, and notes the user as told', () => {
    const sent: { userId: number; payload: { order: { id: number }; orders?: { id: number }[] } }[] = [];
    const told: [number, number][] = [];
    let listener: ((batch: CommittedBatch<Command, EngineEvent>) => void) | undefined;
    const stop = startMicroPushes({
      engine: engine(),
      realtime: { toUser: (userId, _event, payload) => sent.push({ userId, payload: payload as never }) },
      symbolOf: () => 'BTC/USDT',
      onCommitted: (next) => {
        listener = next;
        return () => (listener = undefined);
      },
      acknowledge: (userId, seq) => told.push([userId, seq]),
      now: () => 6_000,
    });
    const events = [settled(1, 5, 'win'), settled(2, 6, 'loss'), settled(3, 5, 'loss')];
    listener?.({
      firstSeq: 10,
      lastSeq: 11,
      entries: [
        { envelope: { seq: 10 }, outcome: { seq: 10, code: 0, events: [] } },
        { envelope: { seq: 11 }, outcome: { seq: 11, code: 0, events } },
      ],
    } as unknown as CommittedBatch<Command, EngineEvent>);
    expect(sent.map((message) => message.userId)).toEqual([5, 6]);
    expect(sent[0]?.payload.orders?.map((order) => order.id)).toEqual([1, 3]);
    expect(sent[0]?.payload.order).toMatchObject({ id: 3, end_price: '67001.00', fact_profits: '-1.000000' });
    // A single order keeps the one-order shape.
    expect(sent[1]?.payload.orders).toBeUndefined();
    expect(sent[1]?.payload.order).toMatchObject({
      id: 2,
      status: 3,
      outcome: 'loss',
      open_price: '67000.00',
    });
    expect(told).toEqual([
      [5, 11],
      [6, 11],
    ]);
    stop();
  });
});
