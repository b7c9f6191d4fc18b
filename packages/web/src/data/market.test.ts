import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { jsonResponse } from './market-test-support.ts';
import { fetchBars, fetchBoardQuotations, readBar, readQuotation, shownPrice, withTicker } from './market.ts';

describe('market data over HTTP', () => {
  let fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    fetchMock = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchMock);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps only decimal strings from a quotation; a number or an empty price is a gap, not a guess', () => {
    const quotation = readQuotation({
      legal_id: 3,
      currency_id: '1',
      legal_name: 'USDT',
      currency_name: 'BTC',
      now_price: 67000.5,
      change: '-1.25',
      high: '',
      low: '1e5',
      volume: '12.5',
      amount: '837500.00',
      is_display: 1,
      logo: '',
    });
    expect(quotation).toEqual({
      legal_id: 3,
      currency_id: 1,
      legal_name: 'USDT',
      currency_name: 'BTC',
      change: '-1.25',
      volume: '12.5',
      amount: '837500.00',
      is_display: 1,
    });
    expect(readQuotation({ legal_id: 3, legal_name: 'USDT', currency_name: 'BTC' })).toBeNull();
    expect(readQuotation('BTC')).toBeNull();
  });

  it('lays a ticker over a quotation, field by field', () => {
    const base = readQuotation({
      legal_id: 3,
      currency_id: 1,
      legal_name: 'USDT',
      currency_name: 'BTC',
      now_price: '1',
    })!;
    const live = withTicker(base, {
      type: 'daymarket',
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      now_price: '2',
      close: '2',
      change: '100.00',
      high: '',
      low: '1',
      volume: '3',
      amount: '6',
      mark_price: null,
      index_price: null,
      price: '2',
      price_kind: 'trade',
    });
    expect(live).toMatchObject({ now_price: '2', change: '100.00', low: '1', volume: '3', amount: '6' });
    expect(live.high).toBeUndefined();
    expect(base.now_price).toBe('1');
  });

  it('keeps the mark and index prices of a row and of a ticker, and leaves out an empty last price', () => {
    const base = readQuotation({
      legal_id: 3,
      currency_id: 1,
      legal_name: 'USDT',
      currency_name: 'BTC',
      now_price: '',
      mark_price: '67010.50',
      index_price: null,
    })!;
    expect(base.now_price).toBeUndefined();
    expect(base.mark_price).toBe('67010.50');
    expect(base.index_price).toBeUndefined();
    const ticker = {
      type: 'daymarket' as const,
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      now_price: '',
      close: '',
      change: '0',
      high: '',
      low: '',
      volume: '0',
      amount: '0',
      mark_price: '67011.00',
      index_price: '67009.75',
      price: '67011.00',
      price_kind: 'mark' as const,
    };
    expect(withTicker(base, ticker)).toMatchObject({ mark_price: '67011.00', index_price: '67009.75' });
  });

  it('shows one price by one rule: the last trade, else the mark (labelled), never the mark as a trade', () => {
    const pairFields = { legal_id: 3, currency_id: 1, legal_name: 'USDT', currency_name: 'BTC' };
    const untraded = readQuotation({
      ...pairFields,
      now_price: '',
      mark_price: '67010.50',
      price: '67010.50',
      price_kind: 'mark',
    })!;
    expect(shownPrice(untraded)).toEqual({ price: '67010.50', kind: 'mark' });
    // A server that sends no kind: the last traded price, else the mark, still labelled.
    expect(shownPrice({ mark_price: '67010.50' })).toEqual({ price: '67010.50', kind: 'mark' });
    expect(shownPrice({ now_price: '67000', mark_price: '67010.50' })).toEqual({
      price: '67000',
      kind: 'trade',
    });
    // Whatever now_price says, the kind decides: a mark sent in the price is never taken for a trade.
    expect(shownPrice({ now_price: '67010.50', price: '67010.50', price_kind: 'mark' }).kind).toBe('mark');
    expect(shownPrice({ price_kind: 'none', mark_price: '1' })).toEqual({ price: undefined, kind: 'trade' });
    expect(readQuotation({ ...pairFields, price_kind: 'guess' })?.price_kind).toBeUndefined();
    const ticker = {
      type: 'daymarket' as const,
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      now_price: '67020.00',
      close: '67020.00',
      change: '0',
      high: '67020.00',
      low: '67020.00',
      volume: '1',
      amount: '67020',
      mark_price: '67011.00',
      index_price: '67009.75',
      price: '67020.00',
      price_kind: 'trade' as const,
    };
    expect(shownPrice(withTicker(untraded, ticker))).toEqual({ price: '67020.00', kind: 'trade' });
  });

  it('reads every quotation group of the board call', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({
        type: 'ok',
        message: [
          {
            name: 'BTC',
            quotation: [{ legal_id: 1, currency_id: 2, legal_name: 'BTC', currency_name: 'ETH' }],
          },
          {
            name: 'USDT',
            quotation: [{ legal_id: 3, currency_id: 1, legal_name: 'USDT', currency_name: 'BTC' }],
          },
        ],
      }),
    );
    const quotations = await fetchBoardQuotations();
    expect(quotations.map((quotation) => `${quotation.currency_name}/${quotation.legal_name}`)).toEqual([
      'ETH/BTC',
      'BTC/USDT',
    ]);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toMatch(/^\/api\/currency\/quotation_new\?/);
    expect(init?.method).toBe('POST');
  });

  it('asks for bars in seconds and reads {code: 1, data}', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({
        code: 1,
        msg: 'ok',
        data: [
          {
            id: 1,
            time: 60_000,
            open: '1.0',
            high: '2.0',
            low: '0.5',
            close: '1.5',
            volume: '10',
            source: 'simulated',
          },
          { time: 120_000, open: '1.5', high: '2.0', low: '0.5', close: 1.7, volume: '10' },
        ],
      }),
    );
    const bars = await fetchBars({
      symbol: 'BTC/USDT',
      period: '5min',
      fromMs: 1_700_000_000_500,
      toMs: 1_700_000_300_200,
    });
    expect(bars).toEqual([
      { time: 60_000, open: '1.0', high: '2.0', low: '0.5', close: '1.5', volume: '10', source: 'simulated' },
    ]);
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost');
    expect(url.pathname).toBe('/api/currency/new_timeshar');
    expect(
      Object.fromEntries(['symbol', 'period', 'from', 'to'].map((key) => [key, url.searchParams.get(key)])),
    ).toEqual({
      symbol: 'BTC/USDT',
      period: '5min',
      from: '1700000000',
      to: '1700000301',
    });
  });

  it('turns {code: -1, msg} into an error with the server’s words', async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ code: -1, msg: 'Unknown market', data: [] }));
    const failure = fetchBars({ symbol: 'NOPE/USDT', period: '1min', fromMs: 0, toMs: 1 });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow('Unknown market');
    expect(readBar({ time: 1.5, open: '1', high: '1', low: '1', close: '1', volume: '1' })).toBeNull();
  });
});
