// A seeded simulation of the lever area: 120 users trading on two pairs for 12,000 commands (opens, limit
// entries, revokes, closes, batch closes, stops, marks with gaps, overnight days and wallet transfers).
// Replaying the journal into a fresh engine, and restoring a snapshot taken midway and replaying the rest,
// both give the live engine's outcomes and state hash; the final hash is pinned, so any change of the
// area's behaviour shows here (the main simulation's pinned hash is not touched by this area).
import { describe, expect, it } from 'vitest';
import { Engine, encodeEvents } from '../src/index.ts';
import type { Command, Envelope } from '../src/index.ts';
import { BTC_USDT, DAY, ETH_USDT, USDT, leverSetUp } from './lever-driver.ts';

const STEPS = 12_000;
const USERS = 120;
const PINNED_HASH = '62bed3605db4d228ca11477fcde0a39b2b92673161ae2fc10dbb4da656615dfe';

/** xorshift32: a failure replays from the seed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

describe('lever simulation', () => {
  it('replays, and restores midway, to the live outcomes and pinned state hash', () => {
    const next = random(1717);
    const pick = (n: number) => Math.floor(next() * n);
    const d = leverSetUp({ lotsPerShare: 1 }, 50_000_000n);
    d.checkEachCommand = false;
    d.fundSystem('insurance', 20_000n);
    for (let userId = 1; userId <= USERS; userId += 1) d.fund(userId, BigInt(500 + pick(5_000)));
    let midSnapshot = '';
    let midIndex = 0;
    for (let step = 0; step < STEPS; step += 1) {
      if (step === STEPS / 2) {
        midSnapshot = d.engine.snapshot();
        midIndex = d.envelopes.length;
      }
      const userId = 1 + pick(USERS);
      const marketId = next() < 0.6 ? BTC_USDT : ETH_USDT;
      const roll = next();
      let command: Command;
      if (roll < 0.4) {
        const mark = d.markOf(marketId);
        const gap = next() < 0.03;
        const move = gap ? (next() - 0.5) * 0.3 : (next() - 0.5) * 0.02;
        command = {
          type: 'recordPriceSamples',
          maxAgeMs: 10_000,
          minSources: 1,
          headIntervalMs: 60_000,
          samples: [[marketId, [['sim', Math.max(1, Math.round(mark * (1 + move))), d.timeMs + 1]]]],
        };
      } else if (roll < 0.6) {
        command = {
          type: 'openLeverPosition',
          userId,
          marketId,
          side: next() < 0.5 ? 1 : 2,
          share: 1 + pick(20),
          multiple: [5, 10, 20][pick(3)] as number,
        };
      } else if (roll < 0.68) {
        const side = next() < 0.5 ? 1 : 2;
        const mark = d.markOf(marketId);
        const offset = 1 + pick(Math.max(2, Math.floor(mark / 20)));
        command = {
          type: 'submitLeverEntry',
          userId,
          marketId,
          side,
          share: 1 + pick(10),
          multiple: 10,
          targetTicks: Math.max(1, side === 1 ? mark - offset : mark + offset),
        };
      } else if (roll < 0.78) {
        const records = d.engine.lever.positions(userId);
        const record = records[pick(Math.max(1, records.length))];
        command =
          record === undefined
            ? { type: 'closeLeverPositions', userId, which: 0 }
            : record.status === 0
              ? { type: 'revokeLeverEntry', userId, positionId: record.positionId }
              : { type: 'closeLeverPosition', userId, positionId: record.positionId };
      } else if (roll < 0.86) {
        const holding = d.engine.lever.positions(userId, 1)[0];
        if (holding === undefined) {
          command = { type: 'closeLeverPositions', userId, which: pick(3) as 0 | 1 | 2 };
        } else {
          const mark = d.markOf(holding.marketId);
          const up = Math.max(mark, holding.entryTicks) + 1 + pick(40);
          const down = Math.max(0, Math.min(mark, holding.entryTicks) - 1 - pick(40));
          command = {
            type: 'setLeverStops',
            userId,
            positionId: holding.positionId,
            takeProfitTicks: holding.side === 1 ? up : down,
            stopLossTicks: holding.side === 1 ? down : up,
          };
        }
      } else if (roll < 0.87) {
        d.timeMs += DAY;
        for (const id of [BTC_USDT, ETH_USDT]) d.mark(id, d.markOf(id));
        command = { type: 'chargeLeverOvernight', day: Math.floor(d.timeMs / DAY) };
      } else if (roll < 0.94) {
        const out = next() < 0.5;
        command = {
          type: 'transfer',
          userId,
          currencyId: USDT,
          fromWallet: out ? 'lever' : 'change',
          toWallet: out ? 'change' : 'lever',
          amount: BigInt(1 + pick(800)),
        };
      } else {
        command = { type: 'deposit', userId, currencyId: USDT, amount: BigInt(1 + pick(2_000)) };
      }
      d.apply(command);
      if (step % 1_000 === 0) d.engine.checkInvariants();
    }
    d.engine.checkInvariants();
    const liveHash = d.engine.stateHash();
    const stats = d.engine.stats();
    expect(stats.leverRecords).toBeGreaterThan(0);
    const closedBy = (reason: string) =>
      d.events.filter((e) => e.type === 'leverPositionClosed' && e.reason === reason).length;
    for (const reason of ['user', 'takeProfit', 'stopLoss', 'liquidation'])
      expect(closedBy(reason), reason).toBeGreaterThan(0);

    // Replay the whole journal into a fresh engine: every outcome and the final hash agree.
    const replay = Engine.create();
    const replayed = d.envelopes.map((envelope: Envelope) => {
      const outcome = replay.apply(envelope);
      return `${outcome.code}:${encodeEvents(outcome.events)}`;
    });
    expect(replayed).toEqual(d.outcomes);
    expect(replay.stateHash()).toBe(liveHash);

    // The same journal replayed without events (Engine.replay): the same codes and the same hash.
    const quiet = Engine.create();
    const quietCodes = d.envelopes.map((envelope: Envelope) => quiet.replay(envelope));
    expect(quietCodes).toEqual(d.outcomes.map((outcome) => Number(outcome.split(':')[0])));
    expect(quiet.stateHash()).toBe(liveHash);

    // Restore the midway snapshot and replay the rest of the journal.
    const restored = Engine.restore(midSnapshot);
    restored.checkInvariants();
    const resumed = d.envelopes.slice(midIndex).map((envelope) => {
      const outcome = restored.apply(envelope);
      return `${outcome.code}:${encodeEvents(outcome.events)}`;
    });
    expect(resumed).toEqual(d.outcomes.slice(midIndex));
    restored.checkInvariants();
    expect(restored.stateHash()).toBe(liveHash);
    expect(liveHash).toBe(PINNED_HASH);
  }, 120_000);
});
