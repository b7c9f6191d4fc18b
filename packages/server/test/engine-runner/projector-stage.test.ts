// The projector stage behind the journal (journal-first), with the tiny fake engine and a projector that
// records what it is given: replies before projections, coalesced projector transactions, whenProjected,
// onProjected, back-pressure, the lag in stats(), a failing projector (crash-only), snapshots never ahead
// of the projections, recovery re-projecting what the projector had not reached, and a large batch projected
// in bounded transactions with the event loop turning between them, and the projector's pace.
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { RunnerOverloadedError, RunnerUnavailableError } from '../../src/engine-runner/errors.ts';
import type { Projector } from '../../src/engine-runner/projector.ts';
import type { EngineRunner, RunnerCoreOptions } from '../../src/engine-runner/runner.ts';
import { startRunner, whenCaughtUp } from '../../src/engine-runner/runner.ts';
import type { FakeCommand, FakeEngine, FakeEvent } from './fake-engine.ts';
import { fakeKit } from './fake-engine.ts';
import { memoryLogger, open, steppingClock, storeTargets } from './test-stores.ts';

type FakeRunner = EngineRunner<FakeCommand, FakeEvent, FakeEngine>;
type Options = Partial<RunnerCoreOptions<FakeCommand, FakeEvent, FakeEngine>>;

const deposit = (account: string, amount: number): FakeCommand => ({
  type: 'deposit',
  account,
  amount: String(amount),
});

/**
 * A projector writing one row per command into a table of its own; it can be made to fail. (It is slowed with
 * the runner's projectorDelayMs, which waits before the projector's transaction: holding the projector inside
 * its transaction would hold PGlite's one connection, and with it the journal's commits.)
 */
function seqProjector() {
  let failNext = false;
  const calls: number[][] = [];
  const projector: Projector<FakeCommand, FakeEvent> = {
    name: 'seqs',
    tables: ['projected_seqs'],
    async project(entries, tx) {
      if (failNext) throw new Error('projection bug (simulated)');
      calls.push(entries.map((entry) => entry.envelope.seq));
      await tx.query('insert into projected_seqs (seq) select * from unnest($1::bigint[])', [
        entries.map((entry) => entry.envelope.seq),
      ]);
    },
  };
  return {
    projector,
    calls,
    failNext() {
      failNext = true;
    },
  };
}

async function openWithTable(options: Awaited<ReturnType<ReturnType<typeof storeTargets>[number]['fresh']>>) {
  const store = await open(options);
  await store.query('create table if not exists projected_seqs (seq bigint primary key)');
  return store;
}

function start(store: Store, projector: Projector<FakeCommand, FakeEvent>, options: Options = {}) {
  return startRunner({
    store,
    logger: memoryLogger(),
    kit: fakeKit,
    clock: steppingClock(),
    projectors: [projector],
    ...options,
  }) as Promise<FakeRunner>;
}

async function projectedRows(store: Store): Promise<number[]> {
  const { rows } = await store.query<{ seq: bigint }>('select seq from projected_seqs order by seq');
  return rows.map((row) => Number(row.seq));
}

async function progress(store: Store): Promise<number> {
  const { rows } = await store.query<{ projected_seq: bigint }>(
    'select projected_seq from engine_projection_progress',
  );
  return Number(rows[0]?.projected_seq);
}

