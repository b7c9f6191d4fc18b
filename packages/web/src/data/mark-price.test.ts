import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchLatestMarkAndIndex, fetchMarkBars, readMarkAndIndex } from './mark-price.ts';
import { jsonResponse } from './market-test-support.ts';

function serve(message: unknown) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL) => jsonResponse({ type: 'ok', message }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('mark and index prices', () => {
  it('reads decimal text or null, and nothing else', () => {
    expect(readMarkAndIndex({ mark_price: '67010.50', index_price: null })).toEqual({
      mark: '67010.50',
      index: null,
    });
    expect(readMarkAndIndex({ mark_price: 67010.5, index_price: '' })).toEqual({ mark: null, index: null });
    expect(readMarkAndIndex(undefined)).toEqual({ mark: null, index: null });
  });

  it('takes the latest sample of the last seconds', async () => {
    const fetchMock = serve({
      symbol: 'BTC/USDT',
      samples: [
        { seq: 1, mark_price: '1.00', index_price: '1.01' },
        { seq: 2, mark_price: '2.00', index_price: '2.01' },
      ],
    });
    await expect(fetchLatestMarkAndIndex('BTC/USDT', 1_000_000)).resolves.toEqual({
      mark: '2.00',
      index: '2.01',
    });
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost');
    expect(url.pathname).toBe('/api/price/samples');
    expect(url.searchParams.get('symbol')).toBe('BTC/USDT');
    expect(url.searchParams.get('from')).toBe('990000');
    serve({ symbol: 'BTC/USDT', samples: [] });
    await expect(fetchLatestMarkAndIndex('BTC/USDT', 1_000_000)).resolves.toBeNull();
    serve({ symbol: 'BTC/USDT' });
    await expect(fetchLatestMarkAndIndex('BTC/USDT', 1_000_000)).rejects.toThrow();
  });

  it('reads mark bars and leaves out a bar it cannot trust', async () => {
    serve({
      symbol: 'BTC/USDT',
      period: '1min',
      bars: [
        [60_000, '1.00', '1.20', '0.90', '1.10'],
        [120_000, '1.10', 'NaN', '1.00', '1.05'],
        [180_000, '1.05', '1.06', '1.04', '1.06'],
      ],
    });
    await expect(
      fetchMarkBars({ symbol: 'BTC/USDT', period: '1min', fromMs: 0, toMs: 200_000 }),
    ).resolves.toEqual([
      { time: 60_000, open: '1.00', high: '1.20', low: '0.90', close: '1.10' },
      { time: 180_000, open: '1.05', high: '1.06', low: '1.04', close: '1.06' },
    ]);
  });
});
