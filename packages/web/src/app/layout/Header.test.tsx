import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../test/render.tsx';
import { clearLoginRequest, refreshSession } from '../../data/session.ts';
import { pageControl } from '../page-reload.ts';
import { preferencesStore, setNightMode, setPriceColours } from '../preferences/preferences.ts';

describe('header', () => {
  let reload = vi.spyOn(pageControl, 'reload');

  beforeEach(() => {
    localStorage.clear();
    refreshSession();
    clearLoginRequest();
    reload.mockRestore();
    reload = vi.spyOn(pageControl, 'reload').mockImplementation(() => undefined);
  });

  afterEach(() => {
    vi.useRealTimers();
    setNightMode(false);
    setPriceColours('green-up');
  });

  it('links the main screens', async () => {
    renderApp('/');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Markets', '/market'],
      ['Spot', '/dealCenter'],
      ['Leverage', '/leverdealCenter'],
      ['Seconds', '/secondDealCenter'],
      ['Fiat trading', '/fiatradCenter'],
      ['ICO', '/ico'],
      ['Mining', '/miner'],
      ['DeFi', '/defi'],
    ]);
  });

  it('offers all five languages and stores the choice before reloading', async () => {
    renderApp('/');
    fireEvent.click(await screen.findByTestId('language-trigger'));
    const options = await screen.findAllByTestId(/^language-option-/);
    expect(options.map((option) => option.textContent)).toEqual([
      '简体中文',
      '繁體中文',
      'English',
      '한국어',
      '日本語',
    ]);
    fireEvent.click(screen.getByTestId('language-option-hk'));
    expect(localStorage.getItem('lang')).toBe('hk');
    expect(localStorage.getItem('locale')).toBe('zh-HK');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('switches night mode and stores it', async () => {
    renderApp('/');
    const toggle = await screen.findByTestId('night-toggle');
    expect(toggle.getAttribute('aria-label')).toBe('Switch to night mode');
    fireEvent.click(toggle);
    expect(localStorage.getItem('night_mode')).toBe('1');
    expect(preferencesStore.getState().nightMode).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('night-toggle').getAttribute('aria-label')).toBe('Switch to day mode'),
    );
  });

  it('stores the price colour convention under downUp', async () => {
    renderApp('/');
    fireEvent.click(await screen.findByTestId('preferences-trigger'));
    fireEvent.click(await screen.findByTestId('price-colours-red-up'));
    expect(localStorage.getItem('downUp')).toBe('red-up');
    expect(preferencesStore.getState().priceColours).toBe('red-up');
  });

  it('shows login and sign-up links to a visitor', async () => {
    renderApp('/');
    expect((await screen.findByTestId('login-link')).getAttribute('href')).toBe('/components/login');
    expect(screen.getByTestId('register-link').getAttribute('href')).toBe('/components/register');
    expect(screen.queryByTestId('account-trigger')).toBeNull();
  });

  it('shows the masked account to a logged-in user, and logs out with a message and a reload after 1 s', async () => {
    localStorage.setItem('token', 'token-1');
    localStorage.setItem('accountNum', 'trader@example.com');
    localStorage.setItem('symbol', 'BTC/USDT');
    localStorage.setItem('lang', 'en');
    refreshSession();
    renderApp('/');
    expect((await screen.findByTestId('account-number')).textContent).toBe('tr***@example.com');
    expect(screen.queryByTestId('login-link')).toBeNull();

    fireEvent.click(screen.getByTestId('account-trigger'));
    expect(await screen.findByText('Assets')).toBeTruthy();
    expect(screen.getByText('Account settings')).toBeTruthy();
    expect(screen.getByText('Trade log')).toBeTruthy();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    fireEvent.click(screen.getByText('Log out'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('symbol')).toBeNull();
    expect(localStorage.getItem('lang')).toBe('en');
    vi.advanceTimersByTime(999);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reload).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    expect(await screen.findByText('You have logged out.')).toBeTruthy();
    expect(await screen.findByTestId('login-link')).toBeTruthy();
  });
});