for (const target of storeTargets()) {
  describe(`the projector stage on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it('answers after the journal commit, projects behind it in coalesced transactions, and tells waiters', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, { projectorDelayMs: 2_000 });
      const projectedBatches: [number, number][] = [];
      runner.onProjected((batch) => projectedBatches.push([batch.firstSeq, batch.lastSeq]));
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, (_, i) => runner.submit(deposit('a', i + 1))),
      );
      expect(outcomes.map((outcome) => outcome.seq)).toEqual([1, 2, 3, 4, 5]);
      // Answered, but nothing projected yet.
      expect(runner.projectedSeq).toBe(0);
      expect(await projectedRows(store)).toEqual([]);
      expect(runner.stats().projectorLag.commands).toBe(5);
      // More commits while the projector waits: they join its first transaction.
      await runner.submit(deposit('a', 6));
      await runner.submit(deposit('a', 7));
      expect(await runner.whenProjected(7, { timeoutMs: 20 })).toBe(false);
      expect(await runner.whenProjected(7)).toBe(true);
      expect(await projectedRows(store)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await progress(store)).toBe(7);
      expect(seqs.calls.length).toBeLessThan(3);
      expect(seqs.calls.flat()).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(projectedBatches.at(-1)?.[1]).toBe(7);
      expect(runner.stats()).toMatchObject({ projectedSeq: 7, projectorLag: { commands: 0, ms: 0 } });
      expect(await runner.whenProjected(3)).toBe(true);
      await runner.close();
      await store.close();
    });

    it('keeps its pace: commands committed within it share the next transaction, and closing writes the rest', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, { projectorPaceMs: 600_000 });
      await runner.submit(deposit('p', 1));
      // The first transaction starts at once; the next may start only after the pace.
      expect(await runner.whenProjected(1)).toBe(true);
      for (let i = 0; i < 5; i++) await runner.submit(deposit('p', 1));
      expect(await runner.whenProjected(6, { timeoutMs: 50 })).toBe(false);
      expect(seqs.calls).toEqual([[1]]);
      await runner.close();
      expect(seqs.calls).toEqual([[1], [2, 3, 4, 5, 6]]);
      expect(await projectedRows(store)).toEqual([1, 2, 3, 4, 5, 6]);
      await store.close();
    });

    it('does not keep its pace while the commands waiting fill a transaction', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, {
        projectorPaceMs: 600_000,
        projectorMaxBatchCommands: 3,
      });
      await runner.submit(deposit('q', 1));
      expect(await runner.whenProjected(1)).toBe(true);
      await Promise.all(Array.from({ length: 7 }, () => runner.submit(deposit('q', 1))));
      // Seqs 2..7 fill two transactions of three and go at once; seq 8 alone waits for the pace.
      expect(await runner.whenProjected(7)).toBe(true);
      expect(await runner.whenProjected(8, { timeoutMs: 50 })).toBe(false);
      expect(seqs.calls).toEqual([[1], [2, 3, 4], [5, 6, 7]]);
      await runner.close();
      await store.close();
    });

    it('refuses new commands while the projector is too far behind, and accepts them once it caught up', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, {
        projectorMaxLagCommands: 3,
        projectorDelayMs: 2_000,
      });
      for (let i = 0; i < 4; i++) await runner.submit(deposit('b', 1));
      await expect(runner.submit(deposit('b', 1))).rejects.toBeInstanceOf(RunnerOverloadedError);
      await whenCaughtUp(runner);
      expect((await runner.submit(deposit('b', 1))).seq).toBe(5);
      await runner.close();
      await store.close();
    });

    it('stops the runner when a projection fails, and a restart re-projects from the journal', async () => {
      const options = await target.fresh();
      let store = await openWithTable(options);
      let seqs = seqProjector();
      let runner = await start(store, seqs.projector, { snapshotEvery: 3 });
      for (let i = 0; i < 3; i++) await runner.submit(deposit('c', 1));
      await whenCaughtUp(runner);
      seqs.failNext();
      await runner.submit(deposit('c', 1));
      await runner.submit(deposit('c', 1)).catch(() => undefined);
      await expect(runner.whenProjected(5)).rejects.toBeInstanceOf(RunnerUnavailableError);
      expect(runner.state).toBe('failed');
      expect(await progress(store)).toBe(3);
      await runner.close();
      const journalEnd = runner.stats().lastCommittedSeq;
      expect(journalEnd).toBeGreaterThanOrEqual(4);
      await store.close();

      store = await openWithTable(options);
      seqs = seqProjector();
      runner = await start(store, seqs.projector);
      expect(runner.stats().recovery).toMatchObject({
        projectedSeqAtStart: 3,
        reprojectedCommands: journalEnd - 3,
      });
      expect(runner.projectedSeq).toBe(journalEnd);
      expect(await projectedRows(store)).toEqual(Array.from({ length: journalEnd }, (_, i) => i + 1));
      await runner.close();
      await store.close();
    });

    it('projects a large batch in transactions of at most projectorMaxBatchEvents events, the event loop turning between two', async () => {
      const store = await openWithTable(await target.fresh());
      // A turn counter: it only moves when the event loop comes back to its immediates, which it cannot do
      // inside one PGlite transaction, nor between two that follow each other in microtasks.
      let turns = 0;
      let ticking = true;
      const tick = () => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const calls: { seqs: number[]; turn: number; snapshots: number }[] = [];
      const projector: Projector<FakeCommand, FakeEvent> = {
        name: 'seqs',
        tables: ['projected_seqs'],
        async project(entries, tx) {
          const { rows } = await tx.query<{ count: bigint }>(
            'select count(*) as count from engine_snapshots where seq > 0',
          );
          calls.push({
            seqs: entries.map((entry) => entry.envelope.seq),
            turn: turns,
            snapshots: Number(rows[0]?.count),
          });
          await tx.query('insert into projected_seqs (seq) select * from unnest($1::bigint[])', [
            entries.map((entry) => entry.envelope.seq),
          ]);
        },
      };
      // A deposit has two events: two deposits a transaction.
      const runner = await start(store, projector, {
        projectorMaxBatchEvents: 4,
        snapshotEvery: 7,
        snapshotOnClose: false,
      });
      const projected: [number, number][] = [];
      runner.onProjected((batch) => projected.push([batch.firstSeq, batch.lastSeq]));
      // Seven commands submitted in one turn: one committed batch.
      await Promise.all(Array.from({ length: 7 }, (_, i) => runner.submit(deposit('e', i + 1))));
      expect(runner.stats().committedBatches).toBe(1);
      await whenCaughtUp(runner);
      ticking = false;
      expect(calls.map((call) => call.seqs)).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
      expect(projected).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
        [7, 7],
      ]);
      for (let index = 1; index < calls.length; index++) {
        expect(calls[index]?.turn).toBeGreaterThan(calls[index - 1]?.turn ?? Infinity);
      }
      // The batch's snapshot (seq 7) is written with the part that completes the batch, not before.
      expect(calls.map((call) => call.snapshots)).toEqual([0, 0, 0, 0]);
      const snapshots = await store.query<{ seq: bigint }>('select seq from engine_snapshots where seq > 0');
      expect(snapshots.rows.map((row) => Number(row.seq))).toEqual([7]);
      expect(await projectedRows(store)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await progress(store)).toBe(7);
      expect(runner.stats()).toMatchObject({
        projectedSeq: 7,
        projectedBatches: 4,
        projectorLag: { commands: 0 },
      });
      await runner.close();
      await store.close();
    });

    it('projects a command with more events than projectorMaxBatchEvents alone', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, { projectorMaxBatchEvents: 1 });
      await Promise.all(Array.from({ length: 3 }, (_, i) => runner.submit(deposit('f', i + 1))));
      await whenCaughtUp(runner);
      expect(seqs.calls).toEqual([[1], [2], [3]]);
      expect(await projectedRows(store)).toEqual([1, 2, 3]);
      await runner.close();
      await store.close();
    });

    it('writes a snapshot only once its seq is projected', async () => {
      const store = await openWithTable(await target.fresh());
      const seqs = seqProjector();
      const runner = await start(store, seqs.projector, {
        snapshotEvery: 2,
        snapshotOnClose: false,
        projectorDelayMs: 2_000,
      });
      for (let i = 0; i < 4; i++) await runner.submit(deposit('d', 1));
      const before = await store.query('select seq from engine_snapshots where seq > 0');
      expect(before.rows).toEqual([]);
      await whenCaughtUp(runner);
      const after = await store.query<{ seq: bigint }>('select seq from engine_snapshots where seq > 0');
      expect(after.rows.length).toBeGreaterThan(0);
      for (const row of after.rows) expect(Number(row.seq)).toBeLessThanOrEqual(runner.projectedSeq);
      await runner.close();
      await store.close();
    });
  });
}
