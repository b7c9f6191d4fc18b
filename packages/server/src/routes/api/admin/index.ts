// The administrator API under /api/admin: log-in with its own sessions, the first administrator's one-time
// set-up, the real-name review queue and decisions, private photos, the dev outbox, operator invite codes,
// new administrators and the audit log. Every call but the log-in, the set-up and the logout needs a session
// that passed the back office's second factor (POST /api/backoffice/second_factor/enrol, confirm or verify);
// every action writes the audit log. Permissions are the administrator area's one model (admin/permissions.ts),
// the same the back office's routes are guarded by.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '@fairex/shared';
import type { AdminCreatedReply, AdminInviteCodeReply } from '@fairex/shared/api/admin.ts';
import {
  adminCreateAdministratorInput,
  adminIdInput,
  adminInviteCodeInput,
  adminLoginInput,
  adminOutboxInput,
  adminPageInput,
  adminRealNameListInput,
  adminRealNameRejectInput,
  adminSetupInput,
  adminUploadInput,
} from '@fairex/shared/api/admin.ts';
import { createOperatorCode } from '../../../accounts/invite-codes.ts';
import { findUpload, readUploadFile, uploadIdFrom } from '../../../accounts/uploads.ts';
import { adminLogin, createAdmin } from '../../../admin/admins.ts';
import type { BackofficePermission } from '../../../admin/permissions.ts';
import { may } from '../../../admin/permissions.ts';
import { audit } from '../../../admin/audit.ts';
import { listAudit, listOutbox } from '../../../admin/queries.ts';
import { decideSubmission, listSubmissions, submissionDetail } from '../../../admin/real-name-review.ts';
import type { AuthAdmin } from '../../../admin/sessions.ts';
import { completeSetup } from '../../../admin/setup.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';
import { admitAdministrator } from '../backoffice/guard.ts';

