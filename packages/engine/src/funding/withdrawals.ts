import type { CommandContext } from '../kernel/context.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY, OUTSIDE_OWNER_KEY, ownerKeyOf } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import { ResultCode } from '../result-codes.ts';
import { isCount, isOptionalMemo } from '../validate.ts';
import type {
  CompleteWithdrawalCommand,
  RejectWithdrawalCommand,
  RequestWithdrawalCommand,
} from './commands.ts';
import { FundingReasonCode as ReasonCode } from './reason-codes.ts';
import type { FundingState, Withdrawal } from './state.ts';
import { checkCurrencyAmountMemo } from './transfers.ts';

/** Pending: the whole amount (payout and fee) moves from available to locked on the change wallet. */
export function requestWithdrawal(
  ctx: CommandContext,
  state: FundingState,
  command: RequestWithdrawalCommand,
): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const ledger = state.ledger;
  const code = checkCurrencyAmountMemo(ledger, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const { amount, feeAmount } = command;
  if (typeof feeAmount !== 'bigint' || feeAmount < 0n) return ResultCode.invalidAmount;
  if (feeAmount >= amount) return ResultCode.feeNotBelowAmount;
  const account = ledger.findAccount(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  if (account === undefined || account.available - amount < ledger.reservedFunds(account)) {
    return ResultCode.insufficientFunds;
  }
  const withdrawalId = state.withdrawalIds.next();
  const hold = new Hold('funding', withdrawalId, account, amount, ReasonCode.withdrawalHold);
  ledger.hold(hold, command.memo);
  const withdrawal: Withdrawal = {
    withdrawalId,
    userId: userKey,
    currencyId: command.currencyId,
    amount,
    feeAmount,
    hold,
    requestedTimeMs: ctx.timeMs,
    memo: command.memo,
  };
  state.withdrawals.set(withdrawalId, withdrawal);
  ctx.emit({
    type: 'withdrawalRequested',
    withdrawalId,
    userId: userKey,
    currencyId: command.currencyId,
    amount,
    feeAmount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  ctx.reply({ withdrawalId });
  return ResultCode.ok;
}

/** Post: the payout leaves to the outside world, the fee goes to the fees account. */
export function completeWithdrawal(
  ctx: CommandContext,
  state: FundingState,
  command: CompleteWithdrawalCommand,
): number {
  const found = findPending(state, command.withdrawalId, command.memo);
  if (typeof found === 'number') return found;
  const { withdrawalId, hold, amount, feeAmount, currencyId } = found;
  const ledger = state.ledger;
  const payoutAmount = amount - feeAmount;
  ledger.post(
    hold,
    ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, currencyId),
    payoutAmount,
    ReasonCode.withdrawalPayout,
    withdrawalId,
    command.memo,
  );
  if (feeAmount > 0n) {
    const fees = ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, currencyId);
    ledger.post(hold, fees, feeAmount, ReasonCode.withdrawalFee, withdrawalId, command.memo);
  }
  state.withdrawals.delete(withdrawalId);
  ctx.emit({
    type: 'withdrawalCompleted',
    withdrawalId,
    userId: found.userId,
    currencyId,
    amount,
    feeAmount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  ctx.reply({ withdrawalId, payoutAmount, feeAmount });
  return ResultCode.ok;
}

/** Void: the hold returns to available. */
export function rejectWithdrawal(
  ctx: CommandContext,
  state: FundingState,
  command: RejectWithdrawalCommand,
): number {
  const found = findPending(state, command.withdrawalId, command.memo);
  if (typeof found === 'number') return found;
  const { withdrawalId, hold, amount } = found;
  state.ledger.release(hold, amount, ReasonCode.withdrawalRelease, command.memo);
  state.withdrawals.delete(withdrawalId);
  ctx.emit({
    type: 'withdrawalRejected',
    withdrawalId,
    userId: found.userId,
    currencyId: found.currencyId,
    amount,
    ...(command.memo === undefined ? {} : { memo: command.memo }),
  });
  ctx.reply({ withdrawalId, releasedAmount: amount });
  return ResultCode.ok;
}

function findPending(state: FundingState, withdrawalId: unknown, memo: unknown): Withdrawal | number {
  if (!isCount(withdrawalId, Number.MAX_SAFE_INTEGER)) return ResultCode.invalidId;
  if (!isOptionalMemo(memo)) return ResultCode.invalidMemo;
  const withdrawal = state.withdrawals.get(withdrawalId);
  if (withdrawal !== undefined) return withdrawal;
  // Ids are issued in order, so an id below the next one existed and has already been decided.
  return withdrawalId < state.withdrawalIds.value
    ? ResultCode.withdrawalNotPending
    : ResultCode.withdrawalNotFound;
}
