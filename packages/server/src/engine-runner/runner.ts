// The engine runner: the single writer in front of the engine.
//
// submit() stamps the command with the next seq and a time, applies it to the engine at once (so reads see
// it immediately and the next command is checked against it), and parks the caller. Parked commands form the
// next batch; whenever no commit is in flight the batch is cut and committed to the journal in one SQL
// transaction (group commit). Callers are answered, and onCommitted listeners told, as soon as it committed.
//
// With a durable log (the embedded store, durable-log.ts) the log's fdatasync'd append is the journal commit:
// the batch is answered once it is in the log, and its journal row is written to the store by the projector
// stage, in the transaction that writes the batch's first projections (the store's rows are then a copy that
// catches up; a restart takes what they lack back from the log). On PostgreSQL, which has no durable log, the
// journal row is the commit.
//
// Journal-first: the projections (orders, trades, account log, every area's tables) are written behind the
// journal by the projector stage, which takes the committed commands queued so far (coalesced, capped by
// commands and events, so a large batch may be written in parts) and writes their rows with the projected
// seq in a transaction of its own, the event loop turning between two such transactions. whenProjected(seq)
// lets a reader wait for it (read-your-writes); submit() refuses when the projector falls too far behind
// (back-pressure).
// Snapshots are only written once the projector has reached their seq, so recovery, which re-projects
// everything after the projected seq, can always start from the latest one.
//
// A failed commit leaves the in-memory engine ahead of the journal. Rather than try to undo, the runner stops
// (crash-only): it fails every parked caller, refuses new commands, and reports the failure; a restart
// recovers the exact journal state by replay.
//
// Stages of their own (stages/): back-pressure, the durable log's appends and rotations, the snapshot and
// replica stages (when a batch is hashed or snapshotted, and by whom), and the read-your-writes waiters.
import { CommitFailedError, RunnerUnavailableError } from './errors.ts';
import type { JournalBatchRow, SnapshotRow } from './journal.ts';
import { appendBatch, appendBatches, ENVELOPE_SEPARATOR, genesisSnapshot, writeSnapshot } from './journal.ts';
import type { Projector } from './projector.ts';
import { recordProjectedSeq } from './progress.ts';
import { noteRequestWrite } from './read-your-writes.ts';
import { backPressure } from './stages/back-pressure.ts';
import { DurableLogStage } from './stages/durable-log.ts';
import { ProjectionWaits } from './stages/read-your-writes.ts';
import { ReplicaStage } from './stages/replica.ts';
import type { SnapshotRule, SnapshotStage } from './stages/snapshot.ts';
import { LeaderSnapshotStage } from './stages/snapshot.ts';
import type { RecoveredEngine, RecoveredTailBatch, RecoveryObserver, RecoveryPhases } from './recovery.ts';
import { applyDurableTail, catchUpFromDurableLog, recoverEngine } from './recovery.ts';
import type {
  CommittedBatch,
  CommittedEntry,
  RunnerEngine,
  RunnerEnvelope,
  RunnerOutcome,
  RunnerState,
} from './types.ts';
import type {
  EngineRunner,
  RunnerCoreOptions,
  RunnerSettings,
  RunnerStats,
  SubmitOptions,
  WhenProjectedOptions,
} from './runner-options.ts';
import { RUNNER_DEFAULTS, runnerSettings } from './runner-options.ts';

export type {
  EngineRunner,
  RunnerCoreOptions,
  RunnerStats,
  SubmitOptions,
  WhenProjectedOptions,
} from './runner-options.ts';

interface Parked<C, E> {
  envelope: RunnerEnvelope<C>;
  text: string;
  outcome: RunnerOutcome<E>;
  resolve: (outcome: RunnerOutcome<E>) => void;
  reject: (error: Error) => void;
}

/** Most events of one projector transaction while it writes the durable log's tail after a restart. */
const RECOVERED_TAIL_MAX_BATCH_EVENTS = 1_000;

