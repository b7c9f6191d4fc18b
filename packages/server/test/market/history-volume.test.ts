// Simulated or backfilled candles carry zero volume in every reply shape: stored with none, served with
// none even when an older version stored the source's volume (the chart reply that Fairex and template-era
// clients read, and the socket's kline push), while a bar of real trades keeps its volume.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBars } from '../../src/market/backfill.ts';
import type { Bar } from '../../src/market/candles.ts';
import { upsertBars } from '../../src/market/candles.ts';
import type { MarketInfo } from '../../src/market/market-catalog.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';

let store: Store;
let app: FastifyInstance;
let market: MarketInfo;
const minute = Math.floor(Date.now() / 60_000) * 60_000 - 10 * 60_000;

function bar(openTimeMs: number, source: string, volume: bigint, turnover: bigint): Bar {
  return {
    marketId: market.marketId,
    period: '1min',
    openTimeMs,
    open: 6_700_000,
    high: 6_710_000,
    low: 6_690_000,
    close: 6_705_000,
    volume,
    turnover,
    tradeCount: source === 'trades' ? 3 : 0,
    firstTradeId: source === 'trades' ? 1 : null,
    lastTradeId: source === 'trades' ? 3 : null,
    source,
  };
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  market = (await app.marketData.catalog.bySymbol('BTC/USDT')) as MarketInfo;
});

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('history candles', () => {
  it('are stored with zero volume whatever the source reported', () => {
    const history = new Map([
      [
        '1min' as const,
        [
          {
            openTimeMs: minute - 60_000,
            open: '67000',
            high: '67100',
            low: '66900',
            close: '67050',
            volume: '12.5',
            turnover: '838125',
          },
        ],
      ],
    ]);
    const bars = toBars(market, history, Date.now(), 'simulated');
    expect(bars).toHaveLength(1);
    expect(bars[0]).toMatchObject({ open: 6_700_000, close: 6_705_000, volume: 0n, turnover: 0n });
  });

  it('are served with zero volume in the chart reply and the kline push; trades keep theirs', async () => {
    // A simulated bar as an older version stored it (with the source's volume), then a bar of trades.
    await upsertBars(store, [
      bar(minute, 'simulated', 1_250_000n, 838_125_000_000n),
      bar(minute + 60_000, 'trades', 30_000n, 2_010_000_000n),
    ]);
    const response = await app.inject({
      method: 'GET',
      url: `/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=${minute}&to=${minute + 60_000}`,
    });
    const body = response.json() as { data: { volume: string; amount: string; source: string }[] };
    expect(body.data.map((row) => [row.source, row.volume, row.amount])).toEqual([
      ['simulated', '0.0000', '0.000000'],
      ['trades', '0.0003', '2010.000000'],
    ]);
    // The socket's kline push of a bar that did not come from trades says no volume either.
    expect(app.marketData.klinePayload(market, bar(minute, 'simulated', 50_000n, 1n)).volume).toBe('0.0000');
    expect(app.marketData.klinePayload(market, bar(minute, 'trades', 50_000n, 1n)).volume).toBe('0.0005');
  });
});
