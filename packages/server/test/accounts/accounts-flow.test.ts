// The account calls working together, through the HTTP API on a real store: registering by e-mail and by
// phone, logging in and out, recovering and changing the password, binding an e-mail and a phone, invite
// codes, and two-factor authentication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
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
  test = await accountsApp();
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

describe('register and log in by e-mail', () => {
  it('checks the account, sends a code, checks it, registers, logs in and reads the user info', async () => {
    const email = uniqueEmail('Flow');
    const lower = email.toLowerCase();
    const ip = freshIp();
    expect(await call(test.app, '/user/check', { user_string: email }, { ip })).toEqual({
      type: 'ok',
      message: 'This account can be registered.',
    });
    expect((await call(test.app, '/sms_mail', { user_string: email }, { ip })).type).toBe('ok');
    const code = await lastCode(test.store, lower);
    expect(
      await call(test.app, '/user/check_email', { email_code: code, user_string: email }, { ip }),
    ).toEqual({
      type: 'ok',
      message: 'The verification code is correct.',
    });
    const registered = await call(
      test.app,
      '/user/register',
      { type: 'email', user_string: email, code, password: PASSWORD, re_password: PASSWORD },
      { ip },
    );
    expect(registered).toEqual({ type: 'ok', message: 'Registration complete. Please log in.' });
    expect((await call(test.app, '/user/check', { user_string: email }, { ip })).message).toBe(
      'This e-mail address is already registered.',
    );

    const loggedIn = await call(
      test.app,
      '/user/login',
      { type: 'email', email, password: PASSWORD },
      { ip },
    );
    expect(loggedIn.type).toBe('ok');
    const token = String(loggedIn.message);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((loggedIn.data as { token: string }).token).toBe(token);

    const info = await call(test.app, '/user/info', {}, { token, method: 'GET' });
    expect(info.message).toMatchObject({
      account: lower,
      email: lower,
      phone: null,
      is_seller: 0,
      review_status: 0,
      google_bind: 0,
    });
    expect((info.message as { extension_code: string }).extension_code).toMatch(/^[A-Z2-9]{8}$/);
    const { rows } = await test.store.query<{ password_hash: string }>(
      'select password_hash from users where email = $1',
      [lower],
    );
    expect(rows[0]?.password_hash).toMatch(/^scrypt\$15\$8\$1\$/);
  });

  it('gives a fresh token at every login, and logout revokes only that one', async () => {
    const user = await registerByEmail(test);
    const second = await call(test.app, '/user/login', { user_string: user.account, password: PASSWORD });
    const secondToken = String(second.message);
    expect(secondToken).not.toBe(user.token);
    expect((await call(test.app, '/user/logout', {}, { token: user.token })).type).toBe('ok');
    expect((await call(test.app, '/user/info', {}, { token: user.token, method: 'GET' })).type).toBe('999');
    expect((await call(test.app, '/user/info', {}, { token: secondToken, method: 'GET' })).type).toBe('ok');
  });

  it('logs in from the login page with the account alone, and with a Bearer header', async () => {
    const user = await registerByEmail(test);
    const reply = await call(test.app, '/user/login', {
      account: `  ${user.account.toUpperCase()} `,
      password: PASSWORD,
    });
    const token = String(reply.message);
    expect((await call(test.app, '/user/info', {}, { token: `Bearer ${token}`, method: 'GET' })).type).toBe(
      'ok',
    );
  });

  it('answers in the request language', async () => {
    const reply = await call(
      test.app,
      '/user/login',
      { email: 'nobody@example.com', password: 'x' },
      { lang: 'zh' },
    );
    expect(reply).toEqual({ type: 'error', message: '账号或密码错误。' });
  });
});

