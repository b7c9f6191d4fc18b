// Seeded simulation: 50,000 random commands on the fast book, then the same envelopes (through the journal
// codec) into a fresh engine, into a reference-book engine (outcome by outcome), and from a mid-way
// snapshot into restored engines of both kinds. Every route must end at the same state hash.
import { describe, expect, it } from 'vitest';
import { Engine, ResultCode, decodeEnvelope, encodeEnvelope, encodeEvents } from '../src/index.ts';
import type { Envelope, Outcome } from '../src/index.ts';
import { SIMULATION_ENGINE_OPTIONS, runSimulation } from './simulation.ts';

const COUNT = 50_000;
const HALF = COUNT / 2;

function outcomeText(outcome: Outcome): string {
  return `${outcome.seq}|${outcome.code}|${outcome.duplicate === true}|${encodeEvents(outcome.events)}`;
}

describe('seeded simulation', () => {
  const live = runSimulation({
    seed: 20240601,
    count: COUNT,
    checkEvery: 500,
    record: true,
    snapshotAt: HALF,
  });
  const finalHash = live.engine.stateHash();

  it('exercises trading, refusals, duplicates and withdrawals', () => {
    const { stats } = live;
    expect(stats.commands).toBe(COUNT);
    expect(stats.trades).toBeGreaterThan(5_000);
    expect(stats.ordersRested).toBeGreaterThan(5_000);
    expect(stats.ordersCancelled).toBeGreaterThan(5_000);
    expect(stats.duplicates).toBeGreaterThan(100);
    for (const code of [
      ResultCode.insufficientFunds,
      ResultCode.orderNotFound,
      ResultCode.notOrderOwner,
      ResultCode.unknownCommand,
    ]) {
      expect(stats.codes[code] ?? 0).toBeGreaterThan(0);
    }
    expect(live.engine.stats().idempotencyKeys).toBeLessThanOrEqual(
      SIMULATION_ENGINE_OPTIONS.idempotencyMaxKeys!,
    );
  });

  it('replays the journaled envelopes into a fresh engine to the same state hash', () => {
    const replica = Engine.create(SIMULATION_ENGINE_OPTIONS);
    for (const envelope of live.envelopes) replica.apply(decodeEnvelope(encodeEnvelope(envelope)));
    expect(replica.stateHash()).toBe(finalHash);
  });

  it('replays them without events (Engine.replay) to the same result codes and state hash', () => {
    const applied = Engine.create(SIMULATION_ENGINE_OPTIONS);
    const quiet = Engine.create(SIMULATION_ENGINE_OPTIONS);
    const appliedCodes: number[] = [];
    const quietCodes: number[] = [];
    for (const envelope of live.envelopes) {
      const text = encodeEnvelope(envelope);
      appliedCodes.push(applied.apply(decodeEnvelope(text)).code);
      quietCodes.push(quiet.replay(decodeEnvelope(text)));
      if (quietCodes.length === HALF) expect(quiet.stateHash()).toBe(applied.stateHash());
    }
    expect(quietCodes).toEqual(appliedCodes);
    quiet.checkInvariants();
    expect(quiet.stateHash()).toBe(finalHash);
    // Events are built again as soon as the replay is over.
    expect(
      quiet.apply({
        seq: quiet.lastSeq + 1,
        timeMs: 0,
        command: { type: 'deposit', userId: 1, currencyId: 1, amount: 5n },
      }).events,
    ).toHaveLength(2);
  });

  it('produces the same outcomes, event by event, on the reference book', () => {
    const fast = Engine.create(SIMULATION_ENGINE_OPTIONS);
    const reference = Engine.create({ ...SIMULATION_ENGINE_OPTIONS, book: 'reference' });
    let compared = 0;
    for (const envelope of live.envelopes) {
      const expected = outcomeText(fast.apply(envelope));
      const actual = outcomeText(reference.apply(envelope));
      if (actual !== expected)
        expect({ seq: envelope.seq, actual }).toEqual({ seq: envelope.seq, actual: expected });
      compared += 1;
    }
    expect(compared).toBe(COUNT);
    reference.checkInvariants();
    expect(reference.stateHash()).toBe(finalHash);
  });

  it.each(['fast', 'reference'] as const)(
    'continues from the mid-way snapshot on the %s book to the same hash',
    (book) => {
      const restored = Engine.restore(live.midSnapshot as string, { book });
      expect(restored.lastSeq).toBe(HALF);
      const rest: Envelope[] = live.envelopes.slice(HALF);
      for (const envelope of rest) restored.apply(envelope);
      restored.checkInvariants();
      expect(restored.stateHash()).toBe(finalHash);
    },
  );

  it('gives a different run for a different seed, and the same run for the same seed', () => {
    const again = runSimulation({ seed: 20240601, count: 2_000 });
    const same = runSimulation({ seed: 20240601, count: 2_000 });
    const other = runSimulation({ seed: 7, count: 2_000 });
    expect(same.engine.stateHash()).toBe(again.engine.stateHash());
    expect(other.engine.stateHash()).not.toBe(again.engine.stateHash());
  });
});
