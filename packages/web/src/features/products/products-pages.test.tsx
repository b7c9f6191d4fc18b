import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import type { ComponentType } from 'react';
import { Providers } from '../../app/Providers.tsx';
import { sessionStore } from '../../data/session.ts';
import { authDialogStore } from '../auth/auth-dialogs.ts';
import DefiPage from './DefiPage.tsx';
import IcoPage from './IcoPage.tsx';
import MinerPage from './MinerPage.tsx';
import { MinerExtractPage } from './MinerRentPages.tsx';
import UpstartPage from './UpstartPage.tsx';
import { defiItem, icoItem, iepnInfo, minerInfo, minerItem } from './fixtures.ts';

const fetchMock = vi.fn<typeof fetch>();

function reply(message: unknown): Response {
  return new Response(JSON.stringify({ type: 'ok', message }));
}

const ICO = icoItem();
const MINER = minerItem();
const RENT = minerItem({ id: 41, miner_number: '3', end_load: '6.66', earnings_total: '0.00006000' });
const DEFI = defiItem();
const HELD = defiItem({
  defi_number: '100',
  earnings_total: '0.06575342',
  total: '100.06575342',
  stakes: [
    {
      id: 11,
      number: '100',
      earnings: '0.06575342',
      daily: '0.03287671',
      apr_bp: 1200,
      defi_day: 30,
      days_accrued: 2,
      start_time: Date.UTC(2026, 10, 24),
      end_time: Date.UTC(2026, 11, 24),
      create_time: Date.UTC(2026, 10, 23),
      early_exit: 'forfeit',
      state: 'running',
      returned: null,
    },
  ],
});

function answer(url: string): Response {
  const path = url.slice(0, url.indexOf('?') < 0 ? url.length : url.indexOf('?'));
  switch (path) {
    case '/api/ico/list':
      return reply({ data: [ICO] });
    case '/api/ico/balance':
      return reply({
        balance: { currency: 3, currency_name: 'USDT', ico_balance: '100.000000', lock_ico_balance: '0' },
      });
    case '/api/ico/buy':
      return reply({ message: 'Bought 3 IEPN.', holding_id: 1, number: '3', amount: '0.375000' });
    case '/api/iepn':
      return reply(iepnInfo());
    case '/api/miner/list':
      return reply({ data: [MINER] });
    case '/api/miner/record':
      return reply({ data: [RENT] });
    case '/api/miner/balance':
      return reply({
        balance: { currency: 3, currency_name: 'USDT', miner_balance: '1000.00', lock_miner_balance: '0' },
      });
    case '/api/miner/buy':
      return reply({ message: 'Rented.', holding_id: 41, rent: '300.00', fee: '6.00', paid: '306.00' });
    case '/api/miner/info':
      return reply(minerInfo());
    case '/api/miner/extract_record':
      return reply({
        data: [
          {
            id: 2,
            extract_amount: '0.00001000',
            create_time_format: '2026-11-25 09:00:00',
            currency_name: 'BTC',
          },
        ],
      });
    case '/api/miner/extract':
      return reply({ message: 'Extracted.', amount: '0.00002' });
    case '/api/defi/list':
      return reply({ data: [DEFI] });
    case '/api/defi/record':
      return reply({ data: [HELD] });
    case '/api/defi/total':
      return reply({ balance: '500.00', total: '100.06' });
    case '/api/defi/balance':
      return reply({
        balance: { defi_balance: '500.00000000', lock_defi_balance: '0', currency: 3, currency_name: 'USDT' },
      });
    case '/api/defi/buy':
      return reply({ message: 'Staked.', holding_id: 12, number: '100', end_time: 0, daily: '0.03287671' });
    default:
      return new Response(JSON.stringify({ type: 'error', message: `unexpected ${url}` }));
  }
}

