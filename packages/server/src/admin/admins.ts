// Administrator accounts: created by the command line (the first) or by another administrator, logged in
// with a username and password under the same brute-force limits as users, with a role that decides what
// they may do.
import { BACKOFFICE_ADMIN_ROLES } from '@fairex/shared';
import type { AdminLoginReply } from '@fairex/shared/api/admin.ts';
import { AppError } from '../http/app-error.ts';
import type { AccountContext } from '../accounts/context.ts';
import { dummyPasswordCheck, hashPassword, verifyPassword } from '../accounts/passwords.ts';
import type { LoginLockout } from '../accounts/lockout.ts';
import { acceptLoginAttempt, reserveLoginAttempt } from '../accounts/lockout.ts';
import type { Queryable, Store } from '../store/index.ts';
import { audit } from './audit.ts';
import type { AdminRole } from './sessions.ts';

export const ADMIN_ROLES: readonly AdminRole[] = BACKOFFICE_ADMIN_ROLES;
export const ADMIN_USERNAME = /^[a-z0-9_.-]{3,32}$/;
/** Administrators choose longer passwords than the users' 6 to 16 characters. */
export const ADMIN_PASSWORD_MIN_LENGTH = 12;

export const ADMIN_LOGIN_IP_FAILURES = { scope: 'admin.login.ip', max: 20, windowMs: 15 * 60_000 };
/** The users' lock-out rules (accounts/lockout.ts), with a lower address limit and counters of their own. */
export const ADMIN_LOGIN_LOCKOUT: LoginLockout = {
  address: ADMIN_LOGIN_IP_FAILURES,
  accountScope: 'admin.login.account',
  accountAddressScope: 'admin.login.account_ip',
};

export interface NewAdmin {
  username: string;
  password: string;
  role: AdminRole;
  createdBy: number | null;
  ip?: string | null;
}

export async function createAdmin(store: Store, input: NewAdmin): Promise<number> {
  const passwordHash = await checkedPasswordHash(input);
  return store.transaction((tx) => insertAdmin(tx, input, passwordHash));
}

/** The hash of a new administrator's password, once the username and password pass the rules. */
export async function checkedPasswordHash(input: Pick<NewAdmin, 'username' | 'password'>): Promise<string> {
  if (!ADMIN_USERNAME.test(input.username)) throw new AppError('admin.username_invalid');
  if (input.password.length < ADMIN_PASSWORD_MIN_LENGTH || input.password.length > 128) {
    throw new AppError('admin.password_too_short', { min: ADMIN_PASSWORD_MIN_LENGTH });
  }
  return hashPassword(input.password);
}

/** Inserts an administrator (inside the caller's transaction) and audits it; refused when the name is taken. */
export async function insertAdmin(tx: Queryable, input: NewAdmin, passwordHash: string): Promise<number> {
  const { rows: existing } = await tx.query('select 1 from admins where username = $1', [input.username]);
  if (existing.length > 0) throw new AppError('admin.username_taken');
  const { rows } = await tx.query<{ id: number }>(
    'insert into admins (username, password_hash, role) values ($1, $2, $3) returning id',
    [input.username, passwordHash, input.role],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('admin insert returned no id');
  await audit(tx, {
    adminId: input.createdBy,
    action: 'admin.create',
    targetType: 'admin',
    targetId: id,
    detail: { username: input.username, role: input.role },
    ip: input.ip ?? null,
  });
  return id;
}

export async function adminLogin(
  context: AccountContext,
  input: { username: string; password: string; ip: string },
): Promise<AdminLoginReply> {
  const { throttle, store } = context;
  const username = input.username.trim().toLowerCase();
  // Counted as a failed login until the password proves right (accounts/lockout.ts).
  const attempt = await reserveLoginAttempt(store, throttle, ADMIN_LOGIN_LOCKOUT, username, input.ip);
  const { rows } = await store.query<{
    id: number;
    username: string;
    role: AdminRole;
    password_hash: string;
  }>('select id, username, role, password_hash from admins where username = $1 and disabled_at is null', [
    username,
  ]);
  const admin = rows[0];
  const ok = admin
    ? await verifyPassword(input.password, admin.password_hash)
    : await dummyPasswordCheck(input.password);
  if (!admin || !ok) throw new AppError('account.login_failed');
  await acceptLoginAttempt(throttle, ADMIN_LOGIN_LOCKOUT, attempt);
  const session = await context.admins.create(admin.id, input.ip);
  await audit(store, { adminId: admin.id, action: 'admin.login', ip: input.ip });
  return { token: session.token, admin: { id: admin.id, username: admin.username, role: admin.role } };
}
