// The engine runner: the single writer in front of the engine.
//
// submit() stamps the command with the next seq and a time, applies it to the engine at once (so reads see
// it immediately and the next command is checked against it), and parks the caller. Parked commands form the
// next batch; whenever no commit is in flight the batch is cut and committed to the journal, with its
// projections and perhaps a snapshot, in one SQL transaction (group commit). Callers are answered only after
// their batch's transaction committed.
//
// A failed commit leaves the in-memory engine ahead of the journal. Rather than try to undo, the runner stops
// (crash-only): it fails every parked caller, refuses new commands, and reports the failure; a restart
// recovers the exact journal state by replay.
import type { Store } from '../store/index.ts';
import type { DurableLog } from './durable-log.ts';
import { CommitFailedError, RunnerOverloadedError, RunnerUnavailableError } from './errors.ts';
import {
  appendBatch,
  ENVELOPE_SEPARATOR,
  genesisSnapshot,
  writeSnapshot,
  writeSnapshotInParts,
} from './journal.ts';
import type { Projector } from './projector.ts';
import type { EngineReplica } from './replica.ts';
import type { RecoveredEngine, RecoveryObserver } from './recovery.ts';
import { catchUpFromDurableLog, recoverEngine } from './recovery.ts';
import type {
  CommittedBatch,
  EngineKit,
  RunnerEngine,
  RunnerEnvelope,
  RunnerLogger,
  RunnerOutcome,
  RunnerState,
} from './types.ts';
import { stateHashOf } from './types.ts';

export interface RunnerCoreOptions<C, E, G extends RunnerEngine<C, E>> {
  store: Pick<Store, 'transaction' | 'query'>;
  logger: RunnerLogger;
  kit: EngineKit<C, E, G>;
  /** The areas' projections, written in this order inside each batch's transaction (projector.ts). */
  projectors?: readonly Projector<C, E>[] | undefined;
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
   * A log every batch is also appended to and flushed to the disk before its callers are answered, written
   * in parallel with the SQL transaction (the embedded store, which never fsyncs, gets one: durable-log.ts).
   * At start the batches the store lost are taken back from it.
   */
  durableLog?: DurableLog | undefined;
  /**
   * A replica engine on a worker thread (replica.ts) that takes the state hashes and snapshots, so that the
   * event loop never walks the whole state. Fed from recovery and every committed batch; the runner closes
   * it. When it fails the runner hashes and snapshots on its own thread again.
   */
  replica?: EngineReplica | undefined;
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
  pendingCommands: number;
  recovery: Omit<RecoveredEngine<unknown>, 'engine'>;
}

export interface EngineRunner<C = unknown, E = unknown, G extends RunnerEngine<C, E> = RunnerEngine<C, E>> {
  /** The live engine, for reads. It may be ahead of the journal by the batch being committed. */
  readonly engine: G;
  readonly state: RunnerState;
  /** Why the runner stopped, when state is 'failed'. */
  readonly failure: Error | undefined;
  submit(command: C, options?: SubmitOptions): Promise<RunnerOutcome<E>>;
  /** Listens to committed batches, in seq order; returns a function that removes the listener. */
  onCommitted(listener: (batch: CommittedBatch<C, E>) => void): () => void;
  stats(): RunnerStats;
  /** Refuses new commands, commits what is pending, writes a snapshot, and resolves when done. */
  close(): Promise<void>;
}

interface Parked<C, E> {
  envelope: RunnerEnvelope<C>;
  text: string;
  outcome: RunnerOutcome<E>;
  resolve: (outcome: RunnerOutcome<E>) => void;
  reject: (error: Error) => void;
}

const DEFAULTS = {
  snapshotEvery: 100_000,
  checkpointEvery: 10_000,
  checkpointMinIntervalMs: 0,
  snapshotMinIntervalMs: 0,
  snapshotMaxCommands: 0,
  snapshotMaxBytes: 0,
  snapshotsKept: 3,
  maxBatchCommands: 2_000,
  maxPendingCommands: 100_000,
};