describe('register and log in by phone', () => {
  it('registers a mainland number with area code 86 and logs in by the dialog and the login page', async () => {
    const ip = freshIp();
    const mobile = '13800138001';
    expect(
      (await call(test.app, '/sms_send', { user_string: mobile, country_code: '86' }, { ip })).type,
    ).toBe('ok');
    const code = await lastCode(test.store, '+8613800138001');
    expect(
      (
        await call(
          test.app,
          '/user/check_mobile',
          { mobile_code: code, user_string: mobile, area_code: '+86' },
          { ip },
        )
      ).type,
    ).toBe('ok');
    const registered = await call(
      test.app,
      '/user/register',
      { type: 'mobile', mobile, area_code: '86', code, password: PASSWORD, re_password: PASSWORD },
      { ip },
    );
    expect(registered.type).toBe('ok');
    const dialog = await call(
      test.app,
      '/user/login',
      { type: 'mobile', mobile, area_code_id: 'CN', password: PASSWORD },
      { ip },
    );
    expect(dialog.type).toBe('ok');
    const info = (dialog.data as { user: { account: string; phone: string; area_code: string } }).user;
    expect(info).toMatchObject({ account: '+8613800138001', phone: mobile, area_code: '86' });
    expect((await call(test.app, '/user/login', { account: mobile, password: PASSWORD }, { ip })).type).toBe(
      'ok',
    );
    expect(
      (await call(test.app, '/user/login', { account: '+86 138 0013 8001', password: PASSWORD }, { ip }))
        .type,
    ).toBe('ok');
  });
});

describe('password recovery and change', () => {
  it('resets a forgotten password by a code, ending every session', async () => {
    const user = await registerByEmail(test);
    const ip = freshIp();
    expect(
      (await call(test.app, '/sms_mail', { user_string: user.account, type: 'forget' }, { ip })).type,
    ).toBe('ok');
    const code = await lastCode(test.store, user.account);
    expect(
      (
        await call(
          test.app,
          '/user/check_email',
          { email_code: code, user_string: user.account, type: 'forget' },
          { ip },
        )
      ).type,
    ).toBe('ok');
    const reset = await call(
      test.app,
      '/user/forget',
      { account: user.account, code, password: 'newpass456', repassword: 'newpass456' },
      { ip },
    );
    expect(reset).toEqual({
      type: 'ok',
      message: 'Your password has been reset. Please log in with the new password.',
    });
    expect((await call(test.app, '/user/info', {}, { token: user.token, method: 'GET' })).type).toBe('999');
    expect(
      (await call(test.app, '/user/login', { account: user.account, password: PASSWORD }, { ip })).type,
    ).toBe('error');
    expect(
      (await call(test.app, '/user/login', { account: user.account, password: 'newpass456' }, { ip })).type,
    ).toBe('ok');
    // The code worked once.
    const again = await call(
      test.app,
      '/user/forget',
      { account: user.account, code, password: 'other789x', repassword: 'other789x' },
      { ip },
    );
    expect(again.message).toBe('This verification code has already been used. Please request a new one.');
  });

  it('changes the password with the old one: other sessions end, this device gets a new token', async () => {
    const user = await registerByEmail(test);
    const other = {
      token: String(
        (await call(test.app, '/user/login', { account: user.account, password: PASSWORD })).message,
      ),
    };
    const changed = await call(
      test.app,
      '/safe/password',
      { old_password: PASSWORD, password: 'changed99', re_password: 'changed99' },
      { token: user.token },
    );
    expect(changed.type).toBe('ok');
    const { token } = changed.message as { token: string };
    expect((await call(test.app, '/user/info', {}, { token: user.token, method: 'GET' })).type).toBe('999');
    expect((await call(test.app, '/user/info', {}, { token: other.token, method: 'GET' })).type).toBe('999');
    expect((await call(test.app, '/user/info', {}, { token, method: 'GET' })).type).toBe('ok');
    expect((await call(test.app, '/user/login', { account: user.account, password: 'changed99' })).type).toBe(
      'ok',
    );
  });
});

