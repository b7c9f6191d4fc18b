// The outbox, the audit log and the administrators:
//   GET  /api/backoffice/outbox                        recipient, page: the development outbox of mail and SMS
//   GET  /api/backoffice/audit                         action (or "prefix."), admin, target_type, target_id, page
//   GET  /api/backoffice/admins                        every administrator
//   POST /api/backoffice/admins/create                 username, password, role
//   POST /api/backoffice/admins/disable                id, disabled
//   POST /api/backoffice/admins/reset_second_factor    id
import type { FastifyInstance } from 'fastify';
import type { AdminsReply } from '@fairex/shared';
import {
  adminCreateInput,
  adminDisableInput,
  auditListInput,
  backofficeIdInput,
  ok,
  outboxListInput,
} from '@fairex/shared';
import { createAdmin } from '../../../admin/admins.ts';
import { listOutbox } from '../../../admin/queries.ts';
import { listAdmins, resetOtherAdminSecondFactor, setAdminDisabled } from '../../../admin/administrators.ts';
import { listAuditLog, recordChange } from '../../../admin/audit-changes.ts';
import type { AdminRoute } from './guard.ts';

export const AUDIT_PAGE_SIZE = 30;

export function operationsRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  adminRoute({
    method: 'GET',
    url: '/backoffice/outbox',
    access: 'outbox',
    input: outboxListInput,
    handler: async ({ input, actor }) => {
      // The outbox holds verification codes: who read it is on record.
      await recordChange(app.store, actor, {
        action: 'outbox.read',
        targetType: 'outbox',
        targetId: input.recipient ?? '',
      });
      return ok(await listOutbox(app.store, { page: input.page ?? 1, recipient: input.recipient }));
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/audit',
    access: 'audit',
    input: auditListInput,
    handler: async ({ input }) =>
      ok(
        await listAuditLog(app.store, {
          page: input.page ?? 1,
          perPage: input.per_page ?? AUDIT_PAGE_SIZE,
          action: input.action,
          admin: input.admin?.toLowerCase(),
          targetType: input.target_type,
          targetId: input.target_id,
        }),
      ),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/admins',
    access: 'admins',
    handler: async () => ok<AdminsReply>({ list: await listAdmins(app.store) }),
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/admins/create',
    access: 'admins',
    input: adminCreateInput,
    handler: async ({ input, actor }) => {
      const newId = await createAdmin(app.store, {
        username: input.username.toLowerCase(),
        password: input.password,
        role: input.role,
        createdBy: actor.adminId,
        ip: actor.ip,
      });
      return ok({ id: newId });
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/admins/disable',
    access: 'admins',
    input: adminDisableInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) => setAdminDisabled(tx, actor, input.id, input.disabled));
      return ok(t('backoffice.saved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/admins/reset_second_factor',
    access: 'admins',
    input: backofficeIdInput,
    handler: async ({ input, actor, t }) => {
      await app.store.transaction((tx) => resetOtherAdminSecondFactor(tx, actor, input.id));
      return ok(t('backoffice.second_factor_reset'));
    },
  });
}
