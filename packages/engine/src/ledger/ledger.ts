import { fail } from '../invariant.ts';
import { Account, OUTSIDE_OWNER_KEY, accountKey } from './accounts.ts';
import type { EngineEvent } from '../events.ts';
import type { BalanceChangedEvent } from './events.ts';

/**
 * The double-entry ledger (TigerBeetle style). Balances change only through the four postings below, each
 * of which moves an amount between two accounts or between the two parts of one account:
 *
 * - transfer: available -> another account's available (deposits, wallet moves, fees);
 * - hold:     available -> locked of the same account (a pending transfer: order or withdrawal hold);
 * - post:     locked -> another account's available (a pending transfer completed, wholly or in part);
 * - release:  locked -> available of the same account (a pending transfer voided, wholly or in part).
 *
 * Callers validate before they post; a posting that would break a rule is a bug and throws.
 */
export class Ledger {
  readonly accounts = new Map<number, Account>();
  nextTransferId = 1;
  /** The event list of the command being applied; the engine swaps it for each command. */
  events: EngineEvent[] = [];

  /** The account, created empty on first use. */
  account(ownerKey: number, walletIndex: number, currencyId: number): Account {
    const key = accountKey(ownerKey, walletIndex, currencyId);
    let account = this.accounts.get(key);
    if (account === undefined) {
      account = new Account(ownerKey, walletIndex, currencyId);
      this.accounts.set(key, account);
    }
    return account;
  }

  /** The account if it was ever used; reads must not create accounts. */
  findAccount(ownerKey: number, walletIndex: number, currencyId: number): Account | undefined {
    return this.accounts.get(accountKey(ownerKey, walletIndex, currencyId));
  }

  transfer(
    from: Account,
    to: Account,
    amount: bigint,
    reason: number,
    referenceId: number,
    memo?: string,
  ): void {
    if (!(amount > 0n)) fail(`transfer of ${amount}`);
    if (from === to || from.currencyId !== to.currencyId) fail('transfer needs two accounts of one currency');
    if (from.available < amount && from.ownerKey !== OUTSIDE_OWNER_KEY) {
      fail(`transfer of ${amount} from account ${from.key} with ${from.available} available`);
    }
    const transferId = this.nextTransferId++;
    const fromBefore = from.available;
    from.available = fromBefore - amount;
    this.emit(transferId, from, fromBefore, from.locked, reason, referenceId, memo);
    const toBefore = to.available;
    to.available = toBefore + amount;
    this.emit(transferId, to, toBefore, to.locked, reason, referenceId, memo);
  }

  hold(account: Account, amount: bigint, reason: number, referenceId: number, memo?: string): void {
    if (!(amount > 0n)) fail(`hold of ${amount}`);
    if (account.ownerKey === OUTSIDE_OWNER_KEY) fail('the outside world holds nothing');
    if (account.available < amount) fail(`hold of ${amount} with ${account.available} available`);
    const availableBefore = account.available;
    const lockedBefore = account.locked;
    account.available = availableBefore - amount;
    account.locked = lockedBefore + amount;
    this.emit(this.nextTransferId++, account, availableBefore, lockedBefore, reason, referenceId, memo);
  }

  post(from: Account, to: Account, amount: bigint, reason: number, referenceId: number, memo?: string): void {
    if (!(amount > 0n)) fail(`post of ${amount}`);
    if (from === to || from.currencyId !== to.currencyId) fail('post needs two accounts of one currency');
    if (from.locked < amount) fail(`post of ${amount} with ${from.locked} locked`);
    const transferId = this.nextTransferId++;
    const fromLockedBefore = from.locked;
    from.locked = fromLockedBefore - amount;
    this.emit(transferId, from, from.available, fromLockedBefore, reason, referenceId, memo);
    const toBefore = to.available;
    to.available = toBefore + amount;
    this.emit(transferId, to, toBefore, to.locked, reason, referenceId, memo);
  }

  release(account: Account, amount: bigint, reason: number, referenceId: number, memo?: string): void {
    if (!(amount > 0n)) fail(`release of ${amount}`);
    if (account.locked < amount) fail(`release of ${amount} with ${account.locked} locked`);
    const availableBefore = account.available;
    const lockedBefore = account.locked;
    account.locked = lockedBefore - amount;
    account.available = availableBefore + amount;
    this.emit(this.nextTransferId++, account, availableBefore, lockedBefore, reason, referenceId, memo);
  }

  private emit(
    transferId: number,
    account: Account,
    availableBefore: bigint,
    lockedBefore: bigint,
    reason: number,
    referenceId: number,
    memo: string | undefined,
  ): void {
    const event: BalanceChangedEvent = {
      type: 'balanceChanged',
      transferId,
      owner: account.owner,
      wallet: account.wallet,
      currencyId: account.currencyId,
      availableBefore,
      availableAfter: account.available,
      lockedBefore,
      lockedAfter: account.locked,
      reason,
      referenceId,
    };
    if (memo !== undefined) event.memo = memo;
    this.events.push(event);
  }
}