describe('binding', () => {
  it('binds an e-mail to a phone user, and a phone to an e-mail user', async () => {
    const ip = freshIp();
    const mobile = '13900139002';
    await call(test.app, '/sms_send', { user_string: mobile, area_code: '86' }, { ip });
    const code = await lastCode(test.store, `+86${mobile}`);
    await call(
      test.app,
      '/user/register',
      {
        type: 'mobile',
        user_string: mobile,
        area_code: '86',
        code,
        password: PASSWORD,
        re_password: PASSWORD,
      },
      { ip },
    );
    const login = await call(
      test.app,
      '/user/login',
      { type: 'mobile', user_string: mobile, area_code: '86', password: PASSWORD },
      { ip },
    );
    const token = String(login.message);
    const email = uniqueEmail('bind');
    expect((await call(test.app, '/sms_mail', { user_string: email }, { token, ip })).type).toBe('ok');
    const emailCode = await lastCode(test.store, email);
    expect(await call(test.app, '/safe/email', { email, code: emailCode }, { token, ip })).toEqual({
      type: 'ok',
      message: 'Your e-mail address has been bound.',
    });
    const info = (await call(test.app, '/user/info', {}, { token, method: 'GET' })).message;
    expect(info).toMatchObject({ email, phone: mobile, account: `+86${mobile}` });
    // Both now log in.
    expect((await call(test.app, '/user/login', { account: email, password: PASSWORD }, { ip })).type).toBe(
      'ok',
    );

    const emailUser = await registerByEmail(test);
    expect(
      (
        await call(
          test.app,
          '/sms_send',
          { user_string: '2025550143', area_code: '1' },
          { token: emailUser.token, ip },
        )
      ).type,
    ).toBe('ok');
    const smsCode = await lastCode(test.store, '+12025550143');
    expect(
      await call(
        test.app,
        '/safe/mobile',
        { mobile: '(202) 555-0143'.replace(/[()]/g, ''), area_code: '1', code: smsCode },
        { token: emailUser.token, ip },
      ),
    ).toEqual({ type: 'ok', message: 'Your mobile number has been bound.' });
    const emailUserInfo = (await call(test.app, '/user/info', {}, { token: emailUser.token, method: 'GET' }))
      .message;
    expect(emailUserInfo).toMatchObject({ account: emailUser.account, phone: '2025550143', area_code: '1' });
  });

  it('moves an e-mail account to the newly bound address', async () => {
    const user = await registerByEmail(test);
    const newEmail = uniqueEmail('moved');
    await call(test.app, '/sms_mail', { user_string: newEmail, type: 'bind' }, { token: user.token });
    const code = await lastCode(test.store, newEmail);
    expect((await call(test.app, '/safe/email', { email: newEmail, code }, { token: user.token })).type).toBe(
      'ok',
    );
    expect((await call(test.app, '/user/login', { account: newEmail, password: PASSWORD })).type).toBe('ok');
    expect((await call(test.app, '/user/login', { account: user.account, password: PASSWORD })).type).toBe(
      'error',
    );
    expect((await call(test.app, '/user/check', { user_string: user.account })).type).toBe('ok');
  });
});

