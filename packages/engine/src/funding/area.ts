// The funding area: deposits, system funding, transfers between a user's wallets, withdrawals (a hold
// while an administrator decides: area 'funding', ref: the withdrawal id) and flash exchange.
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN, frozenBy } from '../kernel/freezes.ts';
import { invariant } from '../invariant.ts';
import { CHANGE_WALLET_INDEX } from '../ledger/accounts.ts';
import { Hold } from '../ledger/holds.ts';
import type {
  CompleteWithdrawalCommand,
  DepositCommand,
  FlashExchangeCommand,
  HouseTransferCommand,
  RejectWithdrawalCommand,
  RequestWithdrawalCommand,
  SystemFundCommand,
  SystemTransferCommand,
  TransferCommand,
} from './commands.ts';
import { flashExchange } from './flash-exchange.ts';
import { FundingReasonCode } from './reason-codes.ts';
import { FundingState } from './state.ts';
import type { Withdrawal } from './state.ts';
import { deposit, houseTransfer, systemFund, systemTransfer, transferBetweenWallets } from './transfers.ts';
import { completeWithdrawal, rejectWithdrawal, requestWithdrawal } from './withdrawals.ts';

export type PendingWithdrawalView = {
  withdrawalId: number;
  userId: number;
  currencyId: number;
  amount: bigint;
  feeAmount: bigint;
  requestedTimeMs: number;
  memo?: string;
};

export type FundingQueries = {
  /** Pending withdrawals, oldest first, of one user or of everyone. */
  pendingWithdrawals(userId?: number): PendingWithdrawalView[];
};

type WithdrawalRow = [
  withdrawalId: number,
  userId: number,
  currencyId: number,
  amount: string,
  feeAmount: string,
  requestedTimeMs: number,
  memo: string | null,
];

const byUser = (command: { userId: number }) => command.userId;

export const fundingArea = defineArea({
  name: 'funding',
  commands: {
    deposit: command<FundingState, DepositCommand>(deposit, byUser),
    systemFund: command<FundingState, SystemFundCommand>(systemFund, (c) => c.owner),
    houseTransfer: command<FundingState, HouseTransferCommand>(houseTransfer, byUser),
    transfer: command<FundingState, TransferCommand>(transferBetweenWallets, byUser),
    systemTransfer: command<FundingState, SystemTransferCommand>(systemTransfer, (c) => c.owner),
    requestWithdrawal: command<FundingState, RequestWithdrawalCommand>(requestWithdrawal, byUser),
    completeWithdrawal: command<FundingState, CompleteWithdrawalCommand>(completeWithdrawal),
    rejectWithdrawal: command<FundingState, RejectWithdrawalCommand>(rejectWithdrawal),
    flashExchange: command<FundingState, FlashExchangeCommand>(flashExchange, byUser),
  },
  freezes: {
    deposit: NOT_FROZEN,
    systemFund: NOT_FROZEN,
    // Labelled house money to a user: receiving funds is never stopped.
    houseTransfer: NOT_FROZEN,
    // Between the user's own wallets: only a full freeze keeps funds where they are.
    transfer: frozenBy<FundingState, TransferCommand>(['full'], byUser),
    systemTransfer: NOT_FROZEN,
    requestWithdrawal: frozenBy<FundingState, RequestWithdrawalCommand>(['withdrawals'], byUser),
    // Paying out a withdrawal requested before the freeze waits until it is lifted (a rejection returns it).
    completeWithdrawal: frozenBy<FundingState, CompleteWithdrawalCommand>(
      ['withdrawals'],
      (c, state) => state.withdrawals.get(c.withdrawalId)?.userId,
    ),
    rejectWithdrawal: NOT_FROZEN,
    flashExchange: frozenBy<FundingState, FlashExchangeCommand>(['trading'], byUser),
  },
  createState: (setup) => new FundingState(setup),
  queries: (state): FundingQueries => ({
    pendingWithdrawals(userId) {
      const result: PendingWithdrawalView[] = [];
      for (const withdrawal of state.withdrawals.values()) {
        if (userId !== undefined && withdrawal.userId !== userId) continue;
        const { withdrawalId, currencyId, amount, feeAmount, requestedTimeMs, memo } = withdrawal;
        result.push({
          withdrawalId,
          userId: withdrawal.userId,
          currencyId,
          amount,
          feeAmount,
          requestedTimeMs,
          ...(memo === undefined ? {} : { memo }),
        });
      }
      return result;
    },
  }),
  writeSnapshot: (state) => ({
    withdrawals: [...state.withdrawals.values()]
      .sort((a, b) => a.withdrawalId - b.withdrawalId)
      .map((withdrawal): WithdrawalRow => [
        withdrawal.withdrawalId,
        withdrawal.userId,
        withdrawal.currencyId,
        withdrawal.amount.toString(),
        withdrawal.feeAmount.toString(),
        withdrawal.requestedTimeMs,
        withdrawal.memo ?? null,
      ]),
  }),
  sections: ['withdrawals'],
  readSnapshot: (state, document) => {
    for (const [
      withdrawalId,
      userId,
      currencyId,
      amount,
      feeAmount,
      requestedTimeMs,
      memo,
    ] of document.withdrawals as WithdrawalRow[]) {
      const account = state.ledger.account(userId, CHANGE_WALLET_INDEX, currencyId);
      const hold = new Hold(
        'funding',
        withdrawalId,
        account,
        BigInt(amount),
        FundingReasonCode.withdrawalHold,
      );
      state.ledger.restoreHold(hold);
      const withdrawal: Withdrawal = {
        withdrawalId,
        userId,
        currencyId,
        amount: BigInt(amount),
        feeAmount: BigInt(feeAmount),
        hold,
        requestedTimeMs,
        memo: memo ?? undefined,
      };
      state.withdrawals.set(withdrawalId, withdrawal);
    }
  },
  rebuildsHolds: true,
  checkInvariants: (state, ledger) => {
    const fundingHolds = ledger.holds.countOf('funding');
    invariant(fundingHolds === state.withdrawals.size, 'funding holds and pending withdrawals disagree');
    for (const withdrawal of state.withdrawals.values()) {
      const { withdrawalId, hold } = withdrawal;
      invariant(withdrawalId < state.withdrawalIds.value, `withdrawal ${withdrawalId} from the future`);
      invariant(withdrawal.amount > withdrawal.feeAmount && withdrawal.feeAmount >= 0n, 'withdrawal amounts');
      invariant(
        hold.account.walletIndex === CHANGE_WALLET_INDEX,
        'withdrawal holds outside the change wallet',
      );
      invariant(
        ledger.holds.has(hold) && hold.ref === withdrawalId && hold.amount === withdrawal.amount,
        `withdrawal ${withdrawalId} does not hold its amount`,
      );
    }
  },
  bigintFields: ['amount', 'feeAmount', 'payoutAmount', 'releasedAmount'],
  journalForms: [
    {
      type: 'deposit',
      tag: 'd',
      fields: [
        { name: 'userId', kind: 'int' },
        { name: 'currencyId', kind: 'int' },
        { name: 'amount', kind: 'bigint' },
        { name: 'memo', kind: 'token', optional: true },
      ],
    },
  ],
  reasonCodes: FundingReasonCode,
  stats: (state) => ({ pendingWithdrawals: state.withdrawals.size }),
});
