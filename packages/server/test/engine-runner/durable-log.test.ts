// The embedded store's durable log: PGlite never fsyncs, so an operating-system crash may leave its files
// at an older state than what was acknowledged. The test plays that crash by putting back a copy of the
// PGlite folder taken earlier, and checks that the restart takes every acknowledged command back from the
// log: the same seq, state hash and projections as the process that "crashed". The log's own file format
// cuts a torn last write and refuses damage elsewhere.
import { constants } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { EngineRunnerOptions, ExchangeRunner } from '../../src/engine-runner/index.ts';
import { whenCaughtUp } from '../../src/engine-runner/index.ts';
import { createExchangeRunner, rebuildExchangeProjections } from '../../src/exchange-runner.ts';
import { DURABLE_LOG_FOLDER } from '../../src/engine-runner/create.ts';
import type { DurableLog } from '../../src/engine-runner/durable-log.ts';
import { durableBatchEnvelopes, openDurableLog } from '../../src/engine-runner/durable-log.ts';
import type { DurableLogFiles } from '../../src/engine-runner/durable-log-files.ts';
import { DurableLogReadAhead, readDurableLogFiles } from '../../src/engine-runner/durable-log-files.ts';
import { RecoveryError } from '../../src/engine-runner/errors.ts';
import type { ReplayBatch } from '../../src/engine-runner/recovery.ts';
import {
  forEachPayloadLine,
  journalBatchesAfter,
  replayBatchTexts,
} from '../../src/engine-runner/recovery.ts';
import { setupCommands, Workload } from '../../bench/workload.ts';
import { memoryLogger, steppingClock } from './test-stores.ts';

const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

async function tempFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** The batches after `afterSeq`, each with its envelopes. */
async function readBack(log: DurableLog, afterSeq: number) {
  return (await log.batchesAfter(afterSeq)).map((batch) => ({
    firstSeq: batch.firstSeq,
    lastSeq: batch.lastSeq,
    envelopes: durableBatchEnvelopes(batch),
  }));
}