export async function startRunner<C, E, G extends RunnerEngine<C, E>>(
  options: RunnerCoreOptions<C, E, G>,
): Promise<EngineRunner<C, E, G>> {
  const replica = options.replica;
  const observer: RecoveryObserver | undefined = replica && {
    restored: (body) => replica.load(body),
    replayed: (texts, codes) => replica.feed(texts, codes),
  };
  const recovered = await recoverEngine(options.store, options.kit, observer);
  if (recovered.snapshotSeq === 0 && recovered.lastSeq === 0 && !(await genesisSnapshot(options.store))) {
    const body = recovered.engine.snapshot();
    const stateHash = options.kit.hashSnapshot?.(body) ?? recovered.engine.stateHash();
    await options.store.transaction((tx) => writeSnapshot(tx, { seq: 0, timeMs: 0, stateHash, body }, 1));
  }
  if (options.durableLog) {
    await catchUpFromDurableLog(
      options.store,
      options.kit,
      recovered,
      options.durableLog,
      options.projectors ?? [],
      observer,
    );
    // The store now holds everything the log does: later batches go to a new segment, and the older ones
    // are deleted once the store's files are flushed (in the background: a second or so of fsyncs that a
    // start need not wait for; until then the older segments stay).
    options.durableLog.rotate().catch((error: unknown) => {
      options.logger.warn({ err: error }, 'the durable log could not drop its older segments');
    });
  }
  options.logger.info(
    {
      lastSeq: recovered.lastSeq,
      snapshotSeq: recovered.snapshotSeq,
      verifiedSeq: recovered.verifiedSeq,
      replayedCommands: recovered.replayedCommands,
      replayedBytes: recovered.replayedBytes,
      fromDurableLog: recovered.fromDurableLog,
      durationMs: Math.round(recovered.durationMs),
    },
    'engine recovered from the journal',
  );
  return new Runner(options, recovered);
}

class Runner<C, E, G extends RunnerEngine<C, E>> implements EngineRunner<C, E, G> {
  readonly engine: G;
  state: RunnerState = 'serving';
  failure: Error | undefined;

  private readonly options: RunnerCoreOptions<C, E, G>;
  private readonly settings: typeof DEFAULTS & { snapshotOnClose: boolean; clock: () => number };
  private readonly recovery: Omit<RecoveredEngine<unknown>, 'engine'>;
  private readonly listeners = new Set<(batch: CommittedBatch<C, E>) => void>();
  private parked: Parked<C, E>[] = [];
  private inFlightCommands = 0;
  private lastSeq: number;
  private lastTimeMs: number;
  private lastCommittedSeq: number;
  private lastSnapshotSeq: number;
  private lastCheckpointSeq: number;
  /** Stamped times of the last snapshot and state hash (the recovered state's time at start). */
  private lastSnapshotTimeMs: number;
  private lastCheckpointTimeMs: number;
  private committedBatches = 0;
  /** Journal bytes since the last snapshot, the replayed tail included. */
  private bytesSinceSnapshot = 0;
  private snapshotsByTime = 0;
  private snapshotsBySize = 0;
  private committedCommands = 0;
  private drainPromise: Promise<void> | undefined;
  private drainScheduled = false;
  private replica: EngineReplica | undefined;
  /** Hashes and snapshots asked of the replica, in order; each step logs its own failure. */
  private replicaWork: Promise<void> = Promise.resolve();
  private replicaSnapshotPending = false;
  /** Set by a snapshot; the durable log rotates after the next commit, when no append is in flight. */
  private rotateWanted = false;