function renderAt(path: string, Screen: ComponentType, initial = path) {
  const router = createMemoryRouter(
    [
      { path, element: <Screen /> },
      { path: '/dealCenter', element: <div data-testid="deal-stand-in" /> },
    ],
    { initialEntries: [initial] },
  );
  render(
    <Providers language="en" antdLocale={enUS}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

function calls(path: string): URLSearchParams[] {
  return fetchMock.mock.calls
    .filter(([url]) => String(url).startsWith(`/api${path}?`))
    .map(([, init]) => new URLSearchParams(String((init as RequestInit).body ?? '')));
}

function input(testId: string): HTMLInputElement {
  const element = screen.getByTestId(testId);
  return (element instanceof HTMLInputElement ? element : element.querySelector('input')) as HTMLInputElement;
}

function logIn() {
  sessionStore.setState({ token: 'x'.repeat(43) });
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => answer(String(url)));
  vi.stubGlobal('fetch', fetchMock);
  authDialogStore.setState({ open: null });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null });
});

describe('token sales (/ico)', () => {
  it('shows each figure as the server sent it, with the risk note and who holds the unsold tokens', async () => {
    renderAt('/ico', IcoPage);
    await screen.findByTestId('ico-7');
    expect(screen.getByTestId('ico-7-price').textContent).toBe('0.125000');
    expect(screen.getByTestId('ico-7-total').textContent).toBe('10,000');
    expect(screen.getByTestId('ico-7-sold').textContent).toBe('2,500');
    expect(screen.getByTestId('ico-7-remaining').textContent).toBe('7,500');
    expect(screen.getByTestId('ico-7-load').textContent).toBe('25.00%');
    expect(screen.getByTestId('ico-7-hold').textContent).toBe('40');
    const risk = screen.getByTestId('ico-7-risk').textContent ?? '';
    expect(risk).toContain('the sale price is not a guarantee');
    expect(risk).toContain('house account (ICO wallet): 7,500 IEPN');
    expect(risk).toContain('Tokens may lose value.');
  });

  it('asks a visitor to log in for the mine tab and stays on all', async () => {
    renderAt('/ico', IcoPage);
    await screen.findByTestId('ico-7');
    fireEvent.click(screen.getByTestId('ico-tab-1'));
    expect(authDialogStore.getState().open).toBe('login');
    expect(screen.getByTestId('ico-tab--1').getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByTestId('ico-7-buy'));
    expect(calls('/ico/buy')).toEqual([]);
  });

  it('prices a purchase exactly, refuses less than one token without asking, and sends whole tokens', async () => {
    logIn();
    renderAt('/ico', IcoPage);
    fireEvent.click(await screen.findByTestId('ico-7-buy'));
    const dialog = await screen.findByTestId('ico-buy-dialog');
    await waitFor(() => expect(screen.getByTestId('ico-buy-available').textContent).toBe('100.000000 USDT'));
    fireEvent.change(input('ico-buy-number'), { target: { value: '0' } });
    fireEvent.click(screen.getByTestId('ico-buy-confirm'));
    expect((await screen.findByTestId('ico-buy-problem')).textContent).toContain('at least 1');
    expect(calls('/ico/buy')).toEqual([]);
    fireEvent.change(input('ico-buy-number'), { target: { value: '3' } });
    expect(within(dialog).getByTestId('ico-buy-cost').textContent).toBe('0.375000 USDT');
    fireEvent.click(screen.getByTestId('ico-buy-confirm'));
    await waitFor(() => expect(calls('/ico/buy')).toHaveLength(1));
    expect(Object.fromEntries(calls('/ico/buy')[0]!)).toEqual({ id: '7', number: '3' });
    expect(await screen.findByText('Bought 3 IEPN.')).toBeTruthy();
  });
});

