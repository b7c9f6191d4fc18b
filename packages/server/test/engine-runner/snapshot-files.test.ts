// Snapshot files (snapshot-files.ts): on the embedded store the replica's thread writes each snapshot to a
// file beside the durable log and the store keeps only its row. A restart restores the newest file that is
// whole; a file that is missing or damaged is passed over for the previous snapshot and the longer journal
// after it, which reach the same state. Killed with SIGKILL while the replica writes files, nothing
// acknowledged is lost.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '@fairex/engine';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { EngineRunnerOptions, ExchangeRunner } from '../../src/engine-runner/index.ts';
import { createEngineRunner } from '../../src/engine-runner/index.ts';
import { forEachBatchAfter, latestSnapshot, storeSnapshot } from '../../src/engine-runner/journal.ts';
import { sha256Hex, SNAPSHOT_FOLDER, snapshotFileName } from '../../src/engine-runner/snapshot-files.ts';
import { setupCommands, Workload } from '../../bench/workload.ts';
import { memoryLogger, steppingClock } from './test-stores.ts';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const PINNED_NODE = fileURLToPath(new URL('../../../../node_modules/.bin/node', import.meta.url));

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function freshDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-snapshot-files-'));
  folders.push(dataDir);
  return dataDir;
}

function start(store: Store, options: Partial<EngineRunnerOptions> = {}): Promise<ExchangeRunner> {
  return createEngineRunner({ store, logger: memoryLogger(), clock: steppingClock(), ...options });
}

async function snapshotRows(store: Store) {
  const { rows } = await store.query<{ seq: bigint; state_hash: string; body: string; file: string | null }>(
    'select seq, state_hash, body, file from engine_snapshots where seq > 0 order by seq',
  );
  return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
}

