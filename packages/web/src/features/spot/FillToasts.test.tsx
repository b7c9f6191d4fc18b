import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { MyFillPayload } from '@fairex/shared/socket-events.ts';
import type * as SocketModule from '../../data/socket.ts';
import type { FakeMarketSocket } from '../../data/market-test-support.ts';
import { sessionStore } from '../../data/session.ts';
import { renderScreens } from '../news/test-support.tsx';
import { FillToasts } from './FillToasts.tsx';

const fake = vi.hoisted(() => ({ socket: null as FakeMarketSocket | null }));

// Fills arrive on the real socket manager over an in-memory socket.
vi.mock('../../data/socket.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketModule>();
  const { FakeMarketSocket } = await import('../../data/market-test-support.ts');
  const socket = new FakeMarketSocket();
  fake.socket = socket;
  return { ...actual, socketManager: new actual.SocketManager({ createSocket: () => socket }) };
});

const FILL: MyFillPayload = {
  type: 'my_fill',
  symbol: 'ETH/USDT',
  legal_id: 3,
  currency_id: 2,
  order_id: 41,
  trade_id: 7,
  side: 'buy',
  role: 'taker',
  price: '2000.00',
  number: '0.5000',
  total: '1000.000000',
  fee: '0.00050000',
  fee_currency: 'ETH',
  time: 1_700_000_000_000,
};

const BOUGHT = 'Filled: bought 0.5000 ETH at 2,000.00 USDT, fee 0.00050000 ETH';

afterEach(() => {
  sessionStore.setState({ token: null });
});

describe('fill toasts', () => {
  it('tell a signed-in user of each fill of their own orders, on any page and pair, once', async () => {
    sessionStore.setState({ token: 'x'.repeat(43) });
    renderScreens([{ path: '/news', element: <FillToasts /> }], '/news');
    // The listener proves the session on the socket, so the server sends the user's room to it.
    await waitFor(() => expect(fake.socket!.emitted.map(([event]) => event)).toContain('login'));
    act(() => fake.socket!.push('my_fill', FILL));
    expect(await screen.findByText(BOUGHT)).toBeTruthy();
    // The same fill again (a repeated delivery) is not announced twice.
    act(() => fake.socket!.push('my_fill', FILL));
    expect(screen.getAllByText(BOUGHT)).toHaveLength(1);
    // The next fill replaces the toast instead of stacking another over the page; a sell reads "sold".
    act(() => fake.socket!.push('my_fill', { ...FILL, order_id: 40, side: 'sell', role: 'maker' }));
    expect(
      await screen.findByText('Filled: sold 0.5000 ETH at 2,000.00 USDT, fee 0.00050000 ETH'),
    ).toBeTruthy();
    expect(screen.queryByText(BOUGHT)).toBeNull();
    expect(document.querySelectorAll('.fx-toast')).toHaveLength(1);
  });

  it('listen to nothing for a visitor', async () => {
    renderScreens([{ path: '/news', element: <FillToasts /> }], '/news');
    act(() => fake.socket!.push('my_fill', { ...FILL, trade_id: 8 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(BOUGHT)).toBeNull();
  });
});
