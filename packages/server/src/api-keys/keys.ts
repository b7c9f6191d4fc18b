// API keys for bots (issue 21): created by a signed-in user with a label, scopes (read, trade, withdraw;
// withdraw never by default and only with an IP allowlist) and an IP allowlist; the secret is shown once and
// kept sealed (sealed-secrets.ts). A request signed with a key (signature.ts) acts as its user, only on the
// calls its scopes name, only from an allowed address, once per signature, within the replay window.
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/sessions.ts';
import { AppError } from '../http/app-error.ts';
import type { Queryable, Store } from '../store/index.ts';
import { lockCounted } from '../store/counted-locks.ts';
import type { SecretBox } from './sealed-secrets.ts';
import {
  HEADER_KEY,
  HEADER_SIGNATURE,
  HEADER_TIMESTAMP,
  REPLAY_WINDOW_MS,
  sameSignature,
  signatureOf,
} from './signature.ts';

import { API_SCOPES, type ApiKeyView, type ApiScope } from '@fairex/shared/api/api-keys.ts';

// The scopes are declared with the API-key calls' input schemas (shared/api/api-keys.ts).
export { API_SCOPES, type ApiKeyView, type ApiScope };
export const MAX_KEYS_PER_USER = 20;
export const MAX_ALLOWED_IPS = 20;

/**
 * The calls a key may make, by scope. Anything else (account, security, key management, deposits
 * addresses...) is refused for every key: those need a signed-in session.
 */
const CALLS_BY_SCOPE: Record<ApiScope, readonly string[]> = {
  read: [
    '/api/orders/open',
    '/api/orders/history',
    '/api/transaction_in',
    '/api/transaction_out',
    '/api/transaction_all',
    '/api/transaction_complete',
    '/api/transaction/deal',
    '/api/transaction/estimate',
    '/api/wallet/list',
    '/api/wallet/detail',
    '/api/wallet/in_list',
    '/api/wallet/out_list',
    '/api/wallet/get_info',
    '/api/wallet/protection',
  ],
  trade: ['/api/transaction/in', '/api/transaction/out', '/api/transaction_del', '/api/orders/cancel_all'],
  withdraw: ['/api/wallet/out'],
};

/** The scope a call needs, or null when no key may make it. */
export function scopeOfCall(url: string | undefined): ApiScope | null {
  if (url === undefined) return null;
  for (const scope of API_SCOPES) if (CALLS_BY_SCOPE[scope].includes(url)) return scope;
  return null;
}

