import type { SystemOwner, Wallet } from '../ledger/accounts.ts';

/** Outside world -> the user's change wallet (a confirmed chain deposit or an administrator's credit). */
export type DepositCommand = {
  type: 'deposit';
  userId: number;
  currencyId: number;
  amount: bigint;
  memo?: string;
};

/** Outside world -> a system account (for example the market maker's inventory at genesis). */
export type SystemFundCommand = {
  type: 'systemFund';
  owner: Exclude<SystemOwner, 'outside'>;
  currencyId: number;
  amount: bigint;
  /** Default: change. */
  wallet?: Wallet;
  memo?: string;
};

/**
 * The house's change wallet -> a user's change wallet, with a required label saying why (for example the
 * demo merchant's funds). House money that was already inside the exchange: never a deposit, so nothing
 * counts it as one. Refused when the house's available balance is short.
 */
export type HouseTransferCommand = {
  type: 'houseTransfer';
  userId: number;
  currencyId: number;
  amount: bigint;
  memo: string;
};

/** Between two of the user's six wallets, same currency. */
export type TransferCommand = {
  type: 'transfer';
  userId: number;
  currencyId: number;
  fromWallet: Wallet;
  toWallet: Wallet;
  amount: bigint;
};

/**
 * Between two wallets of one system owner (not `outside`), same currency: for example the house's change
 * wallet to its micro wallet, the seconds contracts' reserve. Refused when the source's available balance,
 * less what the hold registry reserves on it, is short.
 */
export type SystemTransferCommand = {
  type: 'systemTransfer';
  owner: Exclude<SystemOwner, 'outside'>;
  currencyId: number;
  fromWallet: Wallet;
  toWallet: Wallet;
  amount: bigint;
  memo?: string;
};

/**
 * Holds `amount` of the user's change wallet until an administrator decides. `feeAmount` is the part of
 * `amount` the exchange keeps; the outside world receives `amount - feeAmount`.
 */
export type RequestWithdrawalCommand = {
  type: 'requestWithdrawal';
  userId: number;
  currencyId: number;
  amount: bigint;
  feeAmount: bigint;
  memo?: string;
};

/** Posts a pending withdrawal: the payout leaves to the outside world and the fee goes to the fees account. */
export type CompleteWithdrawalCommand = { type: 'completeWithdrawal'; withdrawalId: number; memo?: string };

/** Voids a pending withdrawal: the hold returns to the user's available balance. */
export type RejectWithdrawalCommand = { type: 'rejectWithdrawal'; withdrawalId: number; memo?: string };

/**
 * Exchanges between two currencies of the user's change wallet at a price the caller computed: the user pays
 * `amount` of the first to the house, the house pays `payoutAmount` of the second, of which `feeAmount`
 * goes on to the fees account. Refused when the user or the house lacks the funds.
 */
export type FlashExchangeCommand = {
  type: 'flashExchange';
  userId: number;
  fromCurrencyId: number;
  toCurrencyId: number;
  amount: bigint;
  payoutAmount: bigint;
  feeAmount: bigint;
  memo?: string;
};

export type FundingCommand =
  | DepositCommand
  | SystemFundCommand
  | HouseTransferCommand
  | TransferCommand
  | SystemTransferCommand
  | RequestWithdrawalCommand
  | CompleteWithdrawalCommand
  | RejectWithdrawalCommand
  | FlashExchangeCommand;

export type DepositReply = { transferId: number };
export type SystemFundReply = { transferId: number };
export type HouseTransferReply = { transferId: number };
export type TransferReply = { transferId: number };
export type SystemTransferReply = { transferId: number };
export type RequestWithdrawalReply = { withdrawalId: number };
export type CompleteWithdrawalReply = { withdrawalId: number; payoutAmount: bigint; feeAmount: bigint };
/** `payoutAmount - feeAmount` is what reached the user. */
export type FlashExchangeReply = { transferId: number; payoutAmount: bigint; feeAmount: bigint };
export type RejectWithdrawalReply = { withdrawalId: number; releasedAmount: bigint };
