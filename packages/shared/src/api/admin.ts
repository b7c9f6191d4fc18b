// The administrator calls under /api/admin (sessions, set-up, real-name review, uploads, outbox, audit,
// invite codes, new administrators): their input schemas and replies, declared once for the server and the
// back office. The roles an administrator may be given are the shared list the server's permission model
// gives rights to (BACKOFFICE_ADMIN_ROLES).
import { z } from 'zod';
import { id, integer, note, oneOf, optional, page } from '../schema/fields.ts';
import { lengthBetween } from './account-fields.ts';
import type { AdminIdentity } from './backoffice.ts';
import { BACKOFFICE_ADMIN_ROLES } from './backoffice.ts';

/** /admin/login: an administrator's name and password. */
export const adminLoginInput = z.object({
  username: lengthBetween(1, 64),
  password: lengthBetween(1, 128, false),
});

/** /admin/setup: the first administrator, with the one-time token a server start printed. */
export const adminSetupInput = z.object({
  token: lengthBetween(16, 128),
  username: lengthBetween(1, 64),
  password: lengthBetween(1, 128, false),
});

/** /admin/real_name/list: a page, optionally of one state. */
export const adminRealNameListInput = z.object({
  status: optional(oneOf(['pending', 'approved', 'rejected'] as const)),
  page: page(),
});

/** One record by id: /admin/real_name/detail and /approve. */
export const adminIdInput = z.object({ id: id() });

/** /admin/real_name/reject: with the reason the user is shown. */
export const adminRealNameRejectInput = z.object({ id: id(), reason: note({ max: 500 }) });

/** /admin/upload: an upload address or id. */
export const adminUploadInput = z.object({ id: lengthBetween(1, 200) });

/** /admin/outbox: a page of the development outbox, optionally to one recipient. */
export const adminOutboxInput = z.object({ page: page(), recipient: optional(lengthBetween(1, 254)) });

/** /admin/audit: a page. */
export const adminPageInput = z.object({ page: page() });

/** /admin/invite_codes: an operator's invite code, with an optional use limit and note. */
export const adminInviteCodeInput = z.object({
  max_uses: optional(integer({ min: 1, max: 1_000_000 })),
  note: optional(note({ max: 200 })),
});

/** /admin/admins: a new administrator, with one of the roles of the permission model. */
export const adminCreateAdministratorInput = z.object({
  username: lengthBetween(1, 64),
  password: lengthBetween(1, 128, false),
  role: oneOf(BACKOFFICE_ADMIN_ROLES),
});

// ---------------------------------------------------------------------------------------------------------
// Replies

/** /admin/login: the session token (the second factor comes next) and who signed in. */
export interface AdminLoginReply {
  token: string;
  admin: AdminIdentity;
}

/** /admin/setup: the first administrator's session, and the operator invite code made with it. */
export interface AdminSetupReply {
  token: string;
  admin: AdminIdentity & { role: 'admin' };
  invite_code: string;
}

/** /admin/invite_codes: the operator invite code made. */
export interface AdminInviteCodeReply {
  code: string;
}

/** /admin/admins: the new administrator's id. */
export interface AdminCreatedReply {
  id: number;
}
