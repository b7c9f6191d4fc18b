import { fail, invariant } from '../invariant.ts';
import { Account, OUTSIDE_OWNER_KEY, accountKey } from './accounts.ts';
import type { BalanceChangedEvent, LedgerEvent } from './events.ts';
import { HoldRegistry, compareHolds } from './holds.ts';
import type { Hold } from './holds.ts';

export type Currency = { readonly currencyId: number; readonly code: string; readonly scale: number };

/** How much of an account's available balance an area needs to stay where it is (see `reservedFunds`). */
export type ReservedFundsRule = (account: Account) => bigint;

/**
 * The double-entry ledger (TigerBeetle style). Balances change only through the four postings below, each
 * of which moves an amount between two accounts or between the two parts of one account:
 *
 * - transfer: available -> another account's available (deposits, wallet moves, fees);
 * - hold:     available -> locked of the same account (a pending transfer: order or withdrawal hold);
 * - post:     locked -> another account's available (a pending transfer completed, wholly or in part);
 * - release:  locked -> available of the same account (a pending transfer voided, wholly or in part).
 *
 * Every hold is a record in the registry (holds.ts); `locked` is always the sum of an account's holds.
 * Callers validate before they post; a posting that would break a rule is a bug and throws.
 */
const NO_HOLDS: readonly Hold[] = [];

export class Ledger {
  readonly accounts = new Map<number, Account>();
  readonly currencies = new Map<number, Currency>();
  /** Every open hold. */
  readonly holds = new HoldRegistry();
  /** The open holds that have an expiry, and the earliest expiry among them (Infinity when none). */
  private readonly expiring = new Set<Hold>();
  private nextExpiryMs = Number.POSITIVE_INFINITY;
  nextTransferId = 1;
  /** The event list of the envelope being applied (the engine's); the engine swaps it for each envelope. */
  events: { push(event: LedgerEvent): unknown } = [];
  /**
   * False while the engine replays an envelope whose events nobody reads (Engine.replay): balance events are
   * then not built at all. Balances, holds and every other effect are the same either way.
   */
  recordEvents = true;
  /** The areas' reserved-funds rules; the engine installs them once. */
  reservedFundsRules: readonly ReservedFundsRule[] = [];

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

