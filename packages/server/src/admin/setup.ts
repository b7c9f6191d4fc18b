// The one-time set-up link that creates the first administrator while the server runs (the command line
// cannot: the embedded database belongs to the running server). While no administrator exists, each server
// start issues a random token and writes the link to its log; the store keeps only the token's SHA-256 and
// an expiry. The link's page sends the token with a username and password: the token is spent, the
// administrator created (role admin), an operator invite code made when none is active, and a password-only
// session returned, after which the console enrols the authenticator as at any first sign-in. Once an
// administrator exists (made here or by `npm run admin:create`) every token is refused and none is issued.
import type { AdminSetupReply } from '@fairex/shared/api/admin.ts';
import { AppError } from '../http/app-error.ts';
import { generateToken, hashToken } from '../auth/sessions.ts';
import { activeOperatorCode, createOperatorCode } from '../accounts/invite-codes.ts';
import type { Queryable, Store } from '../store/index.ts';
import { checkedPasswordHash, insertAdmin } from './admins.ts';
import { audit } from './audit.ts';
import type { AdminAuthenticator } from './sessions.ts';

/** A set-up link works for an hour after the start that printed it; a restart prints a new one. */
export const SETUP_TOKEN_TTL_MS = 60 * 60_000;

/** The console page the link opens; the token travels in the fragment, which browsers never send. */
export const SETUP_PATH = '/admin/setup';

async function administratorExists(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('select 1 from admins limit 1');
  return rows.length > 0;
}

async function liveToken(db: Queryable, token: string): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from admin_setup_tokens where token_hash = $1 and used_at is null and expires_at > now()',
    [hashToken(token)],
  );
  return rows.length > 0;
}

/** A new set-up token when no administrator exists (null otherwise); the caller prints its link. */
export async function issueSetupToken(store: Store, ttlMs = SETUP_TOKEN_TTL_MS): Promise<string | null> {
  if (await administratorExists(store)) return null;
  // Links of earlier starts that have expired are of no use to anyone.
  await store.query('delete from admin_setup_tokens where expires_at <= now()');
  const token = generateToken();
  await store.query(
    `insert into admin_setup_tokens (token_hash, expires_at) values ($1, now() + $2 * interval '1 millisecond')`,
    [hashToken(token), ttlMs],
  );
  return token;
}

/** The link to print: the server's own address for a laptop start, the path alone to put a host in front. */
export function setupLink(token: string, origin: string): string {
  return `${origin}${SETUP_PATH}#token=${token}`;
}

/** Spends a set-up token on the first administrator; refused when it is unknown, used, expired or too late. */
export async function completeSetup(
  store: Store,
  authenticator: AdminAuthenticator,
  input: { token: string; username: string; password: string; ip: string },
): Promise<AdminSetupReply> {
  const username = input.username.trim().toLowerCase();
  // The cheap refusals first, so that a dead link never costs a password hash; the transaction checks again.
  if (await administratorExists(store)) throw new AppError('admin.setup_done');
  if (!(await liveToken(store, input.token))) throw new AppError('admin.setup_link_invalid');
  const passwordHash = await checkedPasswordHash({ username, password: input.password });
  const { id, inviteCode } = await store.transaction(async (tx) => {
    // Two set-up requests at once must not both see "no administrator yet".
    await tx.query('lock table admin_setup_tokens in exclusive mode');
    if (await administratorExists(tx)) throw new AppError('admin.setup_done');
    const { rows } = await tx.query(
      `update admin_setup_tokens set used_at = now()
        where token_hash = $1 and used_at is null and expires_at > now() returning 1`,
      [hashToken(input.token)],
    );
    if (rows.length === 0) throw new AppError('admin.setup_link_invalid');
    const adminId = await insertAdmin(
      tx,
      { username, password: input.password, role: 'admin', createdBy: null, ip: input.ip },
      passwordHash,
    );
    // Every other link dies with the first administrator.
    await tx.query('delete from admin_setup_tokens where used_at is null');
    let code = await activeOperatorCode(tx);
    if (code === null) {
      code = await createOperatorCode(tx, { note: 'created with the first administrator' });
      await audit(tx, {
        adminId,
        action: 'invite.create',
        targetType: 'operator_invite_code',
        targetId: code,
        ip: input.ip,
      });
    }
    return { id: adminId, inviteCode: code };
  });
  const session = await authenticator.create(id, input.ip);
  return { token: session.token, admin: { id, username, role: 'admin' }, invite_code: inviteCode };
}
