// Administrator sessions, kept apart from users' sessions: their own table, so that an administrator token
// never authenticates a user call and a user token never an administrator call. Tokens are 32 random
// bytes, stored as SHA-256, valid for a working day, revoked at logout.
import type { BackofficeAdminRole } from '@fairex/shared';
import type { Queryable } from '../store/index.ts';
import { generateToken, hashToken, tokenFromHeader } from '../auth/sessions.ts';

export const ADMIN_SESSION_TTL_MS = 12 * 3_600_000;

export type AdminRole = BackofficeAdminRole;

export interface AuthAdmin {
  id: number;
  username: string;
  role: AdminRole;
  tokenHash: string;
}

export class AdminAuthenticator {
  readonly #db: Queryable;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async create(adminId: number, ip: string | null): Promise<{ token: string; expiresAt: Date }> {
    const token = generateToken();
    const expiresAt = new Date(Date.now() + ADMIN_SESSION_TTL_MS);
    await this.#db.query(
      'insert into admin_sessions (token_hash, admin_id, ip, expires_at) values ($1, $2, $3, $4)',
      [hashToken(token), adminId, ip, expiresAt],
    );
    return { token, expiresAt };
  }

  /** The administrator of an Authorization header, when the session is live and the account enabled. */
  async authenticate(header: unknown): Promise<AuthAdmin | null> {
    const token = tokenFromHeader(header);
    if (token === undefined) return null;
    const tokenHash = hashToken(token);
    const { rows } = await this.#db.query<{ id: number; username: string; role: AdminRole }>(
      `select a.id, a.username, a.role from admin_sessions s join admins a on a.id = s.admin_id
        where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now() and a.disabled_at is null`,
      [tokenHash],
    );
    const row = rows[0];
    return row ? { ...row, tokenHash } : null;
  }

  async revoke(tokenHash: string): Promise<void> {
    await this.#db.query(
      'update admin_sessions set revoked_at = now() where token_hash = $1 and revoked_at is null',
      [tokenHash],
    );
  }
}
