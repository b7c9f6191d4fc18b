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
});