describe('invite codes', () => {
  it('tells the forms whether an invite code is needed', async () => {
    expect(await call(test.app, '/user/register_config', {}, { method: 'GET' })).toEqual({
      type: 'ok',
      message: { invite_code_required: false },
    });
  });

  it('requires one when INVITE_CODE_REQUIRED is on, accepting a user code or an operator code', async () => {
    const strict = await accountsApp({ INVITE_CODE_REQUIRED: 'true' });
    try {
      expect((await call(strict.app, '/user/register_config', {}, { method: 'GET' })).message).toEqual({
        invite_code_required: true,
      });
      const email = uniqueEmail('invite');
      await call(strict.app, '/sms_mail', { user_string: email });
      const code = await lastCode(strict.store, email);
      const base = { user_string: email, code, password: PASSWORD, re_password: PASSWORD };
      expect((await call(strict.app, '/user/register', base)).message).toBe('Please enter an invite code.');
      expect(
        (await call(strict.app, '/user/register', { ...base, extension_code: 'NOSUCH12' })).message,
      ).toBe('This invite code is not valid.');
      await strict.store.query(`insert into operator_invite_codes (code, max_uses) values ('FIRST234', 1)`);
      expect((await call(strict.app, '/user/register', { ...base, extension_code: 'first234' })).type).toBe(
        'ok',
      );
      const { rows } = await strict.store.query<{ used_count: number }>(
        `select used_count from operator_invite_codes where code = 'FIRST234'`,
      );
      expect(rows[0]?.used_count).toBe(1);

      // The operator code is used up; the first user's own code invites the next.
      const first = (await call(strict.app, '/user/login', { account: email, password: PASSWORD })).data as {
        user: { id: number; extension_code: string };
      };
      const second = uniqueEmail('invited');
      await call(strict.app, '/sms_mail', { user_string: second });
      const secondCode = await lastCode(strict.store, second);
      const secondBase = { user_string: second, code: secondCode, password: PASSWORD, re_password: PASSWORD };
      expect(
        (await call(strict.app, '/user/register', { ...secondBase, extension_code: 'FIRST234' })).type,
      ).toBe('error');
      expect(
        (
          await call(strict.app, '/user/register', {
            ...secondBase,
            extension_code: first.user.extension_code,
          })
        ).type,
      ).toBe('ok');
      const { rows: parent } = await strict.store.query<{ parent_id: number; invited_with: string }>(
        'select parent_id, invited_with from users where email = $1',
        [second],
      );
      expect(parent[0]).toEqual({ parent_id: first.user.id, invited_with: first.user.extension_code });
    } finally {
      await strict.close();
    }
  });
  it('refuses a wrong invite code without using up or counting against the e-mailed code', async () => {
    const strict = await accountsApp({ INVITE_CODE_REQUIRED: 'true' });
    try {
      const email = uniqueEmail('wronginvite');
      await call(strict.app, '/sms_mail', { user_string: email });
      const code = await lastCode(strict.store, email);
      const base = { user_string: email, code, password: PASSWORD, re_password: PASSWORD };
      const codeRow = async () =>
        (
          await strict.store.query<{ attempts: number; consumed: boolean }>(
            `select attempts, consumed_at is not null as consumed from verification_codes
              where destination = $1 order by id desc limit 1`,
            [email],
          )
        ).rows[0];
      for (const wrong of ['NOSUCH12', 'nosuch34', 'ABCD']) {
        expect(await call(strict.app, '/user/register', { ...base, extension_code: wrong })).toMatchObject({
          type: 'error',
          message: 'This invite code is not valid.',
        });
      }
      expect(await codeRow()).toEqual({ attempts: 0, consumed: false });
      expect((await strict.store.query('select 1 from users where email = $1', [email])).rows).toHaveLength(
        0,
      );
      // The same e-mailed code still registers once the right invite code is given.
      await strict.store.query(`insert into operator_invite_codes (code) values ('RIGHT234')`);
      expect((await call(strict.app, '/user/register', { ...base, extension_code: 'RIGHT234' })).type).toBe(
        'ok',
      );
      expect(await codeRow()).toEqual({ attempts: 0, consumed: true });
    } finally {
      await strict.close();
    }
  });
});

