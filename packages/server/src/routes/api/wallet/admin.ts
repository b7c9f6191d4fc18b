// Administrator calls for money entering and leaving (role `admin` only, with a session that passed the back
// office's second factor; every action is audited):
//   GET  /api/admin/wallet/withdrawals          status, page -> withdrawals to review
//   POST /api/admin/wallet/withdrawal/approve   id: approve and hand to the payout adapter
//   POST /api/admin/wallet/withdrawal/reject    id, reason: the held amount returns to the user
//   POST /api/admin/wallet/withdrawal/resend    id: send an approved payout again after an unclear answer
//   POST /api/admin/wallet/withdrawal/confirm   id, tx_id: the sandbox's stand-in for a chain confirmation
//   POST /api/admin/wallet/deposit              user_id, currency, amount, note: credit by hand (sandbox only)
//   POST /api/admin/wallet/house_fund           currency, amount, note: fund the house's flash inventory
//   GET  /api/admin/wallet/ledger               per currency: the sum of all accounts (always 0) and the house
//   GET  /api/admin/wallet/callbacks            the custody callback log
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  adminDepositInput,
  adminHouseFundInput,
  adminWithdrawalConfirmInput,
  adminWithdrawalInput,
  adminWithdrawalRejectInput,
  adminWithdrawalsInput,
  fieldName,
  formatDecimal,
  noInput,
  ok,
  walletPageInput,
} from '@fairex/shared';
import type { AuthAdmin } from '../../../admin/sessions.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import { listCallbacks } from '../../../admin/funding.ts';
import { may } from '../../../admin/permissions.ts';
import { admitAdministrator } from '../backoffice/guard.ts';
import { parseAmount } from '../../../wallets/amounts.ts';
import { auditWallet } from '../../../wallets/audit.ts';
import { refuse, walletRefusal } from '../../../wallets/engine-calls.ts';
import { submitOrRefuse } from '../../../engine-runner/submit.ts';

