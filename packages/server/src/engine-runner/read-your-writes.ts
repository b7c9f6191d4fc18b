// Read-your-writes over journal-first commits. A reply waits only for its batch's journal commit; the
// projection tables (order history, trades, account log...) are written behind it by the projector stage.
// So that a user never reads history older than what they were told:
//
// - each request runs with a context (AsyncLocalStorage) into which the runner's submit() writes the seqs
//   it acknowledged (whether called through submit.ts or directly); before the reply is sent, the highest is remembered for the signed-in user
//   (runner.noteAcknowledged);
// - when a request's user is resolved (auth.ts calls `waitForUser`), the request waits, bounded, until the
//   projector has reached that user's last acknowledged seq. When it has (the usual case), this costs one map
//   lookup. On timeout the request is refused with a translated "try again" (error.catching_up) rather than
//   answered from stale rows;
// - a handler that reads projection tables after its own submit in the same request waits with
//   `awaitOwnWrites()` (a no-op outside a request); the submit helper does so unless told not to.
import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from '../http/app-error.ts';

/** What read-your-writes needs of the runner (runner.ts; written out here, which runner.ts imports). */
export interface ReadYourWritesRunner {
  readonly projectedSeq: number;
  whenProjected(seq: number, options?: { timeoutMs?: number }): Promise<boolean>;
  acknowledgedSeq(key: number | string): number;
}

export interface RequestWrites {
  runner: ReadYourWritesRunner;
  /** Longest wait for the projector before a read is refused. */
  waitMs: number;
  /** The highest seq acknowledged to this request (0: none). */
  acknowledgedSeq: number;
}

const requestWrites = new AsyncLocalStorage<RequestWrites>();

/** Runs `next` (a request's remaining lifecycle) with its own write context. */
export function runWithRequestWrites(context: RequestWrites, next: () => void): void {
  requestWrites.run(context, next);
}

/** Called by the runner's submit() with every acknowledged seq, in the submitter's context. */
export function noteRequestWrite(seq: number): void {
  const context = requestWrites.getStore();
  if (context !== undefined && seq > context.acknowledgedSeq) context.acknowledgedSeq = seq;
}

/**
 * Waits until the projections hold this request's own writes. The submit helper (submit.ts) calls it unless
 * told not to; a handler that submits otherwise and then reads projection tables calls it between the two.
 * Not bounded: the writes are durable and their reply must describe them; the projector is kept close
 * behind the journal by back-pressure, and a projector failure stops the runner, which rejects the wait.
 */
export async function awaitOwnWrites(): Promise<void> {
  const context = requestWrites.getStore();
  if (context === undefined || context.acknowledgedSeq <= context.runner.projectedSeq) return;
  await context.runner.whenProjected(context.acknowledgedSeq);
}

/** Waits until the projections hold `userKey`'s last acknowledged write; free when they do. */
export async function waitForUser(
  runner: ReadYourWritesRunner,
  userKey: number | string,
  waitMs: number,
): Promise<void> {
  const seq = runner.acknowledgedSeq(userKey);
  if (seq === 0) return;
  await waitFor(runner, seq, waitMs);
}

/**
 * Waits until the projections hold every command acknowledged so far (bounded; refuses with
 * error.catching_up): for readers of everyone's rows, the back office.
 */
export async function awaitAcknowledged(
  runner: ReadYourWritesRunner & { stats(): { lastCommittedSeq: number } },
  waitMs: number,
): Promise<void> {
  const seq = runner.stats().lastCommittedSeq;
  if (seq <= runner.projectedSeq) return;
  await waitFor(runner, seq, waitMs);
}

async function waitFor(runner: ReadYourWritesRunner, seq: number, waitMs: number): Promise<void> {
  if (!(await runner.whenProjected(seq, { timeoutMs: waitMs }))) throw new AppError('error.catching_up');
}
