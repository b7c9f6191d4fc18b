// Submit or refuse: the one way a service hands a command to the runner and turns what comes back into
// what the user reads. The runner's own failures (overloaded, stopped, a failed commit) become the
// translated refusals a user can act on (try again later); an engine refusal becomes the area's message for
// its result code. Anything else is a fault and stays a 500.
import { FreezeResultCode } from '@fairex/engine';
import type { Command, Engine, EngineEvent, Outcome } from '@fairex/engine';
import type { MessageKey, MessageParams } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import { CommitFailedError, RunnerOverloadedError, RunnerUnavailableError } from './errors.ts';
import { awaitOwnWrites } from './read-your-writes.ts';
import type { EngineRunner } from './runner.ts';

/** What a service needs of the runner to submit. */
export type SubmittingRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit'>;

/** An area's message for an engine result code other than 0. */
export type Refusal = (code: number) => { key: MessageKey; params?: MessageParams };

/**
 * A code no checked input should cause still answers in words (with the code, for the operator), never as
 * a server error: the refusal of areas without a message of their own for it.
 */
export const engineRefused: Refusal = (code) => ({ key: 'backoffice.engine_refused', params: { code } });

/**
 * The message of a refusal by freeze, whatever the area of the command (the kernel refuses a frozen user's
 * command before its handler runs, with the freeze area's codes); undefined for any other code.
 */
export function freezeRefusalKey(code: number): MessageKey | undefined {
  switch (code) {
    case FreezeResultCode.userFrozenForTrading:
      return 'freeze.trading';
    case FreezeResultCode.userFrozenForWithdrawals:
      return 'freeze.withdrawals';
    case FreezeResultCode.userFrozenFully:
      return 'freeze.full';
    default:
      return undefined;
  }
}

/**
 * Submits a command and returns its outcome, whatever its code. The runner's own failures become the
 * refusals `error.rate_limited` and `error.unavailable`.
 *
 * Inside a request it then also waits until the command's projections are written (read-your-writes.ts),
 * because most replies and the reads that follow in the same handler come from projection tables. A caller
 * whose reply comes from the outcome alone, on a hot path (placing and cancelling orders, seconds contracts),
 * passes `awaitProjections` false: its reply waits only for the journal commit.
 */
export async function submitCommand(
  runner: SubmittingRunner,
  command: Command,
  idempotencyKey?: string | undefined,
  awaitProjections = true,
): Promise<Outcome> {
  let outcome: Outcome;
  try {
    outcome = (await runner.submit(
      command,
      idempotencyKey === undefined ? {} : { idempotencyKey },
    )) as Outcome;
    if (awaitProjections) await awaitOwnWrites();
  } catch (error) {
    if (error instanceof RunnerOverloadedError) throw new AppError('error.rate_limited');
    if (error instanceof RunnerUnavailableError || error instanceof CommitFailedError)
      throw new AppError('error.unavailable');
    throw error;
  }
  return outcome;
}

export interface SubmitOrRefuseOptions {
  idempotencyKey?: string | undefined;
  /** The area's messages for engine refusals (default: engineRefused). */
  refusal?: Refusal;
  /** Wait for the command's projections before returning (default true; see submitCommand). */
  awaitProjections?: boolean;
}

/** Submits and insists on success: an engine refusal becomes the area's translated message. */
export async function submitOrRefuse<R>(
  runner: SubmittingRunner,
  command: Command,
  options: SubmitOrRefuseOptions = {},
): Promise<{ reply: R; seq: number; duplicate: boolean; events: readonly EngineEvent[] }> {
  const outcome = await submitCommand(
    runner,
    command,
    options.idempotencyKey,
    options.awaitProjections ?? true,
  );
  if (outcome.code !== 0) {
    const frozen = freezeRefusalKey(outcome.code);
    if (frozen !== undefined) throw new AppError(frozen);
    const { key, params } = (options.refusal ?? engineRefused)(outcome.code);
    throw new AppError(key, params ?? {});
  }
  return {
    reply: outcome.reply as R,
    seq: outcome.seq,
    duplicate: outcome.duplicate === true,
    events: outcome.events,
  };
}
