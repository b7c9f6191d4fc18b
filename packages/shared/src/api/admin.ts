// The administrator calls under /api/admin (sessions, real-name review, uploads, outbox, audit, invite
// codes): their input schemas, declared once for the server and the back office. Creating an administrator
// names a role of the server's permission model; that schema stays with its route.
import { z } from 'zod';
import { id, integer, note, oneOf, optional, page } from '../schema/fields.ts';
import { lengthBetween } from './account-fields.ts';

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
