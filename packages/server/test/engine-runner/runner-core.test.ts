// The runner's queue, group commit, failure handling and recovery, with a tiny fake engine so that each
// behaviour is visible on its own. The real engine runs through the same code in runner-engine.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import type { Store, StoreTransaction } from '../../src/store/index.ts';
import {
  CommitFailedError,
  JournalConflictError,
  RecoveryError,
  RunnerUnavailableError,
} from '../../src/engine-runner/errors.ts';
import type { EngineRunner, RunnerCoreOptions } from '../../src/engine-runner/runner.ts';
import { startRunner } from '../../src/engine-runner/runner.ts';
import type { FakeCommand, FakeEngine, FakeEvent } from './fake-engine.ts';
import { FAKE_REFUSED, fakeKit } from './fake-engine.ts';
import { memoryLogger, open, steppingClock, storeTargets } from './test-stores.ts';

type FakeRunner = EngineRunner<FakeCommand, FakeEvent, FakeEngine>;
type Options = Partial<RunnerCoreOptions<FakeCommand, FakeEvent, FakeEngine>>;

function start(store: Pick<Store, 'transaction' | 'query'>, options: Options = {}): Promise<FakeRunner> {
  return startRunner({ store, logger: memoryLogger(), kit: fakeKit, clock: steppingClock(), ...options });
}

const deposit = (account: string, amount: number): FakeCommand => ({
  type: 'deposit',
  account,
  amount: String(amount),
});

/** A store whose transactions wait for `release()` and can be told to fail. */
function gatedStore(store: Store) {
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};
  let failNext = false;
  return {
    query: store.query.bind(store),
    transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      const waitFor = gate;
      const shouldFail = failNext;
      failNext = false;
      return store.transaction(async (tx) => {
        await waitFor;
        const result = await fn(tx);
        if (shouldFail) throw new Error('disk full (simulated)');
        return result;
      });
    },
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      open();
      gate = Promise.resolve();
    },
    failNextCommit() {
      failNext = true;
    },
  };
}

async function journalRows(store: Store): Promise<{ first: number; last: number }[]> {
  const { rows } = await store.query<{ first_seq: bigint; last_seq: bigint }>(
    'select first_seq, last_seq from engine_journal order by first_seq',
  );
  return rows.map((row) => ({ first: Number(row.first_seq), last: Number(row.last_seq) }));
}

function settled<T>(promise: Promise<T>): { done: boolean; promise: Promise<T> } {
  const state = { done: false, promise };
  promise.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
}

