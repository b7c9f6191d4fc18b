// Failed logins lock out per address and per account, so that one noisy address (or everyone behind one
// proxy) cannot refuse other people's correct passwords: the noisy address is blocked, an account locks
// for a bounded, growing time only for the addresses that failed for it, and the client address is taken
// from X-Forwarded-For only when TRUST_PROXY says which proxies to believe.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_AFTER_FAILURES } from '../../src/accounts/lockout.ts';
import { LOGIN_IP_FAILURES } from '../../src/accounts/login.ts';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp, RegisteredUser } from './helpers.ts';
import { accountsApp, call, freshIp, lastCode, PASSWORD, registerByEmail } from './helpers.ts';

const LOCKED = /^Too many failed attempts\. Please try again in (\d+) minutes\.$/;

function login(
  test: AccountsTestApp,
  user: Pick<RegisteredUser, 'account'>,
  password: string,
  ip: string,
): Promise<{ type: string; message: unknown }> {
  return call(test.app, '/user/login', { account: user.account, password }, { ip });
}

function minutesIn(message: unknown): number {
  const match = LOCKED.exec(String(message));
  if (!match?.[1]) throw new Error(`not a lock-out: ${String(message)}`);
  return Number(match[1]);
}

describe('lock-outs per address and per account', () => {
  let test: AccountsTestApp;

  beforeAll(async () => {
    test = await accountsApp();
  });

  afterAll(async () => {
    await test?.close();
    await removeTempDirs();
  });

  it('blocks an address that fails for many accounts, while another address logs in to each of them', async () => {
    // Five failures for each account (an account locks for the address after five, and refused attempts
    // are not failures), over enough accounts to reach the address limit.
    const victims: RegisteredUser[] = [];
    for (let count = 0; count < LOGIN_IP_FAILURES.max / LOCK_AFTER_FAILURES; count += 1) {
      victims.push(await registerByEmail(test));
    }
    const noisy = freshIp();
    for (const victim of victims) {
      for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) {
        const reply = await login(test, victim, `wrong${attempt}pass`, noisy);
        expect(reply.type).toBe('error');
      }
    }
    // The noisy address is refused everywhere, even with a right password of an account it never tried.
    const bystander = await registerByEmail(test);
    expect((await login(test, bystander, PASSWORD, noisy)).message).toMatch(LOCKED);
    for (const victim of victims) {
      expect((await login(test, victim, PASSWORD, noisy)).message).toMatch(LOCKED);
    }
    // Each victim, from an address of their own, logs in with the right password.
    for (const victim of victims) {
      const reply = await login(test, victim, PASSWORD, freshIp());
      expect(reply.type).toBe('ok');
    }
  });

  it('locks an account for the addresses that failed for it, for a bounded time that grows', async () => {
    const user = await registerByEmail(test);
    const guesser = freshIp();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await login(test, user, `guess${attempt}abc`, guesser)).message).toBe(
        'The account or the password is wrong.',
      );
    }
    expect((await login(test, user, 'guess4abc', guesser)).message).toBe(
      'The account or the password is wrong.',
    );
    // Five failures: the account locks for five minutes, for the address that failed.
    const locked = await login(test, user, PASSWORD, guesser);
    expect(minutesIn(locked.message)).toBe(5);
    // The owner, elsewhere, is not refused.
    expect((await login(test, user, PASSWORD, freshIp())).type).toBe('ok');

    // When the lock has run out, the next failure locks for twice as long, and so on up to an hour.
    const expected = [10, 20, 40, 60, 60];
    for (const minutes of expected) {
      await test.store.query(
        `update auth_throttle set created_at = created_at - interval '61 minutes'
          where scope like 'login.%' and subject like $1`,
        [`user:${user.id}%`],
      );
      expect((await login(test, user, 'another1guess', guesser)).message).toBe(
        'The account or the password is wrong.',
      );
      expect(minutesIn((await login(test, user, PASSWORD, guesser)).message)).toBe(minutes);
    }
    // A fresh address with a wrong password during the lock is counted and then refused too; it gets no
    // second guess.
    const second = freshIp();
    expect((await login(test, user, 'third1guess', second)).message).toBe(
      'The account or the password is wrong.',
    );
    expect((await login(test, user, 'fourth1guess', second)).message).toMatch(LOCKED);
    expect((await login(test, user, PASSWORD, freshIp())).type).toBe('ok');
  });

  it('forgets failures after a day, and lifts the lock when the password is reset by code', async () => {
    const user = await registerByEmail(test);
    const guesser = freshIp();
    for (let attempt = 0; attempt < 5; attempt += 1) await login(test, user, `nope${attempt}abc`, guesser);
    expect((await login(test, user, PASSWORD, guesser)).message).toMatch(LOCKED);
    await test.store.query(
      `update auth_throttle set created_at = created_at - interval '25 hours' where subject like $1`,
      [`user:${user.id}%`],
    );
    expect((await login(test, user, PASSWORD, guesser)).type).toBe('ok');

    for (let attempt = 0; attempt < 8; attempt += 1) await login(test, user, `nope${attempt}abc`, guesser);
    expect((await login(test, user, PASSWORD, guesser)).message).toMatch(LOCKED);
    await call(test.app, '/sms_mail', { user_string: user.account, type: 'forget' }, { ip: guesser });
    const code = await lastCode(test.store, user.account);
    const reset = await call(
      test.app,
      '/user/forget',
      { account: user.account, code, password: 'fresh1234', repassword: 'fresh1234' },
      { ip: guesser },
    );
    expect(reset.type).toBe('ok');
    expect((await login(test, user, 'fresh1234', guesser)).type).toBe('ok');
  });

  it('counts a burst of parallel wrong passwords from one address exactly to its limit', async () => {
    // Each attempt is counted before its password is checked, in one step with the check: of 50 parallel
    // guesses from one address (for 50 names, so that no account locks) exactly the limit are judged.
    const noisy = freshIp();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        login(test, { account: `burst${index}-${noisy}@example.com` }, 'wrong-password-1', noisy),
      ),
    );
    const judged = replies.filter((reply) => !LOCKED.test(String(reply.message)));
    expect(judged).toHaveLength(LOGIN_IP_FAILURES.max);
    for (const reply of judged) expect(reply.type).toBe('error');
  });

  it('gives a new address one guess at a locked account, however many it sends at once', async () => {
    const victim = await registerByEmail(test);
    const first = freshIp();
    for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) {
      expect((await login(test, victim, `wrong${attempt}pass`, first)).type).toBe('error');
    }
    const second = freshIp();
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, index) => login(test, victim, `guess${index}pass`, second)),
    );
    expect(replies.filter((reply) => !LOCKED.test(String(reply.message)))).toHaveLength(1);
    // A right password from an address that never failed for the account still logs in.
    expect((await login(test, victim, PASSWORD, freshIp())).type).toBe('ok');
  });

  it('treats an unknown account like a known one', async () => {
    const guesser = freshIp();
    const nobody = { account: `nobody-${Date.now()}@example.com` };
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(test, nobody, `nope${attempt}abc`, guesser)).message).toBe(
        'The account or the password is wrong.',
      );
    }
    expect(minutesIn((await login(test, nobody, PASSWORD, guesser)).message)).toBe(5);
    expect((await login(test, nobody, PASSWORD, freshIp())).message).toBe(
      'The account or the password is wrong.',
    );
  });
});

