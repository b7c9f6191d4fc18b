import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import { renderApp } from '../../test/render.tsx';
import { jsonResponse, type FakeMarketSocket } from '../../data/market-test-support.ts';
import type { BoardQuotation } from '../../data/market.ts';
import type * as SocketModule from '../../data/socket.ts';
import type * as ChartsModule from '../../charts/index.ts';

const fake = vi.hoisted(() => ({ socket: null as FakeMarketSocket | null }));

// Picking a pair opens the spot screen; its chart draws on canvas frames that jsdom cannot paint and that
// may fire after the test unmounted it, so the chart is a plain element here (the chart has tests of its own).
vi.mock('../../charts/index.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof ChartsModule>()),
  PriceChart: () => <div data-testid="price-chart" />,
}));

// The board's realtime feed runs on the real socket manager over an in-memory socket.
vi.mock('../../data/socket.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof SocketModule>();
  const { FakeMarketSocket } = await import('../../data/market-test-support.ts');
  const socket = new FakeMarketSocket();
  fake.socket = socket;
  return { ...actual, socketManager: new actual.SocketManager({ createSocket: () => socket }) };
});

function pair(
  currencyId: number,
  base: string,
  fields: Partial<BoardQuotation>,
  quote = 'USDT',
  legalId = 3,
): Record<string, unknown> {
  return {
    legal_id: legalId,
    currency_id: currencyId,
    legal_name: quote,
    currency_name: base,
    is_display: 1,
    ...fields,
  };
}

const QUOTATIONS = [
  pair(1, 'BTC', {
    now_price: '67012.34',
    change: '1.254',
    high: '67500.123456',
    low: '66000.5',
    volume: '1234.5678',
    amount: '82734567.12',
  }),
  pair(2, 'ETH', {
    now_price: '3500.1',
    change: '-0.5',
    high: '3600',
    low: '3400',
    volume: '20000',
    amount: '70000000',
  }),
  pair(4, 'XRP', {
    now_price: '0.52341234',
    change: '3.1',
    high: '0.53',
    low: '0.5',
    volume: '5000000',
    amount: '2600000',
  }),
  pair(5, 'DOGE', {
    now_price: '0.123456',
    change: '0',
    high: '0.13',
    low: '0.12',
    volume: '90000000',
    amount: '11000000',
  }),
  pair(6, 'LINK', {
    now_price: '14.2',
    change: '-2.75',
    high: '15',
    low: '14',
    volume: '80000',
    amount: '1150000',
  }),
  pair(7, 'LTC', {
    now_price: '80.5',
    change: '0.4',
    high: '81',
    low: '79',
    volume: '9000',
    amount: '724500',
  }),
  // A pair the operator hides, and a pair quoted in another currency: neither belongs on the board.
  pair(8, 'TRX', {
    now_price: '0.1',
    change: '9',
    high: '0.1',
    low: '0.1',
    volume: '1',
    amount: '999999999',
  }),
  pair(
    2,
    'ETH',
    { now_price: '0.052', change: '1', high: '0.06', low: '0.05', volume: '1', amount: '1' },
    'BTC',
    1,
  ),
];
QUOTATIONS[6]!.is_display = 0;

let fetchMock = vi.fn<typeof fetch>();

function answerQuotations(message: unknown = [{ name: 'USDT', quotation: QUOTATIONS }]): void {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/currency/quotation_new')) return jsonResponse({ type: 'ok', message });
    return jsonResponse({ type: 'error', message: `unexpected ${url}` }, 404);
  });
}

/** The screen is a lazy chunk: on a busy machine its first render can take longer than the default wait. */
const FIRST_RENDER = { timeout: 10_000 };

function card(base: string): HTMLElement {
  return screen.getByTestId(`market-card-${base}`);
}

function row(base: string): HTMLElement {
  return screen.getByTestId(`market-row-${base}`);
}

/** The text a reader gets from each cell; decoration hidden from assistive technology is left out. */
function cells(element: HTMLElement): string[] {
  return [...element.querySelectorAll('td')].map((cell) => {
    const copy = cell.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return copy.textContent ?? '';
  });
}