  /**
   * The part of an account's available balance that must stay where it is because an area's open positions
   * may need it (spec 03 section 2: funds may not leave the lever wallet while lever positions need them).
   * A transfer, withdrawal or flash exchange may take only what lies above it. The sum of every area's rule.
   */
  reservedFunds(account: Account): bigint {
    const rules = this.reservedFundsRules;
    let reserved = 0n;
    for (let index = 0; index < rules.length; index += 1)
      reserved += (rules[index] as ReservedFundsRule)(account);
    return reserved;
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

  /**
   * Opens a hold an area built: its amount moves from available to locked on its account (reason: the
   * hold's reason, reference: the hold's ref) and the registry keeps it until its amount reaches zero.
   */
  hold(hold: Hold, memo?: string): void {
    const account = hold.account;
    const amount = hold.amount;
    if (!(amount > 0n)) fail(`hold of ${amount}`);
    if (account.ownerKey === OUTSIDE_OWNER_KEY) fail('the outside world holds nothing');
    if (account.available < amount) fail(`hold of ${amount} with ${account.available} available`);
    if (this.holds.has(hold)) fail(`hold ${hold.area}/${hold.ref} is open already`);
    const availableBefore = account.available;
    const lockedBefore = account.locked;
    account.available = availableBefore - amount;
    account.locked = lockedBefore + amount;
    this.register(hold);
    this.emit(this.nextTransferId++, account, availableBefore, lockedBefore, hold.reason, hold.ref, memo);
  }

  /** Completes `amount` of a hold: from its account's locked part to another account's available. */
  post(hold: Hold, to: Account, amount: bigint, reason: number, referenceId: number, memo?: string): void {
    const from = hold.account;
    if (!(amount > 0n)) fail(`post of ${amount}`);
    if (from === to || from.currencyId !== to.currencyId) fail('post needs two accounts of one currency');
    if (hold.amount < amount) fail(`post of ${amount} from hold ${hold.area}/${hold.ref} of ${hold.amount}`);
    const transferId = this.nextTransferId++;
    const fromLockedBefore = from.locked;
    from.locked = fromLockedBefore - amount;
    this.reduce(hold, amount);
    this.emit(transferId, from, from.available, fromLockedBefore, reason, referenceId, memo);
    const toBefore = to.available;
    to.available = toBefore + amount;
    this.emit(transferId, to, toBefore, to.locked, reason, referenceId, memo);
  }

  /** Voids `amount` of a hold: back to its account's available part (reference: the hold's ref). */
  release(hold: Hold, amount: bigint, reason: number, memo?: string): void {
    const account = hold.account;
    if (!(amount > 0n)) fail(`release of ${amount}`);
    if (hold.amount < amount)
      fail(`release of ${amount} from hold ${hold.area}/${hold.ref} of ${hold.amount}`);
    const availableBefore = account.available;
    const lockedBefore = account.locked;
    account.locked = lockedBefore - amount;
    account.available = availableBefore + amount;
    this.reduce(hold, amount);
    this.emit(this.nextTransferId++, account, availableBefore, lockedBefore, reason, hold.ref, memo);
  }

  /**
   * Registers a hold whose money is already locked: an area re-creating its holds from its own snapshot rows,
   * or the snapshot's own `holds` section. Changes no balance; the invariant check afterwards proves the sum.
   */
  restoreHold(hold: Hold): void {
    if (!(hold.amount > 0n)) fail(`restored hold ${hold.area}/${hold.ref} of ${hold.amount}`);
    if (this.holds.has(hold)) fail(`hold ${hold.area}/${hold.ref} restored twice`);
    this.register(hold);
  }

  /**
   * The open holds of one area, by reference. Walks every hold: for restoring an area whose holds come from
   * the snapshot's `holds` section, and for audits; command handlers keep their holds on their own records.
   */
  holdsOf(area: string): Map<number, Hold> {
    const found = new Map<number, Hold>();
    this.holds.forEach((hold) => {
      if (hold.area === area) found.set(hold.ref, hold);
    });
    return found;
  }

  /** Holds whose expiry the command time `timeMs` has reached, in a deterministic order; none most of the time. */
  expiredHolds(timeMs: number): readonly Hold[] {
    if (timeMs < this.nextExpiryMs) return NO_HOLDS;
    const expired: Hold[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const hold of this.expiring) {
      const expiresAtMs = hold.expiresAtMs as number;
      if (expiresAtMs <= timeMs) expired.push(hold);
      else if (expiresAtMs < next) next = expiresAtMs;
    }
    this.nextExpiryMs = next;
    return expired.sort(compareHolds);
  }

  private register(hold: Hold): void {
    this.holds.add(hold);
    const expiresAtMs = hold.expiresAtMs;
    if (expiresAtMs !== undefined) {
      this.expiring.add(hold);
      if (expiresAtMs < this.nextExpiryMs) this.nextExpiryMs = expiresAtMs;
    }
  }

  private reduce(hold: Hold, amount: bigint): void {
    // The whole rest (a cancel, a last fill) is the common case: no bigint subtraction to allocate then.
    const left = amount === hold.amount ? 0n : hold.amount - amount;
    hold.amount = left;
    if (left === 0n) {
      this.holds.delete(hold);
      if (hold.expiresAtMs !== undefined) this.expiring.delete(hold);
    }
  }

  /**
   * The ledger's own rules: per currency every account sums to zero, only the outside world is below zero,
   * every account is in a known currency, every hold is positive and on a ledger account, and each account's
   * locked part equals the sum of its holds.
   */
  checkInvariants(): void {
    const heldByAccount = new Map<number, bigint>();
    const refsByArea = new Map<string, Set<number>>();
    let visited = 0;
    this.holds.forEach((hold) => {
      visited += 1;
      let refs = refsByArea.get(hold.area);
      if (refs === undefined) refsByArea.set(hold.area, (refs = new Set()));
      if (!hold.open) fail(`hold ${hold.area}/${hold.ref} is listed but not open`);
      if (!(hold.amount > 0n)) fail(`hold ${hold.area}/${hold.ref} of ${hold.amount}`);
      if (refs.has(hold.ref)) fail(`hold ${hold.area}/${hold.ref} is registered twice`);
      refs.add(hold.ref);
      if (this.accounts.get(hold.account.key) !== hold.account)
        fail(`hold ${hold.area}/${hold.ref} is on no ledger account`);
      const key = hold.account.key;
      heldByAccount.set(key, (heldByAccount.get(key) ?? 0n) + hold.amount);
    });
    // Holds an area lists itself are only counted by the registry: one open but no longer listed by its area
    // (a spot taker's hold left open after its command) shows here.
    invariant(visited === this.holds.size, `${this.holds.size} open holds but ${visited} listed`);
    for (const hold of this.expiring) {
      invariant(this.holds.has(hold), `expiring hold ${hold.area}/${hold.ref} is not open`);
      invariant(hold.expiresAtMs !== undefined && hold.expiresAtMs >= this.nextExpiryMs, 'hold expiry index');
    }
    const sums = new Map<number, bigint>();
    for (const account of this.accounts.values()) {
      invariant(this.currencies.has(account.currencyId), `account ${account.key} in unknown currency`);
      const isOutside = account.ownerKey === OUTSIDE_OWNER_KEY;
      invariant(
        isOutside || account.available >= 0n,
        `account ${describe(account)} available ${account.available}`,
      );
      invariant(account.locked >= 0n, `account ${describe(account)} locked ${account.locked}`);
      const held = heldByAccount.get(account.key) ?? 0n;
      invariant(
        account.locked === held,
        `account ${describe(account)} locks ${account.locked} but its holds total ${held}`,
      );
      sums.set(account.currencyId, (sums.get(account.currencyId) ?? 0n) + account.available + account.locked);
    }
    for (const [currencyId, sum] of sums)
      invariant(sum === 0n, `currency ${currencyId} sums to ${sum}, not zero`);
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
    if (!this.recordEvents) return;
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

function describe(account: { owner: unknown; wallet: string; currencyId: number }): string {
  return `${String(account.owner)}/${account.wallet}/${account.currencyId}`;
}