function start(store: Store, options: Partial<EngineRunnerOptions> = {}): Promise<ExchangeRunner> {
  return createExchangeRunner({ store, logger: memoryLogger(), clock: steppingClock(), ...options });
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

async function dumpProjections(store: Store): Promise<Record<string, unknown[]>> {
  const orders = await store.query('select * from spot_orders order by order_id');
  const trades = await store.query('select * from spot_trades order by trade_id');
  const log = await store.query('select * from account_log order by seq, event_index');
  return { orders: orders.rows, trades: trades.rows, log: log.rows };
}

describe('the durable log beside the embedded store', () => {
  it('gives back every acknowledged command the store lost in an operating-system crash', async () => {
    const dataDir = await tempFolder('fairex-durable-');
    const backup = await tempFolder('fairex-durable-backup-');
    const users = 10;
    const workload = new Workload(11, users);

    // Up to seq X, closed cleanly; the PGlite folder as it stands then is what the "crash" leaves.
    let store = await openStore({ dataDir });
    let runner = await start(store);
    for (const command of setupCommands(users)) await runner.submit(command);
    await drive(runner, workload, 300);
    await runner.close();
    const cleanSeq = runner.stats().lastCommittedSeq;
    await store.close();
    await cp(join(dataDir, 'pglite'), join(backup, 'pglite'), { recursive: true });

    // More commands acknowledged, then the process "dies" (the store closed under a running runner).
    store = await openStore({ dataDir });
    runner = await start(store, { snapshotOnClose: false });
    await drive(runner, workload, 400);
    const acknowledged = runner.stats().lastCommittedSeq;
    await whenCaughtUp(runner);
    const liveHash = runner.engine.stateHash();
    const liveProjections = await dumpProjections(store);
    expect(acknowledged).toBeGreaterThan(cleanSeq + 300);
    await store.close();

    // The operating system lost what PGlite wrote since seq X.
    await rm(join(dataDir, 'pglite'), { recursive: true, force: true });
    await cp(join(backup, 'pglite'), join(dataDir, 'pglite'), { recursive: true });

    store = await openStore({ dataDir });
    const before = await store.query<{ last_seq: bigint }>(
      'select coalesce(max(last_seq), 0) as last_seq from engine_journal',
    );
    expect(Number(before.rows[0]?.last_seq)).toBe(cleanSeq);
    // Reading the journal from the log's files also yields the batches past the store's end, which recovery
    // hands to the catch-up instead of reading the files a second time.
    const log = await openDurableLog({
      folder: join(dataDir, DURABLE_LOG_FOLDER),
      syncStore: async () => {},
    });
    const { pastStoreEnd } = await journalBatchesAfter(store, cleanSeq, log, async () => {});
    await log.close();
    expect(pastStoreEnd?.[0]?.firstSeq).toBe(cleanSeq + 1);
    expect(pastStoreEnd?.at(-1)?.lastSeq).toBe(acknowledged);
    // The projector waits before each transaction: what the restart serves before it wrote the log's tail.
    runner = await start(store, { projectorDelayMs: 100 });
    const stats = runner.stats();
    expect(stats.lastCommittedSeq).toBe(acknowledged);
    expect(stats.recovery.fromDurableLog).toBe(acknowledged - cleanSeq);
    expect(stats.recovery.durableTail).toBeUndefined();
    expect(runner.engine.stateHash()).toBe(liveHash);
    // Served before the tail is written: the projector has it to write, journal rows first; every reader
    // waits for all of it (nobody knows whose it was), and it is what a reader loading a table must add.
    expect(stats.projectedSeq).toBe(cleanSeq);
    expect(stats.projectorLag.commands).toBe(acknowledged - cleanSeq);
    expect(runner.acknowledgedSeq(12345)).toBe(acknowledged);
    const tail = runner.unprojectedBatches();
    expect(tail[0]?.firstSeq).toBe(cleanSeq + 1);
    expect(tail.at(-1)?.lastSeq).toBe(acknowledged);
    expect(tail.reduce((count, batch) => count + batch.entries.length, 0)).toBe(acknowledged - cleanSeq);
    await whenCaughtUp(runner);
    expect(runner.acknowledgedSeq(12345)).toBe(0);
    expect(runner.unprojectedBatches()).toEqual([]);
    // The journal rows and the projections are back as the crashed process had written them.
    expect(await dumpProjections(store)).toEqual(liveProjections);
    // The log now starts afresh: the store holds (and has flushed) everything it held.
    await drive(runner, workload, 20);
    await runner.close();
    const rebuilt = await rebuildExchangeProjections(store);
    expect(rebuilt.stateHash).toBe(runner.engine.stateHash());
    await store.close();
    const segments = await readdir(join(dataDir, DURABLE_LOG_FOLDER));
    expect(segments.length).toBe(1);
  });

  it('serves a restart while its projector writes the tail back: back-pressure aside, killed again, nothing lost', async () => {
    const dataDir = await tempFolder('fairex-durable-tail-');
    const users = 6;
    const workload = new Workload(19, users);
    let store = await openStore({ dataDir });
    let runner = await start(store);
    for (const command of setupCommands(users)) await runner.submit(command);
    await runner.close();
    // The projector waits two seconds before its first transaction: the "kill" (the store closed under the
    // runner) comes before it, leaving everything driven to the durable log.
    runner = await start(store, { projectorDelayMs: 2_000, snapshotOnClose: false });
    await drive(runner, workload, 150);
    const acknowledged = runner.stats().lastCommittedSeq;
    const projectedAtKill = runner.stats().projectedSeq;
    expect(acknowledged - projectedAtKill).toBeGreaterThan(100);
    await store.close();

    // Restarted with a lag bound far below the tail, and killed again before the projector wrote it all;
    // the wait for a projection releases a held projector.
    store = await openStore({ dataDir });
    runner = await start(store, {
      holdRecoveredTail: true,
      projectorMaxLagCommands: 10,
      projectorMaxBatchCommands: 40,
      projectorDelayMs: 50,
      snapshotOnClose: false,
    });
    expect(runner.stats().recovery.fromDurableLog).toBe(acknowledged - projectedAtKill);
    expect(runner.stats().projectorLag.commands).toBeGreaterThan(10);
    // The start's own commands are not refused for the tail's lag.
    const own = await runner.submit(workload.next(runner.engine));
    expect(own.seq).toBe(acknowledged + 1);
    await runner.whenProjected(projectedAtKill + 40);
    expect(runner.stats().projectedSeq).toBeLessThan(acknowledged);
    await store.close();

    // Held, the projector writes nothing of the tail until released (the app does so as its start ends).
    store = await openStore({ dataDir });
    runner = await start(store, { holdRecoveredTail: true });
    expect(runner.stats().lastCommittedSeq).toBe(acknowledged + 1);
    const heldAt = runner.stats().projectedSeq;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runner.stats().projectedSeq).toBe(heldAt);
    expect(heldAt).toBeLessThan(acknowledged + 1);
    runner.releaseProjector();
    for (let waited = 0; runner.stats().projectedSeq < acknowledged + 1 && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(runner.stats().projectedSeq).toBe(acknowledged + 1);
    const liveHash = runner.engine.stateHash();
    const projections = await dumpProjections(store);
    await runner.close();
    const rebuilt = await rebuildExchangeProjections(store);
    expect(rebuilt.stateHash).toBe(liveHash);
    expect(await dumpProjections(store)).toEqual(projections);
    await store.close();
  });

  it('gives a restart the journal from its files and still checks every recorded state hash', async () => {
    const dataDir = await tempFolder('fairex-durable-read-');
    const users = 10;
    const workload = new Workload(13, users);
    let store = await openStore({ dataDir });
    // A state hash every 50 commands, no snapshot after genesis: the restart replays all of it.
    let runner = await start(store, { checkpointEvery: 50, snapshotOnClose: false });
    for (const command of setupCommands(users)) await runner.submit(command);
    await drive(runner, workload, 400);
    await whenCaughtUp(runner);
    const acknowledged = runner.stats().lastCommittedSeq;
    const liveHash = runner.engine.stateHash();
    await runner.close();
    await store.close();
    const tampered = await tempFolder('fairex-durable-tampered-');
    await cp(dataDir, tampered, { recursive: true });

    // The same batches from the files and, past the size cap, from the rows.
    store = await openStore({ dataDir });
    const log = await openDurableLog({
      folder: join(dataDir, DURABLE_LOG_FOLDER),
      syncStore: async () => {},
    });
    expect(log.heldBytes).toBeGreaterThan(0);
    // The files' batches come as their payload's bytes, decoded line by line; the rows' as texts.
    const kinds = new Set<string>();
    const seen = (into: string[]) => async (batch: ReplayBatch) => {
      kinds.add(`${into === fromFiles ? 'files' : 'rows'}:${'payload' in batch ? 'bytes' : 'texts'}`);
      const texts = replayBatchTexts(batch);
      into.push(`${batch.firstSeq}-${batch.lastSeq}:${batch.stateHash ?? ''}:${texts.join('|')}`);
    };
    const fromFiles: string[] = [];
    const fromRows: string[] = [];
    expect((await journalBatchesAfter(store, 0, log, seen(fromFiles))).commands).toBe(acknowledged);
    expect((await journalBatchesAfter(store, 0, log, seen(fromRows), log.heldBytes - 1)).commands).toBe(0);
    expect(fromFiles).toEqual(fromRows);
    expect([...kinds].sort()).toEqual(['files:bytes', 'rows:texts']);
    await log.close();
    await store.close();

    store = await openStore({ dataDir });
    runner = await start(store, { snapshotOnClose: false });
    const { recovery } = runner.stats();
    expect(recovery.replayedCommands).toBe(acknowledged);
    expect(recovery.readFromDurableLog).toBe(acknowledged);
    expect(recovery.verifiedSeq).toBeGreaterThanOrEqual(acknowledged - 50);
    expect(recovery.verifiedSeq).toBeGreaterThan(0);
    expect(runner.engine.stateHash()).toBe(liveHash);
    await runner.close();
    await store.close();

    // A recorded state hash that the replay does not reach stops the start, read from the log as well.
    store = await openStore({ dataDir: tampered });
    await store.query(
      `update engine_journal set state_hash = repeat('0', 64)
        where last_seq = (select max(last_seq) from engine_journal where state_hash is not null)`,
    );
    await expect(start(store)).rejects.toThrow(RecoveryError);
    await store.close();
  });

  it('writes no log when JOURNAL_FSYNC is off', async () => {
    const dataDir = await tempFolder('fairex-durable-off-');
    const store = await openStore({ dataDir });
    const runner = await start(store, { journalFsync: false });
    for (const command of setupCommands(2)) await runner.submit(command);
    await runner.close();
    await store.close();
    await expect(readdir(join(dataDir, DURABLE_LOG_FOLDER))).rejects.toThrow();
  });

  it('cuts a torn last write, and refuses a segment damaged before its end', async () => {
    const folder = await tempFolder('fairex-durable-file-');
    let synced = 0;
    const syncStore = async () => {
      synced++;
    };
    let log = await openDurableLog({ folder, syncStore });
    await log.append({ firstSeq: 1, lastSeq: 2, text: '{"seq":1}\n{"seq":2}' });
    await log.append({ firstSeq: 3, lastSeq: 3, text: '{"seq":3,"memo":"ünïcode"}' });
    await log.close();
    const [name] = await readdir(folder);
    const path = join(folder, name as string);
    // A crash in the middle of the next append: a header and part of its payload.
    await writeFile(path, Buffer.concat([await readFile(path), Buffer.from('B 4 4 10 00000000\n{"se')]));
    log = await openDurableLog({ folder, syncStore });
    expect(log.lastSeq).toBe(3);
    expect(await readBack(log, 0)).toEqual([
      { firstSeq: 1, lastSeq: 2, envelopes: ['{"seq":1}', '{"seq":2}'] },
      { firstSeq: 3, lastSeq: 3, envelopes: ['{"seq":3,"memo":"ünïcode"}'] },
    ]);
    expect(await log.batchesAfter(2)).toHaveLength(1);
    // The next append continues after the cut; a rotation drops the old segment once the store synced.
    await log.append({ firstSeq: 4, lastSeq: 4, text: '{"seq":4}' });
    await log.rotate();
    expect(synced).toBe(1);
    await log.append({ firstSeq: 5, lastSeq: 5, text: '{"seq":5}' });
    await log.close();
    expect(await readdir(folder)).toEqual(['00000000000000000005.log']);
    // Damage in a segment that is not the newest one is not a torn write.
    const damaged = join(folder, '00000000000000000005.log');
    const text = await readFile(damaged);
    text[text.length - 3] = 0x21;
    await writeFile(damaged, text);
    await writeFile(join(folder, '00000000000000000006.log'), '');
    await expect(openDurableLog({ folder, syncStore })).rejects.toThrow(RecoveryError);
  });

  it('gives its first read the bytes its opening scan checked, and reads the files after that', async () => {
    const folder = await tempFolder('fairex-durable-kept-');
    const syncStore = async () => {};
    let log = await openDurableLog({ folder, syncStore });
    await log.append({ firstSeq: 1, lastSeq: 1, text: '{"seq":1}' });
    await log.append({ firstSeq: 2, lastSeq: 2, text: '{"seq":2}' });
    await log.close();
    log = await openDurableLog({ folder, syncStore });
    // Changed on the disk after the opening scan: the last record's checksum no longer holds.
    const path = join(folder, '00000000000000000001.log');
    const bytes = await readFile(path);
    bytes[bytes.length - 3] = 0x33;
    await writeFile(path, bytes);
    const both = [
      { firstSeq: 1, lastSeq: 1, envelopes: ['{"seq":1}'] },
      { firstSeq: 2, lastSeq: 2, envelopes: ['{"seq":2}'] },
    ];
    // A restart's read right after opening is the scan's bytes, not a second read of the files...
    expect(await readBack(log, 0)).toEqual(both);
    // ...and only that one: the next reads the file, whose changed last record does not pass its checksum.
    expect(await readBack(log, 0)).toEqual(both.slice(0, 1));
    await log.close();
  });

  it('opens from files read ahead while the store opened: the same log, the torn write cut then', async () => {
    const folder = await tempFolder('fairex-durable-ahead-');
    const syncStore = async () => {};
    let log = await openDurableLog({ folder, syncStore });
    await log.append({ firstSeq: 1, lastSeq: 2, text: '{"seq":1}\n{"seq":2}' });
    await log.append({ firstSeq: 3, lastSeq: 3, text: '{"seq":3}' });
    await log.close();
    const path = join(folder, '00000000000000000001.log');
    const whole = await readFile(path);
    await writeFile(path, Buffer.concat([whole, Buffer.from('B 4 4 10 00000000\n{"se')]));

    // Reading ahead changes nothing on the disk; the open cuts the torn write.
    const readAhead = new DurableLogReadAhead(folder);
    expect(readAhead.take(join(folder, 'elsewhere'))).toBeUndefined();
    const again = new DurableLogReadAhead(folder);
    const files = again.take(folder);
    expect(again.take(folder)).toBeUndefined();
    expect(files).toBeDefined();
    const read = await (files as Promise<DurableLogFiles>);
    expect(read.segments.map((segment) => segment.scan.lastSeq)).toEqual([3]);
    expect((await readFile(path)).length).toBeGreaterThan(whole.length);
    log = await openDurableLog({ folder, syncStore, files: Promise.resolve(read) });
    expect((await readFile(path)).equals(whole)).toBe(true);
    expect(log.lastSeq).toBe(3);
    expect(await readBack(log, 0)).toEqual([
      { firstSeq: 1, lastSeq: 2, envelopes: ['{"seq":1}', '{"seq":2}'] },
      { firstSeq: 3, lastSeq: 3, envelopes: ['{"seq":3}'] },
    ]);
    await log.append({ firstSeq: 4, lastSeq: 4, text: '{"seq":4}' });
    await log.close();
    // Files read for another folder are refused rather than taken for this one's.
    await expect(
      openDurableLog({ folder: join(folder, 'x'), syncStore, files: Promise.resolve(read) }),
    ).rejects.toThrow(/read from/);
    // A folder that does not exist yet reads as an empty log.
    expect((await readDurableLogFiles(join(folder, 'missing'))).segments).toEqual([]);
  });

  // Linux shows an open file's flags in /proc: the segment's writes themselves are the flush (one call on the
  // thread pool per append, not a write and an fdatasync).
  it.runIf(process.platform === 'linux')('opens its segment for synchronous data writes', async () => {
    const folder = await tempFolder('fairex-durable-dsync-');
    const log = await openDurableLog({ folder, syncStore: async () => {} });
    await log.append({ firstSeq: 1, lastSeq: 1, text: '{"seq":1}' });
    const segment = join(folder, '00000000000000000001.log');
    const flags: number[] = [];
    for (const fd of await readdir('/proc/self/fd')) {
      const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
      if (target !== segment) continue;
      const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8');
      flags.push(Number.parseInt(/^flags:\s*([0-7]+)$/m.exec(info)?.[1] ?? '0', 8));
    }
    await log.close();
    expect(flags).toHaveLength(1);
    expect((flags[0] as number) & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect((flags[0] as number) & constants.O_APPEND).toBe(constants.O_APPEND);
  });

  it('keeps a segment on rotation while it holds a batch the store has not written', async () => {
    const folder = await tempFolder('fairex-durable-rotate-');
    let log = await openDurableLog({ folder, syncStore: async () => {} });
    await log.append({ firstSeq: 1, lastSeq: 2, text: '{"seq":1}\n{"seq":2}' });
    await log.rotate(2);
    await log.append({ firstSeq: 3, lastSeq: 3, text: '{"seq":3}' });
    await log.append({ firstSeq: 4, lastSeq: 5, text: '{"seq":4}\n{"seq":5}' });
    // The store's rows reach seq 4: the segment holding seq 5 stays, batches and all.
    await log.rotate(4);
    await log.append({ firstSeq: 6, lastSeq: 6, text: '{"seq":6}' });
    expect(await readdir(folder)).toEqual(['00000000000000000003.log', '00000000000000000006.log']);
    expect((await log.batchesAfter(4)).map((batch) => batch.firstSeq)).toEqual([4, 6]);
    // A later rotation, once the store holds seq 6, drops both.
    await log.rotate(6);
    await log.append({ firstSeq: 7, lastSeq: 7, text: '{"seq":7}' });
    await log.close();
    expect(await readdir(folder)).toEqual(['00000000000000000007.log']);
    // Reopened, the kept segments read as one log.
    log = await openDurableLog({ folder, syncStore: async () => {} });
    expect(log.lastSeq).toBe(7);
    await log.close();
  });

  it('answers a batch before the store holds its journal row, and writes the row with its projections', async () => {
    const dataDir = await tempFolder('fairex-durable-behind-');
    const users = 4;
    const workload = new Workload(17, users);
    const store = await openStore({ dataDir });
    // The projector waits before each transaction: the replies cannot have waited for it.
    const runner = await start(store, { projectorDelayMs: 200 });
    for (const command of setupCommands(users)) await runner.submit(command);
    await whenCaughtUp(runner);
    const rowsEnd = async () =>
      Number(
        (
          await store.query<{ last_seq: bigint }>(
            'select coalesce(max(last_seq), 0) as last_seq from engine_journal',
          )
        ).rows[0]?.last_seq,
      );
    const before = await rowsEnd();
    const outcome = await runner.submit(workload.next(runner.engine));
    expect(outcome.seq).toBe(before + 1);
    expect(await rowsEnd()).toBe(before);
    await whenCaughtUp(runner);
    expect(await rowsEnd()).toBe(outcome.seq);
    await runner.close();
    await store.close();
  });
  it('reads a batch payload line by line, one line per seq, as its texts split', () => {
    const batch = (firstSeq: number, lastSeq: number, text: string) => ({
      firstSeq,
      lastSeq,
      payload: Buffer.from(text),
      stateHash: null,
    });
    const seen: string[] = [];
    const good = batch(4, 6, 'a\n\nccc');
    forEachPayloadLine(good, (seq, start, end) =>
      seen.push(`${seq}:${good.payload.toString('utf8', start, end)}`),
    );
    expect(seen).toEqual(['4:a', '5:', '6:ccc']);
    expect(replayBatchTexts(good)).toEqual(['a', '', 'ccc']);
    // A line too few or too many (a newline at the end is one more, empty, line) is damage.
    for (const bad of [batch(4, 6, 'a\nb'), batch(4, 5, 'a\nb\nc'), batch(4, 5, 'a\nb\n')]) {
      expect(() => forEachPayloadLine(bad, () => {})).toThrow(RecoveryError);
      expect(() => replayBatchTexts(bad)).toThrow(RecoveryError);
    }
  });
});
