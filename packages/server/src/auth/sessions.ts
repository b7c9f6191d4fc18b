// Session tokens: opaque random strings handed to the client once; the store keeps only their SHA-256.
// A token authenticates while its session is neither expired nor revoked.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/index.ts';

export interface AuthUser {
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  extensionCode: string;
  isSeller: boolean;
  /** Real-name review: 0 not submitted, 1 under review, 2 approved. */
  reviewStatus: number;
  sessionKind: string;
  tokenHash: string;
}

export const USER_SESSION = 'user';
/** Tokens are 32 random bytes in base64url (43 characters); anything else cannot be a token. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The token in an Authorization header: raw (what the template client sends) or "Bearer <token>".
 * Returns undefined for anything that cannot be a token, including the "null" a client sends when it has none.
 */
export function tokenFromHeader(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  let value = header.trim();
  const bearer = /^bearer\s+/i.exec(value);
  if (bearer) value = value.slice(bearer[0].length).trim();
  return TOKEN_SHAPE.test(value) ? value : undefined;
}

/** The request a session began with. */
export interface SessionOrigin {
  ip: string;
  userAgent?: string | undefined;
}

/** Characters of a user agent kept with a session. */
export const USER_AGENT_MAX = 256;

export interface NewSession {
  token: string;
  tokenHash: string;
  expiresAt: Date;
}

export async function createSession(
  db: Queryable,
  input: {
    userId: number;
    ttlMs: number;
    kind?: string;
    now?: Date;
    /** Where the session began (the log-in request), for the log-in history. */
    origin?: SessionOrigin;
  },
): Promise<NewSession> {
  const token = generateToken();
  const tokenHash = hashToken(token);
  const expiresAt = new Date((input.now ?? new Date()).getTime() + input.ttlMs);
  await db.query(
    `insert into sessions (token_hash, user_id, kind, expires_at, ip, user_agent)
     values ($1, $2, $3, $4, $5, $6)`,
    [
      tokenHash,
      input.userId,
      input.kind ?? USER_SESSION,
      expiresAt,
      input.origin?.ip ?? null,
      input.origin?.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    ],
  );
  return { token, tokenHash, expiresAt };
}

interface CachedUser {
  token: string;
  user: AuthUser;
  cachedUntilMs: number;
}

interface PendingLookup {
  promise: Promise<AuthUser | null>;
  resolve(user: AuthUser | null): void;
  reject(error: unknown): void;
  /** Revoked while the lookup was in flight: answer null and cache nothing. */
  revoked: boolean;
  /** The token looked up, under which the answer is cached. */
  token: string;
}

interface SessionRow {
  token_hash: string;
  id: number;
  account: string;
  email: string | null;
  phone: string | null;
  extension_code: string;
  is_seller: boolean;
  review_status: number;
  kind: string;
  expires_at: Date;
}

/**
 * Resolves tokens to users. A cache keyed by the token itself spares a request both the SHA-256 of its token
 * and the SQL round trip: a hit is one map lookup. Entries live `cacheMs` (then the session is asked for again,
 * by the hash kept with the entry), at most `maxCached` of them, the least recently used going first; the
 * default holds 100,000 active sessions. A revocation through this object (logout, password change, an
 * administrator's freeze or review) takes effect at once, one made by another process within `cacheMs`.
 * Lookups that miss the cache in the same turn of the event loop share one query (and a token looked up
 * twice at once is looked up once), so that a busy gateway whose cached sessions keep expiring pays one
 * round trip per turn rather than one per user.
 */
export class SessionAuthenticator {
  readonly #db: Queryable;
  readonly #cacheMs: number;
  readonly #maxCached: number;
  /** By token, in least-recently-used order (a hit moves its entry to the end). */
  readonly #cache = new Map<string, CachedUser>();
  /** Token hash -> token, for revocations, which name the hash. */
  readonly #tokensByHash = new Map<string, string>();
  /** User id -> that user's cached tokens, for revoking or forgetting a user without a scan. */
  readonly #tokensByUser = new Map<number, Set<string>>();
  /** Token hashes waiting for the next batched lookup, with their callers. */
  #waiting = new Map<string, PendingLookup>();
  /** Lookups whose query is running. */
  readonly #inFlight = new Map<string, PendingLookup>();
  #lookupScheduled = false;
  /** Grows with every revocation or forgotten user: a lookup that raced one caches nothing. */
  #generation = 0;
  static readonly MAX_CACHED = 100_000;
  /** Token hashes per lookup query. */
  static readonly MAX_BATCH = 500;

  constructor(db: Queryable, options: { cacheMs?: number | undefined; maxCached?: number | undefined } = {}) {
    this.#db = db;
    this.#cacheMs = options.cacheMs ?? 2_000;
    this.#maxCached = options.maxCached ?? SessionAuthenticator.MAX_CACHED;
  }

  /** Sessions cached now (for tests and metrics). */
  get cachedSessions(): number {
    return this.#cache.size;
  }

