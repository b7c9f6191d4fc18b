import { MAX_CURRENCY_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import type { EngineState } from '../state.ts';
import { isAmount, isCount, isOptionalMemo } from '../validate.ts';
import { CHANGE_WALLET_INDEX, OUTSIDE_OWNER_KEY, ownerKeyOf, walletIndexOf } from './accounts.ts';
import type { DepositCommand, SystemFundCommand, TransferCommand } from './commands.ts';
import { ReasonCode } from './reason-codes.ts';
import { reservedFunds } from './reserved-funds.ts';

export function deposit(state: EngineState, command: DepositCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const code = checkCurrencyAmountMemo(state, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const ledger = state.ledger;
  const outside = ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, command.currencyId);
  const wallet = ledger.account(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(outside, wallet, command.amount, ReasonCode.deposit, 0, command.memo);
  state.reply = { transferId };
  return ResultCode.ok;
}

export function systemFund(state: EngineState, command: SystemFundCommand): number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey >= 0 || ownerKey === OUTSIDE_OWNER_KEY) return ResultCode.invalidOwner;
  const walletIndex = command.wallet === undefined ? CHANGE_WALLET_INDEX : walletIndexOf(command.wallet);
  if (walletIndex < 0) return ResultCode.invalidWallet;
  const code = checkCurrencyAmountMemo(state, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const ledger = state.ledger;
  const outside = ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, command.currencyId);
  const target = ledger.account(ownerKey, walletIndex, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(outside, target, command.amount, ReasonCode.systemFund, 0, command.memo);
  state.reply = { transferId };
  return ResultCode.ok;
}

export function transferBetweenWallets(state: EngineState, command: TransferCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const fromIndex = walletIndexOf(command.fromWallet);
  const toIndex = walletIndexOf(command.toWallet);
  if (fromIndex < 0 || toIndex < 0) return ResultCode.invalidWallet;
  if (fromIndex === toIndex) return ResultCode.sameWallet;
  const code = checkCurrencyAmountMemo(state, command.currencyId, command.amount, undefined);
  if (code !== ResultCode.ok) return code;
  const ledger = state.ledger;
  const from = ledger.findAccount(userKey, fromIndex, command.currencyId);
  if (from === undefined || from.available - command.amount < reservedFunds(state, from)) {
    return ResultCode.insufficientFunds;
  }
  const to = ledger.account(userKey, toIndex, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(from, to, command.amount, ReasonCode.walletTransfer, 0);
  state.reply = { transferId };
  return ResultCode.ok;
}

/** The checks every funding command shares: a known currency, a positive bounded amount, a short memo. */
export function checkCurrencyAmountMemo(
  state: EngineState,
  currencyId: unknown,
  amount: unknown,
  memo: unknown,
): number {
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!state.currencies.has(currencyId)) return ResultCode.currencyNotFound;
  if (!isAmount(amount)) return ResultCode.invalidAmount;
  if (!isOptionalMemo(memo)) return ResultCode.invalidMemo;
  return ResultCode.ok;
}
