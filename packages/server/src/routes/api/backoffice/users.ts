// The dashboard and the users:
//   GET  /api/backoffice/dashboard                    users, 24 h volume, queues, the solvency table
//   GET  /api/backoffice/users                        q, frozen, page: search
//   GET  /api/backoffice/users/detail                 id: the record, freeze, balances in the six wallets
//   GET  /api/backoffice/users/orders                 id, page: spot orders
//   GET  /api/backoffice/users/ledger                 id, currency_id, page: account log
//   GET  /api/backoffice/users/logins                 id, page: sessions
//   POST /api/backoffice/users/freeze                 id, trading, withdrawals, full, reason
//   POST /api/backoffice/users/reset_second_factor    id, reason
import type { FastifyInstance } from 'fastify';
import {
  backofficeIdInput,
  backofficeReasonInput,
  ok,
  userFreezeInput,
  userLedgerInput,
  userListInput,
  userPageInput,
} from '@fairex/shared';
import { recordChange } from '../../../admin/audit-changes.ts';
import { dashboard } from '../../../admin/dashboard.ts';
import { freezesOf } from '../../../admin/freezes.ts';
import {
  requireUser,
  resetUserSecondFactor,
  searchUsers,
  userDetail,
  userLedger,
  userLogins,
  userOrders,
} from '../../../admin/users.ts';
import type { AdminRoute } from './guard.ts';

export function userRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  const freezes = freezesOf(app);

  adminRoute({
    method: 'GET',
    url: '/backoffice/dashboard',
    access: 'dashboard',
    handler: async () =>
      ok(
        await dashboard(
          app.store,
          app.engine,
          Date.now(),
          app.hasDecorator('runner') ? app.runner.stats() : undefined,
        ),
      ),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/users',
    access: 'users.read',
    input: userListInput,
    handler: async ({ input }) =>
      ok(await searchUsers(app.store, { query: input.q, frozenOnly: input.frozen, page: input.page ?? 1 })),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/users/detail',
    access: 'users.read',
    input: backofficeIdInput,
    handler: async ({ input, actor }) => {
      const detail = await userDetail(app.store, app.engine, input.id, await freezes.state(input.id));
      // Reading a person's record is worth a line too: who looked at whom, and when.
      await recordChange(app.store, actor, { action: 'user.view', targetType: 'user', targetId: input.id });
      return ok(detail);
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/users/orders',
    access: 'users.read',
    input: userPageInput,
    handler: async ({ input }) => {
      await requireUser(app.store, input.id);
      return ok(await userOrders(app.store, app.engine, input.id, input.page ?? 1));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/users/ledger',
    access: 'users.read',
    input: userLedgerInput,
    handler: async ({ input }) => {
      await requireUser(app.store, input.id);
      return ok(
        await userLedger(app.store, app.engine, {
          userId: input.id,
          currencyId: input.currency_id,
          page: input.page ?? 1,
        }),
      );
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/users/logins',
    access: 'users.read',
    input: userPageInput,
    handler: async ({ input }) => {
      await requireUser(app.store, input.id);
      return ok(await userLogins(app.store, input.id, input.page ?? 1));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/users/freeze',
    access: 'users.manage',
    input: userFreezeInput,
    handler: async ({ input, actor, t }) => {
      await requireUser(app.store, input.id);
      await freezes.set(app.store, actor, {
        userId: input.id,
        trading: input.trading,
        withdrawals: input.withdrawals,
        full: input.full ?? false,
        reason: input.reason,
      });
      return ok(t('backoffice.freeze_saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/users/reset_second_factor',
    access: 'users.manage',
    input: backofficeReasonInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) => resetUserSecondFactor(tx, actor, input.id, input.reason));
      app.sessions.forgetUser(input.id);
      return ok(t('backoffice.second_factor_reset'));
    },
  });
}