  /** The user a token belongs to, when its session of `kind` is live. */
  async authenticate(token: string | undefined, kind: string = USER_SESSION): Promise<AuthUser | null> {
    if (token === undefined) return null;
    const cached = this.#cache.get(token);
    let tokenHash: string;
    if (cached !== undefined) {
      if (cached.cachedUntilMs > Date.now()) {
        // Most recently used goes last; the first entry is the one evicted.
        this.#cache.delete(token);
        this.#cache.set(token, cached);
        return cached.user.sessionKind === kind ? cached.user : null;
      }
      tokenHash = cached.user.tokenHash;
      this.#drop(cached);
    } else {
      if (!TOKEN_SHAPE.test(token)) return null;
      tokenHash = hashToken(token);
    }
    const user = await this.#lookup(tokenHash, token);
    return user !== null && user.sessionKind === kind ? user : null;
  }

  #lookup(tokenHash: string, token: string): Promise<AuthUser | null> {
    let pending = this.#waiting.get(tokenHash);
    if (pending === undefined) {
      let resolve!: (user: AuthUser | null) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<AuthUser | null>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      pending = { promise, resolve, reject, revoked: false, token };
      this.#waiting.set(tokenHash, pending);
    }
    if (!this.#lookupScheduled) {
      this.#lookupScheduled = true;
      setImmediate(() => void this.#runLookups());
    }
    return pending.promise;
  }

  async #runLookups(): Promise<void> {
    this.#lookupScheduled = false;
    const waiting = this.#waiting;
    this.#waiting = new Map();
    const hashes = [...waiting.keys()];
    for (let start = 0; start < hashes.length; start += SessionAuthenticator.MAX_BATCH) {
      const slice = hashes.slice(start, start + SessionAuthenticator.MAX_BATCH);
      for (const tokenHash of slice) this.#inFlight.set(tokenHash, waiting.get(tokenHash) as PendingLookup);
      const generation = this.#generation;
      try {
        const nowMs = Date.now();
        const { rows } = await this.#db.query<SessionRow>(
          `select s.token_hash, u.id, u.account, u.email, u.phone, u.extension_code, u.is_seller,
                  u.review_status, s.kind, s.expires_at
             from sessions s join users u on u.id = s.user_id
            where s.token_hash = any($1::text[]) and s.revoked_at is null and s.expires_at > now()`,
          [slice],
        );
        const found = new Map(rows.map((row) => [row.token_hash, row]));
        for (const tokenHash of slice) {
          const pending = waiting.get(tokenHash) as PendingLookup;
          const row = found.get(tokenHash);
          if (row === undefined || pending.revoked) {
            pending.resolve(null);
            continue;
          }
          const user: AuthUser = {
            id: row.id,
            account: row.account,
            email: row.email,
            phone: row.phone,
            extensionCode: row.extension_code,
            isSeller: row.is_seller,
            reviewStatus: row.review_status,
            sessionKind: row.kind,
            tokenHash,
          };
          if (generation === this.#generation) {
            this.#remember(pending.token, user, Math.min(nowMs + this.#cacheMs, row.expires_at.getTime()));
          }
          pending.resolve(user);
        }
      } catch (error) {
        for (const tokenHash of slice) (waiting.get(tokenHash) as PendingLookup).reject(error);
      } finally {
        for (const tokenHash of slice) this.#inFlight.delete(tokenHash);
      }
    }
  }

  /** Revokes one session (logout). */
  async revoke(tokenHash: string): Promise<void> {
    this.#generation++;
    const token = this.#tokensByHash.get(tokenHash);
    const cached = token === undefined ? undefined : this.#cache.get(token);
    if (cached !== undefined) this.#drop(cached);
    for (const pending of [this.#waiting.get(tokenHash), this.#inFlight.get(tokenHash)]) {
      if (pending) pending.revoked = true;
    }
    await this.#db.query(
      'update sessions set revoked_at = now() where token_hash = $1 and revoked_at is null',
      [tokenHash],
    );
  }

  /** Revokes every session of a user (password change). */
  async revokeUser(userId: number): Promise<void> {
    this.forgetUser(userId);
    await this.#db.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null', [
      userId,
    ]);
  }

  /** Drops cached answers, e.g. after a user's review status changed or an administrator froze the user. */
  forgetUser(userId: number): void {
    this.#generation++;
    const tokens = this.#tokensByUser.get(userId);
    if (tokens === undefined) return;
    for (const token of [...tokens]) {
      const cached = this.#cache.get(token);
      if (cached !== undefined) this.#drop(cached);
    }
  }

  #drop(entry: CachedUser): void {
    this.#cache.delete(entry.token);
    this.#tokensByHash.delete(entry.user.tokenHash);
    const tokens = this.#tokensByUser.get(entry.user.id);
    tokens?.delete(entry.token);
    if (tokens?.size === 0) this.#tokensByUser.delete(entry.user.id);
  }

  #remember(token: string, user: AuthUser, untilMs: number): void {
    if (this.#cacheMs <= 0 || this.#maxCached <= 0) return;
    const previous = this.#cache.get(token);
    if (previous !== undefined) this.#drop(previous);
    // Bounded: when full, the least recently used entry (first in the map's order) goes.
    while (this.#cache.size >= this.#maxCached) {
      const oldest = this.#cache.values().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
    this.#cache.set(token, { token, user, cachedUntilMs: untilMs });
    this.#tokensByHash.set(user.tokenHash, token);
    let tokens = this.#tokensByUser.get(user.id);
    if (tokens === undefined) {
      tokens = new Set();
      this.#tokensByUser.set(user.id, tokens);
    }
    tokens.add(token);
  }
}
