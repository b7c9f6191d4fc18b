// The audit log: every administrator action, appended in the same transaction as the change it records,
// so that a change without its entry (or an entry without its change) cannot exist.
import type { Queryable } from '../store/index.ts';

export interface AuditEntry {
  /** Null for the command line (creating the first administrator). */
  adminId: number | null;
  action: string;
  targetType?: string;
  targetId?: string | number;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `insert into audit_log (admin_id, action, target_type, target_id, detail, ip)
     values ($1, $2, $3, $4, $5::jsonb, $6)`,
    [
      entry.adminId,
      entry.action,
      entry.targetType ?? null,
      entry.targetId === undefined ? null : String(entry.targetId),
      JSON.stringify(entry.detail ?? {}),
      entry.ip ?? null,
    ],
  );
}
