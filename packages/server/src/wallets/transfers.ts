// Transfers between the user's six wallets (spec 02 section 2.3, spec 03 section 2). The engine moves the
// funds atomically and refuses to take what open lever positions need (reservedFunds).
import type { Wallet } from '@fairex/engine';
import { ResultCode, WALLETS } from '@fairex/engine';
import type { UserCurrency } from '@fairex/shared';
import type { TransferCurrency, WalletDetail } from '@fairex/shared/api/wallet.ts';
import { formatDecimal } from '@fairex/shared';
import { parseAmount } from './amounts.ts';
import type { WalletCatalog, WalletCurrency } from './catalog.ts';
import type { WalletRunner } from './engine-calls.ts';
import { refuse, walletRefusal } from './engine-calls.ts';
import { submitOrRefuse } from '../engine-runner/submit.ts';
import { currencyFlags } from './valuation.ts';

/** The template's older transfer form: 1 moves from the spot wallet to the lever wallet, 2 back. */
export const TRANSFER_TYPES = {
  1: { from: 'change', to: 'lever' },
  2: { from: 'lever', to: 'change' },
} as const;

export class TransferService {
  private readonly runner: WalletRunner;
  private readonly catalog: WalletCatalog;

  constructor(runner: WalletRunner, catalog: WalletCatalog) {
    this.runner = runner;
    this.catalog = catalog;
  }

  private async currency(currencyId: number): Promise<WalletCurrency> {
    const currency = await this.catalog.currency(currencyId);
    if (!currency || !currency.isEnabled) refuse('wallet.currency_unknown');
    return currency;
  }

  /** Every currency a transfer can move (wallet/currencylist). */
  async currencies(): Promise<TransferCurrency[]> {
    return (await this.catalog.currencies())
      .filter((currency) => currency.isEnabled)
      .map((currency) => ({ id: currency.id, name: currency.code, scale: currency.scale }));
  }

  /**
   * currency/user_currency_list: every currency a transfer moves (the same as `currencies`), what it is used
   * for, and the user's balances in it in all six wallets.
   */
  async userCurrencies(userId: number): Promise<UserCurrency[]> {
    const { engine } = this.runner;
    const flagsOf = currencyFlags(engine);
    return (await this.catalog.currencies())
      .filter((currency) => currency.isEnabled)
      .map((currency) => {
        const wallet: UserCurrency['wallet'] = { currency: currency.id };
        for (const name of WALLETS) {
          const balance = engine.ledger.balance(userId, name, currency.id);
          wallet[`${name}_balance`] = formatDecimal(balance.available, currency.scale);
          wallet[`lock_${name}_balance`] = formatDecimal(balance.locked, currency.scale);
        }
        return {
          id: currency.id,
          name: currency.code,
          scale: currency.scale,
          ...flagsOf(currency.id),
          wallet,
        };
      });
  }

  /** One wallet's balance in one currency (wallet/detail). */
  async detail(userId: number, wallet: Wallet, currencyId: number): Promise<WalletDetail> {
    const currency = await this.currency(currencyId);
    const balance = this.runner.engine.ledger.balance(userId, wallet, currency.id);
    return {
      currency: currency.id,
      currency_name: currency.code,
      scale: currency.scale,
      type: wallet,
      [`${wallet}_balance`]: formatDecimal(balance.available, currency.scale),
      [`lock_${wallet}_balance`]: formatDecimal(balance.locked, currency.scale),
      balance: formatDecimal(balance.available, currency.scale),
    };
  }

  async transfer(input: {
    userId: number;
    currencyId: number;
    from: string;
    to: string;
    number: string;
    /** The translated name of the amount field, for refusals. */
    label: string;
  }): Promise<{ transferId: number }> {
    const from = walletOf(input.from);
    const to = walletOf(input.to);
    if (from === to) refuse('wallet.same_wallet');
    const currency = await this.currency(input.currencyId);
    const amount = parseAmount(input.number, currency.scale, input.label);
    const { reply } = await submitOrRefuse<{ transferId: number }>(
      this.runner,
      {
        type: 'transfer',
        userId: input.userId,
        currencyId: currency.id,
        fromWallet: from,
        toWallet: to,
        amount,
      },
      { refusal: (code) => this.transferRefusal(code, input.userId, from, currency) },
    );
    return reply;
  }

  /**
   * A transfer out of the lever wallet may be refused for what open positions' losses need there: the
   * refusal then names that reserve and what can be moved, instead of a bare "insufficient balance".
   */
  private transferRefusal(code: number, userId: number, from: Wallet, currency: WalletCurrency) {
    if (code !== ResultCode.insufficientFunds || from !== 'lever') return walletRefusal(code);
    const { engine } = this.runner;
    const reserved = engine.lever.risk(userId, currency.id).reserved;
    if (reserved <= 0n) return walletRefusal(code);
    const available = engine.ledger.balance(userId, 'lever', currency.id).available;
    const movable = available > reserved ? available - reserved : 0n;
    return {
      key: 'wallet.lever_reserved' as const,
      params: {
        reserved: formatDecimal(reserved, currency.scale),
        movable: formatDecimal(movable, currency.scale),
        currency: currency.code,
      },
    };
  }
}

/** A wallet name from the client; anything else is refused with the translated message. */
export function walletOf(value: string): Wallet {
  const wallet = WALLETS.find((name) => name === value);
  if (wallet === undefined) refuse('wallet.wallet_unknown');
  return wallet;
}