export default async function adminRoutes(app: FastifyInstance): Promise<void> {
  const context = app.accounts;

  // Every call but the login needs an administrator token, checked before the input is even read, so that
  // a visitor learns nothing about the calls' inputs. The check is the back office's own: a session that has
  // not passed the second factor is refused with the same answer (the console then asks for the code). Only
  // the logout takes a password-only session, as the back office's does: ending a session never needs more.
  const admins = new WeakMap<FastifyRequest, AuthAdmin>();
  app.addHook('preHandler', async (request, reply) => {
    const url = request.routeOptions.url;
    if (url === '/api/admin/login' || url === '/api/admin/setup') return;
    const admitted = await admitAdministrator(app, request, { secondFactor: url !== '/api/admin/logout' });
    if ('refusal' in admitted) return reply.send(admitted.refusal);
    admins.set(request, admitted.admin);
  });

  /** The administrator of the request, refused without the permission. */
  async function requireAdmin(
    request: FastifyRequest,
    permission?: BackofficePermission,
  ): Promise<AuthAdmin> {
    const admin = admins.get(request);
    if (!admin) throw new AppError('admin.login_required', {}, '999');
    if (permission !== undefined && !may(admin.role, permission)) throw new AppError('admin.forbidden');
    return admin;
  }

  route(app, {
    method: 'POST',
    url: '/admin/login',
    input: adminLoginInput,
    handler: async ({ input, request }) =>
      ok(await adminLogin(context, { username: input.username, password: input.password, ip: request.ip })),
  });

  // The first administrator, by the one-time link a server start printed while there was none
  // (admin/setup.ts). The token is the whole authority: without a live one nothing is created.
  route(app, {
    method: 'POST',
    url: '/admin/setup',
    input: adminSetupInput,
    handler: async ({ input, request }) =>
      ok(await completeSetup(app.store, context.admins, { ...input, ip: request.ip })),
  });

  route(app, {
    method: 'POST',
    url: '/admin/logout',
    handler: async ({ request, t }) => {
      const admin = await requireAdmin(request);
      await context.admins.revoke(admin.tokenHash);
      await audit(app.store, { adminId: admin.id, action: 'admin.logout', ip: request.ip });
      return ok(t('account.logged_out'));
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/me',
    handler: async ({ request }) => {
      const admin = await requireAdmin(request);
      return ok({ id: admin.id, username: admin.username, role: admin.role });
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/real_name/list',
    input: adminRealNameListInput,
    handler: async ({ input, request }) => {
      await requireAdmin(request, 'real_name');
      return ok(
        await listSubmissions(app.store, { status: input.status ?? 'pending', page: input.page ?? 1 }),
      );
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/real_name/detail',
    input: adminIdInput,
    handler: async ({ input, request }) => {
      const admin = await requireAdmin(request, 'real_name');
      const detail = await submissionDetail(app.store, input.id);
      await audit(app.store, {
        adminId: admin.id,
        action: 'real_name.view',
        targetType: 'real_name_submission',
        targetId: input.id,
        ip: request.ip,
      });
      return ok(detail);
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/real_name/approve',
    input: adminIdInput,
    handler: async ({ input, request, t }) => {
      const admin = await requireAdmin(request, 'real_name');
      await decideSubmission(app.store, app.sessions, { admin, id: input.id, approve: true, ip: request.ip });
      return ok(t('admin.approved'));
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/real_name/reject',
    input: adminRealNameRejectInput,
    handler: async ({ input, request, t }) => {
      const admin = await requireAdmin(request, 'real_name');
      await decideSubmission(app.store, app.sessions, {
        admin,
        id: input.id,
        approve: false,
        reason: input.reason,
        ip: request.ip,
      });
      return ok(t('admin.rejected'));
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/upload',
    input: adminUploadInput,
    handler: async ({ input, request, reply }) => {
      const admin = await requireAdmin(request, 'real_name');
      const uploadId = uploadIdFrom(input.id);
      const upload = uploadId === null ? null : await findUpload(app.store, uploadId);
      if (!upload) throw new AppError('upload.not_found');
      const data = await readUploadFile(context.dataDir, upload);
      await audit(app.store, {
        adminId: admin.id,
        action: 'upload.read',
        targetType: 'upload',
        targetId: upload.id,
        detail: { user_id: upload.user_id },
        ip: request.ip,
      });
      return reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .type(upload.mime_type)
        .send(data);
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/outbox',
    input: adminOutboxInput,
    handler: async ({ input, request }) => {
      const admin = await requireAdmin(request, 'outbox');
      await audit(app.store, { adminId: admin.id, action: 'outbox.read', ip: request.ip });
      return ok(await listOutbox(app.store, { page: input.page ?? 1, recipient: input.recipient }));
    },
  });

  route(app, {
    method: 'GET',
    url: '/admin/audit',
    input: adminPageInput,
    handler: async ({ input, request }) => {
      await requireAdmin(request, 'audit');
      return ok(await listAudit(app.store, { page: input.page ?? 1 }));
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/invite_codes',
    input: adminInviteCodeInput,
    handler: async ({ input, request }) => {
      const admin = await requireAdmin(request, 'users.manage');
      const code = await app.store.transaction(async (tx) => {
        const created = await createOperatorCode(tx, {
          note: input.note,
          maxUses: input.max_uses,
          createdBy: admin.id,
        });
        await audit(tx, {
          adminId: admin.id,
          action: 'invite.create',
          targetType: 'operator_invite_code',
          targetId: created,
          detail: { max_uses: input.max_uses ?? null, note: input.note ?? null },
          ip: request.ip,
        });
        return created;
      });
      return ok<AdminInviteCodeReply>({ code });
    },
  });

  route(app, {
    method: 'POST',
    url: '/admin/admins',
    input: adminCreateAdministratorInput,
    handler: async ({ input, request }) => {
      const admin = await requireAdmin(request, 'admins');
      const newId = await createAdmin(app.store, {
        username: input.username.toLowerCase(),
        password: input.password,
        role: input.role,
        createdBy: admin.id,
        ip: request.ip,
      });
      return ok<AdminCreatedReply>({ id: newId });
    },
  });
}