const PAGE_SIZE = 50;
export default async function walletAdminRoutes(app: FastifyInstance): Promise<void> {
  const services = app.wallets;

  // Every call here needs an administrator session that passed the second factor, checked before the input
  // is read with the back office's own check and answer. This plugin is registered on its own, so the hook
  // covers these routes only.
  const admins = new WeakMap<FastifyRequest, AuthAdmin>();
  app.addHook('preHandler', async (request, reply) => {
    const admitted = await admitAdministrator(app, request, { secondFactor: true });
    if ('refusal' in admitted) return reply.send(admitted.refusal);
    admins.set(request, admitted.admin);
    return undefined;
  });

  /** Money is for full administrators: refused for reviewers. */
  function requireMoneyAdmin(request: FastifyRequest): AuthAdmin {
    const admin = admins.get(request);
    // The hook ran for this very route; a missing administrator is a wiring fault, not a refusal.
    if (admin === undefined) throw new Error('the administrator check did not run');
    if (!may(admin.role, 'funding.manage')) throw new AppError('admin.forbidden');
    return admin;
  }

  async function amountIn(
    currencyId: number,
    amount: string,
    label: string,
  ): Promise<{ scale: number; code: string; minor: bigint }> {
    const currency = await services.catalog.currency(currencyId);
    if (!currency) refuse('wallet.currency_unknown');
    return { scale: currency.scale, code: currency.code, minor: parseAmount(amount, currency.scale, label) };
  }

  route(app, {
    method: 'GET',
    url: '/admin/wallet/withdrawals',
    input: adminWithdrawalsInput,
    handler: async ({ input, request }) => {
      requireMoneyAdmin(request);
      return ok(await services.withdrawals.adminList(input.status, input.page ?? 1, PAGE_SIZE));
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/withdrawal/approve',
    input: adminWithdrawalInput,
    handler: async ({ input, request, t }) => {
      const admin = requireMoneyAdmin(request);
      const result = await services.withdrawals.approve(input.id, { adminId: admin.id, ip: request.ip });
      return ok({
        message: t('wallet.withdrawal_approved'),
        status: result.status,
        payout_error: result.payoutError,
      });
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/withdrawal/reject',
    input: adminWithdrawalRejectInput,
    handler: async ({ input, request, t }) => {
      const admin = requireMoneyAdmin(request);
      await services.withdrawals.reject(input.id, input.reason, { adminId: admin.id, ip: request.ip });
      return ok(t('wallet.withdrawal_rejected'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/withdrawal/resend',
    input: adminWithdrawalInput,
    handler: async ({ input, request }) => {
      const admin = requireMoneyAdmin(request);
      const result = await services.withdrawals.resend(input.id, { adminId: admin.id, ip: request.ip });
      return ok({ payout_error: result.payoutError });
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/withdrawal/confirm',
    input: adminWithdrawalConfirmInput,
    handler: async ({ input, request, t }) => {
      const admin = requireMoneyAdmin(request);
      await services.withdrawals.confirmSandboxPayout(input.id, input.tx_id, {
        adminId: admin.id,
        ip: request.ip,
      });
      return ok(t('wallet.withdrawal_confirmed'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/deposit',
    input: adminDepositInput,
    handler: async ({ input, request, t, lang }) => {
      const admin = requireMoneyAdmin(request);
      if (services.withdrawals.payoutAdapter !== 'sandbox') refuse('wallet.sandbox_only');
      const { minor } = await amountIn(input.currency, input.amount, fieldName(lang, 'amount'));
      const result = await services.deposits.creditByHand({
        adminId: admin.id,
        ip: request.ip,
        userId: input.user_id,
        currencyId: input.currency,
        amount: minor,
        note: input.note,
      });
      return ok({ message: t('wallet.deposit_credited'), deposit_id: result.depositId });
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/wallet/house_fund',
    input: adminHouseFundInput,
    handler: async ({ input, request, t, lang }) => {
      const admin = requireMoneyAdmin(request);
      const { minor, scale, code } = await amountIn(input.currency, input.amount, fieldName(lang, 'amount'));
      // The audit entry goes first: an operator sees every attempt, and a failed one says so below.
      await auditWallet(app.store, {
        adminId: admin.id,
        action: 'wallet.house_fund',
        targetType: 'currency',
        targetId: input.currency,
        detail: { currency: code, amount: formatDecimal(minor, scale), note: input.note },
        ip: request.ip,
      });
      await submitOrRefuse(
        app.runner,
        { type: 'systemFund', owner: 'house', currencyId: input.currency, amount: minor, memo: input.note },
        { refusal: walletRefusal },
      );
      return ok(t('wallet.house_funded'));
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/wallet/ledger',
    input: noInput,
    handler: async ({ request }) => {
      requireMoneyAdmin(request);
      const sums = new Map<number, bigint>();
      for (const account of app.runner.engine.ledger.accounts()) {
        sums.set(
          account.currencyId,
          (sums.get(account.currencyId) ?? 0n) + account.available + account.locked,
        );
      }
      const list = [];
      for (const currency of await services.catalog.currencies()) {
        const house = app.runner.engine.ledger.balance('house', 'change', currency.id);
        const fees = app.runner.engine.ledger.balance('fees', 'change', currency.id);
        const outside = app.runner.engine.ledger.balance('outside', 'change', currency.id);
        list.push({
          currency: currency.id,
          currency_name: currency.code,
          sum: formatDecimal(sums.get(currency.id) ?? 0n, currency.scale),
          house: formatDecimal(house.available, currency.scale),
          fees: formatDecimal(fees.available, currency.scale),
          outside: formatDecimal(outside.available, currency.scale),
        });
      }
      return ok({ list });
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/wallet/callbacks',
    input: walletPageInput,
    handler: async ({ input, request }) => {
      requireMoneyAdmin(request);
      // The back office's reader: ids come back as text (a bigint column), newest first.
      return ok(await listCallbacks(app.store, { page: input.page ?? 1 }));
    },
  });
}
