// Read-only lists for administrators: the dev outbox (and delivery records), and the audit log.
import type { AuditLine, OutboxLine, Paged } from '@fairex/shared';
import { paged } from '@fairex/shared';
import type { Store } from '../store/index.ts';

export const ADMIN_PAGE_SIZE = 20;

export async function listOutbox(
  store: Store,
  input: { page: number; recipient?: string | undefined },
): Promise<Paged<OutboxLine>> {
  const filter = input.recipient === undefined ? '' : 'where recipient = $3';
  const params: unknown[] = [ADMIN_PAGE_SIZE, (input.page - 1) * ADMIN_PAGE_SIZE];
  if (input.recipient !== undefined) params.push(input.recipient);
  const { rows } = await store.query<Omit<OutboxLine, 'created_at'> & { created_at: Date }>(
    `select id, channel, recipient, subject, body, purpose, status, error, created_at
       from outbound_messages ${filter} order by id desc limit $1 offset $2`,
    params,
  );
  const { rows: total } = await store.query<{ count: number }>(
    `select count(*)::int as count from outbound_messages ${filter.replace('$3', '$1')}`,
    input.recipient === undefined ? [] : [input.recipient],
  );
  return paged(
    rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
    input.page,
    ADMIN_PAGE_SIZE,
    total[0]?.count ?? 0,
  );
}

export async function listAudit(store: Store, input: { page: number }): Promise<Paged<AuditLine>> {
  const { rows } = await store.query<Omit<AuditLine, 'created_at'> & { created_at: Date }>(
    `select l.id, a.username as admin, l.action, l.target_type, l.target_id, l.detail, l.ip, l.created_at
       from audit_log l left join admins a on a.id = l.admin_id order by l.id desc limit $1 offset $2`,
    [ADMIN_PAGE_SIZE, (input.page - 1) * ADMIN_PAGE_SIZE],
  );
  const { rows: total } = await store.query<{ count: number }>(
    'select count(*)::int as count from audit_log',
  );
  return paged(
    rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
    input.page,
    ADMIN_PAGE_SIZE,
    total[0]?.count ?? 0,
  );
}
