// The leverage overnight fee (spec 03 section 4; docs/lever-calls.md): once a day, one journaled
// `chargeLeverOvernight` command for the day that has begun. The engine charges each holding opened before a
// day's start once for that day and remembers the last day it charged, so the command is safe to repeat:
// run twice it charges once, and the first run after downtime charges every missed day. The job submits at
// start (catching up) and then just after each UTC midnight.
import type { Command, Outcome } from '@fairex/engine';

export interface OvernightSubmitter {
  submit(command: Command): Promise<Outcome>;
}

/** The engine's day: whole UTC days since 1970-01-01 (ChargeLeverOvernightCommand). */
const DAY_MS = 86_400_000;

/** A minute past midnight: the command time is then surely in the new day. */
const AFTER_MIDNIGHT_MS = 60_000;

export function utcDay(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

export function msUntilNextRun(nowMs: number): number {
  return (utcDay(nowMs) + 1) * DAY_MS + AFTER_MIDNIGHT_MS - nowMs;
}

export class LeverOvernightJob {
  readonly #runner: OvernightSubmitter;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(
    runner: OvernightSubmitter,
    options: { now?: () => number; onError?: (error: unknown) => void } = {},
  ) {
    this.#runner = runner;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => {});
  }

  /** Charges every day up to today that is not charged yet; the outcome's code (0 when accepted). */
  async runOnce(): Promise<number> {
    const outcome = await this.#runner.submit({ type: 'chargeLeverOvernight', day: utcDay(this.#now()) });
    return outcome.code;
  }

  start(): void {
    this.#stopped = false;
    this.#tick();
  }

  #tick(): void {
    if (this.#stopped) return;
    this.#running = this.runOnce().then(
      () => undefined,
      (error: unknown) => this.#onError(error),
    );
    this.#timer = setTimeout(() => this.#tick(), msUntilNextRun(this.#now()));
    this.#timer.unref?.();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    await this.#running;
  }
}
