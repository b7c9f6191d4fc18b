import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import enUS from 'antd/es/locale/en_US.js';
import { Providers } from '../../app/Providers.tsx';
import { sessionStore } from '../../data/session.ts';
import { LOAD_MORE_AFTER_ROWS, OrdersPanel } from './OrdersPanel.tsx';
import type { CompletedTrade, OpenOrder } from '../../data/spot.ts';

const pair = { legalId: 3, currencyId: 1, legalName: 'USDT', currencyName: 'BTC' };

const openOrder: OpenOrder = {
  id: 41,
  create_time: '2026-11-21 13:14:40',
  time: Date.UTC(2026, 10, 21, 5, 14, 40),
  symbol: 'BTC/USDT',
  legal_id: 3,
  currency_id: 1,
  currency_name: 'BTC',
  legal_name: 'USDT',
  type: 'in',
  way: 2,
  price: '29500.00',
  total_number: '0.0550',
  complete_number: '0.0100',
  number: '0.0450',
  total_money: '1622.500000',
  status: 'partially_filled',
  stop_price: null,
};

function trade(id: number): CompletedTrade {
  return {
    id,
    time: `2026-11-21 13:${String(id).padStart(2, '0')}:00`,
    // The same instant as `time`, which the server wrote in Asia/Shanghai (UTC+8).
    time_ms: Date.UTC(2026, 10, 21, 5, id, 0),
    symbol: 'BTC/USDT',
    legal_id: 3,
    currency_id: 1,
    currency_name: 'BTC',
    legal_name: 'USDT',
    number: '0.1000',
    price: '30000.00',
    total_money: '3000.000000',
    in_fee: '0.00010000',
    out_fee: '3.000000',
    type: id % 2 === 0 ? 'in' : 'out',
    way: 1,
    role: 'taker',
  };
}

function page<T>(list: T[], current = 1, last = 1) {
  return { list, current_page: current, last_page: last, per_page: 10, total: list.length };
}

function reply(message: unknown): Response {
  return new Response(JSON.stringify({ type: 'ok', message }));
}

const fetchMock = vi.fn<typeof fetch>();

/** Answers each API path from the table; records the form bodies sent. */
function serve(routes: Record<string, (body: URLSearchParams) => unknown>) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname.replace(/^\/api/, '');
    const route = routes[path];
    if (route === undefined) throw new Error(`unexpected call ${path}`);
    return reply(route(new URLSearchParams(String(init?.body ?? ''))));
  });
}

function renderPanel(loggedIn = true) {
  return render(
    <Providers language="en" antdLocale={enUS}>
      <MemoryRouter>
        <OrdersPanel pair={pair} loggedIn={loggedIn} />
      </MemoryRouter>
    </Providers>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  sessionStore.setState({ token: 'x'.repeat(43) });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStore.setState({ token: null });
});

describe('orders panel', () => {
  it('lists open orders in a table with column headers and formatted money', async () => {
    serve({ '/transaction_in': () => page([openOrder]), '/transaction_out': () => page([]) });
    renderPanel();
    const table = within(screen.getByTestId('current-orders')).getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => [header.textContent, header.getAttribute('scope')]);
    expect(headers).toEqual(
      // Times are labelled with the display zone's offset (Asia/Shanghai by default).
      [
        'Time (UTC+8)',
        'Pair',
        'Side',
        'Type',
        'Status',
        'Price',
        'Amount',
        'Filled',
        'Remaining',
        'Total',
        'Action',
      ].map((name) => [name, 'col']),
    );
    const row = await screen.findByTestId('open-order-row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '2026-11-21 13:14:40',
      'BTC/USDT',
      'Buy',
      'Limit',
      'Partly filled',
      '29,500.00',
      '0.0550',
      '0.0100',
      '0.0450',
      '1,622.500000',
      'Cancel',
    ]);
  });

  it('says a stop-limit order waits for its stop, and names the stop (issue 45)', async () => {
    const stopSell: OpenOrder = {
      ...openOrder,
      id: 42,
      type: 'out',
      way: 1,
      price: '65926.00',
      complete_number: '0.0000',
      number: '0.0550',
      status: 'pending',
      stop_price: '66000.00',
    };
    serve({ '/transaction_in': () => page([]), '/transaction_out': () => page([stopSell]) });
    renderPanel();
    fireEvent.click(screen.getByTestId('subtab-sell'));
    const row = await screen.findByTestId('open-order-row');
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(2, 6)).toEqual(['Sell', 'Stop-limit', 'Waiting for stop 66,000.00', '65,926.00']);
  });

  it('shows the empty state for a side without orders', async () => {
    serve({ '/transaction_in': () => page([openOrder]), '/transaction_out': () => page([]) });
    renderPanel();
    await screen.findByTestId('open-order-row');
    fireEvent.click(screen.getByTestId('subtab-sell'));
    expect(await screen.findByText('No open BTC/USDT orders')).toBeTruthy();
    expect(screen.queryByTestId('open-order-row')).toBeNull();
  });

  it('revokes an order only after the confirmation', async () => {
    const revoked: string[] = [];
    let open = [openOrder];
    serve({
      '/transaction_in': () => page(open),
      '/transaction_del': (body) => {
        revoked.push(body.toString());
        open = [];
        return 'Order cancelled.';
      },
    });
    renderPanel();
    await screen.findByTestId('open-order-row');
    fireEvent.click(screen.getByTestId('revoke-41'));
    expect(revoked).toEqual([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Order cancelled.')).toBeTruthy();
    expect(revoked).toEqual(['id=41&type=in']);
    await waitFor(() => expect(screen.queryByTestId('open-order-row')).toBeNull());
  });

  it('keeps the order when the question is answered no', async () => {
    const revoked: string[] = [];
    serve({
      '/transaction_in': () => page([openOrder]),
      '/transaction_del': (body) => {
        revoked.push(body.toString());
        return 'Order cancelled.';
      },
    });
    renderPanel();
    await screen.findByTestId('open-order-row');
    fireEvent.click(screen.getByTestId('revoke-41'));
    expect(screen.getByRole('group', { name: 'Cancel this order?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'No' }));
    expect(screen.getByTestId('revoke-41')).toBeTruthy();
    expect(revoked).toEqual([]);
  });

  it('lists the history and loads more once more than eight rows are shown', async () => {
    const first = Array.from({ length: 10 }, (_, index) => trade(20 - index));
    const second = [trade(10), trade(9)];
    serve({
      '/transaction_in': () => page([]),
      '/transaction_complete': (body) => (body.get('page') === '2' ? page(second, 2, 2) : page(first, 1, 2)),
    });
    renderPanel();
    fireEvent.click(screen.getByTestId('tab-history'));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(10));
    expect(first.length).toBeGreaterThan(LOAD_MORE_AFTER_ROWS);
    const [buy, sell] = screen.getAllByTestId('history-row');
    expect(
      within(buy!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '2026-11-21 13:20:00',
      'BTC/USDT',
      'Buy',
      '30,000.00',
      '0.1000',
      '3,000.000000',
      '0.00010000 BTC',
      'Taker',
    ]);
    expect(within(sell!).getAllByRole('cell')[6]?.textContent).toBe('3.000000 USDT');
    fireEvent.click(screen.getByTestId('history-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(12));
    expect(screen.queryByTestId('history-load-more')).toBeNull();
  });

  it('asks a visitor to log in', () => {
    renderPanel(false);
    expect(screen.getByText('Log in to see your orders.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