describe('the IEPN page (/upstart)', () => {
  it('draws issued against remaining and opens IEPN/USDT on the trading page', async () => {
    const router = renderAt('/upstart', UpstartPage);
    await screen.findByTestId('upstart-info');
    expect(screen.getByTestId('upstart-issued').textContent).toBe('2,500');
    expect(screen.getByTestId('upstart-remaining').textContent).toBe('7,500');
    expect(screen.getByTestId('upstart-issued-share').textContent).toBe('25.00%');
    expect(screen.getByTestId('upstart-remaining-share').textContent).toBe('75.00');
    expect(screen.getByTestId('upstart-total').textContent).toBe('10,000');
    expect(document.querySelector('.ant-progress-circle')).not.toBeNull();
    fireEvent.click(screen.getByTestId('upstart-buy'));
    await screen.findByTestId('deal-stand-in');
    expect(localStorage.getItem('symbol')).toBe('IEPN/USDT');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/dealCenter?symbol=IEPN_USDT',
    );
  });
});

describe('cloud mining (/miner)', () => {
  it('discloses the daily rule and prices a rent with its fee', async () => {
    logIn();
    renderAt('/miner', MinerPage);
    await screen.findByTestId('miner-3');
    expect(screen.getByTestId('miner-3-price').textContent).toBe('100.00');
    expect(screen.getByTestId('miner-3-fee').textContent).toBe('2%');
    expect(screen.getByTestId('miner-3-range').textContent).toBe('0.00000800 - 0.00001200');
    expect(screen.getByTestId('miner-3-rule').textContent).toContain('the operator records');
    expect(screen.getByTestId('miner-3-risk').textContent).toContain('not principal guaranteed');
    fireEvent.click(screen.getByTestId('miner-3-buy'));
    await screen.findByTestId('miner-buy-dialog');
    fireEvent.change(input('miner-buy-number'), { target: { value: '3' } });
    expect(screen.getByTestId('miner-buy-rent').textContent).toBe('300.00 USDT');
    expect(screen.getByTestId('miner-buy-fee').textContent).toBe('6.00 USDT');
    expect(screen.getByTestId('miner-buy-paid').textContent).toBe('306.00 USDT');
    fireEvent.click(screen.getByTestId('miner-buy-confirm'));
    await waitFor(() => expect(calls('/miner/buy')).toHaveLength(1));
    expect(Object.fromEntries(calls('/miner/buy')[0]!)).toEqual({ id: '3', number: '3' });
  });

  it('lists the rents on the mine tab with links to earnings and extraction', async () => {
    logIn();
    renderAt('/miner', MinerPage);
    await screen.findByTestId('miner-3');
    fireEvent.click(screen.getByTestId('miner-tab-1'));
    // While the rents load, the miners of the first tab are not shown as rents (a product card laid out
    // as a rent would link to earnings of a rent that does not exist).
    expect(screen.queryByTestId('miner-rent-3')).toBeNull();
    await screen.findByTestId('miner-rent-41');
    expect(screen.queryByTestId('miner-rent-3')).toBeNull();
    expect(screen.getByTestId('miner-rent-41-earnings-total').textContent).toBe('0.00006000');
    expect(screen.getByTestId('miner-rent-41-extract-link').getAttribute('href')).toBe(
      '/miner_extract?id=41',
    );
    expect(screen.getByTestId('miner-rent-41-earnings-link').getAttribute('href')).toBe(
      '/miner_earnings?id=41',
    );
  });

  it('asks a visitor to log in for tabs 1 and 2', async () => {
    renderAt('/miner', MinerPage);
    await screen.findByTestId('miner-3');
    fireEvent.click(screen.getByTestId('miner-tab-2'));
    expect(authDialogStore.getState().open).toBe('login');
    expect(screen.getByTestId('miner-tab--1').getAttribute('aria-selected')).toBe('true');
  });

  it('extracts the amount as typed and clears the input after success', async () => {
    logIn();
    renderAt('/miner_extract', MinerExtractPage, '/miner_extract?id=41');
    await screen.findByTestId('rent-header');
    expect(screen.getByTestId('rent-total-income').textContent).toBe('0.00007000');
    expect(screen.getByTestId('rent-extracted').textContent).toBe('0.00001000');
    expect(screen.getByTestId('rent-days-left').textContent).toBe('28');
    expect(screen.getByTestId('rent-extractable').textContent).toBe('0.00006000');
    expect(screen.getByTestId('extract-2-amount').textContent).toBe('0.00001000');
    fireEvent.change(input('miner-extract-number'), { target: { value: '0.00002' } });
    fireEvent.click(screen.getByTestId('miner-extract-submit'));
    await waitFor(() => expect(calls('/miner/extract')).toHaveLength(1));
    expect(Object.fromEntries(calls('/miner/extract')[0]!)).toEqual({ id: '41', number: '0.00002' });
    await waitFor(() => expect(input('miner-extract-number').value).toBe(''));
  });
});

