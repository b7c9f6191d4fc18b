import { ResultCode } from '../result-codes.ts';
import type { EngineState, Withdrawal } from '../state.ts';
import { isCount, isOptionalMemo } from '../validate.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY, OUTSIDE_OWNER_KEY, ownerKeyOf } from './accounts.ts';
import type {
  CompleteWithdrawalCommand,
  RejectWithdrawalCommand,
  RequestWithdrawalCommand,
} from './commands.ts';
import { checkCurrencyAmountMemo } from './funding.ts';
import { ReasonCode } from './reason-codes.ts';
import { reservedFunds } from './reserved-funds.ts';

/** Pending: the whole amount (payout and fee) moves from available to locked on the change wallet. */
export function requestWithdrawal(state: EngineState, command: RequestWithdrawalCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const code = checkCurrencyAmountMemo(state, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const { amount, feeAmount } = command;
  if (typeof feeAmount !== 'bigint' || feeAmount < 0n) return ResultCode.invalidAmount;
  if (feeAmount >= amount) return ResultCode.feeNotBelowAmount;
  const account = state.ledger.findAccount(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  if (account === undefined || account.available - amount < reservedFunds(state, account)) {
    return ResultCode.insufficientFunds;
  }
  const withdrawalId = state.nextWithdrawalId++;
  state.ledger.hold(account, amount, ReasonCode.withdrawalHold, withdrawalId, command.memo);
  const withdrawal: Withdrawal = {
    withdrawalId,
    userId: userKey,
    currencyId: command.currencyId,
    amount,
    feeAmount,
    account,
    requestedTimeMs: state.timeMs,
    memo: command.memo,
  };
  state.withdrawals.set(withdrawalId, withdrawal);
  state.events.push({
    type: 'withdrawalRequested',
    withdrawalId,
    userId: userKey,
    currencyId: command.currencyId,
    amount,
    feeAmount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  state.reply = { withdrawalId };
  return ResultCode.ok;
}

/** Post: the payout leaves to the outside world, the fee goes to the fees account. */
export function completeWithdrawal(state: EngineState, command: CompleteWithdrawalCommand): number {
  const found = findPending(state, command.withdrawalId, command.memo);
  if (typeof found === 'number') return found;
  const { withdrawalId, account, amount, feeAmount, currencyId } = found;
  const ledger = state.ledger;
  const payoutAmount = amount - feeAmount;
  ledger.post(
    account,
    ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, currencyId),
    payoutAmount,
    ReasonCode.withdrawalPayout,
    withdrawalId,
    command.memo,
  );
  if (feeAmount > 0n) {
    const fees = ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, currencyId);
    ledger.post(account, fees, feeAmount, ReasonCode.withdrawalFee, withdrawalId, command.memo);
  }
  state.withdrawals.delete(withdrawalId);
  state.events.push({
    type: 'withdrawalCompleted',
    withdrawalId,
    userId: found.userId,
    currencyId,
    amount,
    feeAmount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  state.reply = { withdrawalId, payoutAmount, feeAmount };
  return ResultCode.ok;
}

/** Void: the hold returns to available. */
export function rejectWithdrawal(state: EngineState, command: RejectWithdrawalCommand): number {
  const found = findPending(state, command.withdrawalId, command.memo);
  if (typeof found === 'number') return found;
  const { withdrawalId, account, amount } = found;
  state.ledger.release(account, amount, ReasonCode.withdrawalRelease, withdrawalId, command.memo);
  state.withdrawals.delete(withdrawalId);
  state.events.push({
    type: 'withdrawalRejected',
    withdrawalId,
    userId: found.userId,
    currencyId: found.currencyId,
    amount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  state.reply = { withdrawalId, releasedAmount: amount };
  return ResultCode.ok;
}

function findPending(state: EngineState, withdrawalId: unknown, memo: unknown): Withdrawal | number {
  if (!isCount(withdrawalId, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidId;
  if (!isOptionalMemo(memo)) return ResultCode.invalidMemo;
  const withdrawal = state.withdrawals.get(withdrawalId);
  if (withdrawal !== undefined) return withdrawal;
  // Ids are issued in order, so an id below the next one existed and has already been decided.
  return withdrawalId < state.nextWithdrawalId
    ? ResultCode.withdrawalNotPending
    : ResultCode.withdrawalNotFound;
}