/** A login through a proxy: the peer is the proxy, the client is in X-Forwarded-For. */
async function loginVia(
  app: FastifyInstance,
  account: string,
  password: string,
  peer: string,
  forwardedFor: string,
): Promise<{ type: string; message: unknown }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login?lang=en',
    remoteAddress: peer,
    headers: { 'x-forwarded-for': forwardedFor },
    payload: { account, password },
  });
  return response.json();
}

async function failuresCountedFor(test: AccountsTestApp, address: string): Promise<number> {
  const { rows } = await test.store.query<{ count: number }>(
    `select count(*)::int as count from auth_throttle where scope = 'login.ip' and subject = $1`,
    [address],
  );
  return rows[0]?.count ?? 0;
}

describe('TRUST_PROXY', () => {
  const apps: AccountsTestApp[] = [];

  afterAll(async () => {
    for (const test of apps) await test.close();
    await removeTempDirs();
  });

  async function appWith(env: Record<string, string>): Promise<AccountsTestApp> {
    const test = await accountsApp(env);
    apps.push(test);
    return test;
  }

  it('is off by default: X-Forwarded-For is ignored and the peer address is counted', async () => {
    const test = await appWith({});
    const user = await registerByEmail(test);
    const peer = freshIp();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await loginVia(test.app, user.account, 'wrong1pass', peer, `198.51.100.${attempt + 1}`);
    }
    expect(await failuresCountedFor(test, peer)).toBe(3);
    expect(await failuresCountedFor(test, '198.51.100.1')).toBe(0);
    // A client cannot step out of its own lock by claiming another address.
    await loginVia(test.app, user.account, 'wrong1pass', peer, '198.51.100.9');
    await loginVia(test.app, user.account, 'wrong1pass', peer, '198.51.100.9');
    expect((await loginVia(test.app, user.account, PASSWORD, peer, '203.0.113.77')).message).toMatch(LOCKED);
  });

  it('given the proxy addresses, counts the forwarded client address', async () => {
    const test = await appWith({ TRUST_PROXY: '10.200.0.0/16, 127.0.0.1' });
    const user = await registerByEmail(test);
    const proxy = '10.200.0.1';
    const attacker = '203.0.113.5';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await loginVia(test.app, user.account, 'wrong1pass', proxy, attacker);
    }
    expect(await failuresCountedFor(test, attacker)).toBe(5);
    expect(await failuresCountedFor(test, proxy)).toBe(0);
    expect((await loginVia(test.app, user.account, PASSWORD, proxy, attacker)).message).toMatch(LOCKED);
    // Another client behind the same proxy is not refused.
    expect((await loginVia(test.app, user.account, PASSWORD, proxy, '203.0.113.6')).type).toBe('ok');
    // The session records the client's address, not the proxy's.
    const { rows } = await test.store.query<{ ip: string }>(
      'select ip from sessions where user_id = $1 order by created_at desc limit 1',
      [user.id],
    );
    expect(rows[0]?.ip).toBe('203.0.113.6');
  });

  it('ignores X-Forwarded-For from a peer that is not a listed proxy', async () => {
    const test = await appWith({ TRUST_PROXY: '10.200.0.0/16' });
    const user = await registerByEmail(test);
    const stranger = '192.0.2.44';
    await loginVia(test.app, user.account, 'wrong1pass', stranger, '203.0.113.5');
    expect(await failuresCountedFor(test, stranger)).toBe(1);
    expect(await failuresCountedFor(test, '203.0.113.5')).toBe(0);
  });
});