describe('two-factor authentication', () => {
  it('enrols with a confirmed code, then requires a code at login, each code once', async () => {
    const user = await registerByEmail(test);
    const started = await call(test.app, '/safe/google/secret', {}, { token: user.token });
    const { secret, uri, qr } = started.message as { secret: string; uri: string; qr: string };
    expect(uri).toMatch(/^otpauth:\/\/totp\/Fairex:/);
    expect(qr).toMatch(/^data:image\/png;base64,/);
    const totp = new TOTP({ issuer: 'Fairex', secret, digits: 6, period: 30, algorithm: 'SHA1' });
    expect(
      (
        await call(
          test.app,
          '/safe/google/bind',
          { code: '000000' === totp.generate() ? '111111' : '000000' },
          { token: user.token },
        )
      ).message,
    ).toBe('The authenticator code is wrong or has already been used.');
    const now = Date.now();
    expect(
      (
        await call(
          test.app,
          '/safe/google/bind',
          { code: totp.generate({ timestamp: now }) },
          { token: user.token },
        )
      ).type,
    ).toBe('ok');
    expect((await call(test.app, '/safe/google', {}, { token: user.token, method: 'GET' })).message).toEqual({
      google_bind: 1,
    });

    expect(await call(test.app, '/user/login', { account: user.account, password: PASSWORD })).toEqual({
      type: 'error',
      message: 'Enter the 6-digit code from your authenticator app.',
      totp_required: true,
    });
    // The code that confirmed enrolment cannot log in; the next step's code can, once.
    const used = totp.generate({ timestamp: now });
    expect(
      (await call(test.app, '/user/login', { account: user.account, password: PASSWORD, totp_code: used }))
        .type,
    ).toBe('error');
    const next = totp.generate({ timestamp: now + 30_000 });
    const loggedIn = await call(test.app, '/user/login', {
      account: user.account,
      password: PASSWORD,
      totp_code: next,
    });
    expect(loggedIn.type).toBe('ok');
    expect(
      (await call(test.app, '/user/login', { account: user.account, password: PASSWORD, totp_code: next }))
        .type,
    ).toBe('error');

    // Off needs the password and a fresh code.
    expect(
      (
        await call(
          test.app,
          '/safe/google/unbind',
          { code: next, password: 'wrong1234' },
          { token: user.token },
        )
      ).message,
    ).toBe('The password is wrong.');
    await test.store.query('update users set totp_last_step = totp_last_step - 3 where id = $1', [user.id]);
    const unbound = await call(
      test.app,
      '/safe/google/unbind',
      { code: next, password: PASSWORD },
      { token: user.token },
    );
    expect(unbound).toEqual({ type: 'ok', message: 'Two-factor authentication is now off.' });
    expect((await call(test.app, '/user/login', { account: user.account, password: PASSWORD })).type).toBe(
      'ok',
    );
  });
});

describe('codes over time', () => {
  it('refuses a resend within 60 seconds, and an expired code', async () => {
    const email = uniqueEmail('time');
    const ip = freshIp();
    expect((await call(test.app, '/sms_mail', { user_string: email }, { ip })).type).toBe('ok');
    const again = await call(test.app, '/sms_mail', { user_string: email }, { ip });
    expect(again.message).toMatch(/^Please wait (59|60) seconds before requesting another code\.$/);
    await ageCodes(test.store, email);
    expect((await call(test.app, '/sms_mail', { user_string: email }, { ip })).type).toBe('ok');
    const code = await lastCode(test.store, email);
    await test.store.query(
      `update verification_codes set expires_at = now() - interval '1 second' where destination = $1`,
      [email],
    );
    expect(
      (await call(test.app, '/user/check_email', { email_code: code, user_string: email }, { ip })).message,
    ).toBe('The verification code has expired. Please request a new one.');
  });

  it('voids an earlier code when a new one is sent', async () => {
    const email = uniqueEmail('void');
    await call(test.app, '/sms_mail', { user_string: email });
    const first = await lastCode(test.store, email);
    await ageCodes(test.store, email);
    await call(test.app, '/sms_mail', { user_string: email });
    const second = await lastCode(test.store, email);
    if (first !== second) {
      expect(
        (await call(test.app, '/user/check_email', { email_code: first, user_string: email })).type,
      ).toBe('error');
    }
    expect((await call(test.app, '/user/check_email', { email_code: second, user_string: email })).type).toBe(
      'ok',
    );
  });
});
