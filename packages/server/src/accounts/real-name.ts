// Real-name verification, the user's side: a name, an ID number and three photos uploaded before (front,
// back, hand-held). review_status goes 0 (not submitted) -> 1 (under review) -> 2 (approved); a rejection
// sends it back to 0 with the reason kept on the submission, and the user may submit again.
import { AppError } from '../http/app-error.ts';
import type { RealNameCenter } from '@fairex/shared/api/account.ts';
import type { AccountContext } from './context.ts';
import { findUpload } from './uploads.ts';
import { isUniqueViolation } from './users.ts';

export const REVIEW_NONE = 0;
export const REVIEW_PENDING = 1;
export const REVIEW_APPROVED = 2;

export interface RealNameInput {
  name: string;
  cardId: string;
  frontUploadId: string;
  reverseUploadId: string;
  handUploadId: string;
}

export async function submitRealName(
  context: AccountContext,
  userId: number,
  input: RealNameInput,
): Promise<void> {
  const photos = [input.frontUploadId, input.reverseUploadId, input.handUploadId];
  if (new Set(photos).size !== photos.length) throw new AppError('real_name.same_photo');
  for (const id of photos) {
    const upload = await findUpload(context.store, id);
    // Another user's upload is answered exactly like a missing one.
    if (!upload || upload.user_id !== userId) throw new AppError('upload.not_found');
  }
  try {
    await context.store.transaction(async (tx) => {
      const { rows } = await tx.query<{ review_status: number }>(
        'select review_status from users where id = $1 for update',
        [userId],
      );
      const status = rows[0]?.review_status;
      if (status === REVIEW_PENDING) throw new AppError('real_name.pending');
      if (status === REVIEW_APPROVED) throw new AppError('real_name.approved');
      await tx.query(
        `insert into real_name_submissions (user_id, name, card_id, front_upload_id, reverse_upload_id, hand_upload_id)
         values ($1, $2, $3, $4, $5, $6)`,
        [userId, input.name, input.cardId, ...photos],
      );
      await tx.query('update users set review_status = $2 where id = $1', [userId, REVIEW_PENDING]);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('real_name.pending');
    throw error;
  }
  context.sessions.forgetUser(userId);
}

export type { RealNameCenter };

/** Shows the first and last two characters of an ID number. */
export function maskCardId(cardId: string): string {
  if (cardId.length <= 4) return '*'.repeat(cardId.length);
  return `${cardId.slice(0, 2)}${'*'.repeat(cardId.length - 4)}${cardId.slice(-2)}`;
}

export async function realNameCenter(context: AccountContext, userId: number): Promise<RealNameCenter> {
  const { rows: users } = await context.store.query<{ review_status: number }>(
    'select review_status from users where id = $1',
    [userId],
  );
  const { rows } = await context.store.query<{
    name: string;
    card_id: string;
    status: string;
    reject_reason: string | null;
    created_at: Date;
    reviewed_at: Date | null;
  }>(
    `select name, card_id, status, reject_reason, created_at, reviewed_at from real_name_submissions
      where user_id = $1 order by created_at desc, id desc limit 1`,
    [userId],
  );
  const latest = rows[0];
  return {
    review_status: users[0]?.review_status ?? REVIEW_NONE,
    name: latest?.name ?? null,
    card_id: latest ? maskCardId(latest.card_id) : null,
    reject_reason: latest?.status === 'rejected' ? latest.reject_reason : null,
    submitted_at: latest?.created_at.toISOString() ?? null,
    reviewed_at: latest?.reviewed_at?.toISOString() ?? null,
  };
}
