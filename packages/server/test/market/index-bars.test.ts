// Charts keep drawing before the first trade: a pair that no user has traded gets a bar per minute from the
// recorded index samples (stale samples left out, no volume, source "index"); the first trade with a user
// starts bars of trades, and from its bucket on no bar is made from the index, so no bar mixes both.
// On PGlite, and on PostgreSQL with DATABASE_URL.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { BTC_USDT, fundTraders, trade, until } from './helpers.ts';

const MINUTE_MS = 60_000;
const HASH = 'a'.repeat(64);

let store: Store;
let app: FastifyInstance;
let seq = 0;

/** One recorded sample of BTC/USDT, as the price-record projection stores it. */
async function sample(timeMs: number, indexTicks: number, stale = false): Promise<void> {
  seq += 1;
  await store.query(
    `insert into price_samples (market_id, seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale,
            prev_hash, hash)
     values ($1, $2, $3, $3, $4, $4, '[]', $5, $6, $6)`,
    [BTC_USDT.marketId, seq, timeMs, indexTicks, stale, HASH],
  );
}

interface ChartBar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  amount: string;
  source: string;
}

async function bars(fromMs: number, toMs: number): Promise<ChartBar[]> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/currency/new_timeshar?symbol=${BTC_USDT.symbol}&period=1min&from=${fromMs}&to=${toMs}`,
  });
  expect(response.statusCode).toBe(200);
  const reply = response.json() as { code: number; data: ChartBar[] };
  expect(reply.code).toBe(1);
  return reply.data;
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  await fundTraders(app);
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

describe('bars of a pair without trades', () => {
  const start = Math.floor((Date.now() - 30 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;

  it('are drawn each minute from the recorded index, stale samples left out, with no volume', async () => {
    // Four minutes of samples, a few a minute; one stale sample far off that must not count.
    for (let minute = 0; minute < 4; minute++) {
      const base = 6_700_000 + minute * 1_000;
      await sample(start + minute * MINUTE_MS + 1_000, base);
      await sample(start + minute * MINUTE_MS + 20_000, base + 300);
      await sample(start + minute * MINUTE_MS + 30_000, 9_000_000, true);
      await sample(start + minute * MINUTE_MS + 40_000, base - 200);
      await sample(start + minute * MINUTE_MS + 59_000, base + 100);
    }
    const drawn = await bars(start, start + 10 * MINUTE_MS);
    expect(drawn.map((bar) => bar.time)).toEqual([0, 1, 2, 3].map((minute) => start + minute * MINUTE_MS));
    expect(drawn[1]).toMatchObject({
      open: '67010.00',
      high: '67013.00',
      low: '67008.00',
      close: '67011.00',
      volume: '0.0000',
      amount: '0.000000',
      source: 'index',
    });
    // A new minute of samples is a new bar.
    await sample(start + 4 * MINUTE_MS + 5_000, 6_705_000);
    const more = await bars(start, start + 10 * MINUTE_MS);
    expect(more.at(-1)).toMatchObject({ time: start + 4 * MINUTE_MS, open: '67050.00', source: 'index' });
  });

  it('stop at the first trade: its bucket and every later one are bars of trades alone', async () => {
    await trade(app, 6_710_000, 2);
    await projected(app);
    await until(() => app.marketData.candles.latest(BTC_USDT.marketId, '1min') !== undefined);
    const tradeMinute = app.marketData.candles.latest(BTC_USDT.marketId, '1min')!.openTimeMs;
    // Samples keep being recorded after the first trade, also in its own minute: they make no bars.
    await sample(tradeMinute + 1, 6_800_000);
    await sample(tradeMinute + MINUTE_MS + 1, 6_800_000);
    const drawn = await bars(start, tradeMinute + 5 * MINUTE_MS);
    const index = drawn.filter((bar) => bar.source === 'index');
    const trades = drawn.filter((bar) => bar.source === 'trades');
    expect(index).toHaveLength(5);
    expect(trades.map((bar) => [bar.time, bar.open, bar.close])).toEqual([
      [tradeMinute, '67100.00', '67100.00'],
    ]);
    expect(Math.max(...index.map((bar) => bar.time))).toBeLessThan(tradeMinute);
    // One bar per bucket: none is both.
    expect(new Set(drawn.map((bar) => bar.time)).size).toBe(drawn.length);
  });
});
