import type { AccountOwner, Wallet } from './accounts.ts';

export type CurrencyAddedEvent = { type: 'currencyAdded'; currencyId: number; code: string; scale: number };

/**
 * One account's balance changed. Each transfer produces one of these per account it touches, sharing the
 * transferId; a hold or a release touches one account and so produces one event.
 */
export type BalanceChangedEvent = {
  type: 'balanceChanged';
  transferId: number;
  owner: AccountOwner;
  wallet: Wallet;
  currencyId: number;
  availableBefore: bigint;
  availableAfter: bigint;
  lockedBefore: bigint;
  lockedAfter: bigint;
  /** A ReasonCode value. */
  reason: number;
  /** The order id (holds, releases), trade id (settlement, fees) or withdrawal id; 0 when none. */
  referenceId: number;
  memo?: string;
};

/**
 * A hold reached its expiry in command time: `amount` (what it still held) returns to available (the next
 * event is that release, reason holdExpired) and the owning area is told. Emitted before the command of the
 * envelope whose time reached the expiry, and kept even when that command is refused (Outcome.timeEvents).
 */
export type HoldExpiredEvent = {
  type: 'holdExpired';
  /** The owning area's name and its reference for the hold. */
  area: string;
  ref: number;
  owner: AccountOwner;
  wallet: Wallet;
  currencyId: number;
  amount: bigint;
};

export type LedgerEvent = CurrencyAddedEvent | BalanceChangedEvent | HoldExpiredEvent;
