// Logging in as a template-era client does: `user_string`, `password` and a numeric `type` (1 is "log in
// with a password" there, not "phone"), form-encoded, the language in a header. The reply carries the token
// as `message` (what those clients store) and under `data` with the user (what Fairex's web app reads); a
// second factor is asked for by a refusal that no client can mistake for a token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { translate } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp } from '../accounts/helpers.ts';
import {
  PASSWORD,
  accountsApp,
  call,
  freshIp,
  registerByEmail,
  registerByMobile,
} from '../accounts/helpers.ts';
import { templateCall } from './template-client.ts';

let test: AccountsTestApp;

beforeAll(async () => {
  test = await accountsApp();
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

describe('template login', () => {
  it('logs in an e-mail account with type 1 and answers the token as the message', async () => {
    const user = await registerByEmail(test);
    for (const type of [1, 2]) {
      const reply = await templateCall(
        test.app,
        '/user/login',
        { user_string: user.account, password: PASSWORD, type },
        { ip: freshIp() },
      );
      expect(reply.type).toBe('ok');
      expect(reply.message).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const data = reply.data as { token: string; user: { id: number; account: string } };
      expect(data.token).toBe(reply.message);
      expect(data.user).toMatchObject({ id: user.id, account: user.account });
      const info = await templateCall(
        test.app,
        '/user/info',
        {},
        { token: String(reply.message), method: 'GET' },
      );
      expect(info).toMatchObject({ type: 'ok', message: { id: user.id } });
    }
  });

  it('logs in a phone account with type 1 and the bare number', async () => {
    const mobile = '13800138077';
    await registerByMobile(test, mobile, '86');
    const reply = await templateCall(test.app, '/user/login', {
      user_string: mobile,
      password: PASSWORD,
      type: 1,
    });
    expect(reply.type).toBe('ok');
    expect((reply.data as { user: { account: string } }).user.account).toBe(`+86${mobile}`);
  });

  it('accepts the same fields as JSON', async () => {
    const user = await registerByEmail(test);
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { lang: 'en' },
      payload: { user_string: user.account, password: PASSWORD, type: 1 },
    });
    const reply = response.json() as { type: string; message: unknown; data: { token: string } };
    expect(reply.type).toBe('ok');
    expect(reply.data.token).toBe(reply.message);
  });

  it('refuses a wrong password in the language of the lang header', async () => {
    const user = await registerByEmail(test);
    const reply = await templateCall(
      test.app,
      '/user/login',
      { user_string: user.account, password: 'wrong-one1', type: 1 },
      { lang: 'kr', ip: freshIp() },
    );
    expect(reply).toEqual({ type: 'error', message: translate('kr', 'account.login_failed') });
  });

  it('asks for the authenticator code with a refusal, then logs in with it', async () => {
    const user = await registerByEmail(test);
    const started = await call(test.app, '/safe/google/secret', {}, { token: user.token });
    const { secret } = started.message as { secret: string };
    const totp = new TOTP({ issuer: 'Fairex', secret, digits: 6, period: 30, algorithm: 'SHA1' });
    const now = Date.now();
    const bound = await call(
      test.app,
      '/safe/google/bind',
      { code: totp.generate({ timestamp: now }) },
      {
        token: user.token,
      },
    );
    expect(bound.type).toBe('ok');

    const asked = await templateCall(
      test.app,
      '/user/login',
      { user_string: user.account, password: PASSWORD, type: 1 },
      { lang: 'jp' },
    );
    expect(asked).toEqual({ type: 'error', message: translate('jp', 'totp.required'), totp_required: true });

    const reply = await templateCall(test.app, '/user/login', {
      user_string: user.account,
      password: PASSWORD,
      type: 1,
      totp_code: totp.generate({ timestamp: now + 30_000 }),
    });
    expect(reply.type).toBe('ok');
    expect((reply.data as { token: string }).token).toBe(reply.message);
  });
});
