// The back office's own session calls. Sign-in itself is POST /api/admin/login (username and password);
// these finish it with the second factor and end it:
//   GET  /api/backoffice/session               who is signed in, their permissions, the second-factor state
//   POST /api/backoffice/second_factor/enrol    a new authenticator secret (first sign-in, or after a reset)
//   POST /api/backoffice/second_factor/confirm  code: confirm enrolment; the session passes
//   POST /api/backoffice/second_factor/verify   code: pass the session
//   POST /api/backoffice/logout                 end the session
import type { FastifyInstance } from 'fastify';
import type { BackofficeSessionReply } from '@fairex/shared';
import { backofficeEmptyInput, ok, secondFactorCodeInput } from '@fairex/shared';
import { recordChange } from '../../../admin/audit-changes.ts';
import { permissionsOf } from '../../../admin/permissions.ts';
import {
  confirmEnrolment,
  secondFactorState,
  startEnrolment,
  verifySession,
} from '../../../admin/second-factor.ts';
import { AppError } from '../../../http/app-error.ts';
import type { AdminRoute } from './guard.ts';

export function sessionRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  adminRoute({
    method: 'GET',
    url: '/backoffice/session',
    access: 'session',
    handler: async ({ admin }) =>
      ok<BackofficeSessionReply>({
        admin: { id: admin.id, username: admin.username, role: admin.role },
        permissions: permissionsOf(admin.role),
        second_factor: await secondFactorState(app.store, admin.id, admin.tokenHash),
      }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/second_factor/enrol',
    access: 'session',
    input: backofficeEmptyInput,
    handler: async ({ admin }) => ok(await startEnrolment(app.store, app.accounts, admin)),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/second_factor/confirm',
    access: 'session',
    input: secondFactorCodeInput,
    handler: async ({ admin, actor, input, t }) => {
      await confirmEnrolment(app.store, app.accounts, {
        adminId: admin.id,
        tokenHash: admin.tokenHash,
        code: input.code,
      });
      await recordChange(app.store, actor, {
        action: 'admin.second_factor_enrol',
        targetType: 'admin',
        targetId: admin.id,
        after: { enrolled: true },
      });
      return ok(t('backoffice.signed_in'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/second_factor/verify',
    access: 'session',
    input: secondFactorCodeInput,
    handler: async ({ admin, actor, input, t }) => {
      if ((await secondFactorState(app.store, admin.id, admin.tokenHash)) === 'enrol') {
        throw new AppError('backoffice.second_factor_not_enrolled');
      }
      await verifySession(app.store, app.accounts, {
        adminId: admin.id,
        tokenHash: admin.tokenHash,
        code: input.code,
      });
      await recordChange(app.store, actor, {
        action: 'admin.second_factor_verify',
        targetType: 'admin',
        targetId: admin.id,
      });
      return ok(t('backoffice.signed_in'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/logout',
    access: 'session',
    input: backofficeEmptyInput,
    handler: async ({ admin, actor, t }) => {
      await app.accounts.admins.revoke(admin.tokenHash);
      await recordChange(app.store, actor, {
        action: 'admin.logout',
        targetType: 'admin',
        targetId: admin.id,
      });
      return ok(t('account.logged_out'));
    },
  });
}
