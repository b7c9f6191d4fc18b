import type { CommandContext } from '../kernel/context.ts';
import {
  CHANGE_WALLET_INDEX,
  HOUSE_OWNER_KEY,
  OUTSIDE_OWNER_KEY,
  ownerKeyOf,
  walletIndexOf,
} from '../ledger/accounts.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { MAX_CURRENCY_ID } from '../limits.ts';
import { ResultCode } from '../result-codes.ts';
import { isAmount, isCount, isOptionalMemo } from '../validate.ts';
import type {
  DepositCommand,
  HouseTransferCommand,
  SystemFundCommand,
  SystemTransferCommand,
  TransferCommand,
} from './commands.ts';
import { FundingReasonCode as ReasonCode } from './reason-codes.ts';
import type { FundingState } from './state.ts';

export function deposit(ctx: CommandContext, state: FundingState, command: DepositCommand): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  const ledger = state.ledger;
  const code = checkCurrencyAmountMemo(ledger, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const outside = ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, command.currencyId);
  const wallet = ledger.account(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(outside, wallet, command.amount, ReasonCode.deposit, 0, command.memo);
  ctx.reply({ transferId });
  return ResultCode.ok;
}

export function systemFund(ctx: CommandContext, state: FundingState, command: SystemFundCommand): number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey >= 0 || ownerKey === OUTSIDE_OWNER_KEY) return ResultCode.invalidOwner;
  const walletIndex = command.wallet === undefined ? CHANGE_WALLET_INDEX : walletIndexOf(command.wallet);
  if (walletIndex < 0) return ResultCode.invalidWallet;
  const ledger = state.ledger;
  const code = checkCurrencyAmountMemo(ledger, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const outside = ledger.account(OUTSIDE_OWNER_KEY, CHANGE_WALLET_INDEX, command.currencyId);
  const target = ledger.account(ownerKey, walletIndex, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(outside, target, command.amount, ReasonCode.systemFund, 0, command.memo);
  ctx.reply({ transferId });
  return ResultCode.ok;
}

/**
 * The house pays a user from its change wallet, with a label (required): the money was the house's, so the
 * transfer is no deposit and its reason code says so. Refused, nothing changes, when the house has less
 * available than the amount (beyond what an area reserves on that account).
 */
export function houseTransfer(
  ctx: CommandContext,
  state: FundingState,
  command: HouseTransferCommand,
): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  if (command.memo === undefined) return ResultCode.invalidMemo;
  const ledger = state.ledger;
  const code = checkCurrencyAmountMemo(ledger, command.currencyId, command.amount, command.memo);
  if (code !== ResultCode.ok) return code;
  const house = ledger.findAccount(HOUSE_OWNER_KEY, CHANGE_WALLET_INDEX, command.currencyId);
  if (house === undefined || house.available - command.amount < ledger.reservedFunds(house))
    return ResultCode.houseInsufficientFunds;
  const wallet = ledger.account(userKey, CHANGE_WALLET_INDEX, command.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(house, wallet, command.amount, ReasonCode.houseTransfer, 0, command.memo);
  ctx.reply({ transferId });
  return ResultCode.ok;
}

export function transferBetweenWallets(
  ctx: CommandContext,
  state: FundingState,
  command: TransferCommand,
): number {
  const userKey = ownerKeyOf(command.userId);
  if (userKey <= 0) return ResultCode.invalidOwner;
  return moveBetweenOwnWallets(ctx, state.ledger, userKey, command, undefined);
}

/** Between two wallets of one system owner (the house's change wallet to its micro wallet, the reserve). */
export function systemTransfer(
  ctx: CommandContext,
  state: FundingState,
  command: SystemTransferCommand,
): number {
  const ownerKey = ownerKeyOf(command.owner);
  if (ownerKey >= 0 || ownerKey === OUTSIDE_OWNER_KEY) return ResultCode.invalidOwner;
  return moveBetweenOwnWallets(ctx, state.ledger, ownerKey, command, command.memo);
}

/** A move of one currency between two wallets of one owner, as a user transfer and a system transfer ask it. */
interface WalletMove {
  currencyId: number;
  fromWallet: unknown;
  toWallet: unknown;
  amount: bigint;
}

/**
 * The one rule for moving money between two wallets of the same owner, users and system owners alike: two
 * known, different wallets, a known currency, a positive amount, a short memo, and no more than the source
 * wallet has free beyond what its area reserves. Refused, nothing changes; accepted, one transfer.
 */
function moveBetweenOwnWallets(
  ctx: CommandContext,
  ledger: Ledger,
  ownerKey: number,
  move: WalletMove,
  memo: string | undefined,
): number {
  const fromIndex = walletIndexOf(move.fromWallet);
  const toIndex = walletIndexOf(move.toWallet);
  if (fromIndex < 0 || toIndex < 0) return ResultCode.invalidWallet;
  if (fromIndex === toIndex) return ResultCode.sameWallet;
  const code = checkCurrencyAmountMemo(ledger, move.currencyId, move.amount, memo);
  if (code !== ResultCode.ok) return code;
  const from = ledger.findAccount(ownerKey, fromIndex, move.currencyId);
  if (from === undefined || from.available - move.amount < ledger.reservedFunds(from)) {
    return ResultCode.insufficientFunds;
  }
  const to = ledger.account(ownerKey, toIndex, move.currencyId);
  const transferId = ledger.nextTransferId;
  ledger.transfer(from, to, move.amount, ReasonCode.walletTransfer, 0, memo);
  ctx.reply({ transferId });
  return ResultCode.ok;
}

/** The checks every funding command shares: a known currency, a positive bounded amount, a short memo. */
export function checkCurrencyAmountMemo(
  ledger: Ledger,
  currencyId: unknown,
  amount: unknown,
  memo: unknown,
): number {
  if (!isCount(currencyId, MAX_CURRENCY_ID)) return ResultCode.invalidId;
  if (!ledger.currencies.has(currencyId)) return ResultCode.currencyNotFound;
  if (!isAmount(amount)) return ResultCode.invalidAmount;
  if (!isOptionalMemo(memo)) return ResultCode.invalidMemo;
  return ResultCode.ok;
}
