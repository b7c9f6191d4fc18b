// Brute force is stopped: five wrong tries kill a code, wrong codes from one address pause it, code sends
// are limited per destination, per account and per address, failed logins pause an address and lock an
// account for the addresses that failed for it (more in login-lockout.test.ts), and wrong authenticator
// codes pause two-factor checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { CODE_MAX_ATTEMPTS, WRONG_CODES_PER_IP_PER_HOUR } from '../../src/accounts/codes.ts';
import { LOCK_AFTER_FAILURES } from '../../src/accounts/lockout.ts';
import { LOGIN_IP_FAILURES } from '../../src/accounts/login.ts';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp } from './helpers.ts';
import {
  accountsApp,
  ageCodes,
  call,
  freshIp,
  lastCode,
  PASSWORD,
  registerByEmail,
  uniqueEmail,
} from './helpers.ts';

let test: AccountsTestApp;

beforeAll(async () => {
  test = await accountsApp({ CODE_SENDS_PER_HOUR: '3', CODE_SENDS_PER_IP_PER_HOUR: '5' });
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

function wrongCode(right: string): string {
  return right === '000000' ? '000001' : '000000';
}

describe('verification codes', () => {
  it('kills a code after five wrong tries, even for the right code afterwards', async () => {
    const email = uniqueEmail('brute');
    await call(test.app, '/sms_mail', { user_string: email }, { ip: freshIp() });
    const code = await lastCode(test.store, email);
    for (let attempt = 1; attempt < CODE_MAX_ATTEMPTS; attempt += 1) {
      const reply = await call(
        test.app,
        '/user/check_email',
        { user_string: email, email_code: wrongCode(code) },
        { ip: freshIp() },
      );
      expect(reply.message).toBe(
        `The verification code is wrong. ${CODE_MAX_ATTEMPTS - attempt} tries left.`,
      );
    }
    const last = await call(
      test.app,
      '/user/check_email',
      { user_string: email, email_code: wrongCode(code) },
      { ip: freshIp() },
    );
    expect(last.message).toBe('Too many wrong codes. Please request a new verification code.');
    const right = await call(
      test.app,
      '/user/check_email',
      { user_string: email, email_code: code },
      { ip: freshIp() },
    );
    expect(right.message).toBe('Too many wrong codes. Please request a new verification code.');
    const register = await call(
      test.app,
      '/user/register',
      { user_string: email, code, password: PASSWORD, re_password: PASSWORD },
      { ip: freshIp() },
    );
    expect(register.type).toBe('error');
  });

  it('pauses an address that enters too many wrong codes over many destinations', async () => {
    const ip = freshIp();
    await test.store.query(
      `insert into auth_throttle (scope, subject) select 'code.wrong.ip', $1 from generate_series(1, $2)`,
      [ip, WRONG_CODES_PER_IP_PER_HOUR - 1],
    );
    const email = uniqueEmail('spray');
    await call(test.app, '/sms_mail', { user_string: email }, { ip: freshIp() });
    const code = await lastCode(test.store, email);
    expect(
      (await call(test.app, '/user/check_email', { user_string: email, email_code: wrongCode(code) }, { ip }))
        .message,
    ).toBe('The verification code is wrong. 4 tries left.');
    const paused = await call(
      test.app,
      '/user/check_email',
      { user_string: email, email_code: code },
      { ip },
    );
    expect(paused.message).toBe('Too many failed attempts. Please try again in 60 minutes.');
    expect(
      (await call(test.app, '/user/check_email', { user_string: email, email_code: code }, { ip: freshIp() }))
        .type,
    ).toBe('ok');
  });

  it('limits sends per destination per hour', async () => {
    const email = uniqueEmail('flood');
    for (let send = 0; send < 3; send += 1) {
      expect((await call(test.app, '/sms_mail', { user_string: email }, { ip: freshIp() })).type).toBe('ok');
      await ageCodes(test.store, email);
    }
    const refused = await call(test.app, '/sms_mail', { user_string: email }, { ip: freshIp() });
    expect(refused.message).toMatch(/^Too many codes requested\. Please try again in (5[0-9]|60) minutes\.$/);
    const { rows } = await test.store.query<{ count: number }>(
      'select count(*)::int as count from outbound_messages where recipient = $1',
      [email],
    );
    expect(rows[0]?.count).toBe(3);
  });

  it('limits sends per address per hour', async () => {
    const ip = freshIp();
    for (let send = 0; send < 5; send += 1) {
      expect((await call(test.app, '/sms_mail', { user_string: uniqueEmail('ip') }, { ip })).type).toBe('ok');
    }
    expect((await call(test.app, '/sms_mail', { user_string: uniqueEmail('ip') }, { ip })).type).toBe(
      'error',
    );
    expect(
      (await call(test.app, '/sms_send', { user_string: '13600136005', area_code: '86' }, { ip })).type,
    ).toBe('error');
  });

  it('limits binding codes per account, whatever the destination and address', async () => {
    const user = await registerByEmail(test);
    const { rows } = await test.store.query<{ count: number }>(
      `select count(*)::int as count from auth_throttle where scope = 'code.send.user' and subject = $1`,
      [String(user.id)],
    );
    expect(rows[0]?.count).toBe(0);
    for (let send = 0; send < 3; send += 1) {
      expect(
        (
          await call(
            test.app,
            '/sms_mail',
            { user_string: uniqueEmail('acct'), type: 'bind' },
            { token: user.token, ip: freshIp() },
          )
        ).type,
      ).toBe('ok');
    }
    const refused = await call(
      test.app,
      '/sms_mail',
      { user_string: uniqueEmail('acct'), type: 'bind' },
      { token: user.token, ip: freshIp() },
    );
    expect(refused.type).toBe('error');
  });
});

describe('passwords', () => {
  it('pauses an account after five wrong passwords for the address that tried, even for the right one, then lets it in after a reset', async () => {
    const user = await registerByEmail(test);
    const guesser = freshIp();
    for (let attempt = 0; attempt < LOCK_AFTER_FAILURES; attempt += 1) {
      const reply = await call(
        test.app,
        '/user/login',
        { account: user.account, password: `wrong${attempt}xx` },
        { ip: guesser },
      );
      expect(reply.message).toBe('The account or the password is wrong.');
    }
    const locked = await call(
      test.app,
      '/user/login',
      { account: user.account, password: PASSWORD },
      { ip: guesser },
    );
    expect(locked.message).toMatch(/^Too many failed attempts\. Please try again in [45] minutes\.$/);
    // The pause holds for the login dialog's form of the same account too.
    const dialog = await call(
      test.app,
      '/user/login',
      { type: 'email', email: user.account, password: PASSWORD },
      { ip: guesser },
    );
    expect(dialog.type).toBe('error');

    // Whoever can read the account's mail resets the password and may log in at once.
    await call(test.app, '/sms_mail', { user_string: user.account, type: 'forget' }, { ip: freshIp() });
    const code = await lastCode(test.store, user.account);
    await call(test.app, '/user/forget', {
      account: user.account,
      code,
      password: 'fresh1234',
      repassword: 'fresh1234',
    });
    expect(
      (await call(test.app, '/user/login', { account: user.account, password: 'fresh1234' }, { ip: guesser }))
        .type,
    ).toBe('ok');
  });

  it('pauses an address after many wrong passwords over many accounts', async () => {
    const ip = freshIp();
    await test.store.query(
      `insert into auth_throttle (scope, subject) select 'login.ip', $1 from generate_series(1, $2)`,
      [ip, LOGIN_IP_FAILURES.max],
    );
    const user = await registerByEmail(test);
    const reply = await call(test.app, '/user/login', { account: user.account, password: PASSWORD }, { ip });
    expect(reply.type).toBe('error');
    expect(reply.message).toMatch(/^Too many failed attempts/);
  });

  it('pauses password guessing through the change-password call', async () => {
    const user = await registerByEmail(test);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const reply = await call(
        test.app,
        '/safe/password',
        { old_password: `guess${attempt}abc`, password: 'next12345', re_password: 'next12345' },
        { token: user.token },
      );
      expect(reply.message).toBe('The password is wrong.');
    }
    const paused = await call(
      test.app,
      '/safe/password',
      { old_password: PASSWORD, password: 'next12345', re_password: 'next12345' },
      { token: user.token },
    );
    expect(paused.message).toMatch(/^Too many failed attempts/);
  });
});

describe('authenticator codes', () => {
  it('pauses after five wrong codes', async () => {
    const user = await registerByEmail(test);
    const { secret } = (await call(test.app, '/safe/google/secret', {}, { token: user.token })).message as {
      secret: string;
    };
    const totp = new TOTP({ secret });
    const right = totp.generate();
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (await call(test.app, '/safe/google/bind', { code: wrong }, { token: user.token })).message,
      ).toBe('The authenticator code is wrong or has already been used.');
    }
    expect(
      (await call(test.app, '/safe/google/bind', { code: right }, { token: user.token })).message,
    ).toMatch(/^Too many wrong authenticator codes/);
  });
});
