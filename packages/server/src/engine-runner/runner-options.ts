// The engine runner's contract: the options it starts with, its settings (checked, with their defaults),
// and what it offers its callers (EngineRunner). runner.ts composes the stages (stages/) that implement it.
import type { Store } from '../store/index.ts';
import type { DurableLog } from './durable-log.ts';
import type { Projector } from './projector.ts';
import type { EngineReplica } from './replica.ts';
import type { RecoveredEngine } from './recovery.ts';
import type {
  CommittedBatch,
  EngineKit,
  RunnerEngine,
  RunnerOutcome,
  RunnerLogger,
  RunnerState,
} from './types.ts';

export interface RunnerCoreOptions<C, E, G extends RunnerEngine<C, E>> {
  store: Pick<Store, 'transaction' | 'query'>;
  logger: RunnerLogger;
  kit: EngineKit<C, E, G>;
  /** The areas' projections, written in this order by the projector stage (projector.ts). */
  projectors?: readonly Projector<C, E>[] | undefined;
  /** Most commands one projector transaction carries, however many committed batches wait (default 4,000). */
  projectorMaxBatchCommands?: number;
  /**
   * Most events (about one projection row each) one projector transaction carries, unless a single command
   * has more (default 1,000). On the embedded store a transaction runs on the event loop from its first
   * statement to its commit, so this bounds how long one projector step holds the loop; a committed batch
   * larger than that is projected in several transactions, and the stage yields to the event loop between
   * two of them.
   */
  projectorMaxBatchEvents?: number;
  /**
   * Committed but unprojected commands beyond which submit() refuses with RunnerOverloadedError until the
   * projector catches up (default 50,000). It bounds what a reader waits for and what a restart re-projects.
   */
  projectorMaxLagCommands?: number;
  /** Test knob: milliseconds the projector stage waits before each transaction, to make it lag (default 0). */
  projectorDelayMs?: number;
  /**
   * Least milliseconds between the starts of two projector transactions (default 0: the next starts once the
   * event loop turned). A transaction has a fixed cost (on the embedded store, on the event loop) whatever it
   * carries; with a pace, commands committed meanwhile share the next one. No reply waits for it, only a
   * read-your-writes read, by at most this much more.
   */
  projectorPaceMs?: number;
  /** Commands between snapshots (default 100,000). */
  snapshotEvery?: number;
  /** Commands between state hashes recorded in the journal for recovery to verify (default 10,000). */
  checkpointEvery?: number;
  /**
   * Least time between two state hashes, in the commands' own stamped milliseconds (default 0). A hash is a
   * pass over the whole state on the runner's thread; under a heavy load with a large book, every 10,000
   * commands would stop the event loop for tens of milliseconds several times a second.
   */
  checkpointMinIntervalMs?: number;
  /** Least time between two snapshots, in stamped milliseconds (default 0); the same reason. */
  snapshotMinIntervalMs?: number;
  /**
   * The size rule: a snapshot is due once this many commands were journaled since the last one, whatever
   * `snapshotMinIntervalMs` says (default 0: off). It bounds what a restart after a crash replays.
   */
  snapshotMaxCommands?: number;
  /** The same rule by the journal's bytes (encoded envelopes) since the last snapshot (default 0: off). */
  snapshotMaxBytes?: number;
  /**
   * Called after a batch carrying a snapshot committed, not awaited (a failure is logged). The embedded
   * store checkpoints its write-ahead log here, so that a restart after a crash redoes only what was written
   * since the snapshot.
   */
  afterSnapshot?: () => Promise<unknown>;
  /** Snapshots kept in the database (default 3). */
  snapshotsKept?: number;
  /** Write a snapshot at close when commands were committed since the last one (default true). */
  snapshotOnClose?: boolean;
  /** Milliseconds since the epoch; stamped times never go backwards even if this does. */
  clock?: () => number;
  /** Largest batch one transaction carries (default 2,000 commands). */
  maxBatchCommands?: number;
  /** Applied but uncommitted commands beyond which submit() refuses (default 100,000). */
  maxPendingCommands?: number;
  /** Called once when the runner stops after a failure; a supervisor restart recovers the journal state. */
  onFatal?: (error: Error) => void;
  /**
   * A log every batch is appended to and flushed to the disk before its callers are answered (the embedded
   * store, which never fsyncs, gets one: durable-log.ts). With projectors, the log is the journal commit and
   * the batch's journal row goes to the store with its projections; without, the row is written in parallel
   * with the append. At start the batches the store lacks are taken back from it.
   */
  durableLog?: DurableLog | undefined;
  /**
   * Hold the projector while it has the durable log's tail to write at start (the batches a restart took
   * back), until releaseProjector() is called or something waits for a projection (whenProjected), so that
   * the rest of the start (queries of its own on the same store) does not queue behind those transactions.
   * The app releases it as its last start-up step (default false: the projector starts at once).
   */
  holdRecoveredTail?: boolean;
  /**
   * A replica engine on a worker thread (replica.ts) that takes the state hashes and snapshots, so that the
   * event loop never walks the whole state. Fed from recovery and every committed batch; the runner closes
   * it. When it fails the runner hashes and snapshots on its own thread again.
   */
  replica?: EngineReplica | undefined;
  /**
   * The folder of snapshot files (snapshot-files.ts; the embedded store's `<data folder>/snapshots`): the
   * replica writes its snapshots there and the store keeps only their descriptor rows. Unset: snapshots are
   * written into the store.
   */
  snapshotFolder?: string | undefined;
}

