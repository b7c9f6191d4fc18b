// The embedded store's checkpoint rhythm: PGlite runs in single-user mode, where nothing checkpoints by
// itself, so without the runner's checkpoints its write-ahead log grows without end and a restart after a
// crash redoes all of it. The runner checkpoints once the log written since the last checkpoint passes
// walCheckpointBytes; with 0 only snapshots are followed by one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import { createExchangeRunner } from '../../src/exchange-runner.ts';
import { setupCommands, Workload } from '../../bench/workload.ts';
import { memoryLogger, steppingClock } from './test-stores.ts';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

/** Bytes of write-ahead log since the last checkpoint's redo point, and that point. */
async function walSinceCheckpoint(store: Store): Promise<{ pending: bigint; redo: string }> {
  const { rows } = await store.query<{ pending: bigint; redo: string }>(
    `select (pg_current_wal_insert_lsn() - redo_lsn)::int8 as pending, redo_lsn::text as redo
       from pg_control_checkpoint()`,
  );
  return rows[0] as { pending: bigint; redo: string };
}

async function writeAndWatch(walCheckpointBytes: number): Promise<{ before: string; after: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-wal-checkpoint-'));
  folders.push(dataDir);
  const store = await openStore({ dataDir });
  const runner = await createExchangeRunner({
    store,
    logger: memoryLogger(),
    clock: steppingClock(),
    walCheckpointBytes,
    // No snapshot, hence no checkpoint after one, while the commands are written.
    snapshotEvery: 1_000_000,
  });
  try {
    const before = (await walSinceCheckpoint(store)).redo;
    const users = 20;
    for (const command of setupCommands(users)) await runner.submit(command);
    const workload = new Workload(7, users);
    for (let wave = 0; wave < 100; wave++) {
      await Promise.all(Array.from({ length: 20 }, () => runner.submit(workload.next(runner.engine))));
    }
    // A few looks of the rhythm (one a second).
    const deadlineMs = Date.now() + 5_000;
    while (Date.now() < deadlineMs && (await walSinceCheckpoint(store)).redo === before) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await walSinceCheckpoint(store)).pending).toBeGreaterThan(0n);
    return { before, after: (await walSinceCheckpoint(store)).redo };
  } finally {
    await runner.close();
    await store.close();
  }
}

describe('the embedded store checkpoints on a rhythm of write-ahead log', () => {
  it('checkpoints once the log since the last checkpoint passes the threshold', async () => {
    const { before, after } = await writeAndWatch(64 * 1024);
    expect(after).not.toBe(before);
  }, 60_000);

  it('does not checkpoint by itself with the rhythm off (no snapshot was written)', async () => {
    const { before, after } = await writeAndWatch(0);
    expect(after).toBe(before);
  }, 60_000);
});
