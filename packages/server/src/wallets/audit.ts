// Administrator actions on money are written to the audit log in the same transaction as the change
// itself, so neither can exist without the other.
import type { Queryable } from '../store/index.ts';

export interface WalletAuditEntry {
  adminId: number;
  action: string;
  targetType: string;
  targetId: string | number;
  detail: Record<string, unknown>;
  ip: string | null;
}

export async function auditWallet(db: Queryable, entry: WalletAuditEntry): Promise<void> {
  await db.query(
    `insert into audit_log (admin_id, action, target_type, target_id, detail, ip)
     values ($1, $2, $3, $4, $5::jsonb, $6)`,
    [
      entry.adminId,
      entry.action,
      entry.targetType,
      String(entry.targetId),
      JSON.stringify(entry.detail),
      entry.ip,
    ],
  );
}