describe('market board', () => {
  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the featured cards, every displayed USDT pair and both rankings', async () => {
    answerQuotations();
    renderApp('/market');
    await screen.findByTestId('market-card-BTC', {}, FIRST_RENDER);

    const cardOrder = within(screen.getByTestId('market-cards'))
      .getAllByRole('link')
      .map((link) => link.dataset.testid);
    expect(cardOrder).toEqual(['BTC', 'ETH', 'XRP', 'DOGE', 'LINK'].map((base) => `market-card-${base}`));
    expect(within(card('BTC')).getByTestId('card-price').textContent).toBe('67,012.3400');
    expect(within(card('BTC')).getByTestId('card-change').textContent).toBe('+1.25%');
    expect(card('BTC').textContent).toContain('82.73M');
    expect(card('BTC').dataset.direction).toBe('up');
    expect(card('ETH').dataset.direction).toBe('down');
    expect(card('DOGE').dataset.direction).toBe('flat');
    expect(within(card('XRP')).getByTestId('card-price').textContent).toBe('0.5234');

    // Prices to 4 places, high and low to 5, volume and turnover in K/M/B.
    expect(cells(row('BTC'))).toEqual([
      'BTC/USDT',
      '67,012.3400',
      '+1.25%',
      '67,500.12346',
      '66,000.50000',
      '1.23K BTC',
      '82.73M USDT',
    ]);
    const table = screen.getByTestId('market-table');
    expect(table.querySelectorAll('tbody tr[data-row-key]')).toHaveLength(6);
    expect(screen.queryByTestId('market-row-TRX')).toBeNull();

    const byTurnover = within(screen.getByTestId('ranking-turnover')).getAllByRole('listitem');
    expect(byTurnover.map((item) => item.querySelector('.fx-coin-base')?.textContent)).toEqual([
      'BTC',
      'ETH',
      'DOGE',
      'XRP',
      'LINK',
      'LTC',
    ]);
    fireEvent.click(screen.getByTestId('ranking-tab-gain'));
    const byGain = within(await screen.findByTestId('ranking-gain')).getAllByRole('listitem');
    expect(byGain.map((item) => item.querySelector('.fx-coin-base')?.textContent)).toEqual([
      'XRP',
      'BTC',
      'LTC',
      'DOGE',
      'ETH',
      'LINK',
    ]);
  });

  it('follows live daymarket tickers, matched by legal_id and currency_id', async () => {
    answerQuotations();
    renderApp('/market');
    await screen.findByTestId('market-card-BTC', {}, FIRST_RENDER);
    const socket = fake.socket!;
    await waitFor(() => expect(socket.subscriptions()).toContain('daymarket'));
    expect(screen.getByTestId('connection-status').dataset.status).toBe('live');

    const ticker: DaymarketPayload = {
      type: 'daymarket',
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      now_price: '65999.99999',
      close: '65999.99999',
      change: '-1.5',
      high: '67500.2',
      low: '65000',
      volume: '2000',
      amount: '130000000',
      mark_price: null,
      index_price: null,
      price: '65999.99999',
      price_kind: 'trade',
    };
    act(() => socket.push('daymarket', ticker));
    await waitFor(() =>
      expect(within(card('BTC')).getByTestId('card-price').textContent).toBe('66,000.0000'),
    );
    expect(within(card('BTC')).getByTestId('card-change').textContent).toBe('-1.50%');
    expect(card('BTC').dataset.direction).toBe('down');
    expect(cells(row('BTC')).slice(1)).toEqual([
      '66,000.0000',
      '-1.50%',
      '67,500.20000',
      '65,000.00000',
      '2.00K BTC',
      '130.00M USDT',
    ]);
    // The ETH/BTC pair shares currency_id 2 with ETH/USDT but not legal_id: the ticker of one never moves the other.
    act(() =>
      socket.push('daymarket', {
        ...ticker,
        symbol: 'ETH/BTC',
        legal_id: 1,
        currency_id: 2,
        now_price: '0.06',
        price: '0.06',
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(within(card('ETH')).getByTestId('card-price').textContent).toBe('3,500.1000');
  });

  it('shows the recorded mark, labelled "M" with its tooltip, where no user has traded', async () => {
    const untraded = { now_price: '', change: '0.00', high: '', low: '', volume: '0', amount: '0' };
    answerQuotations([
      {
        name: 'USDT',
        quotation: [
          pair(1, 'BTC', { ...untraded, mark_price: '67010.5', price: '67010.5', price_kind: 'mark' }),
          pair(2, 'ETH', { ...untraded, price: '', price_kind: 'none' }),
        ],
      },
    ]);
    renderApp('/market');
    await screen.findByTestId('market-card-BTC', {}, FIRST_RENDER);
    const price = within(card('BTC')).getByTestId('card-price');
    expect(price.textContent).toBe('67,010.5000M');
    expect(price.dataset.kind).toBe('mark');
    expect(within(price).getByTestId('mark-tag').getAttribute('title')).toBe('Mark price (no trades yet)');
    expect(cells(row('BTC'))[1]).toBe('67,010.5000M');
    // Before the first price sample there is nothing to show: a dash, and no label.
    expect(within(card('ETH')).getByTestId('card-price').textContent).toBe('--');
    // The first trade replaces the mark and its label.
    const socket = fake.socket!;
    await waitFor(() => expect(socket.subscriptions()).toContain('daymarket'));
    act(() =>
      socket.push('daymarket', {
        type: 'daymarket',
        symbol: 'BTC/USDT',
        legal_id: 3,
        currency_id: 1,
        now_price: '67020',
        close: '67020',
        change: '0.00',
        high: '67020',
        low: '67020',
        volume: '0.1',
        amount: '6702',
        mark_price: '67011',
        index_price: '67009',
        price: '67020',
        price_kind: 'trade',
      }),
    );
    await waitFor(() =>
      expect(within(card('BTC')).getByTestId('card-price').textContent).toBe('67,020.0000'),
    );
    expect(within(card('BTC')).queryByTestId('mark-tag')).toBeNull();
  });

  it('filters the table by a typed pair', async () => {
    answerQuotations();
    renderApp('/market');
    await screen.findByTestId('market-row-ETH', {}, FIRST_RENDER);
    const search =
      within(screen.getByTestId('market-search')).queryByRole('textbox') ?? screen.getByRole('textbox');
    fireEvent.change(search, { target: { value: 'eth/u' } });
    await waitFor(() => expect(screen.queryByTestId('market-row-BTC')).toBeNull());
    expect(screen.getByTestId('market-row-ETH')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'zzz' } });
    await screen.findByText('No pair matches "zzz".');
  });

  it('says so when no market is listed instead of showing made-up pairs', async () => {
    answerQuotations([]);
    renderApp('/market');
    await screen.findByText('No markets are listed yet.', {}, FIRST_RENDER);
    expect(screen.queryByTestId('market-cards')).toBeNull();
  });

  it('shows the server refusal with a retry that asks again', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ type: 'error', message: 'Market data is resting.' }),
    );
    renderApp('/market');
    await screen.findByText('The markets could not be loaded.', {}, FIRST_RENDER);
    expect(screen.getByText('Market data is resting.')).toBeTruthy();
    answerQuotations();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('market-card-BTC', {}, FIRST_RENDER);
  });

  it('remembers the chosen pair for the trading screens', async () => {
    answerQuotations();
    const { router } = renderApp('/market');
    await screen.findByTestId('market-row-LINK', {}, FIRST_RENDER);
    fireEvent.click(row('LINK'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dealCenter'));
    expect(localStorage.getItem('symbol')).toBe('LINK/USDT');
    expect(localStorage.getItem('legal_id')).toBe('3');
    expect(localStorage.getItem('currency_id')).toBe('6');
  });
});
