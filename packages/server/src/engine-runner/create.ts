// createEngineRunner: the runner with the real engine and the projectors it is given, and on PostgreSQL the
// leader lock that keeps a second runner from starting against the same journal. Which projectors the
// exchange runs is decided outside this folder (exchange-runner.ts): the runner imports no area.
import type { Command, Engine, EngineCreateOptions, EngineEvent } from '@fairex/engine';
import type { Config } from '../config.ts';
import type { Store, StoreConnection } from '../store/index.ts';
import type { DurableLog } from './durable-log.ts';
import { openDurableLog } from './durable-log.ts';
import type { DurableLogReadAhead } from './durable-log-files.ts';
import { durableLogFolder } from './durable-log-files.ts';
import { engineKit } from './engine-kit.ts';
import type { EngineReplica } from './replica.ts';
import { startReplica } from './replica.ts';
import { embeddedSnapshotFolder } from './snapshot-files.ts';
import { RunnerUnavailableError } from './errors.ts';
import type { EngineRunner, RunnerCoreOptions } from './runner.ts';
import { startRunner } from './runner.ts';

export type ExchangeRunner = EngineRunner<Command, EngineEvent, Engine>;

export type RunnerStore = Pick<Store, 'transaction' | 'query'> &
  Partial<Pick<Store, 'kind' | 'offEventLoop' | 'connect' | 'syncToDisk' | 'dataDir' | 'openedInMs'>>;

export interface EngineRunnerOptions extends Omit<
  RunnerCoreOptions<Command, EngineEvent, Engine>,
  'store' | 'kit' | 'durableLog'
> {
  store: RunnerStore;
  /** Shape a new, empty engine only; a restored engine keeps the options it was created with. */
  engineOptions?: EngineCreateOptions;
  /** Write the projectors' rows with each batch (default true); false runs the journal alone. */
  projections?: boolean;
  /**
   * PostgreSQL: how long to wait for the leader lock (default 5,000 ms). A process restarted after a crash
   * may start before the database has noticed that its predecessor's connection died.
   */
  leaderWaitMs?: number;
  /**
   * Embedded store only: append every batch to the durable log in `<dataDir>/durable-journal` and flush it
   * to the disk before answering (default true; JOURNAL_FSYNC). Without it an operating-system crash may
   * lose acknowledged commands, since PGlite never fsyncs. PostgreSQL flushes its own journal.
   */
  journalFsync?: boolean;
  /**
   * Embedded store only: checkpoint PGlite once this many bytes of write-ahead log were written since the
   * last checkpoint (default WAL_CHECKPOINT_BYTES; 0: only after snapshots). See walCheckpointRhythm.
   */
  walCheckpointBytes?: number;
  /**
   * Take state hashes and snapshots on a replica engine in a worker thread instead of the event loop
   * (replica.ts; default false here, true for the exchange through ENGINE_REPLICA). `replica` gives one.
   */
  engineReplica?: boolean;
  /** The durable log's files, read while the store opened (DurableLogReadAhead); else read when opened. */
  durableLogReadAhead?: DurableLogReadAhead;
}

/**
 * PGlite runs in single-user mode, where nothing checkpoints by itself (the checkpointer process and
 * max_wal_size exist only under a postmaster): its write-ahead log grows without end between the
 * checkpoints the runner asks for, and opening the store after a crash redoes all of it, about 300 MB per
 * 200,000 commands with their projections, seconds before the journal is even read. The runner therefore
 * checkpoints whenever this much log was written since the last checkpoint, which bounds that redo to a
 * fraction of a second. Each checkpoint writes the pages changed since the previous one.
 */
export const WAL_CHECKPOINT_BYTES = 64 * 1024 * 1024;
/** How often the write-ahead log's position is looked at (one short query). */
export const WAL_CHECKPOINT_POLL_MS = 1_000;

export { DURABLE_LOG_FOLDER } from './durable-log-files.ts';

// Advisory locks are per database; the schema is part of the key so that installations (or test runs) in
// separate schemas of one database each have their own leader.
const LEADER_LOCK_KEY = `hashtext('fairex:engine-runner:' || current_schema())`;

/**
 * How often the exchange's runner hashes and snapshots its state: every 10,000 and 100,000 commands, but under
 * a heavy load no more than once per 10 and 60 seconds of command time. Each is a pass over the whole state
 * on the event loop (about 60 ms with 80,000 resting orders); at 13,000 orders a second, every 10,000
 * commands would stall every request in flight more than once a second. Recovery then replays at most a
 * minute of commands after the latest snapshot and verifies a state hash at least every 10 seconds of them.
 */
