import type { CommandContext } from '../kernel/context.ts';
import { CHANGE_WALLET_INDEX, FEES_OWNER_KEY, HOUSE_OWNER_KEY, ownerKeyOf } from '../ledger/accounts.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isAmount, isCount, isOptionalMemo } from '../validate.ts';
import type { FlashExchangeCommand } from './commands.ts';
import { FundingReasonCode as ReasonCode } from './reason-codes.ts';
import type { FundingState } from './state.ts';

/**
 * A flash exchange at a price the server computed: the user's change wallet pays `amount` of one currency
 * to the house, the house pays `payoutAmount` of the other currency to the user, and the user pays
 * `feeAmount` of what arrived to the fees account (fees are paid from what a side receives, as in spot
 * trading). The house trades only from its own inventory: when it lacks the payout the exchange is refused,
 * and nothing moves.
 */
export function flashExchange(
  ctx: CommandContext,
  state: FundingState,
  command: FlashExchangeCommand,
): number {
  const ledger = state.ledger;
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const { fromCurrencyId, toCurrencyId, amount, payoutAmount, feeAmount } = command;
  if (!isCount(fromCurrencyId, MAX_CURRENCY_ID) || !isCount(toCurrencyId, MAX_CURRENCY_ID))
    return ResultCode.invalidId;
  if (!ledger.currencies.has(fromCurrencyId) || !ledger.currencies.has(toCurrencyId))
    return ResultCode.currencyNotFound;
  if (fromCurrencyId === toCurrencyId) return ResultCode.sameCurrency;
  if (!isAmount(amount) || !isAmount(payoutAmount)) return ResultCode.invalidAmount;
  if (typeof feeAmount !== 'bigint' || feeAmount < 0n) return ResultCode.invalidAmount;
  if (feeAmount >= payoutAmount) return ResultCode.feeNotBelowAmount;
  if (!isOptionalMemo(command.memo)) return ResultCode.invalidMemo;

  const paying = ledger.findAccount(userKey, CHANGE_WALLET_INDEX, fromCurrencyId);
  if (paying === undefined || paying.available - amount < ledger.reservedFunds(paying)) {
    return ResultCode.insufficientFunds;
  }
  const housePaying = ledger.findAccount(HOUSE_OWNER_KEY, CHANGE_WALLET_INDEX, toCurrencyId);
  if (housePaying === undefined || housePaying.available < payoutAmount) {
    return ResultCode.houseInsufficientFunds;
  }

  const houseReceiving = ledger.account(HOUSE_OWNER_KEY, CHANGE_WALLET_INDEX, fromCurrencyId);
  const receiving = ledger.account(userKey, CHANGE_WALLET_INDEX, toCurrencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(paying, houseReceiving, amount, ReasonCode.flashPayment, 0, command.memo);
  ledger.transfer(housePaying, receiving, payoutAmount, ReasonCode.flashPayout, 0, command.memo);
  if (feeAmount > 0n) {
    const fees = ledger.account(FEES_OWNER_KEY, CHANGE_WALLET_INDEX, toCurrencyId);
    ledger.transfer(receiving, fees, feeAmount, ReasonCode.flashFee, 0, command.memo);
  }
  ctx.reply({ transferId, payoutAmount, feeAmount });
  return ResultCode.ok;
}