export interface WhenProjectedOptions {
  /** Give up after this long and resolve false (default: wait as long as it takes). */
  timeoutMs?: number;
}

export interface SubmitOptions {
  /** Passed to the engine, which answers a repeated key with the first outcome instead of applying again. */
  idempotencyKey?: string;
}

export interface RunnerStats {
  lastSeq: number;
  lastCommittedSeq: number;
  lastSnapshotSeq: number;
  /** Snapshots taken since start, by the rule that made them due (close and genesis not counted). */
  snapshotsByTime: number;
  snapshotsBySize: number;
  /** Journal bytes committed since the last snapshot: each encoded envelope and its newline. */
  bytesSinceSnapshot: number;
  committedBatches: number;
  committedCommands: number;
  /**
   * Milliseconds the committed batches waited for their commit (the journal transaction, or the durable log's
   * append), summed: over committedBatches, a commit's mean time, the wait every reply has on top of its batch.
   */
  committedMs: number;
  pendingCommands: number;
  /** The last seq whose projections are committed. */
  projectedSeq: number;
  /**
   * How far the projector is behind the journal: committed commands not yet projected, and the age of the
   * oldest of them in milliseconds (both 0 when it is caught up).
   */
  projectorLag: { commands: number; ms: number };
  /** The lag in commands beyond which submit() refuses (back-pressure). */
  projectorMaxLagCommands: number;
  /** Projector transactions committed since start, and the commands they carried. */
  projectedBatches: number;
  projectedCommands: number;
  recovery: Omit<RecoveredEngine<unknown>, 'engine'>;
}

export interface EngineRunner<C = unknown, E = unknown, G extends RunnerEngine<C, E> = RunnerEngine<C, E>> {
  /** The live engine, for reads. It may be ahead of the journal by the batch being committed. */
  readonly engine: G;
  readonly state: RunnerState;
  /** Why the runner stopped, when state is 'failed'. */
  readonly failure: Error | undefined;
  submit(command: C, options?: SubmitOptions): Promise<RunnerOutcome<E>>;
  /**
   * Listens to committed batches, in seq order; returns a function that removes the listener. Called when
   * the journal committed, before the projections are written: a listener that reads projection tables
   * uses onProjected instead.
   */
  onCommitted(listener: (batch: CommittedBatch<C, E>) => void): () => void;
  /**
   * Listens to projected batches, in seq order, once their projections are committed (several committed
   * batches may arrive as one, and a large one in parts). Returns a function that removes the listener.
   */
  onProjected(listener: (batch: CommittedBatch<C, E>) => void): () => void;
  /**
   * Resolves true once the projections are written up to `seq` (at once when they are), false when
   * `timeoutMs` passed first; rejects when the runner stops before.
   */
  whenProjected(seq: number, options?: WhenProjectedOptions): Promise<boolean>;
  /** The last seq whose projections are committed. */
  readonly projectedSeq: number;
  /**
   * Read-your-writes: remembers the last seq acknowledged to a reader (a user id), so that its next read can
   * wait with whenProjected(acknowledgedSeq(key)). Forgotten once projected.
   */
  noteAcknowledged(key: number | string, seq: number): void;
  /**
   * The last seq acknowledged to `key` that is not yet projected, or 0. While the commands a restart took
   * back from the durable log are not all projected, at least the last of them: whoever reads is waited for
   * them, since nobody knows whose they were.
   */
  acknowledgedSeq(key: number | string): number;
  /**
   * The committed batches whose projections are not all written yet, in seq order (the first may be partly
   * written): for a reader that loads a projection table once and then follows onCommitted, what the table
   * may still lack.
   */
  unprojectedBatches(): CommittedBatch<C, E>[];
  /** Lets the projector start on the durable log's tail when it was held (holdRecoveredTail); else nothing. */
  releaseProjector(): void;
  stats(): RunnerStats;
  /** Refuses new commands, commits what is pending, writes a snapshot, and resolves when done. */
  close(): Promise<void>;
}

