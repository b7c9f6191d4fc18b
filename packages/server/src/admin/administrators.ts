// The administrators themselves: who exists, with which role, whether their authenticator is set up, when
// they were last active; disabling an account (its sessions end) and resetting a lost authenticator.
// New administrators are made by the accounts module's createAdmin, which audits it.
import type { AdminLine, BackofficeAdminRole } from '@fairex/shared';
import { AppError } from '../http/app-error.ts';
import type { Queryable } from '../store/index.ts';
import type { Actor } from './audit-changes.ts';
import { recordChange } from './audit-changes.ts';
import { resetAdminSecondFactor } from './second-factor.ts';

export type { AdminLine } from '@fairex/shared';

export async function listAdmins(db: Queryable): Promise<AdminLine[]> {
  const { rows } = await db.query<{
    id: number;
    username: string;
    role: BackofficeAdminRole;
    second_factor: boolean;
    disabled_at: Date | null;
    created_at: Date;
    last_session_at: Date | null;
  }>(
    `select a.id, a.username, a.role, a.disabled_at, a.created_at,
            exists (select 1 from admin_totp t where t.admin_id = a.id and t.secret is not null) as second_factor,
            (select max(s.created_at) from admin_sessions s where s.admin_id = a.id) as last_session_at
       from admins a order by a.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    username: row.username,
    role: row.role,
    second_factor: row.second_factor,
    disabled: row.disabled_at !== null,
    created_at: row.created_at.toISOString(),
    last_session_at: row.last_session_at?.toISOString() ?? null,
  }));
}

async function requireAdmin(db: Queryable, id: number): Promise<{ username: string; disabled: boolean }> {
  const { rows } = await db.query<{ username: string; disabled: boolean }>(
    'select username, (disabled_at is not null) as disabled from admins where id = $1 for update',
    [id],
  );
  const row = rows[0];
  if (!row) throw new AppError('backoffice.admin_not_found');
  return row;
}

/** Disables or enables an administrator. Disabling ends their sessions; nobody disables themself. */
export async function setAdminDisabled(
  db: Queryable,
  actor: Actor,
  id: number,
  disabled: boolean,
): Promise<void> {
  if (id === actor.adminId) throw new AppError('backoffice.admin_self');
  const admin = await requireAdmin(db, id);
  if (admin.disabled === disabled) throw new AppError('backoffice.nothing_changed');
  await db.query(`update admins set disabled_at = ${disabled ? 'now()' : 'null'} where id = $1`, [id]);
  if (disabled) {
    await db.query(
      'update admin_sessions set revoked_at = now() where admin_id = $1 and revoked_at is null',
      [id],
    );
  }
  await recordChange(db, actor, {
    action: disabled ? 'admin.disable' : 'admin.enable',
    targetType: 'admin',
    targetId: id,
    before: { disabled: admin.disabled },
    after: { disabled },
    detail: { username: admin.username },
  });
}

/** Forgets another administrator's authenticator; their next sign-in enrols a new one. */
export async function resetOtherAdminSecondFactor(db: Queryable, actor: Actor, id: number): Promise<void> {
  if (id === actor.adminId) throw new AppError('backoffice.admin_self');
  const admin = await requireAdmin(db, id);
  const { rows } = await db.query<{ enrolled: boolean }>(
    'select (secret is not null) as enrolled from admin_totp where admin_id = $1',
    [id],
  );
  const had = await resetAdminSecondFactor(db, id);
  if (!had) throw new AppError('backoffice.second_factor_not_on');
  await recordChange(db, actor, {
    action: 'admin.second_factor_reset',
    targetType: 'admin',
    targetId: id,
    before: { second_factor: rows[0]?.enrolled === true },
    after: { second_factor: false },
    detail: { username: admin.username },
  });
}