describe('defi staking (/defi)', () => {
  it('opens the login dialog for a visitor choosing tab 2, and the tab does not change', async () => {
    renderAt('/defi', DefiPage);
    await screen.findByTestId('defi-5-apr');
    fireEvent.click(screen.getByTestId('defi-tab-2'));
    expect(authDialogStore.getState().open).toBe('login');
    expect(screen.getByTestId('defi-tab--1').getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('defi-wallet-total')).toBeNull();
  });

  it('counts down to the real end every 100 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderAt('/defi', DefiPage);
      const countdown = await screen.findByTestId('defi-5-countdown');
      const before = countdown.textContent;
      expect(before).toMatch(/^\d+d \d\d:\d\d:\d\d\.\d$/);
      await act(async () => {
        vi.advanceTimersByTime(300);
      });
      expect(screen.getByTestId('defi-5-countdown').textContent).not.toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the totals, the holding columns and the stakes on the holdings tab', async () => {
    logIn();
    renderAt('/defi', DefiPage);
    await screen.findByTestId('defi-5-apr');
    expect(screen.getByTestId('defi-5-apr').textContent).toBe('12');
    await waitFor(() => expect(screen.getByTestId('defi-wallet-total').textContent).toBe('500.00 USDT'));
    expect(screen.getByTestId('defi-held-total').textContent).toBe('100.06 USDT');
    expect(screen.getByTestId('defi-5-stake').textContent).toBe('Join');
    fireEvent.click(screen.getByTestId('defi-tab-1'));
    await waitFor(() => expect(screen.getByTestId('defi-5-held').textContent).toBe('100'));
    expect(screen.getByTestId('defi-5-earnings').textContent).toBe('0.06575342');
    expect(screen.getByTestId('defi-5-total').textContent).toBe('100.06575342');
    expect(screen.getByTestId('defi-5-stake').textContent).toBe('Add');
  });

  it('stakes whole coins in a 600 px dialog, refusing an empty amount without a call', async () => {
    logIn();
    renderAt('/defi', DefiPage);
    fireEvent.click(await screen.findByTestId('defi-5-stake'));
    const dialog = await screen.findByTestId('defi-stake-dialog');
    const modal = dialog.closest('.ant-modal') as HTMLElement;
    expect(modal.style.width).toBe('600px');
    fireEvent.change(input('defi-stake-number'), { target: { value: 'abc' } });
    expect(input('defi-stake-number').value).toBe('');
    fireEvent.click(screen.getByTestId('defi-stake-confirm'));
    expect((await screen.findByTestId('defi-stake-problem')).textContent).toBe(
      'Please enter the quantity to stake.',
    );
    expect(calls('/defi/buy')).toEqual([]);
    await waitFor(() =>
      expect(screen.getByTestId('defi-stake-available').textContent).toBe('500.00000000 USDT'),
    );
    fireEvent.change(input('defi-stake-number'), { target: { value: '100' } });
    expect(screen.getByTestId('defi-stake-daily').textContent).toBe('0.03287671 USDT');
    expect(screen.getByTestId('defi-stake-earnings').textContent).toBe('0.98630130 USDT');
    expect(screen.getByTestId('defi-stake-returned').textContent).toBe('100.98630130 USDT');
    fireEvent.click(screen.getByTestId('defi-stake-confirm'));
    await waitFor(() => expect(calls('/defi/buy')).toHaveLength(1));
    expect(Object.fromEntries(calls('/defi/buy')[0]!)).toEqual({ id: '5', number: '100' });
  });
});