  constructor(options: RunnerCoreOptions<C, E, G>, recovered: RecoveredEngine<G>) {
    this.options = options;
    this.settings = {
      snapshotEvery: positive(options.snapshotEvery, DEFAULTS.snapshotEvery, 'snapshotEvery'),
      checkpointEvery: positive(options.checkpointEvery, DEFAULTS.checkpointEvery, 'checkpointEvery'),
      checkpointMinIntervalMs: notNegative(
        options.checkpointMinIntervalMs,
        DEFAULTS.checkpointMinIntervalMs,
        'checkpointMinIntervalMs',
      ),
      snapshotMinIntervalMs: notNegative(
        options.snapshotMinIntervalMs,
        DEFAULTS.snapshotMinIntervalMs,
        'snapshotMinIntervalMs',
      ),
      snapshotMaxCommands: notNegative(
        options.snapshotMaxCommands,
        DEFAULTS.snapshotMaxCommands,
        'snapshotMaxCommands',
      ),
      snapshotMaxBytes: notNegative(options.snapshotMaxBytes, DEFAULTS.snapshotMaxBytes, 'snapshotMaxBytes'),
      snapshotsKept: positive(options.snapshotsKept, DEFAULTS.snapshotsKept, 'snapshotsKept'),
      maxBatchCommands: positive(options.maxBatchCommands, DEFAULTS.maxBatchCommands, 'maxBatchCommands'),
      maxPendingCommands: positive(
        options.maxPendingCommands,
        DEFAULTS.maxPendingCommands,
        'maxPendingCommands',
      ),
      snapshotOnClose: options.snapshotOnClose ?? true,
      clock: options.clock ?? Date.now,
    };
    const { engine, ...recovery } = recovered;
    this.engine = engine;
    this.recovery = recovery;
    this.replica = options.replica;
    this.lastSeq = recovered.lastSeq;
    this.lastTimeMs = recovered.lastTimeMs;
    this.lastCommittedSeq = recovered.lastSeq;
    this.lastSnapshotSeq = recovered.snapshotSeq;
    this.lastCheckpointSeq = recovered.lastSeq;
    this.lastSnapshotTimeMs = recovered.lastTimeMs;
    this.bytesSinceSnapshot = recovered.replayedBytes;
    this.lastCheckpointTimeMs = recovered.lastTimeMs;
  }

  submit(command: C, submitOptions: SubmitOptions = {}): Promise<RunnerOutcome<E>> {
    if (this.state !== 'serving') {
      return Promise.reject(
        new RunnerUnavailableError(`the engine runner is ${this.state}`, { cause: this.failure }),
      );
    }
    const pending = this.parked.length + this.inFlightCommands;
    if (pending >= this.settings.maxPendingCommands)
      return Promise.reject(new RunnerOverloadedError(pending));
    let envelope: RunnerEnvelope<C>;
    let text: string;
    try {
      ({ envelope, text } = this.stamp(command, submitOptions.idempotencyKey));
    } catch (error) {
      // The command cannot be encoded: nothing was applied and no seq was used.
      return Promise.reject(error);
    }
    let outcome: RunnerOutcome<E>;
    try {
      outcome = this.engine.apply(envelope);
    } catch (error) {
      // Only an engine bug throws; the state that follows cannot be trusted, so stop before it spreads.
      const failure = new RunnerUnavailableError(`the engine failed applying seq ${envelope.seq}`, {
        cause: error,
      });
      this.fail(failure);
      return Promise.reject(failure);
    }
    this.lastSeq = envelope.seq;
    this.lastTimeMs = envelope.timeMs;
    return new Promise<RunnerOutcome<E>>((resolve, reject) => {
      this.parked.push({ envelope, text, outcome, resolve, reject });
      this.scheduleDrain();
    });
  }

