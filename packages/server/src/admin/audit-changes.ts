// Back-office changes in the audit log: who (the administrator), what (action and target), before and after
// (the changed fields' old and new values), when (the row's time) and from where (the request's address).
// Written in the same transaction as the change, through the accounts module's audit writer.
import type { AuditLine } from '@fairex/shared';
import type { Paged } from '@fairex/shared';
import { paged } from '@fairex/shared';
import { audit } from './audit.ts';
import type { Queryable } from '../store/index.ts';

export interface Actor {
  adminId: number;
  ip: string;
}

export interface ChangeRecord {
  action: string;
  targetType: string;
  targetId: string | number;
  before?: unknown;
  after?: unknown;
  /** Anything else worth keeping (a reason, a note). */
  detail?: Record<string, unknown>;
}

export async function recordChange(db: Queryable, actor: Actor, change: ChangeRecord): Promise<void> {
  const detail: Record<string, unknown> = { ...change.detail };
  if (change.before !== undefined) detail.before = change.before;
  if (change.after !== undefined) detail.after = change.after;
  await audit(db, {
    adminId: actor.adminId,
    action: change.action,
    targetType: change.targetType,
    targetId: change.targetId,
    detail,
    ip: actor.ip,
  });
}

/** Only the fields whose values differ, as {before, after} pairs of plain objects. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } {
  const oldValues: Partial<T> = {};
  const newValues: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    const next = after[key];
    if (next === undefined) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(next)) continue;
    oldValues[key] = before[key];
    newValues[key] = next;
  }
  return { before: oldValues, after: newValues };
}

export interface AuditFilter {
  page: number;
  perPage: number;
  /** An action, or a prefix ending in "." (e.g. "wallet."). */
  action?: string | undefined;
  admin?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
}

export async function listAuditLog(db: Queryable, filter: AuditFilter): Promise<Paged<AuditLine>> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.action !== undefined) {
    if (filter.action.endsWith('.')) add(`starts_with(l.action, ?)`, filter.action);
    else add('l.action = ?', filter.action);
  }
  if (filter.admin !== undefined) add('a.username = ?', filter.admin);
  if (filter.targetType !== undefined) add('l.target_type = ?', filter.targetType);
  if (filter.targetId !== undefined) add('l.target_id = ?', filter.targetId);
  const where = conditions.length === 0 ? '' : `where ${conditions.join(' and ')}`;
  const from = 'from audit_log l left join admins a on a.id = l.admin_id';
  const { rows: total } = await db.query<{ count: number }>(
    `select count(*)::int as count ${from} ${where}`,
    params,
  );
  const { rows } = await db.query<Omit<AuditLine, 'created_at'> & { created_at: Date }>(
    `select l.id, a.username as admin, l.action, l.target_type, l.target_id, l.detail, l.ip, l.created_at
       ${from} ${where} order by l.id desc limit ${filter.perPage} offset ${(filter.page - 1) * filter.perPage}`,
    params,
  );
  return paged(
    rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
    filter.page,
    filter.perPage,
    total[0]?.count ?? 0,
  );
}
