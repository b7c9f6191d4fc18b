// The template's code checks send the code alone (`email_code` / `mobile_code`). The request that sent the
// code set a short-lived cookie naming that code; the check finds the code through it, never by guessing,
// and does not use it up: `register` still verifies the code with the account. Refusals are translated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp } from '../accounts/helpers.ts';
import { PASSWORD, accountsApp, ageCodes, freshIp, lastCode, uniqueEmail } from '../accounts/helpers.ts';
import { templateCall, templateRequest } from './template-client.ts';

let test: AccountsTestApp;

beforeAll(async () => {
  test = await accountsApp();
});

afterAll(async () => {
  await test.close();
  await removeTempDirs();
});

/** Sends a code as the template does and returns the cookie the answer set. */
async function sendEmailCode(email: string, ip: string): Promise<string> {
  const { reply, setCookies } = await templateRequest(test.app, '/sms_mail', { user_string: email }, { ip });
  expect(reply.type, JSON.stringify(reply)).toBe('ok');
  expect(setCookies).toHaveLength(1);
  return setCookies[0] ?? '';
}

describe('check_email with the code alone', () => {
  it('accepts the code sent to this client, as often as asked, and register still takes it', async () => {
    const ip = freshIp();
    const email = uniqueEmail('tcheck');
    const cookie = await sendEmailCode(email, ip);
    const code = await lastCode(test.store, email);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(
        await templateCall(test.app, '/user/check_email', { email_code: code }, { cookie, ip, lang: 'hk' }),
      ).toEqual({ type: 'ok', message: translate('hk', 'code.correct') });
    }
    const registered = await templateCall(
      test.app,
      '/user/register',
      { type: 'email', user_string: email, code, password: PASSWORD, re_password: PASSWORD },
      { ip },
    );
    expect(registered.type, JSON.stringify(registered)).toBe('ok');
    // Used by the registration now.
    expect(
      await templateCall(test.app, '/user/check_email', { email_code: code }, { cookie, ip, lang: 'hk' }),
    ).toEqual({
      type: 'error',
      message: translate('hk', 'code.used'),
    });
  });

  it('refuses without the cookie of the sending request, whatever the code', async () => {
    const ip = freshIp();
    const email = uniqueEmail('tnocookie');
    await sendEmailCode(email, ip);
    const code = await lastCode(test.store, email);
    expect(
      await templateCall(test.app, '/user/check_email', { email_code: code }, { ip, lang: 'zh' }),
    ).toEqual({
      type: 'error',
      message: translate('zh', 'code.not_sent'),
    });
    expect(
      await templateCall(
        test.app,
        '/user/check_email',
        { email_code: code },
        { ip, lang: 'zh', cookie: 'fairex_email_code=forged' },
      ),
    ).toEqual({ type: 'error', message: translate('zh', 'code.not_sent') });
  });

  it("does not accept another client's code, nor a wrong one, and counts the wrong tries", async () => {
    const ip = freshIp();
    const mine = uniqueEmail('tmine');
    const theirs = uniqueEmail('ttheirs');
    const cookie = await sendEmailCode(mine, ip);
    await sendEmailCode(theirs, freshIp());
    const myCode = await lastCode(test.store, mine);
    const theirCode = await lastCode(test.store, theirs);
    const wrong =
      theirCode === myCode ? String((Number(myCode) + 1) % 1_000_000).padStart(6, '0') : theirCode;
    expect(
      await templateCall(test.app, '/user/check_email', { email_code: wrong }, { cookie, ip, lang: 'en' }),
    ).toEqual({
      type: 'error',
      message: translate('en', 'code.wrong', { left: 4 }),
    });
  });

  it('refuses a code that a newer one replaced, or that expired', async () => {
    const ip = freshIp();
    const email = uniqueEmail('treplaced');
    const first = await sendEmailCode(email, ip);
    const firstCode = await lastCode(test.store, email);
    await ageCodes(test.store, email);
    const second = await sendEmailCode(email, ip);
    expect(second).not.toBe(first);
    expect(
      await templateCall(
        test.app,
        '/user/check_email',
        { email_code: firstCode },
        { cookie: first, ip, lang: 'jp' },
      ),
    ).toEqual({ type: 'error', message: translate('jp', 'code.expired') });
    await test.store.query(`update verification_codes set expires_at = now() where destination = $1`, [
      email,
    ]);
    const secondCode = await lastCode(test.store, email);
    expect(
      await templateCall(
        test.app,
        '/user/check_email',
        { email_code: secondCode },
        { cookie: second, ip, lang: 'jp' },
      ),
    ).toEqual({ type: 'error', message: translate('jp', 'code.expired') });
  });

  it('sets a short-lived cookie only scripts cannot read', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/sms_mail',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: new URLSearchParams({ user_string: uniqueEmail('tattr') }).toString(),
      remoteAddress: freshIp(),
    });
    const line = String(response.headers['set-cookie']);
    expect(line).toMatch(/^fairex_email_code=[A-Za-z0-9_-]{43};/);
    expect(line).toContain('Max-Age=600');
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Lax');
  });
});

describe('check_mobile with the code alone', () => {
  it('accepts the code sent by text to this client, not an e-mail code', async () => {
    const ip = freshIp();
    const { reply, setCookies } = await templateRequest(
      test.app,
      '/sms_send',
      { user_string: '13800138099', country_code: '86' },
      { ip },
    );
    expect(reply.type).toBe('ok');
    const cookie = setCookies[0] ?? '';
    expect(cookie).toMatch(/^fairex_mobile_code=/);
    const code = await lastCode(test.store, '+8613800138099');
    expect(await templateCall(test.app, '/user/check_mobile', { mobile_code: code }, { cookie, ip })).toEqual(
      {
        type: 'ok',
        message: translate('en', 'code.correct'),
      },
    );
    expect(await templateCall(test.app, '/user/check_email', { email_code: code }, { cookie, ip })).toEqual({
      type: 'error',
      message: translate('en', 'code.not_sent'),
    });
  });
});
