import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { cancelAllOrders, fetchAllOpenOrders, fetchMarketEstimate, fetchOrderHistory } from './orders.ts';

const fetchMock = vi.fn<typeof fetch>();

function reply(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
}

function called(index = 0): { url: URL; init: RequestInit } {
  const [input, init] = fetchMock.mock.calls[index] as [string, RequestInit];
  return { url: new URL(input, 'http://fairex.test'), init };
}

const page = { list: [], data: [], current_page: 1, last_page: 1, per_page: 20, total: 0 };

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('orders data', () => {
  it('reads open orders of every pair with the filters in the query', async () => {
    fetchMock.mockResolvedValue(reply({ type: 'ok', message: { ...page, total: 3 } }));
    const list = await fetchAllOpenOrders({ side: 'buy', startMs: 1_700_000_000_000, page: 2, perPage: 20 });
    expect(list.total).toBe(3);
    const { url, init } = called();
    expect(url.pathname).toBe('/api/orders/open');
    expect(init.method).toBe('GET');
    expect(url.searchParams.get('side')).toBe('buy');
    expect(url.searchParams.get('start_time')).toBe('1700000000000');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('per_page')).toBe('20');
    expect(url.searchParams.has('symbol')).toBe(false);
  });

  it('reads the history of one pair and one status, and refuses an answer that is not a page', async () => {
    fetchMock.mockResolvedValueOnce(reply({ type: 'ok', message: page }));
    await fetchOrderHistory({ symbol: 'BTC/USDT', status: 'cancelled', page: 1, perPage: 20 });
    const { url } = called();
    expect(url.pathname).toBe('/api/orders/history');
    expect(url.searchParams.get('symbol')).toBe('BTC/USDT');
    expect(url.searchParams.get('status')).toBe('cancelled');
    fetchMock.mockResolvedValueOnce(reply({ type: 'ok', message: 'nothing' }));
    await expect(fetchOrderHistory({ page: 1, perPage: 20 })).rejects.toBeInstanceOf(ApiError);
  });

  it('cancels all of one pair or everywhere and returns the message and the count', async () => {
    fetchMock.mockImplementation(async () =>
      reply({ type: 'ok', message: '2 orders cancelled.', orders: { count: 2, ids: [4, 5] } }),
    );
    expect(await cancelAllOrders('BTC/USDT')).toEqual({ message: '2 orders cancelled.', count: 2 });
    expect(called().url.pathname).toBe('/api/orders/cancel_all');
    expect(called().init.method).toBe('POST');
    expect(String(called().init.body)).toBe('symbol=BTC%2FUSDT');
    await cancelAllOrders(null);
    expect(String(called(1).init.body)).toBe('');
  });

  it('passes a refusal of cancel all through as the server said it', async () => {
    fetchMock.mockResolvedValue(reply({ type: 'error', message: 'No such market.' }));
    await expect(cancelAllOrders('NOPE/USDT')).rejects.toThrow('No such market.');
  });

  it('reads a market order estimate as decimal text', async () => {
    const estimate = {
      side: 'sell',
      symbol: 'BTC/USDT',
      number: '0.1000',
      total: '2990.000000',
      average_price: '29900.00',
      worst_price: '29800.00',
      band_price: null,
      band_percent: null,
      fee: '2.990000',
      fee_currency: 'USDT',
      complete: true,
      stop_reason: null,
    };
    fetchMock.mockResolvedValue(reply({ type: 'ok', message: estimate }));
    const answer = await fetchMarketEstimate({ legalId: 3, currencyId: 1, side: 'sell', num: '0.1' });
    expect(answer).toEqual(estimate);
    expect(typeof answer.total).toBe('string');
    const { url } = called();
    expect(url.pathname).toBe('/api/transaction/estimate');
    expect(url.searchParams.get('num')).toBe('0.1');
    expect(url.searchParams.has('total')).toBe(false);
  });
});
