import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render.tsx';
import { pageControl } from '../../app/page-reload.ts';
import { clearLoginRequest, refreshSession, reportNotLoggedIn } from '../../data/session.ts';
import { closeAuthDialog, openLoginDialog, openRegisterDialog } from './auth-dialogs.ts';
import { fakeAccountApi, ok, refused } from './test-support.tsx';
import {
  isEmail,
  isLoginMobile,
  isLooseEmail,
  isMobileFor,
  isRecoveryMobile,
  isValidPassword,
  securityLevel,
} from './validation.ts';

/** Lazy screens and antd's first render can take a while on a busy machine. */
const SLOW = { timeout: 10_000 };

describe('validation rules', () => {
  it('checks e-mail loosely in the login dialog and strictly elsewhere', () => {
    expect(isLooseEmail('a@b')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('trader@example.com')).toBe(true);
    expect(isEmail('two words@example.com')).toBe(false);
    expect(isEmail(`${'x'.repeat(116)}@b.io`)).toBe(false);
  });

  it('checks mobile numbers by the rules of each form', () => {
    expect(isLoginMobile('1234567')).toBe(true);
    expect(isLoginMobile('123456')).toBe(false);
    expect(isLoginMobile('12a4567')).toBe(false);
    expect(isMobileFor('86', '13800138000')).toBe(true);
    expect(isMobileFor('86', '23800138000')).toBe(false);
    expect(isMobileFor('1', '2025550143')).toBe(true);
    expect(isRecoveryMobile('86', '13800138000')).toBe(true);
    expect(isRecoveryMobile('86', '12800138000')).toBe(false);
    expect(isRecoveryMobile('1', '2025550143')).toBe(true);
  });

  it('wants 6 to 16 characters with letters and digits', () => {
    expect(isValidPassword('abc123')).toBe(true);
    expect(isValidPassword('abc12')).toBe(false);
    expect(isValidPassword('abcdefgh')).toBe(false);
    expect(isValidPassword('12345678')).toBe(false);
    expect(isValidPassword('abc 1234')).toBe(false);
    expect(isValidPassword(`a1${'x'.repeat(15)}`)).toBe(false);
  });

  it('adds 25 to the security level for a phone, an e-mail and approval', () => {
    expect(securityLevel({ phone: null, email: null, review_status: 0 })).toBe(25);
    expect(securityLevel({ phone: '1', email: null, review_status: 1 })).toBe(50);
    expect(securityLevel({ phone: null, email: 'a@b.cc', review_status: 2 })).toBe(75);
    expect(securityLevel({ phone: '1', email: 'a@b.cc', review_status: 2 })).toBe(100);
  });
});

