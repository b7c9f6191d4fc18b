// The snapshot stage: when the state after a batch is hashed (a checkpoint recovery verifies) or
// snapshotted, and by whom. With a working replica (stages/replica.ts) the replica takes both off the event
// loop; else the live engine does, but only for the seq it stands at (a batch that takes everything parked).
//
// The runner's group commit asks plan() before a batch commits (a snapshot taken here travels with the
// batch: in its journal transaction, or with its projections, so that it is never ahead of them) and
// reports committed() after. This is the stage a standby runs instead of the leader: it sees the same committed batches, and
// nothing here appends to the journal.
import type { Queryable, Store } from '../../store/index.ts';
import type { SnapshotRow } from '../journal.ts';
import { writeSnapshot } from '../journal.ts';
import type { EngineReplica } from '../replica.ts';
import type { RunnerSettings } from '../runner-options.ts';
import type { EngineKit, RunnerEngine, RunnerLogger } from '../types.ts';
import { stateHashOf } from '../types.ts';
import type { ReplicaStage } from './replica.ts';

/** The rule that made a snapshot due: enough commands and time since the last one, or the journal's size. */
export type SnapshotRule = 'time' | 'size';

/** What the snapshot stage decided for one batch before its commit. */
export interface SnapshotPlan {
  due: SnapshotRule | undefined;
  hashDue: boolean;
  /** A snapshot taken on this thread, written with the batch. */
  snapshot: SnapshotRow | undefined;
  /** The state hash the batch's journal row records (null: none). */
  stateHash: string | null;
  /** The replica that hashes or snapshots this batch, when one works. */
  replica: EngineReplica | undefined;
}

/** A batch as the snapshot stage sees it: its seqs, its last stamped time, its journal bytes and text. */
export interface SnapshotBatch {
  firstSeq: number;
  lastSeq: number;
  timeMs: number;
  /** Each encoded envelope's length and its newline, summed. */
  bytes: number;
  envelopes: readonly string[];
  codes: readonly number[];
}

export interface SnapshotStageState {
  lastSnapshotSeq: number;
  snapshotsByTime: number;
  snapshotsBySize: number;
  bytesSinceSnapshot: number;
}

export interface SnapshotStage {
  /** Decides before the commit; `atHead`: the live engine stands at the batch's last seq. */
  plan(batch: Omit<SnapshotBatch, 'envelopes' | 'codes' | 'firstSeq'>, atHead: boolean): SnapshotPlan;
  /** After the commit; `written`: the plan's snapshot was written in the journal transaction already. */
  committed(plan: SnapshotPlan, batch: SnapshotBatch, written: boolean): void;
  /** A snapshot of a plan was written (with its projections, or with the batch): its count and what follows. */
  written(due: SnapshotRule | undefined): void;
  /** Writes a plan's snapshot in a transaction of the caller's. */
  write(tx: Queryable, snapshot: SnapshotRow): Promise<void>;
  /** Lets the replica finish what it was asked, and closes it. */
  stopReplica(): Promise<void>;
  /** The closing snapshot, when commands were committed since the last one (a failure is logged). */
  writeClosing(store: Pick<Store, 'transaction'>, lastCommittedSeq: number): Promise<void>;
  stats(): SnapshotStageState;
}

export interface LeaderSnapshotOptions<C, E, G extends RunnerEngine<C, E>> {
  engine: G;
  kit: EngineKit<C, E, G>;
  settings: RunnerSettings;
  logger: RunnerLogger;
  replica: ReplicaStage;
  /** The seq and time the live engine stands at (the last stamped command). */
  head: () => { seq: number; timeMs: number };
  /** After a snapshot was written: the store's checkpoint and the durable log's rotation. */
  snapshotWritten: () => void;
  /** The state recovered: the last snapshot's seq, the last seq, its time, the journal bytes replayed. */
  recovered: { snapshotSeq: number; lastSeq: number; lastTimeMs: number; replayedBytes: number };
}

/** The leader's snapshot stage: hashes and snapshots by the replica, or by the live engine at its head. */
export class LeaderSnapshotStage<C, E, G extends RunnerEngine<C, E>> implements SnapshotStage {
  private readonly options: LeaderSnapshotOptions<C, E, G>;
  private lastSnapshotSeq: number;
  private lastCheckpointSeq: number;
  /** Stamped times of the last snapshot and state hash (the recovered state's time at start). */
  private lastSnapshotTimeMs: number;
  private lastCheckpointTimeMs: number;
  /** Journal bytes since the last snapshot, the replayed tail included. */
  private bytesSinceSnapshot: number;
  private snapshotsByTime = 0;
  private snapshotsBySize = 0;

  constructor(options: LeaderSnapshotOptions<C, E, G>) {
    this.options = options;
    const { recovered } = options;
    this.lastSnapshotSeq = recovered.snapshotSeq;
    this.lastCheckpointSeq = recovered.lastSeq;
    this.lastSnapshotTimeMs = recovered.lastTimeMs;
    this.bytesSinceSnapshot = recovered.replayedBytes;
    this.lastCheckpointTimeMs = recovered.lastTimeMs;
  }

