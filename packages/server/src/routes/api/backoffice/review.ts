// Real-name review, through the accounts module's review service:
//   GET  /api/backoffice/real_name           status, page: the queue (pending, oldest first) or decided ones
//   GET  /api/backoffice/real_name/detail    id: one submission; photos at the address below
//   GET  /api/backoffice/real_name/photo     id (upload id): the photo itself, never cached
//   POST /api/backoffice/real_name/approve   id
//   POST /api/backoffice/real_name/reject    id, reason (the user reads it)
import type { FastifyInstance } from 'fastify';
import {
  backofficeIdInput,
  backofficeReasonInput,
  ok,
  realNameListInput,
  realNamePhotoInput,
} from '@fairex/shared';
import { findUpload, readUploadFile, uploadIdFrom } from '../../../accounts/uploads.ts';
import { decideSubmission, listSubmissions, submissionDetail } from '../../../admin/real-name-review.ts';
import { recordChange } from '../../../admin/audit-changes.ts';
import { AppError } from '../../../http/app-error.ts';
import type { AdminRoute } from './guard.ts';

/** The photo address the console fetches with its administrator session. */
function photoAddress(accountsAddress: string): string {
  const uploadId = new URL(accountsAddress, 'http://local').searchParams.get('id') ?? '';
  return `/api/backoffice/real_name/photo?id=${uploadId}`;
}

export function reviewRoutes(app: FastifyInstance, adminRoute: AdminRoute): void {
  adminRoute({
    method: 'GET',
    url: '/backoffice/real_name',
    access: 'real_name',
    input: realNameListInput,
    handler: async ({ input }) =>
      ok(await listSubmissions(app.store, { status: input.status ?? 'pending', page: input.page ?? 1 })),
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/real_name/detail',
    access: 'real_name',
    input: backofficeIdInput,
    handler: async ({ input, actor }) => {
      const detail = await submissionDetail(app.store, input.id);
      await recordChange(app.store, actor, {
        action: 'real_name.view',
        targetType: 'real_name_submission',
        targetId: input.id,
      });
      return ok({
        ...detail,
        front_pic: photoAddress(detail.front_pic),
        reverse_pic: photoAddress(detail.reverse_pic),
        hand_pic: photoAddress(detail.hand_pic),
      });
    },
  });

  adminRoute({
    method: 'GET',
    url: '/backoffice/real_name/photo',
    access: 'real_name',
    input: realNamePhotoInput,
    handler: async ({ input, actor, reply }) => {
      const uploadId = uploadIdFrom(input.id);
      const upload = uploadId === null ? null : await findUpload(app.store, uploadId);
      if (!upload) throw new AppError('upload.not_found');
      const data = await readUploadFile(app.accounts.dataDir, upload);
      await recordChange(app.store, actor, {
        action: 'upload.read',
        targetType: 'upload',
        targetId: upload.id,
        detail: { user_id: upload.user_id },
      });
      return reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .type(upload.mime_type)
        .send(data);
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/real_name/approve',
    access: 'real_name',
    input: backofficeIdInput,
    handler: async ({ input, admin, actor, t }) => {
      await decideSubmission(app.store, app.sessions, { admin, id: input.id, approve: true, ip: actor.ip });
      return ok(t('admin.approved'));
    },
  });

  adminRoute({
    method: 'POST',
    url: '/backoffice/real_name/reject',
    access: 'real_name',
    input: backofficeReasonInput,
    handler: async ({ input, admin, actor, t }) => {
      await decideSubmission(app.store, app.sessions, {
        admin,
        id: input.id,
        approve: false,
        reason: input.reason,
        ip: actor.ip,
      });
      return ok(t('admin.rejected'));
    },
  });
}