describe('account dialogs', () => {
  beforeEach(() => {
    localStorage.clear();
    refreshSession();
    clearLoginRequest();
    closeAuthDialog();
    vi.spyOn(pageControl, 'reload').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function dialog(title: string): Promise<HTMLElement> {
    const heading = await screen.findByText(title, {}, SLOW);
    return heading.closest('.ant-modal') as HTMLElement;
  }

  it('opens from the header links', async () => {
    fakeAccountApi({});
    renderApp('/');
    fireEvent.click(await screen.findByTestId('login-link', {}, SLOW));
    expect(await dialog('Log in to Fairex')).toBeTruthy();
    act(() => closeAuthDialog());
    fireEvent.click(screen.getByTestId('register-link'));
    expect(await dialog('Create your Fairex account')).toBeTruthy();
  });

  it('shows the login rules of spec 01 section 5 before asking the server', async () => {
    const { calls } = fakeAccountApi({});
    renderApp('/');
    act(() => openLoginDialog());
    const login = await dialog('Log in to Fairex');
    fireEvent.click(within(login).getByTestId('login-submit'));
    expect(await within(login).findByText('Please enter your e-mail address', {}, SLOW)).toBeTruthy();
    expect(within(login).getByText('Please enter the password')).toBeTruthy();
    fireEvent.click(within(login).getByTestId('login-tab-mobile'));
    fireEvent.change(await within(login).findByTestId('account-mobile', {}, SLOW), {
      target: { value: '123456' },
    });
    fireEvent.click(within(login).getByTestId('login-submit'));
    expect(
      await within(login).findByText('The mobile number must be longer than 6 digits', {}, SLOW),
    ).toBeTruthy();
    fireEvent.change(within(login).getByTestId('account-mobile'), { target: { value: '12ab5678' } });
    expect(await within(login).findByText('Please enter a valid mobile number', {}, SLOW)).toBeTruthy();
    expect(calls.filter((call) => call.path === '/user/login')).toEqual([]);
  });

  it('logs in, stores the session and reloads one second later', async () => {
    const user = {
      id: 7,
      account: 'trader@example.com',
      extension_code: 'ABCDEFGH',
      is_seller: 0,
      phone: null,
      area_code: null,
      email: 'trader@example.com',
      review_status: 0,
      google_bind: 0,
      created_at: '',
    };
    const { calls } = fakeAccountApi({
      '/user/login': (body) =>
        body.get('password') === 'secret123'
          ? { type: 'ok', message: 'T'.repeat(43), data: { token: 'T'.repeat(43), user } }
          : refused('The account or the password is wrong.'),
      '/user/info': () => ok(user),
    });
    renderApp('/');
    act(() => openLoginDialog());
    const login = await dialog('Log in to Fairex');
    fireEvent.change(within(login).getByTestId('account-email'), { target: { value: 'trader@example.com' } });
    fireEvent.change(within(login).getByTestId('login-password'), { target: { value: 'wrong' } });
    fireEvent.click(within(login).getByTestId('login-submit'));
    expect(await screen.findByText('The account or the password is wrong.', {}, SLOW)).toBeTruthy();
    fireEvent.change(within(login).getByTestId('login-password'), { target: { value: 'secret123' } });
    fireEvent.click(within(login).getByTestId('login-submit'));
    expect(await screen.findByText('Logged in.', {}, SLOW)).toBeTruthy();
    expect(localStorage.getItem('token')).toBe('T'.repeat(43));
    expect(localStorage.getItem('accountNum')).toBe('trader@example.com');
    expect(localStorage.getItem('user_id')).toBe('7');
    expect(localStorage.getItem('is_seller')).toBe('0');
    const sent = calls.find(
      (call) => call.path === '/user/login' && call.body.get('password') === 'secret123',
    );
    expect(Object.fromEntries(sent?.body ?? [])).toEqual({
      type: 'email',
      email: 'trader@example.com',
      password: 'secret123',
    });
    await waitFor(() => expect(pageControl.reload).toHaveBeenCalledTimes(1));
  });

  it('asks for the authenticator code when two-factor is on, sending the password again with it', async () => {
    fakeAccountApi({
      // As the server does: the second request must carry the account and password as well as the code.
      '/user/login': (body) =>
        !body.get('password') || !body.get('email')
          ? refused('Password is required')
          : body.get('totp_code')
            ? refused('The authenticator code is wrong or has already been used.')
            : {
                type: 'error',
                message: 'Enter the 6-digit code from your authenticator app.',
                totp_required: true,
              },
    });
    renderApp('/');
    act(() => openLoginDialog());
    const login = await dialog('Log in to Fairex');
    fireEvent.change(within(login).getByTestId('account-email'), { target: { value: 'trader@example.com' } });
    fireEvent.change(within(login).getByTestId('login-password'), { target: { value: 'secret123' } });
    fireEvent.click(within(login).getByTestId('login-submit'));
    fireEvent.change(await within(login).findByTestId('totp-code', {}, SLOW), {
      target: { value: '123456' },
    });
    fireEvent.click(within(login).getByTestId('login-submit'));
    expect(
      await screen.findByText('The authenticator code is wrong or has already been used.', {}, SLOW),
    ).toBeTruthy();
  });

  it('registers in two steps and opens the login dialog with a message', async () => {
    const { calls } = fakeAccountApi({
      '/user/check': () => ok('This account can be registered.'),
      '/sms_mail': () => ok('A verification code has been sent.'),
      '/user/check_email': (body) =>
        body.get('email_code') === '123456'
          ? ok('The verification code is correct.')
          : refused('The verification code is wrong. 4 tries left.'),
      '/user/register': () => ok('Registration complete. Please log in.'),
    });
    renderApp('/');
    act(() => openRegisterDialog({ inviteCode: 'INVITE88' }));
    const register = await dialog('Create your Fairex account');
    fireEvent.change(within(register).getByTestId('account-email'), { target: { value: 'new@example.com' } });
    fireEvent.click(within(register).getByTestId('register-next'));
    expect((await within(register).findByTestId('register-target', {}, SLOW)).textContent).toContain(
      'new@example.com',
    );
    expect((within(register).getByTestId('invite-code') as HTMLInputElement).value).toBe('INVITE88');

    fireEvent.click(within(register).getByTestId('send-code'));
    expect(await screen.findByText('A verification code has been sent.', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(within(register).getByTestId('send-code').textContent).toBe('Resend in 60 s'));
    expect((within(register).getByTestId('send-code') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(within(register).getByTestId('code'), { target: { value: '123456' } });
    fireEvent.change(within(register).getByTestId('password'), { target: { value: 'secret123' } });
    fireEvent.change(within(register).getByTestId('re-password'), { target: { value: 'secret124' } });
    fireEvent.click(within(register).getByTestId('register-submit'));
    expect(await within(register).findByText('The two passwords do not match', {}, SLOW)).toBeTruthy();
    fireEvent.change(within(register).getByTestId('re-password'), { target: { value: 'secret123' } });
    // Spec 01 section 5: the terms must be ticked in the dialog too.
    fireEvent.click(within(register).getByTestId('register-submit'));
    expect(await within(register).findByText('Please accept the terms of use first', {}, SLOW)).toBeTruthy();
    fireEvent.click(within(register).getByTestId('agreement'));
    fireEvent.click(within(register).getByTestId('register-submit'));
    const login = await dialog('Log in to Fairex');
    expect(await within(login).findByText('Registration complete. Please log in.', {}, SLOW)).toBeTruthy();
    expect((within(login).getByTestId('account-email') as HTMLInputElement).value).toBe('new@example.com');
    expect(calls.map((call) => call.path)).toEqual(
      expect.arrayContaining(['/user/check', '/sms_mail', '/user/check_email', '/user/register']),
    );
    const sent = calls.find((call) => call.path === '/user/register');
    expect(sent?.body.get('extension_code')).toBe('INVITE88');
  });

  it('opens the login dialog half a second after a 999 answer, saying why', async () => {
    fakeAccountApi({});
    renderApp('/');
    await screen.findByTestId('login-link', {}, SLOW);
    act(() => reportNotLoggedIn());
    const login = await dialog('Log in to Fairex');
    expect(within(login).getByText('Your session has ended. Please log in again.')).toBeTruthy();
  });
});

describe('register page', () => {
  beforeEach(() => {
    localStorage.clear();
    refreshSession();
    closeAuthDialog();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('prefills from the link, wants the agreement, and checks the e-mail before sending a code', async () => {
    const { calls } = fakeAccountApi({});
    renderApp('/register?email=friend%40example.com&extension_code=FRIEND22');
    await screen.findByTestId('register-page', {}, SLOW);
    expect((screen.getByTestId('account-email') as HTMLInputElement).value).toBe('friend@example.com');
    expect((screen.getByTestId('invite-code') as HTMLInputElement).value).toBe('FRIEND22');
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Please accept the terms of use first', {}, SLOW)).toBeTruthy();
    // The form shows each field's message when that field's own check settles, not all at once.
    expect(await screen.findByText('Please enter the verification code', {}, SLOW)).toBeTruthy();

    fireEvent.change(screen.getByTestId('account-email'), { target: { value: 'friend@example' } });
    fireEvent.click(screen.getByTestId('send-code'));
    expect(
      await screen.findByText('Enter a valid e-mail address before sending the code', {}, SLOW),
    ).toBeTruthy();
    expect(calls.some((call) => call.path === '/sms_mail')).toBe(false);
  });
});

describe('forgot password page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says an e-mail address that does not conform so, without asking the server', async () => {
    const { calls } = fakeAccountApi({});
    renderApp('/forgetPwd');
    fireEvent.change(await screen.findByTestId('account-email', {}, SLOW), {
      target: { value: 'someone@host' },
    });
    fireEvent.click(screen.getByTestId('forgot-verify'));
    expect(
      await screen.findByText('The phone number or e-mail address does not conform', {}, SLOW),
    ).toBeTruthy();
    fireEvent.click(screen.getByTestId('forgot-tab-mobile'));
    fireEvent.change(await screen.findByTestId('account-mobile', {}, SLOW), {
      target: { value: '12800138000' },
    });
    fireEvent.click(screen.getByTestId('forgot-verify'));
    expect(
      await screen.findAllByText('The phone number or e-mail address does not conform', {}, SLOW),
    ).not.toHaveLength(0);
    expect(
      calls.some((call) => call.path === '/user/check_email' || call.path === '/user/check_mobile'),
    ).toBe(false);
  });
});