  plan(batch: { lastSeq: number; timeMs: number; bytes: number }, atHead: boolean): SnapshotPlan {
    const { lastSeq, timeMs, bytes } = batch;
    const { settings } = this.options;
    const replica = this.options.replica.live();
    // The replica can hash and snapshot any committed seq; the live engine only the seq it stands at.
    const due = (replica ? !this.options.replica.snapshotPending : atHead)
      ? this.snapshotDue(lastSeq, timeMs, this.bytesSinceSnapshot + bytes)
      : undefined;
    const hashDue =
      (replica !== undefined || atHead) &&
      lastSeq - this.lastCheckpointSeq >= settings.checkpointEvery &&
      timeMs - this.lastCheckpointTimeMs >= settings.checkpointMinIntervalMs;
    const snapshot = due === undefined || replica ? undefined : this.take();
    const stateHash =
      snapshot?.stateHash ??
      (hashDue && !replica ? stateHashOf(this.options.kit, this.options.engine) : null);
    return { due, hashDue, snapshot, stateHash, replica };
  }

  committed(plan: SnapshotPlan, batch: SnapshotBatch, written: boolean): void {
    const { firstSeq, lastSeq, timeMs } = batch;
    const { replica, due } = plan;
    if (replica) {
      replica.feed(batch.envelopes as string[], batch.codes as number[]);
      if (due !== undefined) {
        this.lastSnapshotSeq = lastSeq;
        this.lastSnapshotTimeMs = timeMs;
        this.lastCheckpointSeq = lastSeq;
        this.lastCheckpointTimeMs = timeMs;
        this.bytesSinceSnapshot = 0;
        this.count(due);
        this.options.replica.snapshot(replica, lastSeq, timeMs);
      } else if (plan.hashDue) {
        this.lastCheckpointSeq = lastSeq;
        this.lastCheckpointTimeMs = timeMs;
        this.options.replica.hash(replica, firstSeq, lastSeq);
      }
    }
    if (plan.stateHash !== null) {
      this.lastCheckpointSeq = lastSeq;
      this.lastCheckpointTimeMs = timeMs;
    }
    this.bytesSinceSnapshot += batch.bytes;
    if (plan.snapshot) {
      this.lastSnapshotSeq = lastSeq;
      this.lastSnapshotTimeMs = timeMs;
      this.bytesSinceSnapshot = 0;
      if (written) this.written(due);
    }
  }

  written(due: SnapshotRule | undefined): void {
    this.count(due);
    this.options.snapshotWritten();
  }

  write(tx: Queryable, snapshot: SnapshotRow): Promise<void> {
    return writeSnapshot(tx, snapshot, this.options.settings.snapshotsKept);
  }

  stopReplica(): Promise<void> {
    return this.options.replica.close();
  }

  async writeClosing(store: Pick<Store, 'transaction'>, lastCommittedSeq: number): Promise<void> {
    if (!this.options.settings.snapshotOnClose || lastCommittedSeq <= this.lastSnapshotSeq) return;
    try {
      await store.transaction((tx) => this.write(tx, this.take()));
      this.lastSnapshotSeq = lastCommittedSeq;
    } catch (error) {
      // The journal already holds everything; a missing snapshot only makes the next start replay more.
      this.options.logger.warn({ err: error }, 'the closing snapshot could not be written');
    }
  }

  stats(): SnapshotStageState {
    return {
      lastSnapshotSeq: this.lastSnapshotSeq,
      snapshotsByTime: this.snapshotsByTime,
      snapshotsBySize: this.snapshotsBySize,
      bytesSinceSnapshot: this.bytesSinceSnapshot,
    };
  }

  private count(due: SnapshotRule | undefined): void {
    if (due === 'size') this.snapshotsBySize++;
    else this.snapshotsByTime++;
  }

  /**
   * Whether the state after `lastSeq` should be snapshotted, and by which rule: by time (enough commands and
   * enough command time since the last one) or by size (the journal since the last one has grown past what
   * a restart should replay, however little time passed).
   */
  private snapshotDue(lastSeq: number, timeMs: number, bytes: number): SnapshotRule | undefined {
    const commands = lastSeq - this.lastSnapshotSeq;
    const { snapshotEvery, snapshotMinIntervalMs, snapshotMaxCommands, snapshotMaxBytes } =
      this.options.settings;
    if (commands >= snapshotEvery && timeMs - this.lastSnapshotTimeMs >= snapshotMinIntervalMs) return 'time';
    if (snapshotMaxCommands > 0 && commands >= snapshotMaxCommands) return 'size';
    if (snapshotMaxBytes > 0 && bytes >= snapshotMaxBytes) return 'size';
    return undefined;
  }

  /** The live engine's snapshot and state hash, at the seq and time it stands at. */
  private take(): SnapshotRow {
    const { engine, kit } = this.options;
    const body = engine.snapshot();
    const stateHash = kit.hashSnapshot?.(body) ?? engine.stateHash();
    const head = this.options.head();
    return { seq: head.seq, timeMs: head.timeMs, stateHash, body };
  }
}
