import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../../app/Providers.tsx';
import { sessionStore } from '../../data/session.ts';
import FlashPage from './FlashPage.tsx';

const fetchMock = vi.fn<typeof fetch>();

const FLASH_LIST = {
  legal: { id: 3, name: 'USDT', scale: 6 },
  list: [{ id: 1, name: 'BTC', scale: 8, price: '65000' }],
  fee: '0.2',
  min: '0.1',
};

function reply(message: unknown): Response {
  return new Response(JSON.stringify({ type: 'ok', message }));
}

function answer(url: string): Response {
  if (url.startsWith('/api/wallet/flashAgainstList')) return reply(FLASH_LIST);
  if (url.startsWith('/api/wallet/detail'))
    return reply({ currency: 3, currency_name: 'USDT', scale: 6, type: 'change', balance: '1000.000000' });
  if (url.startsWith('/api/wallet/myFlashAgainstList'))
    return reply({ data: [], current_page: 1, last_page: 1, per_page: 20, total: 0 });
  if (url.startsWith('/api/wallet/flashAgainst')) return reply({ message: 'Exchange complete.', record: {} });
  return new Response(JSON.stringify({ type: 'error', message: `unexpected ${url}` }));
}

function renderFlash() {
  const router = createMemoryRouter(
    [
      { path: '/flash', element: <FlashPage /> },
      { path: '/new_account', element: <div data-testid="assets-stand-in" /> },
    ],
    { initialEntries: ['/flash'] },
  );
  render(
    <Providers language="en" antdLocale={enUS}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

function input(testId: string): HTMLInputElement {
  const element = screen.getByTestId(testId);
  return (element instanceof HTMLInputElement ? element : element.querySelector('input')) as HTMLInputElement;
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url) => answer(String(url)));
  vi.stubGlobal('fetch', fetchMock);
  sessionStore.setState({ token: 'x'.repeat(43) });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null });
});

function flashCalls(): string[] {
  return fetchMock.mock.calls
    .filter(([url]) => String(url).startsWith('/api/wallet/flashAgainst?'))
    .map(([, init]) => String((init as RequestInit).body));
}

describe('flash exchange page', () => {
  it('drives each amount from the other through the server price less the fee', async () => {
    renderFlash();
    await screen.findByTestId('flash-price');
    expect(screen.getByTestId('flash-price').textContent).toBe('1 BTC = 65,000 USDT');
    fireEvent.change(input('flash-paid'), { target: { value: '650' } });
    expect(input('flash-received').value).toBe('0.00998000');
    fireEvent.change(input('flash-received'), { target: { value: '0.00499' } });
    expect(input('flash-paid').value).toBe('325.000000');
  });

  it('refuses less than 0.1 USDT without asking the server', async () => {
    renderFlash();
    await screen.findByTestId('flash-price');
    fireEvent.change(input('flash-paid'), { target: { value: '0.09' } });
    fireEvent.click(screen.getByTestId('flash-submit'));
    expect((await screen.findByTestId('flash-problem')).textContent).toContain('at least 0.1 USDT');
    expect(flashCalls()).toEqual([]);
  });

  it('sends the direction, the coin and the amount (never a price) and returns to the assets page', async () => {
    const router = renderFlash();
    await screen.findByTestId('flash-price');
    fireEvent.change(input('flash-paid'), { target: { value: '650' } });
    fireEvent.click(screen.getByTestId('flash-submit'));
    await waitFor(() => expect(flashCalls()).toEqual(['type=0&coin=1&number=650']));
    expect(await screen.findByText('Exchange complete.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/new_account'));
  });
});