export const EXCHANGE_RUNNER_RHYTHM = {
  checkpointMinIntervalMs: 10_000,
  snapshotMinIntervalMs: 60_000,
} as const;

/**
 * The exchange's runner settings from its configuration: the rhythm above, plus the size rule (a snapshot
 * once SNAPSHOT_EVERY_COMMANDS commands or SNAPSHOT_EVERY_MB of journal were written since the last one, the
 * least interval notwithstanding), which bounds what a restart after a crash replays, and how many snapshots
 * are kept.
 */
export function exchangeRunnerSettings(
  config: Pick<
    Config,
    | 'snapshotEveryCommands'
    | 'snapshotEveryBytes'
    | 'snapshotsKept'
    | 'journalFsync'
    | 'engineReplica'
    | 'projectorMaxLag'
  >,
): Pick<
  EngineRunnerOptions,
  | 'journalFsync'
  | 'engineReplica'
  | 'checkpointMinIntervalMs'
  | 'snapshotMinIntervalMs'
  | 'snapshotMaxCommands'
  | 'snapshotMaxBytes'
  | 'snapshotsKept'
  | 'projectorMaxLagCommands'
> {
  return {
    ...EXCHANGE_RUNNER_RHYTHM,
    snapshotMaxCommands: config.snapshotEveryCommands,
    snapshotMaxBytes: config.snapshotEveryBytes,
    snapshotsKept: config.snapshotsKept,
    journalFsync: config.journalFsync,
    engineReplica: config.engineReplica,
    projectorMaxLagCommands: config.projectorMaxLag,
  };
}

/**
 * The events of one projector transaction where the database's work runs off the event loop: PostgreSQL,
 * and PGlite on its own thread (PGlite on the event loop keeps the runner's 1,000).
 */
export const OFF_LOOP_PROJECTOR_EVENTS = 8_000;

/** The least milliseconds between two projector transactions' starts on the embedded store. */
export const PGLITE_PROJECTOR_PACE_MS = 50;

/**
 * Recovers the engine from the store (latest snapshot, then the journal after it, verifying state hashes and
 * invariants) and returns a runner serving commands. On PostgreSQL it first takes a session advisory lock, so
 * that of several processes sharing a database exactly one runs the engine; the journal's append check
 * would stop a second writer anyway, but only at its first commit and after it had served stale reads.
 */
export async function createEngineRunner(options: EngineRunnerOptions): Promise<ExchangeRunner> {
  const {
    engineOptions,
    projections,
    leaderWaitMs,
    journalFsync,
    engineReplica,
    walCheckpointBytes,
    durableLogReadAhead,
    ...core
  } = options;
  if (core.store.openedInMs !== undefined) {
    const { open, migrate } = core.store.openedInMs;
    core.logger.info(
      { openMs: Math.round(open), migrateMs: Math.round(migrate) },
      'store opened (on the embedded store, open includes the redo of its write-ahead log)',
    );
  }
  const leader = await takeLeaderLock(core.store, leaderWaitMs ?? 5_000);
  let durableLog: DurableLog | undefined;
  let replica: EngineReplica | undefined;
  try {
    durableLog = await embeddedDurableLog(core.store, journalFsync ?? true, durableLogReadAhead);
    replica = core.replica ?? (engineReplica === true ? startReplica(engineOptions) : undefined);
    const runner = await startRunner({
      ...core,
      // PGlite runs no background checkpointer: without a checkpoint its write-ahead log grows until
      // max_wal_size, and a restart after a crash redoes all of it before the journal is even read.
      afterSnapshot:
        core.afterSnapshot ??
        (core.store.kind === 'pglite' ? () => core.store.query('checkpoint') : undefined),
      kit: engineKit(engineOptions),
      // PGlite on the event loop (EMBEDDED_STORE_THREAD=off) runs a projector transaction there, so its size
      // is a stall. PostgreSQL runs it in a process of its own and threaded PGlite on its thread, where
      // fewer, larger transactions cost less: each statement's round trip waits for a turn of a busy event
      // loop, and with 1,000 events a transaction the projector fell behind 10,000 commands a second.
      projectorMaxBatchEvents:
        core.projectorMaxBatchEvents ?? (core.store.offEventLoop ? OFF_LOOP_PROJECTOR_EVENTS : undefined),
      // PGlite's transactions have a fixed cost each, on its thread or on the event loop: at most one every
      // 50 ms while the commands waiting fit one.
      projectorPaceMs: core.projectorPaceMs ?? (core.store.kind === 'pglite' ? PGLITE_PROJECTOR_PACE_MS : 0),
      projectors: projections === false ? [] : (core.projectors ?? []),
      durableLog,
      replica,
      // The embedded store keeps snapshots in files beside its durable log (snapshot-files.ts).
      snapshotFolder: core.snapshotFolder ?? embeddedSnapshotFolder(core.store),
    });
    if (core.store.kind === 'pglite') {
      walCheckpointRhythm(runner, core.store, walCheckpointBytes ?? WAL_CHECKPOINT_BYTES, core.logger);
    }
    return leader ? withLockReleasedOnClose(runner, leader) : runner;
  } catch (error) {
    await durableLog?.close();
    await replica?.close();
    await releaseLeaderLock(leader);
    throw error;
  }
}

