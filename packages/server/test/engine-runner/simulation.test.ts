// The engine package's seeded simulation (50,000 commands: trading on three markets, cancels, transfers,
// withdrawals, idempotent repeats and garbage) sent through the runner, journal and projections. The runner
// must end at the state hash of the engine that ran the envelopes directly, a restart must recover that
// hash from snapshot plus journal, and rebuilt projections must equal the live ones.
import { afterAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@fairex/engine';
import { createExchangeRunner, rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import type { ExchangeRunner } from '../../src/engine-runner/index.ts';
import type { Store } from '../../src/store/index.ts';
import { runSimulation, SIMULATION_ENGINE_OPTIONS } from '../../../engine/test/simulation.ts';
import { memoryLogger, open, storeTargets } from './test-stores.ts';

const COUNT = 50_000;
const simulated = runSimulation({ seed: 20240601, count: COUNT, record: true });
const expectedHash = simulated.engine.stateHash();

/** Submits the recorded envelopes, up to `window` awaiting commit at once; the clock replays their times. */
async function submitEnvelopes(runner: ExchangeRunner, envelopes: Envelope[], clock: { nowMs: number }) {
  const window = 2_000;
  for (let start = 0; start < envelopes.length; start += window) {
    const wave = envelopes.slice(start, start + window).map((envelope) => {
      clock.nowMs = envelope.timeMs;
      const options =
        envelope.idempotencyKey === undefined ? {} : { idempotencyKey: envelope.idempotencyKey };
      return runner.submit(envelope.command, options).then((outcome) => {
        if (outcome.seq !== envelope.seq) throw new Error(`seq ${outcome.seq} for envelope ${envelope.seq}`);
      });
    });
    await Promise.all(wave);
  }
}

async function projectionRows(store: Store): Promise<unknown[]> {
  const orders = await store.query('select * from spot_orders order by order_id');
  const trades = await store.query('select * from spot_trades order by trade_id');
  const log = await store.query('select * from account_log order by seq, event_index');
  return [orders.rows, trades.rows, log.rows];
}

for (const target of storeTargets()) {
  describe(`seeded simulation through the runner on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it(
      'reaches, recovers and rebuilds the state of the engine that ran it directly',
      { timeout: 240_000 },
      async () => {
        const options = await target.fresh();
        let store = await open(options);
        const clock = { nowMs: 0 };
        const runner = await createExchangeRunner({
          store,
          logger: memoryLogger(),
          engineOptions: SIMULATION_ENGINE_OPTIONS,
          clock: () => clock.nowMs,
          snapshotEvery: 20_000,
          checkpointEvery: 5_000,
          snapshotOnClose: false,
        });
        await submitEnvelopes(runner, simulated.envelopes, clock);
        expect(runner.engine.stateHash()).toBe(expectedHash);
        await runner.close();
        await store.close();

        store = await open(options);
        const restarted = await createExchangeRunner({ store, logger: memoryLogger() });
        const { recovery } = restarted.stats();
        expect(recovery.snapshotSeq).toBeGreaterThanOrEqual(20_000);
        expect(recovery.replayedCommands).toBe(COUNT - recovery.snapshotSeq);
        expect(restarted.engine.stateHash()).toBe(expectedHash);
        await restarted.close();

        const live = await projectionRows(store);
        const rebuilt = await rebuildExchangeProjections(store);
        expect(rebuilt.stateHash).toBe(expectedHash);
        expect(await projectionRows(store)).toEqual(live);
        await store.close();
      },
    );
  });
}
