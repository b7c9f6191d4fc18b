import { CHANGE_WALLET_INDEX } from '../ledger/accounts.ts';
import type { Account } from '../ledger/accounts.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Order } from './types.ts';

/**
 * What the spot area keeps per owner who has traded: the open orders, oldest first, linked through the
 * orders themselves, and the owner's change-wallet accounts by currency, so that placing, filling and
 * cancelling an order look nothing up by key. Derived state: rebuilt on restore, never in the snapshot.
 */
export class Trader {
  readonly ownerKey: number;
  head: Order | null = null;
  tail: Order | null = null;
  openOrderCount = 0;
  private readonly changeAccounts: (Account | undefined)[] = [];

  constructor(ownerKey: number) {
    this.ownerKey = ownerKey;
  }

  /** The change-wallet account in a currency, created empty on first use. */
  changeAccount(ledger: Ledger, currencyId: number): Account {
    let account = this.changeAccounts[currencyId];
    if (account === undefined) {
      account = ledger.account(this.ownerKey, CHANGE_WALLET_INDEX, currencyId);
      this.changeAccounts[currencyId] = account;
    }
    return account;
  }
}
