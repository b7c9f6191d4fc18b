// Accounts end to end in real Chromium against a server of this file's own, whose mail goes to a real SMTP
// server started here: register by e-mail with the code from the mail (and the operator invite code the
// administrator command printed), log out, log in, change the password, recover it by code, bind another
// e-mail, submit real-name photos, and have an administrator approve them through the administrator API.
// Screenshots of the dialogs and the account centre, day and night, in English and Chinese.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import en from '../packages/web/src/i18n/locales/en.json' with { type: 'json' };
import zh from '../packages/web/src/i18n/locales/zh.json' with { type: 'json' };
import { makePng } from '../packages/server/test/accounts/images.ts';
import { passSecondFactor } from './admin-seed.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import { FairexPage } from './support/fairex-page.ts';
import { Mailbox } from './support/mailbox.ts';
import { newDataDir, runNode, startServer, type ServerProcess } from './support/server-process.ts';

/** The browser globals the canvas callback uses (the Node configuration has no DOM library). */
interface InPageCanvas {
  document: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        fillStyle: string;
        fillRect(x: number, y: number, width: number, height: number): void;
        fillText(text: string, x: number, y: number): void;
      } | null;
      toDataURL(type: string, quality: number): string;
    };
  };
}

const FIRST_PASSWORD = 'first1234';
const SECOND_PASSWORD = 'second5678';
const THIRD_PASSWORD = 'third9012';