/**
 * Checkpoints the embedded store whenever `everyBytes` of write-ahead log were written since the last
 * checkpoint this rhythm took (see WAL_CHECKPOINT_BYTES), until the runner closes. A checkpoint that fails is
 * logged and tried again at the next look: it only bounds the redo of a later start.
 */
export function walCheckpointRhythm(
  runner: ExchangeRunner,
  store: Pick<Store, 'query'>,
  everyBytes: number,
  logger: Pick<RunnerCoreOptions<Command, EngineEvent, Engine>['logger'], 'warn'>,
  pollMs = WAL_CHECKPOINT_POLL_MS,
): void {
  if (everyBytes <= 0) return;
  let busy = false;
  let stopped = false;
  const look = async (): Promise<void> => {
    // Since the last checkpoint, whoever took it (a snapshot is followed by one too).
    const { rows } = await store.query<{ pending: bigint }>(
      `select (pg_current_wal_insert_lsn() - redo_lsn)::int8 as pending from pg_control_checkpoint()`,
    );
    const pending = rows[0]?.pending;
    if (pending === undefined || pending < BigInt(everyBytes) || stopped) return;
    await store.query('checkpoint');
  };
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    look()
      .catch((error: unknown) => {
        if (!stopped) logger.warn({ err: error }, 'the write-ahead log could not be checkpointed');
      })
      .finally(() => (busy = false));
  }, pollMs);
  timer.unref();
  const close = runner.close.bind(runner);
  runner.close = async () => {
    stopped = true;
    clearInterval(timer);
    await close();
  };
}

async function embeddedDurableLog(
  store: RunnerStore,
  wanted: boolean,
  readAhead: DurableLogReadAhead | undefined,
): Promise<DurableLog | undefined> {
  const { syncToDisk, dataDir } = store;
  // Taken whether or not it is used, so that its bytes are not kept for the process's life.
  const files = dataDir === undefined ? undefined : readAhead?.take(durableLogFolder(dataDir));
  if (!wanted || store.kind !== 'pglite' || syncToDisk === undefined || dataDir === undefined)
    return undefined;
  return openDurableLog({
    folder: durableLogFolder(dataDir),
    syncStore: () => syncToDisk(),
    ...(files === undefined ? {} : { files }),
  });
}

async function takeLeaderLock(store: RunnerStore, waitMs: number): Promise<StoreConnection | undefined> {
  // PGlite is one process's database (its folder is locked), so there is nobody to exclude.
  if (store.kind !== 'postgres' || store.connect === undefined) return undefined;
  const connection = await store.connect();
  const deadlineMs = Date.now() + waitMs;
  try {
    for (;;) {
      const { rows } = await connection.query<{ locked: boolean }>(
        `select pg_try_advisory_lock(${LEADER_LOCK_KEY}) as locked`,
      );
      if (rows[0]?.locked === true) return connection;
      if (Date.now() >= deadlineMs) {
        throw new RunnerUnavailableError(
          'another engine runner holds this database; only one may run the engine',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    connection.release();
    throw error;
  }
}

async function releaseLeaderLock(connection: StoreConnection | undefined): Promise<void> {
  if (connection === undefined) return;
  try {
    await connection.query(`select pg_advisory_unlock(${LEADER_LOCK_KEY})`);
  } finally {
    connection.release();
  }
}

function withLockReleasedOnClose(runner: ExchangeRunner, leader: StoreConnection): ExchangeRunner {
  const close = runner.close.bind(runner);
  let released: Promise<void> | undefined;
  runner.close = async () => {
    await close();
    released ??= releaseLeaderLock(leader);
    await released;
  };
  return runner;
}
