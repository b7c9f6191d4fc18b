// Events of the funding area: pending withdrawals. Deposits, transfers and flash exchanges show only as
// balance events (the ledger's balanceChanged, with the funding reason codes).

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

export type FundingEvent = WithdrawalRequestedEvent | WithdrawalCompletedEvent | WithdrawalRejectedEvent;