describe('accounts', () => {
  const mailbox = new Mailbox();
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let fairex: FairexPage;
  let page: Page;
  let inviteCode = '';
  let adminPassword = '';
  const email = `trader${Date.now().toString(36)}@example.com`;
  const newEmail = `renamed${Date.now().toString(36)}@example.com`;

  beforeAll(async () => {
    const smtpUrl = await mailbox.start();
    const dataDir = await newDataDir();
    // The first administrator of a fresh exchange, and the operator invite code its first user needs.
    const created = await runNode(['packages/server/src/admin/cli.ts', 'create', '--username', 'root'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'silent',
    });
    inviteCode = /operator invite code: ([A-Z0-9]+)/.exec(created)?.[1] ?? '';
    adminPassword = /password: (\S+)/.exec(created)?.[1] ?? '';
    expect(inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    server = await startServer(dataDir, { SMTP_URL: smtpUrl, MAIL_FROM: 'Fairex <no-reply@fairex.test>' });
    browser = await launchBrowser();
    context = await newContext(browser);
    fairex = await FairexPage.open(context, server.baseURL, '/');
    page = fairex.page;
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    await mailbox.stop();
  });

  afterEach(() => {
    expect(fairex.problems).toEqual([]);
  });

  async function toast(text: string): Promise<void> {
    await page.locator('.fx-toast').filter({ hasText: text }).first().waitFor();
  }

  async function waitForReload(action: () => Promise<void>): Promise<void> {
    await Promise.all([page.waitForEvent('load'), action()]);
    await fairex.header.waitFor();
  }

  async function logOut(label = en.account.logout): Promise<void> {
    await page.getByTestId('account-trigger').click();
    await waitForReload(() => page.getByRole('menuitem', { name: label }).click());
    await page.getByTestId('login-link').waitFor();
  }

  it('registers by e-mail with the code from the mail and an operator invite code', async () => {
    await page.getByTestId('register-link').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Create your Fairex account' });
    await dialog.waitFor();
    // Invite codes are required here: step 1 says so before any code is sent, and where one comes from.
    expect(await dialog.getByTestId('invite-notice').innerText()).toBe(en.auth.inviteNeeded);
    // Step 1 refuses a malformed address with the spec's message before asking the server.
    await dialog.getByTestId('account-email').fill('not-an-email');
    await dialog.getByTestId('register-next').click();
    await dialog.getByText('Please enter a valid e-mail address').waitFor();
    await dialog.getByTestId('account-email').fill(email);
    await dialog.getByTestId('register-next').click();
    await dialog.getByTestId('register-target').waitFor();
    expect(await dialog.getByTestId('register-target').innerText()).toContain(email);

    const before = mailbox.mails.length;
    await dialog.getByTestId('send-code').click();
    await toast('A verification code has been sent.');
    // The button counts down from 60 seconds and cannot be pressed meanwhile.
    await expect.poll(() => dialog.getByTestId('send-code').innerText()).toMatch(/^Resend in (59|60) s$/);
    expect(await dialog.getByTestId('send-code').isDisabled()).toBe(true);
    const code = await mailbox.waitForCode(email, before);
    expect(mailbox.mails.at(-1)?.subject).toBe(`Fairex verification code: ${code}`);

    await dialog.getByTestId('code').fill(code);
    await dialog.getByTestId('password').fill('short');
    await dialog.getByTestId('re-password').fill('other');
    await dialog.getByTestId('register-submit').click();
    await dialog.getByText('The password must be 6 to 16 characters with both letters and digits').waitFor();
    await dialog.getByText('The two passwords do not match').waitFor();
    await dialog.getByTestId('password').fill(FIRST_PASSWORD);
    await dialog.getByTestId('re-password').fill(FIRST_PASSWORD);
    await dialog.getByTestId('invite-code').fill(inviteCode);
    // Spec 01 section 5: the terms must be ticked, in the dialog as on the page.
    await dialog.getByTestId('register-submit').click();
    await dialog.getByText(en.auth.agreementRequired).waitFor();
    await dialog.getByTestId('agreement').check();
    await fairex.screenshot('accounts-register-dialog-en-day', false);
    await dialog.getByTestId('register-submit').click();

    const login = page.locator('.ant-modal').filter({ hasText: 'Log in to Fairex' });
    await login.getByText('Registration complete. Please log in.').waitFor();
    expect(await login.getByTestId('account-email').inputValue()).toBe(email);
  });

  it('logs in with the dialog, shows the account, and logs out', async () => {
    const login = page.locator('.ant-modal').filter({ hasText: 'Log in to Fairex' });
    await login.getByTestId('login-password').fill(FIRST_PASSWORD);
    await fairex.screenshot('accounts-login-dialog-en-day', false);
    await waitForReload(() => login.getByTestId('login-submit').click());
    expect(await page.getByTestId('account-number').innerText()).toBe(`${email.slice(0, 2)}***@example.com`);
    expect(await fairex.stored('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await logOut();
    expect(await fairex.stored('token')).toBeNull();
  });

  it('logs in on the login page and opens the account centre', async () => {
    await fairex.goto(`/components/login?account_number=${encodeURIComponent(email)}`);
    expect(await page.getByTestId('login-account').inputValue()).toBe(email);
    await page.getByTestId('login-password').fill('wrong1234');
    await page.getByTestId('login-submit').click();
    await toast('The account or the password is wrong.');
    await page.getByTestId('login-password').fill(FIRST_PASSWORD);
    await waitForReload(() => page.getByTestId('login-submit').click());
    await page.getByTestId('account-number').waitFor();

    await fairex.goto('/accountSet');
    await page.getByTestId('account-set').waitFor();
    await page.getByTestId('invite-code-value').waitFor();
    expect(await page.getByTestId('invite-code-value').innerText()).toMatch(/^[A-Z2-9]{8}$/);
    expect(await page.getByTestId('invite-link-value').innerText()).toContain(
      '/#/components/register?extension_code=',
    );
    expect(await page.getByTestId('security-level').getAttribute('data-level')).toBe('50');
  });

  it('changes the password from the account centre', async () => {
    await page.getByTestId('change-password').click();
    const dialog = page.locator('.ant-modal').filter({ hasText: 'Change login password' });
    await dialog.getByTestId('old-password').fill(FIRST_PASSWORD);
    await dialog.getByTestId('password').fill(SECOND_PASSWORD);
    await dialog.getByTestId('re-password').fill(SECOND_PASSWORD);
    await dialog.getByTestId('change-password-submit').click();
    await toast('Your password has been changed.');
    // The session goes on with the new token the server handed over.
    await fairex.reload();
    await page.getByTestId('invite-code-value').waitFor();
    await logOut();
  });

  it('recovers the password with a code sent by e-mail', async () => {
    await fairex.goto('/forgetPwd');
    await page.getByTestId('account-email').fill(email);
    const before = mailbox.mails.length;
    await page.getByTestId('send-code').click();
    const code = await mailbox.waitForCode(email, before);
    await page.getByTestId('code').fill(code === '000000' ? '111111' : '000000');
    await page.getByTestId('forgot-verify').click();
    await toast('The verification code is wrong. 4 tries left.');
    await page.getByTestId('code').fill(code);
    await fairex.screenshot('accounts-forgot-en-day', false);
    await page.getByTestId('forgot-verify').click();
    await page.getByTestId('forgot-target').waitFor();
    await page.getByTestId('password').fill(THIRD_PASSWORD);
    await page.getByTestId('re-password').fill(THIRD_PASSWORD);
    await page.getByTestId('forgot-submit').click();

    const login = page.locator('.ant-modal').filter({ hasText: 'Log in to Fairex' });
    await login.getByText('Your password has been reset. Please log in with the new password.').waitFor();
    await login.getByTestId('login-password').fill(SECOND_PASSWORD);
    await login.getByTestId('login-submit').click();
    await toast('The account or the password is wrong.');
    await login.getByTestId('login-password').fill(THIRD_PASSWORD);
    await waitForReload(() => login.getByTestId('login-submit').click());
    await page.getByTestId('account-number').waitFor();
  });

  it('binds another e-mail address with a code sent to it', async () => {
    await fairex.goto('/bindEmail');
    await page.getByTestId('bind-email').fill(newEmail);
    const before = mailbox.mails.length;
    await page.getByTestId('send-code').click();
    const code = await mailbox.waitForCode(newEmail, before);
    await page.getByTestId('code').fill(code);
    await page.getByTestId('bind-submit').click();
    await toast('Your e-mail address has been bound.');
    await page.getByTestId('account-set').waitFor();
    await expect
      .poll(() => page.getByTestId('item-email').innerText())
      .toContain(`${newEmail.slice(0, 2)}***@example.com`);
    // The account was named after its e-mail, so it follows the new address, in the header too.
    expect(await page.getByTestId('account-number').innerText()).toBe(
      `${newEmail.slice(0, 2)}***@example.com`,
    );
  });

  it('submits real-name photos and an administrator approves them', async () => {
    await fairex.goto('/authentication');
    await page.getByTestId('real-name').waitFor();
    await page.getByTestId('real-name-submit').click();
    await page.getByText('Please enter your name').waitFor();

    await page.getByTestId('real-name').fill('Zhang San');
    await page.getByTestId('card-id').fill('110101199001011234');
    // A real JPEG, drawn by the browser itself, and PNGs made in the test.
    const jpegDataUrl = await page.evaluate(() => {
      const { document } = globalThis as unknown as InPageCanvas;
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 200;
      const context2d = canvas.getContext('2d');
      if (context2d) {
        context2d.fillStyle = '#2f6bff';
        context2d.fillRect(0, 0, 320, 200);
        context2d.fillStyle = '#ffffff';
        context2d.fillText('ID', 20, 40);
      }
      return canvas.toDataURL('image/jpeg', 0.9);
    });
    const jpeg = Buffer.from(jpegDataUrl.split(',')[1] ?? '', 'base64');
    const photos = [
      ['photo-front', { name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpeg }],
      ['photo-back', { name: 'back.png', mimeType: 'image/png', buffer: makePng(320, 200, [30, 160, 90]) }],
      ['photo-hand', { name: 'hand.png', mimeType: 'image/png', buffer: makePng(240, 320, [200, 120, 40]) }],
    ] as const;
    for (const [testId, file] of photos) {
      await page.getByTestId(`${testId}-input`).setInputFiles(file);
      await page.locator(`[data-testid="${testId}-box"][data-uploaded="true"] img`).waitFor();
    }
    await fairex.screenshot('accounts-real-name-en-day');
    await page.getByTestId('real-name-submit').click();
    await page.getByTestId('real-name-pending').waitFor();

    const api = async (path: string, token: string, body?: Record<string, unknown>) => {
      const response = await fetch(`${server.baseURL}/api${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await response.json()) as { type: string; message: Record<string, unknown> };
    };
    const login = await api('/admin/login', '', { username: 'root', password: adminPassword });
    const adminToken = String(login.message.token);
    await passSecondFactor(server.baseURL, adminToken);
    const queue = (await api('/admin/real_name/list?status=pending', adminToken)).message as unknown as {
      data: { id: number; account: string; name: string }[];
    };
    const submission = queue.data.find((entry) => entry.account === newEmail);
    expect(submission?.name).toBe('Zhang San');
    expect((await api('/admin/real_name/approve', adminToken, { id: submission?.id })).type).toBe('ok');

    await fairex.reload();
    await page.getByTestId('real-name-approved').waitFor();
    expect(await page.getByTestId('real-name-approved').innerText()).toContain('11**************34');
    await fairex.goto('/accountSet');
    await expect.poll(() => page.getByTestId('security-level').getAttribute('data-level')).toBe('75');
    expect(await page.getByTestId('real-name-state').innerText()).toBe('Verified');
    await fairex.screenshot('accounts-centre-en-day');
  });

  it('looks right at night and in Chinese', async () => {
    await fairex.toggleNightMode();
    await fairex.screenshot('accounts-centre-en-night');
    await fairex.chooseLanguage('zh');
    await page.getByTestId('invite-code-value').waitFor();
    await fairex.screenshot('accounts-centre-zh-night');
    await fairex.toggleNightMode();
    await fairex.screenshot('accounts-centre-zh-day');
    await page.getByTestId('google-toggle').click();
    await page.getByTestId('totp-qr').waitFor();
    await fairex.screenshot('accounts-totp-dialog-zh-day', false);
    await page.keyboard.press('Escape');
    await logOut(zh.account.logout);
    // The reload lands on the guarded account centre, so the login dialog opens by itself, saying why.
    const login = page.locator('.ant-modal').filter({ hasText: zh.auth.loginTitle });
    await login.getByText(zh.auth.loginRequired).waitFor();
    await login.getByTestId('login-tab-mobile').click();
    await fairex.screenshot('accounts-login-dialog-zh-day', false);
    await page.keyboard.press('Escape');
    await login.waitFor({ state: 'hidden' });
    await fairex.toggleNightMode();
    await page.getByTestId('register-link').click();
    await page.getByTestId('register-next').click();
    await page.getByText(zh.auth.emailRequired).waitFor();
    await fairex.screenshot('accounts-register-dialog-zh-night', false);
    await page.keyboard.press('Escape');
    await fairex.goto('/register?extension_code=ABCD2345');
    expect(await page.getByTestId('invite-code').inputValue()).toBe('ABCD2345');
    await fairex.screenshot('accounts-register-page-zh-night');
    await fairex.toggleNightMode();
    await fairex.chooseLanguage('en');
  });
  it('logs in through the header dialog with the authenticator code as a second step', async () => {
    const post = async (path: string, body: Record<string, unknown>, token = '') => {
      const response = await fetch(`${server.baseURL}/api${path}`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await response.json()) as { type: string; message: unknown; data?: { token: string } };
    };
    // The authenticator is turned on through the API, with the code of the previous 30-second step, so
    // that the current step's code is still unused for the login below.
    const session = await post('/user/login', { account: newEmail, password: THIRD_PASSWORD });
    const token = session.data?.token ?? '';
    const { secret } = (await post('/safe/google/secret', {}, token)).message as { secret: string };
    const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    const bound = await post(
      '/safe/google/bind',
      { code: totp.generate({ timestamp: Date.now() - 30_000 }) },
      token,
    );
    expect(bound.type).toBe('ok');

    await page.getByTestId('login-link').click();
    const login = page.locator('.ant-modal').filter({ hasText: en.auth.loginTitle });
    await login.getByTestId('account-email').fill(newEmail);
    await login.getByTestId('login-password').fill(THIRD_PASSWORD);
    await login.getByTestId('login-submit').click();
    // The second step asks for the code alone; the request that carries it still names the account and
    // holds the password the first step took.
    await login.getByTestId('totp-code').waitFor();
    expect(await login.getByTestId('login-password').count()).toBe(0);
    await login.getByTestId('totp-code').fill(totp.generate());
    await fairex.screenshot('accounts-login-totp-en-day', false);
    await waitForReload(() => login.getByTestId('login-submit').click());
    expect(await page.getByTestId('account-number').innerText()).toBe(
      `${newEmail.slice(0, 2)}***@example.com`,
    );
  });
});
