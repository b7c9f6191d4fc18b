// The replica stage: state hashes and snapshots taken by the engine replica on its worker thread
// (../replica.ts), so that the event loop never walks the whole state. The snapshot stage decides when one
// is due and asks here; each answer is written to the store in the order asked (a hash onto its batch's
// journal row, a snapshot as a row or a file descriptor), every step logging its own failure. When the
// replica fails it is dropped, and the snapshot stage takes hashes and snapshots on the event loop again.
import type { Store } from '../../store/index.ts';
import { storeSnapshot } from '../journal.ts';
import type { EngineReplica } from '../replica.ts';
import type { RunnerLogger } from '../types.ts';

export interface ReplicaStageOptions {
  replica: EngineReplica | undefined;
  store: Pick<Store, 'transaction' | 'query'>;
  logger: RunnerLogger;
  snapshotsKept: number;
  /** Where the replica writes snapshot files (the embedded store's folder); unset: into the store. */
  snapshotFolder: string | undefined;
  /** Whether a batch's journal row is written behind it by the projector (a durable log committed it). */
  journalBehindLog: boolean;
  /** Resolves once the projections reach `seq` (a snapshot is never ahead of them). */
  whenProjected: (seq: number) => Promise<unknown>;
  /** After a snapshot was written: the durable log's rotation, the store's checkpoint. */
  snapshotWritten: () => Promise<unknown> | undefined;
}

export class ReplicaStage {
  private readonly options: ReplicaStageOptions;
  private replica: EngineReplica | undefined;
  /** Hashes and snapshots asked of the replica, in order; each step logs its own failure. */
  private work: Promise<void> = Promise.resolve();
  /** A snapshot asked and not yet written: no other is due meanwhile. */
  snapshotPending = false;

  constructor(options: ReplicaStageOptions) {
    this.options = options;
    this.replica = options.replica;
  }

  /** The replica, while it works; the first time it is found failed, says so and drops it. */
  live(): EngineReplica | undefined {
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
  hash(replica: EngineReplica, firstSeq: number, lastSeq: number): void {
    // Asked now, right after the batch was fed: the replica answers for the seq it stands at.
    const asked = replica.hash(lastSeq);
    asked.catch(() => {});
    this.work = this.work.then(async () => {
      try {
        const hash = await asked;
        // Behind a durable log the batch's row exists once its first command is projected.
        if (this.options.journalBehindLog) await this.options.whenProjected(firstSeq);
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
  snapshot(replica: EngineReplica, lastSeq: number, timeMs: number): void {
    this.snapshotPending = true;
    const folder = this.options.snapshotFolder;
    const asked = replica.snapshot(lastSeq, folder);
    asked.catch(() => {});
    this.work = this.work.then(async () => {
      try {
        const { hash, ...text } = await asked;
        // A snapshot is never ahead of the projections: recovery re-projects from the projected seq.
        await this.options.whenProjected(lastSeq);
        // With a folder the replica wrote the file and the store gets its row only; else the text goes to
        // the store in parts (journal.ts, storeSnapshot): nothing large is written on the event loop.
        await storeSnapshot(
          this.options.store,
          { seq: lastSeq, timeMs, stateHash: hash, ...text },
          this.options.snapshotsKept,
          folder,
        );
        await this.options.snapshotWritten();
      } catch (error) {
        this.options.logger.warn({ err: error, seq: lastSeq }, 'a snapshot from the replica was not written');
      } finally {
        this.snapshotPending = false;
      }
    });
  }

  /** Waits for the work asked, then closes the replica (the one the runner was given, failed or not). */
  async close(): Promise<void> {
    await this.work;
    await this.options.replica?.close();
    this.replica = undefined;
  }
}