interface KeyRow {
  id: number;
  user_id: number;
  key_id: string;
  secret_sealed: string;
  label: string;
  scopes: ApiScope[];
  ip_allowlist: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

interface UserRow {
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  extension_code: string;
  is_seller: boolean;
  review_status: number;
}

function view(row: KeyRow): ApiKeyView {
  return {
    id: row.id,
    key: row.key_id,
    label: row.label,
    scopes: row.scopes,
    ip_allowlist: row.ip_allowlist,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at === null ? null : row.last_used_at.toISOString(),
    revoked: row.revoked_at !== null,
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : undefined;
}

export class ApiKeys {
  readonly #db: Pick<Store, 'query' | 'transaction'>;
  readonly #box: () => Promise<SecretBox>;
  readonly #nowMs: () => number;

  /** `box` is asked for on first use, so an exchange without keys never creates a sealing key. */
  constructor(
    db: Pick<Store, 'query' | 'transaction'>,
    box: () => Promise<SecretBox>,
    nowMs: () => number = Date.now,
  ) {
    this.#db = db;
    this.#box = box;
    this.#nowMs = nowMs;
  }

  /** A new key; the answer is the only time its secret is ever shown. */
  async create(
    userId: number,
    input: {
      label: string;
      scopes: ApiScope[];
      ips: string[];
      /** The second factor, checked once the rest of the request is known to be good. */
      verify?: () => Promise<void>;
    },
  ): Promise<ApiKeyView & { secret: string }> {
    const scopes = API_SCOPES.filter((scope) => input.scopes.includes(scope));
    if (scopes.length === 0) throw new AppError('api_key.scopes_required');
    const ips = [...new Set(input.ips.map((ip) => ip.trim()).filter((ip) => ip.length > 0))];
    if (ips.length > MAX_ALLOWED_IPS) throw new AppError('api_key.too_many_ips', { max: MAX_ALLOWED_IPS });
    for (const ip of ips) if (isIP(ip) === 0) throw new AppError('api_key.ip_invalid', { ip });
    if (scopes.includes('withdraw') && ips.length === 0) throw new AppError('api_key.withdraw_needs_ips');
    // Refused before the second factor is asked for when the user is already at the limit; counted again
    // below, under the user's lock, in the transaction that inserts the key.
    if ((await this.#activeKeys(this.#db, userId)) >= MAX_KEYS_PER_USER)
      throw new AppError('api_key.too_many', { max: MAX_KEYS_PER_USER });
    if (input.verify !== undefined) await input.verify();
    const keyId = `fx_${randomBytes(16).toString('hex')}`;
    const secret = randomBytes(32).toString('hex');
    const sealed = (await this.#box()).seal(secret);
    const rows = await this.#db.transaction(async (tx) => {
      await lockCounted(tx, [['api_keys', userId]]);
      if ((await this.#activeKeys(tx, userId)) >= MAX_KEYS_PER_USER) return null;
      const inserted = await tx.query<KeyRow>(
        `insert into api_keys (user_id, key_id, secret_sealed, label, scopes, ip_allowlist)
         values ($1, $2, $3, $4, $5, $6) returning *`,
        [userId, keyId, sealed, input.label, scopes, ips],
      );
      return inserted.rows;
    });
    if (rows === null) throw new AppError('api_key.too_many', { max: MAX_KEYS_PER_USER });
    return { ...view(rows[0] as KeyRow), secret };
  }

  async #activeKeys(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      'select count(*)::int as count from api_keys where user_id = $1 and revoked_at is null',
      [userId],
    );
    return rows[0]?.count ?? 0;
  }

  async list(userId: number): Promise<ApiKeyView[]> {
    const { rows } = await this.#db.query<KeyRow>(
      'select * from api_keys where user_id = $1 order by id desc',
      [userId],
    );
    return rows.map(view);
  }

  /** Revokes one of the user's keys at once: its next request is refused. */
  async revoke(userId: number, id: number): Promise<void> {
    const { rowCount } = await this.#db.query(
      'update api_keys set revoked_at = now() where id = $1 and user_id = $2 and revoked_at is null',
      [id, userId],
    );
    if (rowCount !== 1) throw new AppError('api_key.not_found');
  }

  /**
   * The user a signed request acts as, or a translated refusal: unknown or revoked key, stale timestamp,
   * wrong signature, address not allowed, call outside the key's scopes, or a signature already used.
   */
  async authenticate(request: FastifyRequest, rawBody: string): Promise<AuthUser> {
    const keyId = header(request, HEADER_KEY);
    const timestamp = header(request, HEADER_TIMESTAMP);
    const signature = header(request, HEADER_SIGNATURE)?.toLowerCase();
    if (keyId === undefined || timestamp === undefined || signature === undefined) {
      throw new AppError('api_key.headers');
    }
    const { rows } = await this.#db.query<KeyRow>('select * from api_keys where key_id = $1', [keyId]);
    const key = rows[0];
    if (key === undefined || key.revoked_at !== null) throw new AppError('api_key.invalid');
    const nowMs = this.#nowMs();
    if (!/^\d{13}$/.test(timestamp) || Math.abs(nowMs - Number(timestamp)) > REPLAY_WINDOW_MS) {
      throw new AppError('api_key.stale', { seconds: REPLAY_WINDOW_MS / 1000 });
    }
    const expected = signatureOf(
      (await this.#box()).open(key.secret_sealed),
      timestamp,
      request.method,
      request.url,
      rawBody,
    );
    if (!sameSignature(expected, signature)) throw new AppError('api_key.signature');
    if (key.ip_allowlist.length > 0 && !key.ip_allowlist.includes(request.ip)) {
      throw new AppError('api_key.ip_not_allowed', { ip: request.ip });
    }
    const scope = scopeOfCall(request.routeOptions.url);
    if (scope === null) throw new AppError('api_key.call_not_allowed');
    if (!key.scopes.includes(scope)) throw new AppError('api_key.scope_missing', { scope });
    // Each signature once: the window bounds how long one must be remembered.
    await this.#db.query('delete from api_key_requests where seen_ms < $1', [nowMs - 2 * REPLAY_WINDOW_MS]);
    const seen = await this.#db.query(
      `insert into api_key_requests (key_id, signature, seen_ms) values ($1, $2, $3)
       on conflict do nothing`,
      [keyId, signature, nowMs],
    );
    if (seen.rowCount !== 1) throw new AppError('api_key.replayed');
    await this.#db.query('update api_keys set last_used_at = now() where id = $1', [key.id]);
    const users = await this.#db.query<UserRow>(
      `select id, account, email, phone, extension_code, is_seller, review_status from users where id = $1`,
      [key.user_id],
    );
    const user = users.rows[0];
    if (user === undefined) throw new AppError('api_key.invalid');
    return {
      id: user.id,
      account: user.account,
      email: user.email,
      phone: user.phone,
      extensionCode: user.extension_code,
      isSeller: user.is_seller,
      reviewStatus: user.review_status,
      sessionKind: 'api_key',
      tokenHash: `api_key:${key.key_id}`,
    };
  }
}
