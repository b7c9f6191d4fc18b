import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, openTestStore, removeTempDirs } from '../../test/helper.ts';
import type { Store } from '../store/index.ts';
import {
  createSession,
  generateToken,
  hashToken,
  SessionAuthenticator,
  tokenFromHeader,
} from './sessions.ts';

describe('tokens', () => {
  it('are random, 43 base64url characters, and stored only as a SHA-256', () => {
    const token = generateToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateToken()).not.toBe(token);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['abcdefghijklmnopqrstuvwxyz012345', 'abcdefghijklmnopqrstuvwxyz012345'],
    ['Bearer abcdefghijklmnopqrstuvwxyz012345', 'abcdefghijklmnopqrstuvwxyz012345'],
    ['  BEARER   abcdefghijklmnopqrstuvwxyz012345 ', 'abcdefghijklmnopqrstuvwxyz012345'],
    ['null', undefined],
    ['Bearer ', undefined],
    ['short', undefined],
    ['has space inside the token value', undefined],
    [undefined, undefined],
    [['a'], undefined],
  ])('reads %j from the Authorization header as %j', (header, expected) => {
    expect(tokenFromHeader(header)).toBe(expected);
  });
});

describe('SessionAuthenticator', () => {
  let store: Store;
  let userId: number;

  beforeAll(async () => {
    store = await openTestStore();
    userId = await createUser(store, { account: 'alice@example.com' });
  });

  afterAll(async () => {
    await store?.close();
    await removeTempDirs();
  });

  it('resolves a live session to its user', async () => {
    const { token, tokenHash } = await createSession(store, { userId, ttlMs: 60_000 });
    const user = await new SessionAuthenticator(store).authenticate(token);
    expect(user).toMatchObject({ id: userId, account: 'alice@example.com', reviewStatus: 0, tokenHash });
  });

  it('refuses expired sessions and tokens of another kind', async () => {
    const sessions = new SessionAuthenticator(store);
    const expired = await createSession(store, {
      userId,
      ttlMs: 60_000,
      now: new Date(Date.now() - 120_000),
    });
    expect(await sessions.authenticate(expired.token)).toBeNull();
    const admin = await createSession(store, { userId, ttlMs: 60_000, kind: 'admin' });
    expect(await sessions.authenticate(admin.token)).toBeNull();
    expect(await sessions.authenticate(admin.token, 'admin')).toMatchObject({
      id: userId,
      sessionKind: 'admin',
    });
  });

  it('caches briefly, and forgets at once on revoke', async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const { token, tokenHash } = await createSession(store, { userId, ttlMs: 60_000 });
    expect(await sessions.authenticate(token)).not.toBeNull();
    // Revoked behind the authenticator's back: the cached answer holds until it expires...
    await store.query('update sessions set revoked_at = now() where token_hash = $1', [tokenHash]);
    expect(await sessions.authenticate(token)).not.toBeNull();
    expect(await new SessionAuthenticator(store, { cacheMs: 0 }).authenticate(token)).toBeNull();
    // ...while a revoke through it is immediate.
    const second = await createSession(store, { userId, ttlMs: 60_000 });
    expect(await sessions.authenticate(second.token)).not.toBeNull();
    await sessions.revoke(second.tokenHash);
    expect(await sessions.authenticate(second.token)).toBeNull();
  });

  it('revokes every session of a user', async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const other = await createUser(store);
    const one = await createSession(store, { userId: other, ttlMs: 60_000 });
    const two = await createSession(store, { userId: other, ttlMs: 60_000 });
    expect(await sessions.authenticate(one.token)).not.toBeNull();
    await sessions.revokeUser(other);
    expect(await sessions.authenticate(one.token)).toBeNull();
    expect(await sessions.authenticate(two.token)).toBeNull();
  });

  it('looks up the tokens that miss the cache in one turn with one query, each token once', async () => {
    let queries = 0;
    const counting = {
      query: ((text: string, params?: unknown[]) => {
        queries++;
        return store.query(text, params);
      }) as typeof store.query,
    };
    const sessions = new SessionAuthenticator(counting, { cacheMs: 60_000 });
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () => createSession(store, { userId, ttlMs: 60_000 })),
    );
    const users = await Promise.all([...tokens, ...tokens].map(({ token }) => sessions.authenticate(token)));
    expect(queries).toBe(1);
    expect(users.map((user) => user?.id)).toEqual(Array(10).fill(userId));
    expect(new Set(users.map((user) => user?.tokenHash)).size).toBe(5);
    // A token that is not a session, looked up with live ones, is refused alone.
    const [unknown, live] = await Promise.all([
      sessions.authenticate('x'.repeat(43)),
      sessions.authenticate((tokens[0] as { token: string }).token),
    ]);
    expect(unknown).toBeNull();
    expect(live?.id).toBe(userId);
  });

  it('answers null, and caches nothing, for a token revoked while its lookup runs', async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const { token, tokenHash } = await createSession(store, { userId, ttlMs: 60_000 });
    const looking = sessions.authenticate(token);
    await sessions.revoke(tokenHash);
    expect(await looking).toBeNull();
    expect(await sessions.authenticate(token)).toBeNull();
  });

  it('never caches past the session expiry', async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const { token } = await createSession(store, { userId, ttlMs: 300 });
    expect(await sessions.authenticate(token)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await sessions.authenticate(token)).toBeNull();
  });

  it("drops a logged-out or password-changed session from the cache at once, and only that user's", async () => {
    let queries = 0;
    const counting = {
      query: ((text: string, params?: unknown[]) => {
        queries++;
        return store.query(text, params);
      }) as typeof store.query,
    };
    const sessions = new SessionAuthenticator(counting, { cacheMs: 60_000 });
    const changer = await createUser(store);
    const bystander = await createUser(store);
    const phone = await createSession(store, { userId: changer, ttlMs: 60_000 });
    const laptop = await createSession(store, { userId: changer, ttlMs: 60_000 });
    const other = await createSession(store, { userId: bystander, ttlMs: 60_000 });
    for (const { token } of [phone, laptop, other]) expect(await sessions.authenticate(token)).not.toBeNull();
    expect(sessions.cachedSessions).toBe(3);
    queries = 0;
    // Cached: no query, and (keyed by the token) no hash of the token either.
    for (let index = 0; index < 100; index++) await sessions.authenticate(laptop.token);
    expect(queries).toBe(0);
    // Logout of the phone: the phone's token is refused at once, the laptop's still served from the cache.
    await sessions.revoke(phone.tokenHash);
    expect(await sessions.authenticate(phone.token)).toBeNull();
    queries = 0;
    expect(await sessions.authenticate(laptop.token)).not.toBeNull();
    expect(queries).toBe(0);
    // Password change: every session of the user goes, the bystander's stays cached.
    await sessions.revokeUser(changer);
    expect(await sessions.authenticate(laptop.token)).toBeNull();
    queries = 0;
    expect(await sessions.authenticate(other.token)).not.toBeNull();
    expect(queries).toBe(0);
    expect(sessions.cachedSessions).toBe(1);
  });

  it("forgets a user's cached answers when an administrator or a review changes the user", async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const reviewed = await createUser(store);
    const { token } = await createSession(store, { userId: reviewed, ttlMs: 60_000 });
    expect((await sessions.authenticate(token))?.reviewStatus).toBe(0);
    await store.query('update users set review_status = 2 where id = $1', [reviewed]);
    expect((await sessions.authenticate(token))?.reviewStatus).toBe(0);
    sessions.forgetUser(reviewed);
    expect((await sessions.authenticate(token))?.reviewStatus).toBe(2);
  });

  it('keeps at most maxCached sessions, evicting the least recently used', async () => {
    let queries = 0;
    const counting = {
      query: ((text: string, params?: unknown[]) => {
        queries++;
        return store.query(text, params);
      }) as typeof store.query,
    };
    const sessions = new SessionAuthenticator(counting, { cacheMs: 60_000, maxCached: 3 });
    const created = await Promise.all(
      Array.from({ length: 4 }, () => createSession(store, { userId, ttlMs: 60_000 })),
    );
    const [a, b, c, d] = created.map((session) => session.token) as [string, string, string, string];
    for (const token of [a, b, c]) await sessions.authenticate(token);
    await sessions.authenticate(a); // a is now the most recently used; b the least
    await sessions.authenticate(d); // evicts b
    expect(sessions.cachedSessions).toBe(3);
    queries = 0;
    for (const token of [a, c, d]) expect(await sessions.authenticate(token)).not.toBeNull();
    expect(queries).toBe(0);
    expect(await sessions.authenticate(b)).not.toBeNull();
    expect(queries).toBe(1);
    expect(sessions.cachedSessions).toBe(3);
  });
});

