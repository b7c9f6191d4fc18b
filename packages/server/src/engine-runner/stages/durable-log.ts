// The durable log stage: the runner's use of the embedded store's durable log (../durable-log.ts). The
// runner's group commit appends each batch through it; a snapshot (or the projector writing the tail a
// restart took back) asks for a rotation, which the group commit performs after its next commit, when no
// append is in flight. Without a durable log (PostgreSQL) every step is a no-op.
import type { DurableLog } from '../durable-log.ts';
import { ENVELOPE_SEPARATOR } from '../journal.ts';
import type { RunnerLogger } from '../types.ts';

export class DurableLogStage {
  private readonly log: DurableLog | undefined;
  private readonly logger: RunnerLogger;
  private rotateWanted = false;

  constructor(log: DurableLog | undefined, logger: RunnerLogger) {
    this.log = log;
    this.logger = logger;
  }

  get present(): boolean {
    return this.log !== undefined;
  }

  /** Appends a batch's envelopes and flushes them; resolves when durable (undefined without a log). */
  append(firstSeq: number, lastSeq: number, envelopes: readonly string[]): Promise<void> | undefined {
    return this.log?.append({ firstSeq, lastSeq, text: envelopes.join(ENVELOPE_SEPARATOR) });
  }

  /** Asks for a new segment after the next commit (a snapshot was written, or the recovered tail). */
  wantRotation(): void {
    this.rotateWanted = true;
  }

  /**
   * Rotates when asked to: called from the commit path, where no append is in flight. The older segments go
   * once the store holds (and has flushed) every batch they carry: those past `storedThroughSeq` (journal
   * rows the projector has not written yet) keep their segment until a later rotation.
   */
  rotateIfWanted(storedThroughSeq: number): void {
    if (!this.rotateWanted) return;
    this.rotateWanted = false;
    this.rotate(storedThroughSeq);
  }

  /** Starts a new segment and drops the older ones in the background (see DurableLog.rotate). */
  rotate(storedThroughSeq: number | undefined): void {
    this.log?.rotate(storedThroughSeq).catch((error: unknown) => {
      this.logger.warn({ err: error }, 'the durable log could not drop its older segments');
    });
  }

  close(): Promise<void> | undefined {
    return this.log?.close();
  }
}
