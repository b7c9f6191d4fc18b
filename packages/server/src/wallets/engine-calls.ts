// Submitting wallet commands to the engine runner, and the refusals a user should read.
import type { Command, Engine, EngineEvent, Outcome } from '@fairex/engine';
import { ResultCode } from '@fairex/engine';
import type { MessageKey, MessageParams } from '@fairex/shared';
import type { EngineRunner } from '../engine-runner/index.ts';
import { CommitFailedError, RunnerOverloadedError, RunnerUnavailableError } from '../engine-runner/index.ts';
import { AppError } from '../http/app-error.ts';

export type WalletRunner = Pick<EngineRunner<Command, EngineEvent, Engine>, 'submit' | 'engine'>;

export function refuse(key: MessageKey, params: MessageParams = {}): never {
  throw new AppError(key, params);
}

/** The message for an engine refusal of a wallet command; undefined for a code no checked input causes. */
export function walletRefusalKey(code: number): MessageKey | undefined {
  switch (code) {
    case ResultCode.insufficientFunds:
      return 'wallet.insufficient_balance';
    case ResultCode.houseInsufficientFunds:
      return 'wallet.flash_liquidity';
    case ResultCode.sameWallet:
      return 'wallet.same_wallet';
    case ResultCode.invalidAmount:
      return 'wallet.amount_invalid';
    case ResultCode.currencyNotFound:
      return 'wallet.currency_unknown';
    case ResultCode.withdrawalNotPending:
    case ResultCode.withdrawalNotFound:
      return 'wallet.withdrawal_decided';
    default:
      return undefined;
  }
}

/**
 * Refuses with the message of an engine refusal. A code no checked input should cause still answers in
 * words (with the code, for the operator), never as a server error.
 */
export function refuseEngineCode(code: number): never {
  const key = walletRefusalKey(code);
  if (key === undefined) refuse('backoffice.engine_refused', { code });
  refuse(key);
}

/**
 * Submits a command and returns its outcome, whatever its code. The runner's own failures (overloaded,
 * stopped) become the refusals a user can act on: try again later.
 */
export async function submitCommand(
  runner: WalletRunner,
  command: Command,
  idempotencyKey: string | undefined,
): Promise<Outcome> {
  try {
    return (await runner.submit(command, idempotencyKey === undefined ? {} : { idempotencyKey })) as Outcome;
  } catch (error) {
    if (error instanceof RunnerOverloadedError) refuse('error.rate_limited');
    if (error instanceof RunnerUnavailableError || error instanceof CommitFailedError)
      refuse('error.unavailable');
    throw error;
  }
}

/** Submits and insists on success: a refusal becomes its translated message, whatever its code. */
export async function submitOrRefuse<R>(
  runner: WalletRunner,
  command: Command,
  idempotencyKey: string | undefined,
): Promise<{ reply: R; seq: number }> {
  const outcome = await submitCommand(runner, command, idempotencyKey);
  if (outcome.code !== 0) refuseEngineCode(outcome.code);
  return { reply: outcome.reply as R, seq: outcome.seq };
}

/** Serialises work per key inside this process (one crediting of a transaction id at a time). */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release: () => void = () => {};
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    try {
      await previous;
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