  onCommitted(listener: (batch: CommittedBatch<C, E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): RunnerStats {
    return {
      lastSeq: this.lastSeq,
      lastCommittedSeq: this.lastCommittedSeq,
      lastSnapshotSeq: this.lastSnapshotSeq,
      snapshotsByTime: this.snapshotsByTime,
      snapshotsBySize: this.snapshotsBySize,
      bytesSinceSnapshot: this.bytesSinceSnapshot,
      committedBatches: this.committedBatches,
      committedCommands: this.committedCommands,
      pendingCommands: this.parked.length + this.inFlightCommands,
      recovery: this.recovery,
    };
  }

  async close(): Promise<void> {
    if (this.state === 'serving') this.state = 'closing';
    while (this.drainPromise || (this.parked.length > 0 && this.state === 'closing')) {
      await (this.drainPromise ?? this.drain());
    }
    await this.replicaWork;
    await this.options.replica?.close();
    this.replica = undefined;
    if (this.state !== 'closing') return;
    if (this.settings.snapshotOnClose && this.lastCommittedSeq > this.lastSnapshotSeq) {
      try {
        await this.options.store.transaction((tx) =>
          writeSnapshot(tx, this.takeSnapshot(), this.settings.snapshotsKept),
        );
        this.lastSnapshotSeq = this.lastCommittedSeq;
      } catch (error) {
        // The journal already holds everything; a missing snapshot only makes the next start replay more.
        this.options.logger.warn({ err: error }, 'the closing snapshot could not be written');
      }
    }
    this.state = 'closed';
    await this.options.durableLog?.close();
  }

  /** Builds the envelope and its journal text, and decodes the text back: what is applied is what replays. */
  private stamp(
    command: C,
    idempotencyKey: string | undefined,
  ): { envelope: RunnerEnvelope<C>; text: string } {
    const timeMs = Math.max(this.settings.clock(), this.lastTimeMs);
    const draft: RunnerEnvelope<C> = { seq: this.lastSeq + 1, timeMs, command };
    if (idempotencyKey !== undefined) draft.idempotencyKey = idempotencyKey;
    const text = this.options.kit.encodeEnvelope(draft);
    if (text.includes(ENVELOPE_SEPARATOR)) throw new TypeError('an encoded envelope must be a single line');
    return { envelope: this.options.kit.decodeEnvelope(text), text };
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || this.drainPromise) return;
    this.drainScheduled = true;
    // setImmediate lets every request handled in this turn of the event loop join the first batch.
    setImmediate(() => {
      this.drainScheduled = false;
      if (!this.drainPromise) void this.drain();
    });
  }

  private drain(): Promise<void> {
    this.drainPromise ??= (async () => {
      try {
        while (this.parked.length > 0 && (this.state === 'serving' || this.state === 'closing')) {
          const cut = Math.min(this.parked.length, this.settings.maxBatchCommands);
          const batch = this.parked.length === cut ? this.parked : this.parked.slice(0, cut);
          this.parked = this.parked.length === cut ? [] : this.parked.slice(cut);
          await this.commit(batch);
        }
      } finally {
        this.drainPromise = undefined;
      }
    })();
    return this.drainPromise;
  }