describe('SessionAuthenticator watching session_changes', () => {
  let store: Store;
  let userId: number;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    store = await openTestStore();
    userId = await createUser(store, { account: 'watched@example.com' });
  });

  afterAll(async () => {
    await store?.close();
    await removeTempDirs();
  });

  /** Waits until the watch has polled `count` more times. */
  async function polls(sessions: SessionAuthenticator, count: number): Promise<void> {
    const target = sessions.changePolls.polls + count;
    while (sessions.changePolls.polls < target) await sleep(10);
  }

  it('keeps a watched answer past cacheMs without looking the session up again', async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 300 });
    const stop = sessions.watchChanges({ intervalMs: 50 });
    try {
      await polls(sessions, 1);
      const { token } = await createSession(store, { userId, ttlMs: 60_000 });
      expect(await sessions.authenticate(token)).not.toBeNull();
      await sleep(700);
      expect(await sessions.authenticate(token)).not.toBeNull();
      expect(sessions.lookups).toEqual({ hits: 1, expired: 0, misses: 1 });
    } finally {
      stop();
    }
  });

  it("sees another process's revocation, user change or deletion at its next poll", async () => {
    const sessions = new SessionAuthenticator(store, { cacheMs: 60_000 });
    const stop = sessions.watchChanges({ intervalMs: 50 });
    try {
      await polls(sessions, 1);
      const other = await createUser(store);
      const revoked = await createSession(store, { userId: other, ttlMs: 60_000 });
      const kept = await createSession(store, { userId: other, ttlMs: 60_000 });
      const deleted = await createUser(store);
      const gone = await createSession(store, { userId: deleted, ttlMs: 60_000 });
      for (const token of [revoked.token, kept.token, gone.token]) {
        expect(await sessions.authenticate(token)).not.toBeNull();
      }
      // Written behind the authenticator's back, as another process would.
      await store.query('update sessions set revoked_at = now() where token_hash = $1', [revoked.tokenHash]);
      await store.query('update users set review_status = 2 where id = $1', [other]);
      await store.query('delete from users where id = $1', [deleted]);
      // An update that changes nothing a session answers with leaves no change row.
      await store.query('update users set last_login_at = now() where id = $1', [userId]);
      await polls(sessions, 2);
      expect(await sessions.authenticate(revoked.token)).toBeNull();
      expect((await sessions.authenticate(kept.token))?.reviewStatus).toBe(2);
      expect(await sessions.authenticate(gone.token)).toBeNull();
      const { rows } = await store.query<{ user_id: number }>(
        'select user_id from session_changes where user_id = $1',
        [userId],
      );
      expect(rows).toEqual([]);
    } finally {
      stop();
    }
  });

  it('confirms nothing while its polls fail: answers then age as without the watch', async () => {
    let failing = true;
    const flaky = {
      query: ((text: string, params?: unknown[]) => {
        if (failing && text.includes('session_changes')) return Promise.reject(new Error('down'));
        return store.query(text, params);
      }) as typeof store.query,
    };
    const sessions = new SessionAuthenticator(flaky, { cacheMs: 300 });
    const stop = sessions.watchChanges({ intervalMs: 50 });
    try {
      const { token } = await createSession(store, { userId, ttlMs: 60_000 });
      expect(await sessions.authenticate(token)).not.toBeNull();
      await sleep(450);
      expect(sessions.changePolls.failed).toBeGreaterThan(0);
      expect(await sessions.authenticate(token)).not.toBeNull();
      expect(sessions.lookups.expired).toBe(1);
      failing = false;
      await polls(sessions, 1);
    } finally {
      stop();
    }
  });
});