export const RUNNER_DEFAULTS = {
  snapshotEvery: 100_000,
  checkpointEvery: 10_000,
  checkpointMinIntervalMs: 0,
  snapshotMinIntervalMs: 0,
  snapshotMaxCommands: 0,
  snapshotMaxBytes: 0,
  snapshotsKept: 3,
  maxBatchCommands: 2_000,
  maxPendingCommands: 100_000,
  projectorMaxBatchCommands: 4_000,
  projectorMaxBatchEvents: 1_000,
  projectorMaxLagCommands: 50_000,
  projectorDelayMs: 0,
  projectorPaceMs: 0,
};

/** The runner's settings: every option checked and defaulted. */
export type RunnerSettings = typeof RUNNER_DEFAULTS & { snapshotOnClose: boolean; clock: () => number };

/** Checks the options' numbers (a RangeError names the one that is wrong) and fills in the defaults. */
export function runnerSettings<C, E, G extends RunnerEngine<C, E>>(
  options: RunnerCoreOptions<C, E, G>,
): RunnerSettings {
  return {
    snapshotEvery: positive(options.snapshotEvery, RUNNER_DEFAULTS.snapshotEvery, 'snapshotEvery'),
    checkpointEvery: positive(options.checkpointEvery, RUNNER_DEFAULTS.checkpointEvery, 'checkpointEvery'),
    checkpointMinIntervalMs: notNegative(
      options.checkpointMinIntervalMs,
      RUNNER_DEFAULTS.checkpointMinIntervalMs,
      'checkpointMinIntervalMs',
    ),
    snapshotMinIntervalMs: notNegative(
      options.snapshotMinIntervalMs,
      RUNNER_DEFAULTS.snapshotMinIntervalMs,
      'snapshotMinIntervalMs',
    ),
    snapshotMaxCommands: notNegative(
      options.snapshotMaxCommands,
      RUNNER_DEFAULTS.snapshotMaxCommands,
      'snapshotMaxCommands',
    ),
    snapshotMaxBytes: notNegative(
      options.snapshotMaxBytes,
      RUNNER_DEFAULTS.snapshotMaxBytes,
      'snapshotMaxBytes',
    ),
    snapshotsKept: positive(options.snapshotsKept, RUNNER_DEFAULTS.snapshotsKept, 'snapshotsKept'),
    maxBatchCommands: positive(
      options.maxBatchCommands,
      RUNNER_DEFAULTS.maxBatchCommands,
      'maxBatchCommands',
    ),
    maxPendingCommands: positive(
      options.maxPendingCommands,
      RUNNER_DEFAULTS.maxPendingCommands,
      'maxPendingCommands',
    ),
    projectorMaxBatchCommands: positive(
      options.projectorMaxBatchCommands,
      RUNNER_DEFAULTS.projectorMaxBatchCommands,
      'projectorMaxBatchCommands',
    ),
    projectorMaxBatchEvents: positive(
      options.projectorMaxBatchEvents,
      RUNNER_DEFAULTS.projectorMaxBatchEvents,
      'projectorMaxBatchEvents',
    ),
    projectorMaxLagCommands: positive(
      options.projectorMaxLagCommands,
      RUNNER_DEFAULTS.projectorMaxLagCommands,
      'projectorMaxLagCommands',
    ),
    projectorDelayMs: notNegative(
      options.projectorDelayMs,
      RUNNER_DEFAULTS.projectorDelayMs,
      'projectorDelayMs',
    ),
    projectorPaceMs: notNegative(options.projectorPaceMs, RUNNER_DEFAULTS.projectorPaceMs, 'projectorPaceMs'),
    snapshotOnClose: options.snapshotOnClose ?? true,
    clock: options.clock ?? Date.now,
  };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

function notNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0`);
  return value;
}