describe('snapshot files on the embedded store', () => {
  it('keeps each replica snapshot in a file, and a restart passes over a missing or damaged one', async () => {
    const dataDir = await freshDataDir();
    const store = await openStore({ dataDir });
    const runner = await start(store, {
      engineReplica: true,
      checkpointEvery: 100,
      snapshotEvery: 300,
      snapshotsKept: 3,
      snapshotOnClose: false,
    });
    const workload = new Workload(11, 10);
    for (const command of setupCommands(10)) await runner.submit(command);
    // At least 2,000 commands and four snapshots asked of the replica: a loaded machine's replica may still
    // be writing one when the next is due, and the runner does not ask for another meanwhile.
    const asked = () => runner.stats().snapshotsByTime + runner.stats().snapshotsBySize;
    for (let done = 0; done < 2_000 || asked() < 4; done += 20) {
      if (done >= 50_000) throw new Error(`only ${asked()} snapshots asked after ${done} commands`);
      await Promise.all(Array.from({ length: 20 }, () => runner.submit(workload.next(runner.engine))));
    }
    await runner.close();
    const finalHash = runner.engine.stateHash();
    const lastSeq = runner.stats().lastSeq;
    const rows = await snapshotRows(store);
    await store.close();

    // Three kept, each a file named by its seq and hash with an empty body in the row; pruned files gone.
    expect(rows.length).toBe(3);
    for (const row of rows) {
      expect(row.body).toBe('');
      expect(row.file).toBe(snapshotFileName(row.seq, row.state_hash));
    }
    const folder = join(dataDir, SNAPSHOT_FOLDER);
    expect((await readdir(folder)).sort()).toEqual(rows.map((row) => row.file).sort());
    const [oldest, middle, newest] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];

    // The newest file missing: the one before it and the journal after it.
    await unlink(join(folder, newest.file as string));
    let reopened = await openStore({ dataDir });
    let logger = memoryLogger();
    let restarted = await start(reopened, { logger, snapshotOnClose: false });
    expect(restarted.stats().recovery.snapshotSeq).toBe(middle.seq);
    expect(restarted.stats().recovery.replayedCommands).toBe(lastSeq - middle.seq);
    expect(restarted.engine.stateHash()).toBe(finalHash);
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      'a snapshot was passed over; recovery starts from an earlier one',
    ]);
    await restarted.close();
    await reopened.close();

    // The next one damaged (one character changed, same length): refused by its hash, the oldest used.
    const middlePath = join(folder, middle.file as string);
    const text = await readFile(middlePath, 'utf8');
    const at = text.slice(text.length >> 1).search(/[0-9]/) + (text.length >> 1);
    const digit = text[at] === '1' ? '2' : '1';
    await writeFile(middlePath, `${text.slice(0, at)}${digit}${text.slice(at + 1)}`);
    reopened = await openStore({ dataDir });
    logger = memoryLogger();
    restarted = await start(reopened, { logger, snapshotOnClose: false });
    expect(restarted.stats().recovery.snapshotSeq).toBe(oldest.seq);
    expect(restarted.engine.stateHash()).toBe(finalHash);
    expect(logger.lines.filter((line) => line.level === 'warn')).toHaveLength(2);
    await restarted.close();
    await reopened.close();
  });

  it('stores a snapshot in a file with a folder and in parts without one, and prunes both', async () => {
    const dataDir = await freshDataDir();
    const store = await openStore({ dataDir });
    const folder = join(dataDir, SNAPSHOT_FOLDER);
    const snapshot = (seq: number, body: string) => ({ seq, timeMs: seq, stateHash: sha256Hex(body), body });
    const fileOf = (seq: number, body: string) => snapshotFileName(seq, sha256Hex(body));
    // Without a folder (PostgreSQL's path): parts, read back whole.
    await storeSnapshot(store, snapshot(10, '{"a":1}'), 2, undefined);
    expect((await latestSnapshot(store))?.body).toBe('{"a":1}');
    // With one: files, two kept; each new one prunes the oldest row and its file.
    await storeSnapshot(store, snapshot(20, '{"b":2}'), 2, folder);
    await storeSnapshot(store, snapshot(30, '{"c":3}'), 2, folder);
    expect((await snapshotRows(store)).map((row) => row.seq)).toEqual([20, 30]);
    expect((await readdir(folder)).sort()).toEqual([fileOf(20, '{"b":2}'), fileOf(30, '{"c":3}')]);
    await storeSnapshot(store, snapshot(40, '{"d":4}'), 2, folder);
    expect((await readdir(folder)).sort()).toEqual([fileOf(30, '{"c":3}'), fileOf(40, '{"d":4}')]);
    // Read back through the folder; without it neither file can be used, and each is reported.
    expect((await latestSnapshot(store, { folder }))?.body).toBe('{"d":4}');
    const skipped: number[] = [];
    expect(await latestSnapshot(store, { skipped: ({ seq }) => skipped.push(seq) })).toBeUndefined();
    expect(skipped).toEqual([40, 30]);
    await store.close();
  });

  it(
    'loses nothing acknowledged when killed with SIGKILL while the replica writes snapshot files',
    {
      timeout: 120_000,
    },
    async () => {
      const dataDir = await freshDataDir();
      const acks = await runAndKill(dataDir, 6_000);
      const store = await openStore({ dataDir });
      const files = (await snapshotRows(store)).filter((row) => row.file !== null);
      // The child took snapshots every 400 commands and was killed after asking the replica for its second,
      // which it asks only once the first is stored: at least one file was recorded before the kill.
      expect(files.length).toBeGreaterThan(0);
      const runner = await start(store, { snapshotOnClose: false });
      const { recovery, lastSeq } = runner.stats();
      expect(recovery.snapshotSeq).toBe(files.at(-1)?.seq);
      const keys = new Map<number, string | undefined>();
      await forEachBatchAfter(store, 0, (batch) => {
        batch.envelopes.forEach((text, index) => {
          const envelope = decodeEnvelope(text);
          keys.set(batch.firstSeq + index, envelope.idempotencyKey);
        });
      });
      expect(keys.size).toBe(lastSeq);
      for (const ack of acks) expect(keys.get(ack.seq)).toBe(ack.key);
      runner.engine.checkInvariants();
      await runner.close();
      await store.close();
    },
  );
});

/**
 * Runs the crash test's child with the replica on until it acknowledged `killAfter` commands and asked the
 * replica for a second snapshot (on a loaded machine the replica's start may take longer than the commands),
 * then SIGKILLs it.
 */
async function runAndKill(dataDir: string, killAfter: number): Promise<{ seq: number; key: string }[]> {
  const major = Number(process.versions.node.split('.')[0]);
  const node = major >= 24 || !existsSync(PINNED_NODE) ? process.execPath : PINNED_NODE;
  const child = spawn(node, [CHILD], {
    env: { ...process.env, CRASH_DATA_DIR: dataDir, CRASH_SEED: '3', CRASH_ENGINE_REPLICA: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const acks: { seq: number; key: string }[] = [];
  let killed = false;
  const lines = createInterface({ input: child.stdout });
  const ended = new Promise<void>((resolve) => lines.on('close', () => resolve()));
  lines.on('line', (line) => {
    const [word, seq, key, , , snapshots] = line.split(' ');
    if (word !== 'ack') return;
    // Acknowledgements printed after the signal was sent are acknowledgements too.
    acks.push({ seq: Number(seq), key: key as string });
    if (!killed && acks.length >= killAfter && Number(snapshots) >= 2) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 100_000);
  const signal = await exited;
  clearTimeout(guard);
  await ended;
  if (signal !== 'SIGKILL') throw new Error(`the child ended on its own: ${stderr}`);
  expect(acks.length).toBeGreaterThanOrEqual(killAfter);
  return acks;
}
