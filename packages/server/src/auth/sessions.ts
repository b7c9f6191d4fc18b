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
  /** When the lookup that found the session was sent (its answer is at least that fresh). */
  fetchedMs: number;
  /** The session's own expiry. */
  expiresMs: number;
}

/** Polls between two deletions of the change rows older than an hour. */
const PRUNE_EVERY_POLLS = 600;

interface ChangeWatch {
  intervalMs: number;
  /** How far back (database clock) each poll reads. */
  windowMs: number;
  /** When the current chain of polls began: answers looked up before it are not confirmed by it. */
  sinceMs: number;
  /** The start of the last poll of the chain (its own start begins a chain, confirming nothing). */
  confirmedMs: number;
  lastPollMs: number;
  /** Change rows already applied (by seq), with when they were first read. */
  seen: Map<string, number>;
  polls: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  stopped: boolean;
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
 * and the SQL round trip: a hit is one map lookup. An answer is used while it is at most `cacheMs` old (then
 * the session is asked for again, by the hash kept with the entry), at most `maxCached` of them, the least
 * recently used going first; the default holds 100,000 active sessions. A revocation through this object
 * (logout, password change, an administrator's freeze or review) takes effect at once, one made by another
 * process within `cacheMs`.
 *
 * While `watchChanges()` runs, the cache polls `session_changes` (filled by triggers on sessions and users,
 * migration 0130) every `cacheMs / 2`: every change since the previous poll drops the answers it touches,
 * and every other cached answer counts as confirmed at the poll's start. A busy gateway then asks one small
 * query a second instead of looking up each active session again every `cacheMs`, with the same bound on
 * how late another process's revocation is seen. A failed poll, or polls further apart than the window they
 * read, confirm nothing: answers then age as without the watch.
 *
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
  /** The change watch (watchChanges): its timer, and the polls that confirm cached answers. */
  #watch: ChangeWatch | null = null;
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

  /**
   * Lookups since start (for the benchmark and metrics): answered from the cache; of a cached entry that had
   * expired (asked again by its kept hash, no SHA-256); and of a token not cached (hashed, then asked for).
   */
  readonly lookups = { hits: 0, expired: 0, misses: 0 };

  /** The user a token belongs to, when its session of `kind` is live. */
  async authenticate(token: string | undefined, kind: string = USER_SESSION): Promise<AuthUser | null> {
    if (token === undefined) return null;
    const cached = this.#cache.get(token);
    let tokenHash: string;
    if (cached !== undefined) {
      if (this.#validUntilMs(cached) > Date.now()) {
        this.lookups.hits++;
        // Most recently used goes last; the first entry is the one evicted.
        this.#cache.delete(token);
        this.#cache.set(token, cached);
        return cached.user.sessionKind === kind ? cached.user : null;
      }
      this.lookups.expired++;
      tokenHash = cached.user.tokenHash;
      this.#drop(cached);
    } else {
      if (!TOKEN_SHAPE.test(token)) return null;
      this.lookups.misses++;
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
            this.#remember(pending.token, user, nowMs, row.expires_at.getTime());
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

  /**
   * Until when a cached answer may be used: `cacheMs` after the later of its lookup and the last poll of the
   * change watch that covers it (a watch started after the lookup does not), and never past the session's
   * own expiry.
   */
  #validUntilMs(entry: CachedUser): number {
    const watch = this.#watch;
    const confirmedMs =
      watch !== null && watch.confirmedMs > entry.fetchedMs && entry.fetchedMs >= watch.sinceMs
        ? watch.confirmedMs
        : entry.fetchedMs;
    return Math.min(confirmedMs + this.#cacheMs, entry.expiresMs);
  }

  /**
   * Starts polling `session_changes` every `cacheMs / 2` (see the class comment); returns the function that
   * stops it. One watch at a time.
   */
  watchChanges(options: { intervalMs?: number } = {}): () => void {
    if (this.#watch !== null) throw new Error('the session cache already watches for changes');
    if (this.#cacheMs <= 0) return () => {};
    const intervalMs = options.intervalMs ?? Math.max(1, Math.floor(this.#cacheMs / 2));
    const watch: ChangeWatch = {
      intervalMs,
      // Each poll reads the changes of this window before its own start (by the database's clock), so that
      // a change whose transaction began up to `cacheMs` before a poll but committed after it is read by the
      // next one; polls further apart than the window less that allowance break the chain.
      windowMs: intervalMs + 3 * this.#cacheMs,
      sinceMs: Number.POSITIVE_INFINITY,
      confirmedMs: Number.NEGATIVE_INFINITY,
      lastPollMs: Number.NEGATIVE_INFINITY,
      seen: new Map(),
      polls: 0,
      timer: undefined,
      stopped: false,
    };
    this.#watch = watch;
    const schedule = () => {
      if (watch.stopped) return;
      watch.timer = setTimeout(() => {
        void this.#poll(watch).finally(schedule);
      }, watch.intervalMs);
      watch.timer.unref?.();
    };
    void this.#poll(watch).finally(schedule);
    return () => {
      watch.stopped = true;
      clearTimeout(watch.timer);
      if (this.#watch === watch) this.#watch = null;
    };
  }

  /** Changes polled so far (for tests and metrics). */
  readonly changePolls = { polls: 0, failed: 0, dropped: 0 };

  async #poll(watch: ChangeWatch): Promise<void> {
    const startedMs = Date.now();
    let rows: { seq: bigint | number | string; token_hash: string | null; user_id: number }[];
    try {
      ({ rows } = await this.#db.query(
        `select seq, token_hash, user_id from session_changes
          where changed_at > now() - make_interval(secs => $1::float8 / 1000)`,
        [watch.windowMs],
      ));
    } catch {
      // Nothing confirmed: cached answers age as without the watch, and the next poll starts a new chain.
      this.changePolls.failed++;
      watch.sinceMs = Number.POSITIVE_INFINITY;
      watch.confirmedMs = Number.NEGATIVE_INFINITY;
      watch.lastPollMs = Number.NEGATIVE_INFINITY;
      return;
    }
    if (watch.stopped) return;
    this.changePolls.polls++;
    let dropped = false;
    for (const row of rows) {
      const seq = String(row.seq);
      if (watch.seen.has(seq)) continue;
      watch.seen.set(seq, startedMs);
      dropped = true;
      if (row.token_hash !== null) {
        const token = this.#tokensByHash.get(row.token_hash);
        const cached = token === undefined ? undefined : this.#cache.get(token);
        if (cached !== undefined) this.#drop(cached);
      } else {
        for (const token of [...(this.#tokensByUser.get(row.user_id) ?? [])]) {
          const cached = this.#cache.get(token);
          if (cached !== undefined) this.#drop(cached);
        }
      }
      this.changePolls.dropped++;
    }
    // A lookup running now may have read the session before the change: it caches nothing.
    if (dropped) this.#generation++;
    for (const [seq, seenMs] of watch.seen) {
      if (seenMs < startedMs - 2 * watch.windowMs) watch.seen.delete(seq);
    }
    // The chain holds when this poll's window reaches back over the previous poll's start with `cacheMs` to
    // spare for a change that committed late; then every change since the chain began has been read.
    if (startedMs - watch.lastPollMs > watch.windowMs - this.#cacheMs) {
      watch.sinceMs = startedMs;
      watch.confirmedMs = Number.NEGATIVE_INFINITY;
    } else {
      watch.confirmedMs = startedMs;
    }
    watch.lastPollMs = startedMs;
    if (++watch.polls % PRUNE_EVERY_POLLS === 1) {
      await this.#db
        .query(`delete from session_changes where changed_at < now() - interval '1 hour'`)
        .catch(() => undefined);
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

  #remember(token: string, user: AuthUser, fetchedMs: number, expiresMs: number): void {
    if (this.#cacheMs <= 0 || this.#maxCached <= 0) return;
    const previous = this.#cache.get(token);
    if (previous !== undefined) this.#drop(previous);
    // Bounded: when full, the least recently used entry (first in the map's order) goes.
    while (this.#cache.size >= this.#maxCached) {
      const oldest = this.#cache.values().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
    this.#cache.set(token, { token, user, fetchedMs, expiresMs });
    this.#tokensByHash.set(user.tokenHash, token);
    let tokens = this.#tokensByUser.get(user.id);
    if (tokens === undefined) {
      tokens = new Set();
      this.#tokensByUser.set(user.id, tokens);
    }
    tokens.add(token);
  }
}
