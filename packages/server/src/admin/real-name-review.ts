// Real-name review, the administrator's side: the queue of submissions, one submission with its photos,
// and the decision. Approving sets the user's review_status to 2; rejecting sends it back to 0 with a
// reason the user sees. Each decision and its audit entry commit together.
import type { Paged, RealNameStatus, RealNameSubmission, RealNameSubmissionDetail } from '@fairex/shared';
import { paged } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { SessionAuthenticator } from '../auth/sessions.ts';
import type { Store } from '../store/index.ts';
import { REVIEW_APPROVED, REVIEW_NONE } from '../accounts/real-name.ts';
import { audit } from './audit.ts';
import type { AuthAdmin } from './sessions.ts';

export type SubmissionStatus = RealNameStatus;
export const REVIEW_PAGE_SIZE = 20;

interface SubmissionRow {
  id: number;
  user_id: number;
  account: string;
  name: string;
  card_id: string;
  status: SubmissionStatus;
  reject_reason: string | null;
  reviewed_by: string | null;
  front_upload_id: string;
  reverse_upload_id: string;
  hand_upload_id: string;
  created_at: Date;
  reviewed_at: Date | null;
}

export function adminUploadAddress(id: string): string {
  return `/api/admin/upload?id=${id}`;
}

export async function listSubmissions(
  store: Store,
  input: { status: SubmissionStatus; page: number },
): Promise<Paged<RealNameSubmission>> {
  const offset = (input.page - 1) * REVIEW_PAGE_SIZE;
  const { rows: total } = await store.query<{ count: number }>(
    'select count(*)::int as count from real_name_submissions where status = $1',
    [input.status],
  );
  const { rows } = await store.query<SubmissionRow>(
    `select s.id, s.user_id, u.account, s.name, s.status, s.created_at, s.reviewed_at
       from real_name_submissions s join users u on u.id = s.user_id
      where s.status = $1 order by s.created_at, s.id limit $2 offset $3`,
    [input.status, REVIEW_PAGE_SIZE, offset],
  );
  return paged(rows.map(summary), input.page, REVIEW_PAGE_SIZE, total[0]?.count ?? 0);
}

function summary(row: SubmissionRow): RealNameSubmission {
  return {
    id: row.id,
    user_id: row.user_id,
    account: row.account,
    name: row.name,
    status: row.status,
    created_at: row.created_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
  };
}

export async function submissionDetail(store: Store, id: number): Promise<RealNameSubmissionDetail> {
  const { rows } = await store.query<SubmissionRow>(
    `select s.*, u.account, a.username as reviewed_by
       from real_name_submissions s join users u on u.id = s.user_id left join admins a on a.id = s.reviewed_by
      where s.id = $1`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('admin.submission_not_found');
  return {
    ...summary(row),
    card_id: row.card_id,
    reject_reason: row.reject_reason,
    reviewed_by: row.reviewed_by,
    front_pic: adminUploadAddress(row.front_upload_id),
    reverse_pic: adminUploadAddress(row.reverse_upload_id),
    hand_pic: adminUploadAddress(row.hand_upload_id),
  };
}

export async function decideSubmission(
  store: Store,
  sessions: SessionAuthenticator,
  input: { admin: AuthAdmin; id: number; approve: boolean; reason?: string; ip: string },
): Promise<void> {
  const userId = await store.transaction(async (tx) => {
    const { rows } = await tx.query<{ user_id: number }>(
      `update real_name_submissions
          set status = $2, reject_reason = $3, reviewed_by = $4, reviewed_at = now()
        where id = $1 and status = 'pending' returning user_id`,
      [
        input.id,
        input.approve ? 'approved' : 'rejected',
        input.approve ? null : (input.reason ?? null),
        input.admin.id,
      ],
    );
    const row = rows[0];
    if (!row) {
      const { rows: found } = await tx.query('select 1 from real_name_submissions where id = $1', [input.id]);
      throw new AppError(found.length === 0 ? 'admin.submission_not_found' : 'admin.submission_decided');
    }
    await tx.query('update users set review_status = $2 where id = $1', [
      row.user_id,
      input.approve ? REVIEW_APPROVED : REVIEW_NONE,
    ]);
    await audit(tx, {
      adminId: input.admin.id,
      action: input.approve ? 'real_name.approve' : 'real_name.reject',
      targetType: 'real_name_submission',
      targetId: input.id,
      detail: input.approve ? { user_id: row.user_id } : { user_id: row.user_id, reason: input.reason },
      ip: input.ip,
    });
    return row.user_id;
  });
  // The user's cached session answers carry the old review status.
  sessions.forgetUser(userId);
}
