// Funding, through the wallet services (which hold the rules and audit each decision):
//   GET  /api/backoffice/withdrawals                status, user_id, page
//   GET  /api/backoffice/withdrawals/detail         id: the withdrawal and the user's history beside it
//   POST /api/backoffice/withdrawals/approve        id: hand to the payout (refused while withdrawals are frozen)
//   POST /api/backoffice/withdrawals/reject         id, reason: the held amount returns to the user
//   POST /api/backoffice/withdrawals/resend         id: send an approved payout again after an unclear answer
//   POST /api/backoffice/withdrawals/confirm        id, tx_id: the sandbox's stand-in for the chain
//   GET  /api/backoffice/deposits                   user_id, page
//   POST /api/backoffice/deposits/manual            user_id, currency_id, amount, note (sandbox only)
//   GET  /api/backoffice/callbacks                  outcome, page: the custody callback log
//   GET  /api/backoffice/chains                     the chains of every currency
//   POST /api/backoffice/chains/update              currency_id, chain_type, confirmations, is_enabled
import type { FastifyInstance } from 'fastify';
import type { ChainsReply, WithdrawalDetail } from '@fairex/shared';
import {
  backofficeIdInput,
  callbackListInput,
  chainUpdateInput,
  depositListInput,
  manualDepositInput,
  ok,
  withdrawalConfirmInput,
  withdrawalListInput,
  withdrawalRejectInput,
} from '@fairex/shared';
import { amountAtScale } from '../../../admin/catalog.ts';
import { freezesOf } from '../../../admin/freezes.ts';
import {
  findWithdrawal,
  listCallbacks,
  listChains,
  listDeposits,
  listWithdrawals,
  updateChain,
  withdrawalContext,
} from '../../../admin/funding.ts';
import { AppError } from '../../../http/app-error.ts';
import { flashDeskView } from '../../../wallets/flash-desk.ts';
import type { AdminRoute } from './guard.ts';

export async function fundingRoutes(app: FastifyInstance, adminRoute: AdminRoute): Promise<void> {
  const services = app.wallets;
  const freezes = freezesOf(app);
  const sandbox = () => services.withdrawals.payoutAdapter === 'sandbox';

  /**
   * Refuses a decision on a withdrawal that is missing or not in `status` before the wallet service is asked:
   * its reject and sandbox-confirm do not wait for their own refusal of such a withdrawal (reported), so they
   * must only be reached with one they can claim. The service's conditional claim still settles a race.
   */
  async function expectStatus(withdrawalId: number, status: string): Promise<void> {
    const withdrawal = await findWithdrawal(app.store, withdrawalId);
    if (withdrawal.status !== status) throw new AppError('wallet.withdrawal_decided');
  }

  // The flash desk (the house's change wallet, which pays flash exchanges): each flash currency's balance
  // and the latest movements of house capital through it, as the seconds reserve's card shows its own.
  adminRoute({
    method: 'GET',
    url: '/backoffice/flash_desk',
    access: 'funding.read',
    handler: async () =>
      ok(await flashDeskView(app.store, app.engine, await services.flash.deskCurrencies())),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/withdrawals',
    access: 'funding.read',
    input: withdrawalListInput,
    handler: async ({ input }) =>
      ok({
        ...(await listWithdrawals(app.store, {
          status: input.status,
          userId: input.user_id,
          page: input.page ?? 1,
        })),
        sandbox: sandbox(),
      }),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/withdrawals/detail',
    access: 'funding.read',
    input: backofficeIdInput,
    handler: async ({ input }) => {
      const withdrawal = await findWithdrawal(app.store, input.id);
      return ok<WithdrawalDetail>({
        withdrawal,
        user: {
          ...(await withdrawalContext(app.store, app.engine, withdrawal)),
          freeze: await freezes.state(withdrawal.user_id),
        },
        sandbox: sandbox(),
      });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/withdrawals/approve',
    access: 'funding.manage',
    input: backofficeIdInput,
    handler: async ({ input, actor, t }) => {
      const withdrawal = await findWithdrawal(app.store, input.id);
      if (withdrawal.status === 'pending' && freezes.isFrozen(withdrawal.user_id, 'withdrawals')) {
        throw new AppError('backoffice.withdrawals_frozen');
      }
      const result = await services.withdrawals.approve(input.id, { adminId: actor.adminId, ip: actor.ip });
      return ok({
        message: t('wallet.withdrawal_approved'),
        status: result.status,
        payout_error: result.payoutError,
      });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/withdrawals/reject',
    access: 'funding.manage',
    input: withdrawalRejectInput,
    handler: async ({ input, actor, t }) => {
      await expectStatus(input.id, 'pending');
      await services.withdrawals.reject(input.id, input.reason, { adminId: actor.adminId, ip: actor.ip });
      return ok(t('wallet.withdrawal_rejected'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/withdrawals/resend',
    access: 'funding.manage',
    input: backofficeIdInput,
    handler: async ({ input, actor }) => {
      const result = await services.withdrawals.resend(input.id, { adminId: actor.adminId, ip: actor.ip });
      return ok({ payout_error: result.payoutError });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/withdrawals/confirm',
    access: 'funding.manage',
    input: withdrawalConfirmInput,
    handler: async ({ input, actor, t }) => {
      await expectStatus(input.id, 'approved');
      await services.withdrawals.confirmSandboxPayout(input.id, input.tx_id, {
        adminId: actor.adminId,
        ip: actor.ip,
      });
      return ok(t('wallet.withdrawal_confirmed'));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/deposits',
    access: 'funding.read',
    input: depositListInput,
    handler: async ({ input }) =>
      ok({
        ...(await listDeposits(app.store, { userId: input.user_id, page: input.page ?? 1 })),
        sandbox: sandbox(),
      }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/deposits/manual',
    access: 'funding.manage',
    input: manualDepositInput,
    handler: async ({ input, actor, t }) => {
      // A credit from nowhere is a test tool: with a custody provider, money arrives only on chain.
      if (!sandbox()) throw new AppError('wallet.sandbox_only');
      const currency = await services.catalog.currency(input.currency_id);
      if (!currency) throw new AppError('wallet.currency_unknown');
      const amount = amountAtScale(input.amount, currency.scale, 'amount');
      const result = await services.deposits.creditByHand({
        adminId: actor.adminId,
        ip: actor.ip,
        userId: input.user_id,
        currencyId: input.currency_id,
        amount,
        note: input.note,
      });
      // Say what was credited, so an operator sees the amount, the currency and the user the ledger took.
      const message = t('wallet.deposit_credited_by_hand', {
        amount: input.amount,
        currency: currency.code,
        user: input.user_id,
        deposit: result.depositId,
      });
      return ok({ message, deposit_id: result.depositId });
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/callbacks',
    access: 'funding.read',
    input: callbackListInput,
    handler: async ({ input }) =>
      ok(await listCallbacks(app.store, { outcome: input.outcome, page: input.page ?? 1 })),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/chains',
    access: 'funding.read',
    handler: async () => ok<ChainsReply>({ list: await listChains(app.store), sandbox: sandbox() }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/chains/update',
    access: 'funding.manage',
    input: chainUpdateInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) =>
        updateChain(tx, actor, {
          currencyId: input.currency_id,
          chainType: input.chain_type,
          confirmations: input.confirmations,
          isEnabled: input.is_enabled,
        }),
      );
      services.catalog.invalidate();
      return ok(t('backoffice.saved'));
    },
  });
}
