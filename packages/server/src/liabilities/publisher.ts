// Takes and publishes liabilities snapshots (docs/transparency.md, "Proof of liabilities"):
//   capture  the journaled `captureLiabilities` command (daily at UTC midnight from the scheduler, or on
//            demand from the back office); its liabilitiesCaptured event is projected with the commit;
//   publish  the tree built off the main thread from the projected amounts (builder.ts), then the journaled
//            `publishLiabilities` command with its root, which the engine checks and appends to the log.
// A crash between the two leaves the capture pending in the engine's state (engine.log.status()
// .pendingLiabilities): `recover()` at start builds and publishes it. Builds run one at a time.
import type { Command, Outcome } from '@fairex/engine';
import { buildAndStore } from './builder.ts';
import type { LiabilitiesStore, PublishLiabilitiesCommand } from './builder.ts';

/** What the publisher needs of the runner and the engine. */
export interface LiabilitiesRunner {
  submit(command: Command, options?: { idempotencyKey?: string }): Promise<Outcome>;
  /** Resolves once the projections hold this seq (the capture's amounts are read from them). */
  whenProjected(seq: number): Promise<boolean>;
  /** The engine's pending capture (log-design.md, `engine.log.status()`), or null. */
  pending(): { snapshotId: string; seq: number } | null;
}

export interface LiabilitiesLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A refused capture or publish: the engine's result code. */
export class LiabilitiesRefusedError extends Error {
  readonly code: number;

  constructor(command: string, code: number) {
    super(`${command} refused with code ${code}`);
    this.name = 'LiabilitiesRefusedError';
    this.code = code;
  }
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** The daily snapshot's id: the UTC day, 2026-12-07. */
export function dailySnapshotId(timeMs: number): string {
  const date = new Date(timeMs);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** An on-demand snapshot's id: the UTC day and time to the second, 2026-12-07T183005Z. */
export function onDemandSnapshotId(timeMs: number): string {
  const date = new Date(timeMs);
  return (
    `${dailySnapshotId(timeMs)}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}` +
    `${pad(date.getUTCSeconds())}Z`
  );
}

export class LiabilitiesPublisher {
  readonly #store: LiabilitiesStore;
  readonly #secret: () => Promise<Uint8Array>;
  readonly #runner: LiabilitiesRunner;
  readonly #logger: LiabilitiesLogger;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: {
    store: LiabilitiesStore;
    secret: () => Promise<Uint8Array>;
    runner: LiabilitiesRunner;
    logger: LiabilitiesLogger;
  }) {
    this.#store = options.store;
    this.#secret = options.secret;
    this.#runner = options.runner;
    this.#logger = options.logger;
  }

  /**
   * Journals `captureLiabilities`; the snapshot's seq, and whether the idempotency key answered an earlier
   * capture. Refused (e.g. one still pending): LiabilitiesRefusedError.
   */
  async capture(snapshotId: string, idempotencyKey?: string): Promise<{ seq: number; duplicate: boolean }> {
    const command = { type: 'captureLiabilities', snapshotId } as unknown as Command;
    const outcome = await this.#runner.submit(
      command,
      idempotencyKey === undefined ? {} : { idempotencyKey },
    );
    if (outcome.code !== 0) throw new LiabilitiesRefusedError('captureLiabilities', outcome.code);
    return { seq: outcome.originalSeq ?? outcome.seq, duplicate: outcome.duplicate === true };
  }

  /**
   * Builds the tree of the snapshot captured at `seq` and journals `publishLiabilities` (after any build
   * already queued).
   */
  publish(snapshotId: string, seq: number): Promise<PublishLiabilitiesCommand> {
    const run = this.#queue.then(async () => {
      const started = Date.now();
      await this.#runner.whenProjected(seq);
      const command = await buildAndStore(this.#store, await this.#secret(), snapshotId);
      const outcome = await this.#runner.submit(command as unknown as Command);
      if (outcome.code !== 0) throw new LiabilitiesRefusedError('publishLiabilities', outcome.code);
      this.#logger.info(
        { snapshotId, leaves: command.leafCount, root: command.root, ms: Date.now() - started },
        'liabilities snapshot published',
      );
      return command;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Capture, then build and publish in the background (errors logged); the snapshot's seq. A repeated
   * capture (the same idempotency key) publishes nothing again: its first run did, or `recover` will.
   */
  async captureAndPublish(snapshotId: string, idempotencyKey?: string): Promise<number> {
    const { seq, duplicate } = await this.capture(snapshotId, idempotencyKey);
    if (duplicate) return seq;
    this.publish(snapshotId, seq).catch((error: unknown) =>
      this.#logger.error({ err: error, snapshotId }, 'liabilities snapshot not published'),
    );
    return seq;
  }

  /** At start: publishes the capture a crash left pending, if any. */
  async recover(): Promise<void> {
    const pending = this.#runner.pending();
    if (pending === null) return;
    this.#logger.info({ snapshotId: pending.snapshotId }, 'publishing the pending liabilities snapshot');
    await this.publish(pending.snapshotId, pending.seq);
  }

  /** Resolves when every queued build has ended (for closing). */
  async idle(): Promise<void> {
    await this.#queue;
  }
}
