// The wallets area's refusals a user should read (for the one submit-or-refuse helper,
// engine-runner/submit.ts), and a per-key mutex.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import { ResultCode } from '@fairex/engine';
import type { MessageKey, MessageParams } from '@fairex/shared';
import type { EngineRunner } from '../engine-runner/index.ts';
import type { Refusal } from '../engine-runner/submit.ts';
import { engineRefused, freezeRefusalKey } from '../engine-runner/submit.ts';
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
  const frozen = freezeRefusalKey(code);
  if (frozen !== undefined) refuse(frozen);
  const { key, params } = walletRefusal(code);
  refuse(key, params ?? {});
}

/** The wallets area's refusal for submitOrRefuse (engine-runner/submit.ts). */
export const walletRefusal: Refusal = (code) => {
  const key = walletRefusalKey(code);
  return key === undefined ? engineRefused(code) : { key };
};

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
