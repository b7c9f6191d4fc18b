import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import type { LeverTradePayload } from '@fairex/shared/socket-events.ts';
import type * as SocketModule from '../../data/socket.ts';
import type { FakeMarketSocket } from '../../data/market-test-support.ts';
import { sessionStore } from '../../data/session.ts';
import { fakeApi, renderScreens } from '../news/test-support.tsx';
import LeverListPage from './LeverListPage.tsx';

// The leverage orders page (holdings tab first) reads nothing on a timer: profits and the risk rate move with the mark, and the
// server pushes `lever_trade` to every holder of a pair whose mark moved. The page reads again on that push
// and after a reconnect (pushes sent while the socket was down are lost), and otherwise not at all.

const fake = vi.hoisted(() => ({ socket: null as FakeMarketSocket | null }));

vi.mock('../../data/socket.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketModule>();
  const { FakeMarketSocket } = await import('../../data/market-test-support.ts');
  const socket = new FakeMarketSocket();
  fake.socket = socket;
  return { ...actual, socketManager: new actual.SocketManager({ createSocket: () => socket }) };
});

const PUSH: LeverTradePayload = {
  type: 'lever_trade',
  legal_id: 3,
  hazard_rate: '250.00',
  profits_all: '-12.000000',
  profits: '0.000000',
  caution_money_all: '67.033500',
  trades_all: '[]',
  trades_entrust: '[]',
};

afterEach(() => {
  sessionStore.setState({ token: null });
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('/leverList', () => {
  it('reads the holdings again on a lever_trade push and after a reconnect, never on a timer', async () => {
    sessionStore.setState({ token: 'x'.repeat(43) });
    const api = fakeApi({
      '/lever/dealall': () => ({ risks: [], trades_all: [], trades_entrust: [] }),
      '/lever/my_trade': () => ({ data: [], total: 0, per_page: 10, current_page: 1, last_page: 1 }),
    });
    const reads = (path: string) => api.calls.filter((call) => call.path === path).length;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    renderScreens([{ path: '/leverList', element: <LeverListPage /> }], '/leverList');
    await screen.findByTestId('lever-list-page');
    await waitFor(() => expect([reads('/lever/dealall'), reads('/lever/my_trade')]).toEqual([1, 1]));
    // Far past any polling period: nothing is read on a timer.
    act(() => vi.advanceTimersByTime(60_000));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([reads('/lever/dealall'), reads('/lever/my_trade')]).toEqual([1, 1]);
    act(() => fake.socket!.connect());
    act(() => fake.socket!.push('lever_trade', PUSH));
    await waitFor(() => expect([reads('/lever/dealall'), reads('/lever/my_trade')]).toEqual([2, 2]));
    act(() => fake.socket!.disconnect());
    act(() => fake.socket!.connect());
    await waitFor(() => expect([reads('/lever/dealall'), reads('/lever/my_trade')]).toEqual([3, 3]));
  });
});