describe('SessionAuthenticator at 100,000 active sessions', () => {
  it('holds them all by default, so that none of them misses the cache', async () => {
    // A store that knows every token: the bound, not the database, is under test.
    let queries = 0;
    const expiresAt = new Date(Date.now() + 3_600_000);
    const everyone = {
      query: (async (_text: string, params?: unknown[]) => {
        queries++;
        const hashes = (params?.[0] ?? []) as string[];
        return {
          rows: hashes.map((hash, index) => ({
            token_hash: hash,
            id: index + 1,
            account: `user${index}`,
            email: null,
            phone: null,
            extension_code: 'X',
            is_seller: false,
            review_status: 0,
            kind: 'user',
            expires_at: expiresAt,
          })),
          rowCount: hashes.length,
        };
      }) as Store['query'],
    };
    const sessions = new SessionAuthenticator(everyone, { cacheMs: 600_000 });
    const tokens = Array.from({ length: 100_000 }, () => generateToken());
    for (let start = 0; start < tokens.length; start += 5_000) {
      await Promise.all(tokens.slice(start, start + 5_000).map((token) => sessions.authenticate(token)));
    }
    expect(sessions.cachedSessions).toBe(100_000);
    queries = 0;
    for (const token of tokens) await sessions.authenticate(token);
    expect(queries).toBe(0);
    // One more evicts exactly the least recently used one.
    await sessions.authenticate(generateToken());
    expect(sessions.cachedSessions).toBe(100_000);
    queries = 0;
    await sessions.authenticate(tokens[0] as string);
    expect(queries).toBe(1);
  });
});