  private async commit(batch: Parked<C, E>[]): Promise<void> {
    const firstSeq = (batch[0] as Parked<C, E>).envelope.seq;
    const lastSeq = (batch[batch.length - 1] as Parked<C, E>).envelope.seq;
    // Snapshots and hashes describe the state after lastSeq, which the engine holds only while no later
    // command has been applied, i.e. when this batch takes everything parked.
    const atHead = this.lastSeq === lastSeq;
    const timeMs = (batch[batch.length - 1] as Parked<C, E>).envelope.timeMs;
    let bytes = 0;
    for (const parked of batch) bytes += parked.text.length + 1;
    const replica = this.liveReplica();
    // The replica can hash and snapshot any committed seq; the live engine only the seq it stands at.
    const due = (replica ? !this.replicaSnapshotPending : atHead)
      ? this.snapshotDue(lastSeq, timeMs, this.bytesSinceSnapshot + bytes)
      : undefined;
    const hashDue =
      (replica !== undefined || atHead) &&
      lastSeq - this.lastCheckpointSeq >= this.settings.checkpointEvery &&
      timeMs - this.lastCheckpointTimeMs >= this.settings.checkpointMinIntervalMs;
    const snapshot = due === undefined || replica ? undefined : this.takeSnapshot();
    const stateHash =
      snapshot?.stateHash ?? (hashDue && !replica ? stateHashOf(this.options.kit, this.engine) : null);
    const entries = batch.map((parked) => ({ envelope: parked.envelope, outcome: parked.outcome }));
    this.inFlightCommands = batch.length;
    const envelopes = batch.map((parked) => parked.text);
    try {
      const transaction = this.options.store.transaction(async (tx) => {
        await appendBatch(tx, { firstSeq, lastSeq, envelopes, stateHash });
        for (const projector of this.options.projectors ?? []) await projector.project(entries, tx);
        if (snapshot) await writeSnapshot(tx, snapshot, this.settings.snapshotsKept);
      });
      // The durable log's write and flush run on the thread pool while the transaction runs.
      const logged = this.options.durableLog?.append({
        firstSeq,
        lastSeq,
        text: envelopes.join(ENVELOPE_SEPARATOR),
      });
      const [stored, flushed] = await Promise.allSettled([transaction, logged]);
      if (stored.status === 'rejected') throw stored.reason;
      if (flushed.status === 'rejected') throw flushed.reason;
    } catch (error) {
      this.inFlightCommands = 0;
      const failure = new CommitFailedError(`the journal commit of seq ${firstSeq}..${lastSeq} failed`, {
        cause: error,
      });
      for (const parked of batch) parked.reject(failure);
      this.fail(failure);
      return;
    }
    this.inFlightCommands = 0;
    this.lastCommittedSeq = lastSeq;
    if (replica) {
      replica.feed(
        envelopes,
        batch.map((parked) => parked.outcome.code),
      );
      if (due !== undefined) this.snapshotByReplica(replica, lastSeq, timeMs, due);
      else if (hashDue) this.hashByReplica(replica, firstSeq, lastSeq, timeMs);
    }
    if (this.rotateWanted) {
      // Every batch the older segments hold is committed to the store by now.
      this.rotateWanted = false;
      this.options.durableLog?.rotate().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'the durable log could not drop its older segments');
      });
    }
    if (stateHash !== null) {
      this.lastCheckpointSeq = lastSeq;
      this.lastCheckpointTimeMs = timeMs;
    }
    this.bytesSinceSnapshot += bytes;
    if (snapshot) {
      this.lastSnapshotSeq = lastSeq;
      this.lastSnapshotTimeMs = timeMs;
      this.bytesSinceSnapshot = 0;
      if (due === 'size') this.snapshotsBySize++;
      else this.snapshotsByTime++;
      this.options.afterSnapshot?.().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'the step after a snapshot failed');
      });
      // The durable log starts a new segment; the older ones go once the store's files are flushed.
      this.options.durableLog?.rotate().catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'the durable log could not drop its older segments');
      });
    }
    this.committedBatches++;
    this.committedCommands += batch.length;
    this.publish({ firstSeq, lastSeq, entries });
    for (const parked of batch) parked.resolve(parked.outcome);
  }

  /**
   * Whether the state after `lastSeq` should be snapshotted, and by which rule: by time (enough commands and
   * enough command time since the last one) or by size (the journal since the last one has grown past what
   * a restart should replay, however little time passed).
   */
  private snapshotDue(lastSeq: number, timeMs: number, bytes: number): 'time' | 'size' | undefined {
    const commands = lastSeq - this.lastSnapshotSeq;
    const { snapshotMaxCommands, snapshotMaxBytes } = this.settings;
    if (
      commands >= this.settings.snapshotEvery &&
      timeMs - this.lastSnapshotTimeMs >= this.settings.snapshotMinIntervalMs
    )
      return 'time';
    if (snapshotMaxCommands > 0 && commands >= snapshotMaxCommands) return 'size';
    if (snapshotMaxBytes > 0 && bytes >= snapshotMaxBytes) return 'size';
    return undefined;
  }

  /** The replica, while it works; the first time it is found failed, says so and drops it. */
  private liveReplica(): EngineReplica | undefined {
    const replica = this.replica;
    if (replica?.failure === undefined) return replica;
    this.options.logger.error(
      { err: replica.failure },
      'the engine replica failed; state hashes and snapshots are taken on the event loop again',
    );
    this.replica = undefined;
    void replica.close();
    return undefined;
  }

  /** Asks the replica for the hash after `lastSeq` and records it on that batch's journal row. */
  private hashByReplica(replica: EngineReplica, firstSeq: number, lastSeq: number, timeMs: number): void {
    this.lastCheckpointSeq = lastSeq;
    this.lastCheckpointTimeMs = timeMs;
    // Asked now, right after the batch was fed: the replica answers for the seq it stands at.
    const asked = replica.hash(lastSeq);
    asked.catch(() => {});
    this.replicaWork = this.replicaWork.then(async () => {
      try {
        const hash = await asked;
        await this.options.store.query(
          'update engine_journal set state_hash = $1 where first_seq = $2 and last_seq = $3',
          [hash, firstSeq, lastSeq],
        );
      } catch (error) {
        this.options.logger.warn(
          { err: error, seq: lastSeq },
          'a state hash from the replica was not recorded',
        );
      }
    });
  }

  /** Asks the replica for the snapshot after `lastSeq` and writes it in a transaction of its own. */
  private snapshotByReplica(
    replica: EngineReplica,
    lastSeq: number,
    timeMs: number,
    due: 'time' | 'size',
  ): void {
    this.replicaSnapshotPending = true;
    this.lastSnapshotSeq = lastSeq;
    this.lastSnapshotTimeMs = timeMs;
    this.lastCheckpointSeq = lastSeq;
    this.lastCheckpointTimeMs = timeMs;
    this.bytesSinceSnapshot = 0;
    if (due === 'size') this.snapshotsBySize++;
    else this.snapshotsByTime++;
    const asked = replica.snapshot(lastSeq);
    asked.catch(() => {});
    this.replicaWork = this.replicaWork.then(async () => {
      try {
        const { body, hash } = await asked;
        // In parts: one INSERT of a large text would hold the embedded store's thread, the event loop.
        await writeSnapshotInParts(
          this.options.store,
          { seq: lastSeq, timeMs, stateHash: hash, body },
          this.settings.snapshotsKept,
        );
        this.rotateWanted = true;
        await this.options.afterSnapshot?.();
      } catch (error) {
        this.options.logger.warn({ err: error, seq: lastSeq }, 'a snapshot from the replica was not written');
      } finally {
        this.replicaSnapshotPending = false;
      }
    });
  }

  private takeSnapshot(): { seq: number; timeMs: number; stateHash: string; body: string } {
    const body = this.engine.snapshot();
    const stateHash = this.options.kit.hashSnapshot?.(body) ?? this.engine.stateHash();
    return { seq: this.lastSeq, timeMs: this.lastTimeMs, stateHash, body };
  }

  private publish(batch: CommittedBatch<C, E>): void {
    for (const listener of this.listeners) {
      try {
        listener(batch);
      } catch (error) {
        // A listener's failure (a socket write, say) must not turn a committed batch into an error.
        this.options.logger.error(
          { err: error, firstSeq: batch.firstSeq },
          'a committed-batch listener threw',
        );
      }
    }
  }

  private fail(failure: Error): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.failure = failure;
    const parked = this.parked;
    this.parked = [];
    for (const entry of parked) {
      entry.reject(
        new RunnerUnavailableError('the engine runner stopped before this command was committed', {
          cause: failure,
        }),
      );
    }
    this.options.logger.error(
      { err: failure },
      'the engine runner stopped; a restart recovers from the journal',
    );
    try {
      this.options.onFatal?.(failure);
    } catch (error) {
      this.options.logger.error({ err: error }, 'the onFatal handler threw');
    }
  }
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
