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

export type WithdrawalRequestedEvent = {
  type: 'withdrawalRequested';
  withdrawalId: number;
  userId: number;
  currencyId: number;
  amount: bigint;
  feeAmount: bigint;
  memo?: string;
};

export type WithdrawalCompletedEvent = {
  type: 'withdrawalCompleted';
  withdrawalId: number;
  userId: number;
  currencyId: number;
  amount: bigint;
  feeAmount: bigint;
  memo?: string;
};

export type WithdrawalRejectedEvent = {
  type: 'withdrawalRejected';
  withdrawalId: number;
  userId: number;
  currencyId: number;
  amount: bigint;
  memo?: string;
};

export type LedgerEvent =
  | CurrencyAddedEvent
  | BalanceChangedEvent
  | WithdrawalRequestedEvent
  | WithdrawalCompletedEvent
  | WithdrawalRejectedEvent;
