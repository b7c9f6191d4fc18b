// The engine replica: state hashes and snapshots taken by a second engine on a worker thread, fed the
// committed batches. What it records must be what a recovery replays to (the restart verifies every recorded
// hash and restores its snapshot), and when it fails the runner goes back to its own thread and loses nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { EngineRunnerOptions, ExchangeRunner } from '../../src/engine-runner/index.ts';
import { createEngineRunner, engineKit } from '../../src/engine-runner/index.ts';
import { latestSnapshot, writeSnapshot, writeSnapshotInParts } from '../../src/engine-runner/journal.ts';
import { startReplica } from '../../src/engine-runner/replica.ts';
import { setupCommands, Workload } from '../../bench/workload.ts';
import { memoryLogger, steppingClock } from './test-stores.ts';

const START_MS = 1_700_000_000_000;
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function freshStore(): Promise<{ store: Store; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-replica-'));
  folders.push(dataDir);
  return { store: await openStore({ dataDir }), dataDir };
}

function start(store: Store, options: Partial<EngineRunnerOptions> = {}): Promise<ExchangeRunner> {
  return createEngineRunner({ store, logger: memoryLogger(), clock: steppingClock(), ...options });
}

async function drive(runner: ExchangeRunner, workload: Workload, count: number, concurrency = 20) {
  for (let done = 0; done < count; done += concurrency) {
    const wave: Promise<unknown>[] = [];
    for (let index = 0; index < concurrency && done + index < count; index++) {
      wave.push(runner.submit(workload.next(runner.engine)));
    }
    await Promise.all(wave);
  }
}

async function recorded(store: Store) {
  const hashes = await store.query<{ last_seq: bigint; state_hash: string }>(
    'select last_seq, state_hash from engine_journal where state_hash is not null order by first_seq',
  );
  const snapshots = await store.query<{ seq: bigint; state_hash: string }>(
    'select seq, state_hash from engine_snapshots where seq > 0 order by seq',
  );
  return { hashes: hashes.rows, snapshots: snapshots.rows };
}