for (const target of storeTargets()) {
  describe(`engine runner core on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it('applies at once, answers only after the commit, and batches while a commit is in flight', async () => {
      const store = await open(await target.fresh());
      const gated = gatedStore(store);
      const runner = await start(gated);
      gated.hold();
      const first = settled(runner.submit(deposit('alice', 5)));
      // The engine already holds the command: reads see it before the commit.
      expect(runner.engine.balance('alice')).toBe(5n);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(first.done).toBe(false);
      // These arrive while the first commit waits, so they must share the next transaction.
      const more = Array.from({ length: 50 }, (_, index) =>
        settled(runner.submit(deposit('bob', index + 1))),
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(more.some((entry) => entry.done)).toBe(false);
      gated.release();
      const outcome = await first.promise;
      expect(outcome).toMatchObject({ seq: 1, code: 0 });
      const outcomes = await Promise.all(more.map((entry) => entry.promise));
      expect(outcomes.map((entry) => entry.seq)).toEqual(Array.from({ length: 50 }, (_, index) => index + 2));
      expect(await journalRows(store)).toEqual([
        { first: 1, last: 1 },
        { first: 2, last: 51 },
      ]);
      await runner.close();
      await store.close();
    });

    it('reports committed batches to listeners in order, once each', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { maxBatchCommands: 7 });
      const seen: number[] = [];
      runner.onCommitted((batch) => {
        for (const entry of batch.entries) seen.push(entry.outcome.seq);
      });
      await Promise.all(Array.from({ length: 40 }, (_, index) => runner.submit(deposit('carol', index + 1))));
      expect(seen).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      expect((await journalRows(store)).every((row) => row.last - row.first < 7)).toBe(true);
      await runner.close();
      await store.close();
    });

    it('journals refused commands too, so replay meets the same refusals', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store);
      const refused = await runner.submit({ type: 'transfer', from: 'dave', to: 'erin', amount: '10' });
      expect(refused.code).toBe(FAKE_REFUSED);
      await runner.submit(deposit('dave', 3));
      await runner.close();
      expect(await journalRows(store)).toEqual([
        { first: 1, last: 1 },
        { first: 2, last: 2 },
      ]);
      await store.close();
    });

    it('fails the callers of a failed commit, fails those waiting behind it, and stops', async () => {
      const store = await open(await target.fresh());
      const gated = gatedStore(store);
      const fatal: Error[] = [];
      const runner = await start(gated, { onFatal: (error) => fatal.push(error) });
      await runner.submit(deposit('frank', 100));
      gated.hold();
      gated.failNextCommit();
      const doomed = runner.submit(deposit('frank', 1));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const behind = runner.submit(deposit('frank', 2));
      gated.release();
      await expect(doomed).rejects.toBeInstanceOf(CommitFailedError);
      await expect(behind).rejects.toBeInstanceOf(RunnerUnavailableError);
      expect(runner.state).toBe('failed');
      expect(fatal).toHaveLength(1);
      await expect(runner.submit(deposit('frank', 3))).rejects.toBeInstanceOf(RunnerUnavailableError);
      await runner.close();
      // Recovery sees only what committed.
      const restarted = await start(store);
      expect(restarted.engine.balance('frank')).toBe(100n);
      expect(restarted.stats().lastSeq).toBe(1);
      await restarted.close();
      await store.close();
    });

    it('stops when the engine throws, and commits nothing after it', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store);
      await runner.submit(deposit('gina', 1));
      await expect(runner.submit({ type: 'explode' })).rejects.toBeInstanceOf(RunnerUnavailableError);
      expect(runner.state).toBe('failed');
      await runner.close();
      expect(await journalRows(store)).toEqual([{ first: 1, last: 1 }]);
      await store.close();
    });

    it('recovers from the latest snapshot and the journal after it to the state of a runner that never stopped', async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store, { snapshotEvery: 25, checkpointEvery: 10, snapshotOnClose: false });
      for (let round = 0; round < 12; round++) {
        await Promise.all(
          Array.from({ length: 9 }, (_, index) =>
            runner.submit(
              index % 3 === 2
                ? { type: 'transfer', from: `u${index}`, to: `u${round}`, amount: '2' }
                : deposit(`u${(round + index) % 5}`, index + 1),
            ),
          ),
        );
      }
      const liveHash = runner.engine.stateHash();
      const liveSeq = runner.stats().lastSeq;
      await runner.close();
      await store.close();

      store = await open(options);
      const snapshots = await store.query<{ seq: bigint }>('select seq from engine_snapshots order by seq');
      expect(snapshots.rows.length).toBeGreaterThan(0);
      const restarted = await start(store);
      const recovery = restarted.stats().recovery;
      expect(recovery.snapshotSeq).toBe(Number(snapshots.rows.at(-1)?.seq));
      expect(recovery.snapshotSeq).toBeGreaterThan(0);
      expect(recovery.replayedCommands).toBe(liveSeq - recovery.snapshotSeq);
      expect(restarted.engine.stateHash()).toBe(liveHash);
      // Stamping continues after the recovered seq with a time no earlier than the last one.
      const next = await restarted.submit(deposit('u1', 1));
      expect(next.seq).toBe(liveSeq + 1);
      await restarted.close();
      await store.close();
    });

    it('keeps only the newest snapshots, and the genesis snapshot', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { snapshotEvery: 1, snapshotsKept: 2 });
      for (let index = 0; index < 6; index++) await runner.submit(deposit('hana', 1));
      await runner.close();
      const { rows } = await store.query<{ seq: bigint }>('select seq from engine_snapshots order by seq');
      expect(rows.map((row) => Number(row.seq))).toEqual([0, 5, 6]);
      await store.close();
    });

    it('applies an idempotent retry once, before and after a restart', async () => {
      const options = await target.fresh();
      let store = await open(options);
      const runner = await start(store);
      const first = await runner.submit(deposit('ivan', 7), { idempotencyKey: 'req-1' });
      const retry = await runner.submit(deposit('ivan', 7), { idempotencyKey: 'req-1' });
      expect(first.duplicate).toBeUndefined();
      expect(retry.duplicate).toBe(true);
      expect(runner.engine.balance('ivan')).toBe(7n);
      await runner.close();
      await store.close();
      store = await open(options);
      const restarted = await start(store, { snapshotOnClose: false });
      const late = await restarted.submit(deposit('ivan', 7), { idempotencyKey: 'req-1' });
      expect(late.duplicate).toBe(true);
      expect(restarted.engine.balance('ivan')).toBe(7n);
      await restarted.close();
      await store.close();
    });

    it('spaces state hashes and snapshots by their least interval of command time', async () => {
      const store = await open(await target.fresh());
      let nowMs = 1_000_000;
      const runner = await start(store, {
        clock: () => nowMs,
        checkpointEvery: 1,
        checkpointMinIntervalMs: 1_000,
        snapshotEvery: 1,
        snapshotMinIntervalMs: 5_000,
        snapshotOnClose: false,
      });
      // One command every 400 ms for 6 seconds: hashes at least 1 s apart, snapshots at least 5 s apart.
      for (let index = 0; index < 15; index++) {
        await runner.submit(deposit('lena', 1));
        nowMs += 400;
      }
      await runner.close();
      const hashed = await store.query<{ first_seq: bigint }>(
        'select first_seq from engine_journal where state_hash is not null order by first_seq',
      );
      const snapshots = await store.query<{ seq: bigint; time_ms: bigint }>(
        'select seq, time_ms from engine_snapshots where seq > 0 order by seq',
      );
      // Command n is stamped 1,000,000 + 400 (n - 1) ms. A new journal starts at time 0, so command 1 gets
      // both; then a hash every third command (1,200 ms later; 800 ms is too soon) and a snapshot, which
      // carries its own hash, at command 14 (5,200 ms after command 1).
      expect(hashed.rows.map((row) => Number(row.first_seq))).toEqual([1, 4, 7, 10, 13, 14]);
      expect(snapshots.rows.map((row) => Number(row.seq))).toEqual([1, 14]);
      await store.close();
    });

    it('takes a snapshot by journal size even within the least interval of command time', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, {
        snapshotEvery: 1,
        snapshotMinIntervalMs: 60_000,
        snapshotMaxCommands: 4,
        snapshotsKept: 10,
        snapshotOnClose: false,
      });
      // The stepping clock moves 1 ms per command: after command 1 (a new journal's first, by time), only
      // the size rule can make a snapshot due, every 4 commands.
      for (let index = 0; index < 10; index++) await runner.submit(deposit('mia', 1));
      expect(runner.stats()).toMatchObject({ snapshotsByTime: 1, snapshotsBySize: 2, lastSnapshotSeq: 9 });
      await runner.close();
      const { rows } = await store.query<{ seq: bigint }>('select seq from engine_snapshots order by seq');
      expect(rows.map((row) => Number(row.seq))).toEqual([0, 1, 5, 9]);
      await store.close();
    });

    it('takes a snapshot by journal bytes, counted across a restart', async () => {
      const options = await target.fresh();
      const store = await open(options);
      const settings = {
        snapshotEvery: 1_000,
        snapshotMaxBytes: 300,
        snapshotsKept: 50,
        snapshotOnClose: false,
      } as const;
      let runner = await start(store, settings);
      for (let index = 0; index < 7; index++) await runner.submit(deposit(`nora${index}`, index + 1));
      await runner.close();
      runner = await start(store, settings);
      for (let index = 0; index < 7; index++) await runner.submit(deposit(`nora${index}`, index + 1));
      await runner.close();
      // Where the journal's bytes (each line and its newline) first reach 300 since the last snapshot.
      const journal = await store.query<{ last_seq: bigint; length: number; command_count: number }>(
        'select last_seq, length(envelopes) as length, command_count from engine_journal order by first_seq',
      );
      const expected: number[] = [];
      let bytes = 0;
      for (const row of journal.rows) {
        bytes += Number(row.length) + Number(row.command_count);
        if (bytes >= 300) {
          expected.push(Number(row.last_seq));
          bytes = 0;
        }
      }
      expect(expected.length).toBeGreaterThanOrEqual(2);
      const { rows } = await store.query<{ seq: bigint }>(
        'select seq from engine_snapshots where seq > 0 order by seq',
      );
      expect(rows.map((row) => Number(row.seq))).toEqual(expected);
      await store.close();
    });

    it('refuses to start when a recorded state hash does not match the replay', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { checkpointEvery: 1, snapshotOnClose: false });
      await runner.submit(deposit('jon', 1));
      await runner.submit(deposit('jon', 2));
      await runner.close();
      await store.query(`update engine_journal set state_hash = 'bad' where first_seq = 2`);
      await expect(start(store)).rejects.toBeInstanceOf(RecoveryError);
      await store.close();
    });

    it('refuses to start when the journal has a gap', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store, { snapshotOnClose: false });
      for (let index = 0; index < 3; index++) await runner.submit(deposit('kim', 1));
      await runner.close();
      await store.query('delete from engine_journal where first_seq = 2');
      await expect(start(store)).rejects.toThrow(/jumps from seq 1 to 3/);
      await store.close();
    });

    it('fails a second writer on the same journal instead of interleaving', async () => {
      const store = await open(await target.fresh());
      const one = await start(store);
      const two = await start(store);
      await one.submit(deposit('lee', 1));
      await expect(two.submit(deposit('lee', 2))).rejects.toBeInstanceOf(CommitFailedError);
      expect((two.failure as Error).cause).toBeInstanceOf(JournalConflictError);
      await one.close();
      await two.close();
      await store.close();
    });

    it('drains and commits pending commands at close, then refuses new ones', async () => {
      const store = await open(await target.fresh());
      const runner = await start(store);
      const pending = Array.from({ length: 20 }, () => runner.submit(deposit('mia', 1)));
      const closing = runner.close();
      await expect(runner.submit(deposit('mia', 1))).rejects.toBeInstanceOf(RunnerUnavailableError);
      await closing;
      expect((await Promise.all(pending)).every((outcome) => outcome.code === 0)).toBe(true);
      expect(runner.state).toBe('closed');
      const restarted = await start(store);
      expect(restarted.engine.balance('mia')).toBe(20n);
      expect(restarted.stats().recovery.replayedCommands).toBe(0);
      await restarted.close();
      await store.close();
    });
  });
}
