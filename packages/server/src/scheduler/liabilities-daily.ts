// The daily liabilities snapshot (docs/transparency.md, "Proof of liabilities"): just after each UTC
// midnight, one journaled `captureLiabilities` command named after the day that begins (2026-12-07), with
// the idempotency key `liabilities:<day>` so a repeated run answers the first outcome instead of a second
// snapshot; the area's publisher then builds the tree off the main thread and publishes its root. Unlike the
// overnight fee it does not catch up missed days at start: a snapshot describes the moment it is taken, and
// the back office takes one on demand.
import { dailySnapshotId } from '../liabilities/publisher.ts';
import { msUntilNextRun } from './lever-overnight.ts';

export interface LiabilitiesCapturer {
  captureAndPublish(snapshotId: string, idempotencyKey?: string): Promise<number>;
}

export class LiabilitiesDailyJob {
  readonly #capturer: () => LiabilitiesCapturer | undefined;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    capturer: () => LiabilitiesCapturer | undefined,
    options: { now?: () => number; onError?: (error: unknown) => void } = {},
  ) {
    this.#capturer = capturer;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
  }

  /** Takes today's snapshot (once: the idempotency key answers a repeat with the first outcome). */
  async runOnce(): Promise<void> {
    const capturer = this.#capturer();
    if (capturer === undefined) return;
    const day = dailySnapshotId(this.#now());
    await capturer.captureAndPublish(day, `liabilities:${day}`);
  }

  /** Waits for the next UTC midnight (plus a minute), then runs every day. */
  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.runOnce().catch((error: unknown) => this.#onError(error));
      this.#schedule();
    }, msUntilNextRun(this.#now()));
    this.#timer.unref?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    await this.#running;
  }
}
