import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { renderApp } from '../test/render.tsx';
import { clearLoginRequest, refreshSession, sessionStore } from '../data/session.ts';
import { authDialogStore, closeAuthDialog } from '../features/auth/auth-dialogs.ts';

function logIn(): void {
  localStorage.setItem('token', 'token-1');
  localStorage.setItem('accountNum', 'trader@example.com');
  refreshSession();
}

describe('router', () => {
  beforeEach(() => {
    localStorage.clear();
    refreshSession();
    clearLoginRequest();
    closeAuthDialog();
  });

  it('renders the landing page at /', async () => {
    renderApp('/');
    expect(await screen.findByTestId('home')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('Every trade,');
    expect(screen.getByTestId('hero-register').getAttribute('href')).toBe('/components/register');
    await waitFor(() => expect(document.title).toBe('Fairex'));
  });

  it('shows the translated 404 page for an unknown path', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    expect(screen.getByText('Page not found')).toBeTruthy();
    expect(screen.getByText('The address /no/such/page does not match any page on Fairex.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found · Fairex'));
  });

  it('renders the success page at /success, titled, with the generic text for an unknown action', async () => {
    renderApp('/success?what=nothing-known');
    const page = await screen.findByTestId('success-page');
    expect(page.getAttribute('data-kind')).toBe('done');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Done');
    expect(page.textContent).not.toContain('nothing-known');
    expect(screen.queryByTestId('not-found')).toBeNull();
    await waitFor(() => expect(document.title).toBe('Done · Fairex'));
  });

  it('sends a visitor at a guarded route to the login prompt and remembers where they were going', async () => {
    const { router } = renderApp('/accountSet?tab=security');
    await screen.findByTestId('home');
    expect(router.state.location.pathname).toBe('/');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('login')).toBe('1');
    expect(params.get('redirect')).toBe('/accountSet?tab=security');
    // The login dialog takes the request (and remembers the redirect) and says why it opened.
    expect(await screen.findByText('Please log in to open this page.')).toBeTruthy();
    expect(screen.getByText('Log in to Fairex')).toBeTruthy();
    expect(authDialogStore.getState()).toMatchObject({ open: 'login', redirect: '/accountSet?tab=security' });
    expect(sessionStore.getState().loginRequest).toBeNull();
  });

  it('guards /new_account too', async () => {
    const { router } = renderApp('/new_account');
    await screen.findByTestId('home');
    expect(router.state.location.search).toBe('?login=1&redirect=%2Fnew_account');
  });

  it('lets a logged-in user through a guarded route', async () => {
    logIn();
    const { router } = renderApp('/new_account');
    expect(await screen.findByTestId('assets-page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/new_account');
  });

  it('forwards /account to /accountSet, through its guard', async () => {
    const { router } = renderApp('/account');
    await screen.findByTestId('home');
    expect(router.state.location.search).toBe('?login=1&redirect=%2FaccountSet');
  });

  it('follows a template hash link to the route it names, query included', async () => {
    const { router } = renderApp('/#/components/register?extension_code=ABC');
    await screen.findByTestId('register-page');
    expect((screen.getByTestId('invite-code') as HTMLInputElement).value).toBe('ABC');
    expect(router.state.location.pathname).toBe('/components/register');
    expect(router.state.location.search).toBe('?extension_code=ABC');
    expect(router.state.location.hash).toBe('');
  });
});