/** A committed batch waiting for the projector, with the snapshot (if any) to write once it is projected. */
interface Unprojected<C, E> {
  batch: CommittedBatch<C, E>;
  /**
   * The batch's journal row while the store does not hold it yet (a durable log committed the batch: the
   * projector writes the row with the batch's first projections); null once written, or when the commit
   * wrote it.
   */
  journalRow: JournalBatchRow | null;
  committedAtMs: number;
  snapshot: SnapshotRow | undefined;
  snapshotDue: SnapshotRule | undefined;
}

export async function startRunner<C, E, G extends RunnerEngine<C, E>>(
  options: RunnerCoreOptions<C, E, G>,
): Promise<EngineRunner<C, E, G>> {
  const replica = options.replica;
  const observer: RecoveryObserver | undefined = replica && {
    restored: (body) => replica.load(body),
    replayed: (texts, codes) => replica.feed(texts, codes),
    replayedLines: (lines, codes) => replica.feedLines(lines, codes),
  };
  const projectors = options.projectors ?? [];
  const recovered = await recoverEngine(
    options.store,
    options.kit,
    observer,
    {
      store: options.store,
      projectors,
      chunkCommands: options.projectorMaxBatchCommands ?? RUNNER_DEFAULTS.projectorMaxBatchCommands,
    },
    {
      folder: options.snapshotFolder,
      skipped: ({ seq, reason }) =>
        options.logger.warn(
          { seq, reason },
          'a snapshot was passed over; recovery starts from an earlier one',
        ),
    },
    options.durableLog,
  );
  if (recovered.snapshotSeq === 0 && recovered.lastSeq === 0 && !(await genesisSnapshot(options.store))) {
    const body = recovered.engine.snapshot();
    const stateHash = options.kit.hashSnapshot?.(body) ?? recovered.engine.stateHash();
    await options.store.transaction((tx) => writeSnapshot(tx, { seq: 0, timeMs: 0, stateHash, body }, 1));
  }
  let tail: RecoveredTailBatch<C, E>[] = [];
  if (options.durableLog) {
    const storedThroughSeq = recovered.lastSeq;
    if (projectors.length > 0) {
      // The batches the store lacks are applied now and written by the projector stage once the runner
      // serves, as if just committed (journal rows first); every signed-in read waits for them meanwhile.
      tail = await applyDurableTail(options.kit, recovered, options.durableLog, observer);
    } else {
      await catchUpFromDurableLog(
        options.store,
        options.kit,
        recovered,
        options.durableLog,
        projectors,
        observer,
        options.projectorMaxBatchCommands ?? RUNNER_DEFAULTS.projectorMaxBatchCommands,
      );
    }
    // Later batches go to a new segment, and the older ones are deleted once the store's files are flushed
    // (in the background: a second or so of fsyncs that a start need not wait for), except those holding
    // batches the store has no journal row for yet, which go at a rotation after the projector wrote them.
    options.durableLog.rotate(tail.length > 0 ? storedThroughSeq : undefined).catch((error: unknown) => {
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
      readFromDurableLog: recovered.readFromDurableLog,
      projectedSeqAtStart: recovered.projectedSeqAtStart,
      reprojectedCommands: recovered.reprojectedCommands,
      durationMs: Math.round(recovered.durationMs),
      phasesMs: roundedPhases(recovered.phases),
    },
    'engine recovered from the journal',
  );
  return new Runner(options, recovered, tail);
}

function roundedPhases(phases: RecoveryPhases): Record<string, number> {
  return Object.fromEntries(Object.entries(phases).map(([name, ms]) => [name, Math.round(ms)]));
}

class Runner<C, E, G extends RunnerEngine<C, E>> implements EngineRunner<C, E, G> {
  readonly engine: G;
  state: RunnerState = 'serving';
  failure: Error | undefined;

  private readonly options: RunnerCoreOptions<C, E, G>;
  private readonly settings: RunnerSettings;
  private readonly recovery: Omit<RecoveredEngine<unknown>, 'engine'>;
  private readonly listeners = new Set<(batch: CommittedBatch<C, E>) => void>();
  private readonly projectedListeners = new Set<(batch: CommittedBatch<C, E>) => void>();
  private readonly projectors: readonly Projector<C, E>[];
  /**
   * Committed batches the projector has not written yet, in seq order, and the commands they hold; the
   * first may be partly written already (its first `headProjected` entries).
   */
  private unprojected: Unprojected<C, E>[] = [];
  private headProjected = 0;
  private unprojectedCommands = 0;
  private projectingPromise: Promise<void> | undefined;
  private projectingScheduled = false;
  /** The projector does not start until released (holdRecoveredTail, with a tail to write). */
  private projectorHeld: boolean;
  /** When the last projector transaction started (performance.now()), for projectorPaceMs. */
  private projectionStartedMs = Number.NEGATIVE_INFINITY;
  /** Ends the projector's wait for its pace at once (closing, failing). */
  private endPaceWait: (() => void) | undefined;
  private readonly waits = new ProjectionWaits();
  private projectedBatches = 0;
  private projectedCommands = 0;
  projectedSeq: number;
  private parked: Parked<C, E>[] = [];
  private inFlightCommands = 0;
  private lastSeq: number;
  private lastTimeMs: number;
  private lastCommittedSeq: number;
  private committedBatches = 0;
  private committedCommands = 0;
  private committedMs = 0;
  private drainPromise: Promise<void> | undefined;
  private drainScheduled = false;
  private readonly snapshots: SnapshotStage;
  private readonly durable: DurableLogStage;
  /**
   * Whether a batch commits by the durable log's append alone, its journal row written by the projector
   * (a durable log and projectors); else the commit writes the row.
   */
  private readonly journalBehindLog: boolean;
  /** The last seq whose journal row the store holds (written; the store flushes it at its own pace). */
  private journalRowsSeq: number;
  /**
   * The last seq recovery applied, the durable log's tail included: until the projector reaches it, readers
   * wait for it (acknowledgedSeq) and the tail's commands do not count towards back-pressure.
   */
  private readonly recoveredSeq: number;

  constructor(
    options: RunnerCoreOptions<C, E, G>,
    recovered: RecoveredEngine<G>,
    tail: readonly RecoveredTailBatch<C, E>[] = [],
  ) {
    this.options = options;
    this.settings = runnerSettings(options);
    const { engine, ...recovery } = recovered;
    this.engine = engine;
    this.recovery = recovery;
    this.durable = new DurableLogStage(options.durableLog, options.logger);
    this.projectors = options.projectors ?? [];
    this.journalBehindLog = options.durableLog !== undefined && this.projectors.length > 0;
    // Recovery re-projected everything the store's journal holds; the durable log's tail after it waits for
    // the projector, which writes its journal rows too.
    const storedThroughSeq = tail[0] === undefined ? recovered.lastSeq : tail[0].batch.firstSeq - 1;
    this.journalRowsSeq = storedThroughSeq;
    this.projectedSeq = storedThroughSeq;
    this.recoveredSeq = recovered.lastSeq;
    const committedAtMs = Date.now();
    for (const { batch, journalRow } of tail) {
      this.unprojected.push({
        batch,
        journalRow,
        committedAtMs,
        snapshot: undefined,
        snapshotDue: undefined,
      });
      this.unprojectedCommands += batch.entries.length;
    }
    this.lastSeq = recovered.lastSeq;
    this.lastTimeMs = recovered.lastTimeMs;
    this.lastCommittedSeq = recovered.lastSeq;
    this.snapshots = new LeaderSnapshotStage({
      engine,
      kit: options.kit,
      settings: this.settings,
      logger: options.logger,
      replica: new ReplicaStage({
        replica: options.replica,
        store: options.store,
        logger: options.logger,
        snapshotsKept: this.settings.snapshotsKept,
        snapshotFolder: options.snapshotFolder,
        journalBehindLog: this.journalBehindLog,
        whenProjected: (seq) => this.whenProjected(seq),
        snapshotWritten: () => {
          this.durable.wantRotation();
          return options.afterSnapshot?.();
        },
      }),
      head: () => ({ seq: this.lastSeq, timeMs: this.lastTimeMs }),
      snapshotWritten: () => this.afterSnapshotWritten(),
      recovered,
    });
    this.projectorHeld = tail.length > 0 && options.holdRecoveredTail === true;
    if (this.unprojected.length > 0) this.scheduleProjection();
  }

  submit(command: C, submitOptions: SubmitOptions = {}): Promise<RunnerOutcome<E>> {
    if (this.state !== 'serving') {
      return Promise.reject(
        new RunnerUnavailableError(`the engine runner is ${this.state}`, { cause: this.failure }),
      );
    }
    const refusal = backPressure(this.settings, {
      pendingCommands: this.parked.length + this.inFlightCommands,
      unprojectedCommands: this.unprojectedCommands,
      recoveredUnprojected: Math.max(0, this.recoveredSeq - this.projectedSeq),
    });
    if (refusal) return Promise.reject(refusal);
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
    const committed = new Promise<RunnerOutcome<E>>((resolve, reject) => {
      this.parked.push({ envelope, text, outcome, resolve, reject });
      this.scheduleDrain();
    });
    // Runs in the caller's context: inside a request, the seq becomes that request's write
    // (read-your-writes.ts), so that its user's next read waits for its projections.
    return committed.then(noteWrite);
  }

  onCommitted(listener: (batch: CommittedBatch<C, E>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onProjected(listener: (batch: CommittedBatch<C, E>) => void): () => void {
    this.projectedListeners.add(listener);
    return () => this.projectedListeners.delete(listener);
  }

  whenProjected(seq: number, options: WhenProjectedOptions = {}): Promise<boolean> {
    if (seq <= this.projectedSeq) return Promise.resolve(true);
    if (this.state === 'failed' || this.state === 'closed') {
      return Promise.reject(
        new RunnerUnavailableError(`the engine runner is ${this.state}`, { cause: this.failure }),
      );
    }
    // Somebody needs the projections: a held projector starts now.
    this.releaseProjector();
    return this.waits.wait(seq, options.timeoutMs);
  }

  noteAcknowledged(key: number | string, seq: number): void {
    this.waits.note(key, seq, this.projectedSeq);
  }

  acknowledgedSeq(key: number | string): number {
    return this.waits.acknowledgedSeq(key, this.projectedSeq, this.recoveredSeq);
  }

  unprojectedBatches(): CommittedBatch<C, E>[] {
    return this.unprojected.map((item) => item.batch);
  }

  releaseProjector(): void {
    if (!this.projectorHeld) return;
    this.projectorHeld = false;
    if (this.unprojected.length > 0) this.scheduleProjection();
  }

  stats(): RunnerStats {
    return {
      lastSeq: this.lastSeq,
      lastCommittedSeq: this.lastCommittedSeq,
      ...this.snapshots.stats(),
      committedBatches: this.committedBatches,
      committedCommands: this.committedCommands,
      committedMs: this.committedMs,
      pendingCommands: this.parked.length + this.inFlightCommands,
      projectedSeq: this.projectedSeq,
      projectorLag: {
        commands: this.unprojectedCommands,
        ms:
          this.unprojected[0] === undefined ? 0 : Math.max(0, Date.now() - this.unprojected[0].committedAtMs),
      },
      projectorMaxLagCommands: this.settings.projectorMaxLagCommands,
      projectedBatches: this.projectedBatches,
      projectedCommands: this.projectedCommands,
      recovery: this.recovery,
    };
  }

  async close(): Promise<void> {
    if (this.state === 'serving') this.state = 'closing';
    this.projectorHeld = false;
    this.endPaceWait?.();
    while (this.drainPromise || (this.parked.length > 0 && this.state === 'closing')) {
      await (this.drainPromise ?? this.drain());
    }
    // Everything committed is projected before the closing snapshot (which must not be ahead of it).
    while (this.projectingPromise || (this.unprojected.length > 0 && this.state === 'closing')) {
      await (this.projectingPromise ?? this.project());
    }
    await this.snapshots.stopReplica();
    if (this.state !== 'closing') return;
    await this.snapshots.writeClosing(this.options.store, this.lastCommittedSeq);
    this.state = 'closed';
    this.waits.rejectAll(new RunnerUnavailableError('the engine runner closed'));
    await this.durable.close();
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
    if (this.drainPromise) return this.drainPromise;
    // A loop with nothing to do finishes synchronously: its `finally` then runs before the assignment
    // below, which must not leave a settled promise in place (close() would await it forever).
    let finished = false;
    const draining = (async () => {
      try {
        while (this.parked.length > 0 && (this.state === 'serving' || this.state === 'closing')) {
          const cut = Math.min(this.parked.length, this.settings.maxBatchCommands);
          const batch = this.parked.length === cut ? this.parked : this.parked.slice(0, cut);
          this.parked = this.parked.length === cut ? [] : this.parked.slice(cut);
          await this.commit(batch);
        }
      } finally {
        finished = true;
        this.drainPromise = undefined;
      }
    })();
    if (!finished) this.drainPromise = draining;
    return draining;
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
    const plan = this.snapshots.plan({ lastSeq, timeMs, bytes }, atHead);
    const { snapshot, stateHash, due } = plan;
    const entries = batch.map((parked) => ({ envelope: parked.envelope, outcome: parked.outcome }));
    this.inFlightCommands = batch.length;
    const envelopes = batch.map((parked) => parked.text);
    // Without projectors there is nothing to write behind the journal: the batch is projected as it commits.
    const journalOnly = this.projectors.length === 0;
    const journalRow: JournalBatchRow = { firstSeq, lastSeq, envelopes, stateHash };
    const commitStartedMs = performance.now();
    try {
      // Behind a durable log the append below is the commit and the projector writes the row.
      const transaction = this.journalBehindLog
        ? undefined
        : this.options.store.transaction(async (tx) => {
            await appendBatch(tx, journalRow);
            if (journalOnly) {
              await recordProjectedSeq(tx, lastSeq);
              if (snapshot) await this.snapshots.write(tx, snapshot);
            }
          });
      // The durable log's write and flush run on the thread pool while the transaction runs.
      const logged = this.durable.append(firstSeq, lastSeq, envelopes);
      const [stored, flushed] = await Promise.allSettled([transaction, logged]);
      this.committedMs += performance.now() - commitStartedMs;
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
    if (!this.journalBehindLog) this.journalRowsSeq = lastSeq;
    // Rotated from the commit path, where no append is in flight (a snapshot asks for it).
    this.durable.rotateIfWanted(this.journalRowsSeq);
    const codes = batch.map((parked) => parked.outcome.code);
    this.snapshots.committed(plan, { firstSeq, lastSeq, timeMs, bytes, envelopes, codes }, journalOnly);
    this.committedBatches++;
    this.committedCommands += batch.length;
    const committed: CommittedBatch<C, E> = { firstSeq, lastSeq, entries };
    if (journalOnly) {
      this.projectedSeq = lastSeq;
      this.waits.settle(this.projectedSeq);
    } else {
      this.unprojected.push({
        batch: committed,
        journalRow: this.journalBehindLog ? journalRow : null,
        committedAtMs: Date.now(),
        snapshot,
        snapshotDue: due,
      });
      this.unprojectedCommands += batch.length;
      this.scheduleProjection();
    }
    this.publish(this.listeners, committed);
    for (const parked of batch) parked.resolve(parked.outcome);
    if (journalOnly) this.publish(this.projectedListeners, committed);
  }

  /** What follows a committed snapshot: the store's checkpoint, the durable log's new segment. */
  private afterSnapshotWritten(): void {
    this.options.afterSnapshot?.().catch((error: unknown) => {
      this.options.logger.warn({ err: error }, 'the step after a snapshot failed');
    });
    // The durable log starts a new segment; the older ones go once the store's files are flushed. Rotated
    // from the commit path, where no append is in flight.
    this.durable.wantRotation();
  }

  private scheduleProjection(): void {
    if (this.projectingScheduled || this.projectingPromise || this.projectorHeld) return;
    this.projectingScheduled = true;
    // After this turn: batches committed meanwhile join the projector's next transaction.
    setImmediate(() => {
      this.projectingScheduled = false;
      if (!this.projectingPromise) void this.project();
    });
  }

  /**
   * The projector stage: while committed batches wait, takes the oldest of their commands (up to
   * projectorMaxBatchCommands commands and projectorMaxBatchEvents events, several batches or part of one)
   * and writes every projector's rows, the projected seq and the snapshots taken at the batches it completes
   * in one transaction; then yields to the event loop before the next one. A failure stops the runner like a
   * failed commit (crash-only): a restart re-projects from the journal.
   */
  private project(): Promise<void> {
    if (this.projectingPromise) return this.projectingPromise;
    let finished = false; // see drain()
    const projecting = (async () => {
      try {
        while (this.unprojected.length > 0 && (this.state === 'serving' || this.state === 'closing')) {
          if (this.settings.projectorDelayMs > 0) {
            await new Promise((resolve) => setTimeout(resolve, this.settings.projectorDelayMs));
          }
          const paceLeftMs = this.projectionStartedMs + this.settings.projectorPaceMs - performance.now();
          // Closing does not wait for the pace: everything left is written at once; nor does a backlog that
          // fills a transaction already (under load the pace would cap the stage's rate).
          if (paceLeftMs > 0 && this.state === 'serving' && !this.projectionFull()) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, paceLeftMs);
              this.endPaceWait = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            this.endPaceWait = undefined;
            if (this.state !== 'serving' && this.state !== 'closing') break;
          }
          this.projectionStartedMs = performance.now();
          const { entries, completed, headProjected } = this.nextProjection();
          const firstSeq = (entries[0] as CommittedEntry<C, E>).envelope.seq;
          const lastSeq = (entries[entries.length - 1] as CommittedEntry<C, E>).envelope.seq;
          const items = this.unprojected.slice(0, completed);
          // The batches this transaction starts or completes: the rows of those the store lacks come first.
          const touched = headProjected > 0 ? this.unprojected.slice(0, completed + 1) : items;
          const rows = touched.filter((item) => item.journalRow !== null);
          try {
            await this.options.store.transaction(async (tx) => {
              await appendBatches(
                tx,
                rows.map((item) => item.journalRow as JournalBatchRow),
              );
              for (const projector of this.projectors) await projector.project(entries, tx);
              await recordProjectedSeq(tx, lastSeq);
              for (const item of items) {
                if (item.snapshot) await this.snapshots.write(tx, item.snapshot);
              }
            });
          } catch (error) {
            this.fail(
              new CommitFailedError(`the projections of seq ${firstSeq}..${lastSeq} were not written`, {
                cause: error,
              }),
            );
            return;
          }
          for (const item of rows) {
            this.journalRowsSeq = (item.journalRow as JournalBatchRow).lastSeq;
            item.journalRow = null;
          }
          if (completed > 0) this.unprojected = this.unprojected.slice(completed);
          this.headProjected = headProjected;
          this.unprojectedCommands -= entries.length;
          this.projectedSeq = lastSeq;
          this.projectedBatches++;
          this.projectedCommands += entries.length;
          for (const item of items) if (item.snapshot) this.snapshots.written(item.snapshotDue);
          // The durable log's tail taken back at start is in the store now: its segments can go.
          if (firstSeq <= this.recoveredSeq && lastSeq >= this.recoveredSeq) this.durable.wantRotation();
          this.waits.settle(this.projectedSeq);
          this.publish(this.projectedListeners, { firstSeq, lastSeq, entries });
          // A transaction on the embedded store runs on this thread from start to commit, and the next one
          // would start in the same turn: the event loop (requests, timers, the journal's next commit) gets
          // a turn between two of them.
          if (this.unprojected.length > 0) await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        finished = true;
        this.projectingPromise = undefined;
      }
    })();
    if (!finished) this.projectingPromise = projecting;
    return projecting;
  }

  /**
   * The commands of the next projector transaction: the oldest unprojected ones, at most
   * projectorMaxBatchCommands commands and projectorMaxBatchEvents events (at least one command, however
   * many events it has), how many of the waiting batches they complete, and how many entries of the batch
   * after those will then be projected.
   */
  private nextProjection(): { entries: CommittedEntry<C, E>[]; completed: number; headProjected: number } {
    const { projectorMaxBatchCommands } = this.settings;
    // The durable log's tail is written while the server already answers: in transactions small enough
    // that a request's query waits behind one for a few milliseconds, not the hundreds a full one takes.
    const projectorMaxBatchEvents =
      this.projectedSeq < this.recoveredSeq
        ? Math.min(this.settings.projectorMaxBatchEvents, RECOVERED_TAIL_MAX_BATCH_EVENTS)
        : this.settings.projectorMaxBatchEvents;
    const entries: CommittedEntry<C, E>[] = [];
    let events = 0;
    let completed = 0;
    for (const item of this.unprojected) {
      const batchEntries = item.batch.entries;
      let index = completed === 0 ? this.headProjected : 0;
      for (; index < batchEntries.length; index++) {
        const entry = batchEntries[index] as CommittedEntry<C, E>;
        const size = entry.outcome.events.length;
        if (
          entries.length > 0 &&
          (entries.length >= projectorMaxBatchCommands || events + size > projectorMaxBatchEvents)
        )
          return { entries, completed, headProjected: index };
        entries.push(entry);
        events += size;
      }
      completed++;
    }
    return { entries, completed, headProjected: 0 };
  }

  /** Whether the commands waiting for the projector fill a transaction (by commands or by events). */
  private projectionFull(): boolean {
    const { projectorMaxBatchCommands, projectorMaxBatchEvents } = this.settings;
    if (this.unprojectedCommands >= projectorMaxBatchCommands) return true;
    let events = 0;
    for (const item of this.unprojected) {
      const entries = item.batch.entries;
      for (
        let index = item === this.unprojected[0] ? this.headProjected : 0;
        index < entries.length;
        index++
      ) {
        events += (entries[index] as CommittedEntry<C, E>).outcome.events.length;
        if (events >= projectorMaxBatchEvents) return true;
      }
    }
    return false;
  }

  private publish(listeners: Set<(batch: CommittedBatch<C, E>) => void>, batch: CommittedBatch<C, E>): void {
    for (const listener of listeners) {
      try {
        listener(batch);
      } catch (error) {
        // A listener's failure (a socket write, say) must not turn a committed batch into an error.
        this.options.logger.error({ err: error, firstSeq: batch.firstSeq }, 'a batch listener threw');
      }
    }
  }

  private fail(failure: Error): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.failure = failure;
    this.endPaceWait?.();
    this.waits.rejectAll(new RunnerUnavailableError('the engine runner stopped', { cause: failure }));
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

/**
 * Resolves once everything submitted to `runner` so far is projected: for tests, tools and jobs that read
 * projection tables right after submitting (a reply only waits for the journal).
 */
export function whenCaughtUp(runner: Pick<EngineRunner, 'whenProjected' | 'stats'>): Promise<boolean> {
  return runner.whenProjected(runner.stats().lastSeq);
}

function noteWrite<O extends { seq: number }>(outcome: O): O {
  noteRequestWrite(outcome.seq);
  return outcome;
}