describe('the engine replica', () => {
  it('records hashes and snapshots that a restart verifies, taken off the event loop', async () => {
    const { store, dataDir } = await freshStore();
    const logger = memoryLogger();
    const runner = await start(store, {
      logger,
      engineReplica: true,
      checkpointEvery: 100,
      snapshotEvery: 450,
      snapshotOnClose: false,
    });
    const workload = new Workload(5, 10);
    for (const command of setupCommands(10)) await runner.submit(command);
    await drive(runner, workload, 1_500);
    // A loaded machine's replica may still be writing a snapshot when the next is due, and the runner does
    // not ask for another meanwhile: more commands until two were asked.
    const asked = () => runner.stats().snapshotsByTime + runner.stats().snapshotsBySize;
    for (let more = 0; asked() < 2; more += 100) {
      if (more >= 50_000) throw new Error(`only ${asked()} snapshots asked after ${1_500 + more} commands`);
      await drive(runner, workload, 100);
    }
    await runner.close();
    expect(logger.lines.filter((line) => line.level !== 'info')).toEqual([]);
    const { hashes, snapshots } = await recorded(store);
    expect(hashes.length).toBeGreaterThanOrEqual(3);
    expect(snapshots.length).toBeGreaterThanOrEqual(2);
    const finalHash = runner.engine.stateHash();
    await store.close();

    // The restart restores the replica's newest snapshot and checks every hash recorded after it.
    const reopened = await openStore({ dataDir });
    const restarted = await start(reopened);
    const recovery = restarted.stats().recovery;
    expect(recovery.snapshotSeq).toBe(Number(snapshots[snapshots.length - 1]?.seq));
    expect(restarted.engine.stateHash()).toBe(finalHash);
    await restarted.close();
    await reopened.close();
  });

  it('follows recovery, and a failed replica hands the work back to the event loop', async () => {
    const { store, dataDir } = await freshStore();
    let runner = await start(store, { snapshotOnClose: true });
    const workload = new Workload(9, 10);
    for (const command of setupCommands(10)) await runner.submit(command);
    await drive(runner, workload, 300);
    await runner.close();

    // Started from the closing snapshot and the journal: the replica's first hash must match the replay.
    const logger = memoryLogger();
    const replica = startReplica();
    runner = await start(store, {
      logger,
      replica,
      checkpointEvery: 50,
      snapshotEvery: 1_000_000,
      snapshotOnClose: false,
    });
    await drive(runner, workload, 200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(replica.failure).toBeUndefined();

    // A line the live engine never applied: the replica refuses it and stops.
    replica.feed(['{"not":"an envelope"}'], [0]);
    for (let waited = 0; replica.failure === undefined && waited < 5_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(replica.failure).toBeDefined();
    await drive(runner, workload, 200);
    expect(logger.lines.some((line) => line.message?.startsWith('the engine replica failed'))).toBe(true);
    await runner.close();
    const { hashes } = await recorded(store);
    expect(hashes.length).toBeGreaterThanOrEqual(6);
    const finalHash = runner.engine.stateHash();
    await store.close();
    const reopened = await openStore({ dataDir });
    // Replayed from the first closing snapshot: every hash, the replica's and the event loop's, verified.
    const restarted = await start(reopened, { snapshotOnClose: false });
    expect(restarted.engine.stateHash()).toBe(finalHash);
    expect(restarted.stats().recovery.verifiedSeq).toBe(Number(hashes[hashes.length - 1]?.last_seq));
    await restarted.close();
    await reopened.close();
  });

  it('carries batches fed close together in one message, and answers a hash asked right after them', async () => {
    const kit = engineKit();
    const live = kit.create();
    const workload = new Workload(3, 8);
    const batches: { texts: string[]; codes: number[] }[] = [];
    const commands = [...setupCommands(8)];
    for (let index = 0; index < 300; index++) commands.push(workload.next(live));
    for (let start = 0; start < commands.length; start += 20) {
      const batch: { texts: string[]; codes: number[] } = { texts: [], codes: [] };
      for (const command of commands.slice(start, start + 20)) {
        const text = kit.encodeEnvelope({ seq: live.lastSeq + 1, timeMs: START_MS, command });
        batch.texts.push(text);
        batch.codes.push(live.apply(kit.decodeEnvelope(text)).code);
      }
      batches.push(batch);
    }
    const replica = startReplica();
    try {
      replica.load(null);
      for (const batch of batches) replica.feed(batch.texts, batch.codes);
      // Asked in the same turn as the feeds: the question follows them to the thread.
      await expect(replica.hash(live.lastSeq)).resolves.toBe(live.stateHash());
      expect(replica.feedMessages).toBe(1);
      // Fed and left alone, a batch still travels within a few milliseconds.
      const more = workload.next(live);
      const text = kit.encodeEnvelope({ seq: live.lastSeq + 1, timeMs: START_MS, command: more });
      replica.feed([text], [live.apply(kit.decodeEnvelope(text)).code]);
      await vi.waitFor(() => expect(replica.feedMessages).toBe(2));
      await expect(replica.hash(live.lastSeq)).resolves.toBe(live.stateHash());
      expect(replica.failure).toBeUndefined();
    } finally {
      await replica.close();
    }
  });

  it('follows journal lines fed as bytes, in turn with texts, in order', async () => {
    const kit = engineKit();
    const live = kit.create();
    const workload = new Workload(5, 8);
    const commands = [...setupCommands(8)];
    for (let index = 0; index < 400; index++) commands.push(workload.next(live));
    const replica = startReplica();
    try {
      replica.load(null);
      for (let start = 0; start < commands.length; start += 25) {
        const texts: string[] = [];
        const codes: number[] = [];
        for (const command of commands.slice(start, start + 25)) {
          const text = kit.encodeEnvelope({ seq: live.lastSeq + 1, timeMs: START_MS, command });
          texts.push(text);
          codes.push(live.apply(kit.decodeEnvelope(text)).code);
        }
        // Every other batch as the durable log's bytes: lines joined by newlines.
        if ((start / 25) % 2 === 0) replica.feed(texts, codes);
        else replica.feedLines(new TextEncoder().encode(texts.join('\n')), codes);
      }
      await expect(replica.hash(live.lastSeq)).resolves.toBe(live.stateHash());
      // Each change of kind sent what waited: one message per batch here.
      expect(replica.feedMessages).toBe(Math.ceil(commands.length / 25));
      expect(replica.failure).toBeUndefined();
      // A code that is not the live engine's is a divergence.
      const next = workload.next(live);
      const text = kit.encodeEnvelope({ seq: live.lastSeq + 1, timeMs: START_MS, command: next });
      const code = live.apply(kit.decodeEnvelope(text)).code;
      replica.feedLines(new TextEncoder().encode(text), [code + 1]);
      await expect(replica.hash(live.lastSeq)).rejects.toThrow(/gave code/);
    } finally {
      await replica.close();
    }
  });

  it('writes a snapshot in parts that read back as the same text, and prunes parts with their snapshot', async () => {
    const { store } = await freshStore();
    const body = `{"memo":"a😀b","book":[${'1,'.repeat(20)}2]}`;
    // Parts of 3 characters: one cut falls inside the emoji's surrogate pair and must move past it.
    await writeSnapshotInParts(store, { seq: 10, timeMs: 1, stateHash: 'h10', body }, 2, 3);
    expect((await latestSnapshot(store))?.body).toBe(body);
    // A write of seq 20 cut short leaves parts and no row; the next snapshot's pruning keeps them only while
    // no row is above them.
    await store.query("insert into engine_snapshot_parts (seq, part, body) values (20, 0, 'x')");
    await store.transaction((tx) =>
      writeSnapshot(tx, { seq: 30, timeMs: 2, stateHash: 'h30', body: '{}' }, 2),
    );
    await writeSnapshotInParts(store, { seq: 40, timeMs: 3, stateHash: 'h40', body: 'abcdefg' }, 2, 3);
    const parts = await store.query<{ seq: bigint }>(
      'select distinct seq from engine_snapshot_parts order by seq',
    );
    expect(parts.rows.map((row) => Number(row.seq))).toEqual([40]);
    expect((await latestSnapshot(store))?.body).toBe('abcdefg');
    await store.close();
  });
});
