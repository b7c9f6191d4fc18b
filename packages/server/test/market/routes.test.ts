// The market-data calls on a real app: their shapes, bars and trades that come from engine trades, and bad
// input answered with a translated refusal in the call's own envelope, never a 500 and never a change.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';
import { BTC_USDT, fundTraders, trade } from './helpers.ts';

let store: Store;
let app: FastifyInstance;
const startedMs = Date.now();

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  await fundTraders(app);
  await trade(app, 6_700_000, 20);
  await trade(app, 6_710_050, 5);
  await trade(app, 6_690_000, 10);
});

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url, headers });
  expect(response.statusCode).toBe(200);
  return response.json() as Record<string, unknown>;
}

describe('GET /api/currency/new_timeshar', () => {
  it('answers bars from the trades, in seconds and milliseconds, with the code envelope', async () => {
    const from = Math.floor(startedMs / 1000) - 120;
    const to = Math.floor(Date.now() / 1000) + 60;
    const body = await get(`/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=${from}&to=${to}`);
    expect(body).toMatchObject({ code: 1, msg: 'Success' });
    const data = body.data as Record<string, unknown>[];
    expect(data.length).toBeGreaterThanOrEqual(1);
    const last = data.at(-1) as Record<string, unknown>;
    expect(last).toMatchObject({ close: '66900.00', low: '66900.00', high: '67100.50', source: 'trades' });
    expect(last.time).toBe((last.id as number) * 1000);
    const volume = data.reduce((sum, bar) => sum + Number(bar.volume), 0);
    expect(volume).toBeCloseTo(0.0035, 10);
    // The same range in milliseconds, and the symbol in other spellings.
    const inMs = await get(
      `/api/currency/new_timeshar?symbol=btc_usdt&period=1m&from=${from * 1000}&to=${to * 1000}`,
    );
    expect(inMs.data).toEqual(data);
    for (const period of ['5min', '15min', '30min', '60min', '1day', '1week', '1mon']) {
      const bars = (await get(`/api/currency/new_timeshar?symbol=BTCUSDT&period=${period}`))
        .data as unknown[];
      expect(bars.length, period).toBeGreaterThanOrEqual(1);
    }
  });

  it('returns the newest bars of a range too long for one answer, oldest first', async () => {
    const base = Date.UTC(2020, 0, 1);
    await store.query(
      `insert into candles (market_id, period, open_time_ms, open_ticks, high_ticks, low_ticks, close_ticks, source)
       select 1, '1min', $1::bigint + n * 60000, 100, 100, 100, 100, 'simulated' from generate_series(0, 1999) as n`,
      [base],
    );
    const body = await get(
      `/api/currency/new_timeshar?symbol=BTC/USDT&period=1min&from=0&to=${Math.floor(base / 1000) + 2000 * 60}`,
    );
    const data = body.data as { time: number; source: string }[];
    expect(data).toHaveLength(1500);
    expect(data[0]?.time).toBe(base + 500 * 60_000);
    expect(data.at(-1)?.time).toBe(base + 1999 * 60_000);
    expect(new Set(data.map((bar) => bar.source))).toEqual(new Set(['simulated']));
  });

  it.each([
    ['', 'en', 'Market is required.'],
    ['symbol=BTC/USDT', 'en', 'Interval is required.'],
    ['symbol=DOGE/BTC&period=1min', 'en', 'This market does not exist.'],
    ['symbol=NOPE&period=1min', 'zh', '该交易对不存在。'],
    [
      'symbol=BTC/USDT&period=2min',
      'en',
      'Unknown chart interval. Use one of: 1min, 5min, 15min, 30min, 60min, 1day, 1week, 1mon.',
    ],
    ['symbol=BTC/USDT&period=1min&from=20&to=10', 'en', 'The start of the range must not be after its end.'],
    ['symbol=BTC/USDT&period=1min&from=20&to=10', 'jp', '開始時刻は終了時刻より後にできません。'],
    ['symbol=BTC/USDT&period=1min&from=abc', 'en', 'From must be a whole number.'],
    ['symbol=BTC/USDT&period=1min&to=-5', 'en', 'To must be a whole number from 0 to 9999999999999.'],
    ['symbol=BTC/USDT&period=1min&from=99999999999999999999', 'en', 'From must be a whole number.'],
    [`symbol=${'X'.repeat(41)}&period=1min`, 'en', 'Market must be 1 to 40 characters long.'],
    ['symbol=BTC%00/USDT&period=1min', 'en', 'Market contains a character that is not allowed.'],
  ])('refuses %s with code -1 and a translated message (%s)', async (query, lang, msg) => {
    expect(await get(`/api/currency/new_timeshar?${query}&lang=${lang}`)).toEqual({
      code: -1,
      msg,
      data: [],
    });
  });
});

describe('quotations', () => {
  it('GET /api/currency/quotation_new lists every pair by quote currency with its ticker', async () => {
    const body = await get('/api/currency/quotation_new');
    expect(body.type).toBe('ok');
    const groups = body.message as { id: number; name: string; quotation: Record<string, unknown>[] }[];
    expect(groups.map((group) => group.name)).toEqual(['USDT']);
    const quotations = groups[0]?.quotation ?? [];
    expect(quotations.map((quotation) => quotation.symbol)).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'XRP/USDT',
      'DOGE/USDT',
      'LINK/USDT',
      'LTC/USDT',
      'TRX/USDT',
    ]);
    expect(quotations[0]).toEqual({
      id: 1,
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      legal_name: 'USDT',
      currency_name: 'BTC',
      logo: '',
      now_price: '66900.00',
      // The last trade with a user (no mark was recorded in this app).
      price_kind: 'trade',
      change: '-0.15',
      high: '67100.50',
      low: '66900.00',
      volume: '0.0035',
      amount: '234.450250',
      is_display: 1,
      price_scale: 2,
      number_scale: 4,
      lever_share_num: '0.01',
      spread: '0.05',
      lever_trade_fee: '0.1',
      // Spot orders match on every pair; leverage is enabled on BTC/USDT by the catalogue; seconds contracts
      // are not open: this app's seconds reserve is empty (template-flags.test.ts has the other cases).
      open_transaction: 1,
      open_coin_trade: 1,
      open_lever: 1,
      open_microtrade: 0,
      // No price sample was recorded in this app: no mark and no index are claimed.
      mark_price: null,
      index_price: null,
      price: '66900.00',
    });
    // A pair that never traded has no price, no change and no volume: nothing is made up.
    expect(quotations[1]).toMatchObject({
      now_price: '',
      price: '',
      price_kind: 'none',
      change: '0.00',
      high: '',
      low: '',
      volume: '0.0000',
      amount: '0.000000',
    });
  });

  it('POST /api/currency/quotation_new is the board: shown pairs only', async () => {
    await store.query('update markets set is_display = false where id = 7');
    await app.marketData.catalog.reload();
    const body = (await app.inject({ method: 'POST', url: '/api/currency/quotation_new' })).json();
    const symbols = body.message[0].quotation.map((quotation: { symbol: string }) => quotation.symbol);
    expect(symbols).toHaveLength(6);
    expect(symbols).not.toContain('TRX/USDT');
    const all = (await get('/api/currency/quotation_new')).message as {
      quotation: { symbol: string; is_display: number }[];
    }[];
    expect(all[0]?.quotation.find((quotation) => quotation.symbol === 'TRX/USDT')?.is_display).toBe(0);
    await store.query('update markets set is_display = true where id = 7');
    await app.marketData.catalog.reload();
  });

  it.each(['/api/quotation', '/api/quotation_new'])('POST %s answers coin_list', async (url) => {
    const body = (await app.inject({ method: 'POST', url, payload: {} })).json();
    expect(body.type).toBe('ok');
    expect(body.message.coin_list[0]).toEqual({
      id: 1,
      name: 'BTC',
      symbol: 'BTC/USDT',
      legal_id: 3,
      currency_id: 1,
      last_price: '66900.00',
      price_kind: 'trade',
      proportion: '-0.15',
      type: 'down',
      high: '67100.50',
      low: '66900.00',
      volume: '0.0035',
      amount: '234.450250',
    });
  });
});

describe('GET /api/currency/new_tradehistory', () => {
  it('lists the latest trades, newest first', async () => {
    const body = await get(`/api/currency/new_tradehistory?legal_id=3&currency_id=1`);
    const list = body.message as Record<string, unknown>[];
    expect(list.map((item) => [item.price, item.amount, item.direction])).toEqual([
      ['66900.00', '0.0010', 'buy'],
      ['67100.50', '0.0005', 'buy'],
      ['67000.00', '0.0020', 'buy'],
    ]);
    expect(list[0]).toMatchObject({ close: '66900.00' });
    // The time as the chart's zone (Asia/Shanghai, UTC+8) shows it, and the milliseconds beside it.
    const timeMs = list[0]?.time_ms as number;
    expect(typeof timeMs).toBe('number');
    const shanghai = new Date(timeMs + 8 * 3_600_000).toISOString();
    expect(list[0]?.time).toBe(`${shanghai.slice(0, 10)} ${shanghai.slice(11, 19)}`);
    expect(
      (await get(`/api/currency/new_tradehistory?legal_id=3&currency_id=1&limit=1`)).message,
    ).toHaveLength(1);
  });

  it.each([
    ['legal_id=3&currency_id=99', 'This market does not exist.'],
    ['legal_id=1&currency_id=3', 'This market does not exist.'],
    ['currency_id=1', 'Quote currency is required.'],
    ['legal_id=x&currency_id=1', 'Quote currency must be a whole number.'],
    ['legal_id=3&currency_id=1&limit=1000', 'Number of items must be a whole number from 1 to 100.'],
  ])('refuses %s', async (query, message) => {
    expect(await get(`/api/currency/new_tradehistory?${query}`)).toEqual({ type: 'error', message });
  });
});

describe('GET /api/currency/detail', () => {
  it('answers the name and the description in the request language', async () => {
    expect((await get('/api/currency/detail?id=1&lang=en')).message).toMatchObject({
      id: 1,
      code: 'BTC',
      name: 'Bitcoin',
    });
    const zh = (await get('/api/currency/detail?id=1', { lang: 'zh' })).message as { desc: string };
    expect(zh.desc).toMatch(/^比特币/);
  });

  it.each([
    ['id=999', 'en', 'This currency does not exist.'],
    ['id=999', 'kr', '존재하지 않는 통화입니다.'],
    ['id=0', 'en', 'ID must be a whole number from 1 to 2147483647.'],
    ['', 'en', 'ID is required.'],
  ])('refuses %s (%s)', async (query, lang, message) => {
    expect(await get(`/api/currency/detail?${query}&lang=${lang}`)).toEqual({ type: 'error', message });
  });
});

describe('bad input changes nothing', () => {
  it('leaves the journal where it was', async () => {
    const before = app.runner.stats().lastSeq;
    await get('/api/currency/new_timeshar?symbol=NOPE&period=1min');
    await get('/api/currency/detail?id=999');
    await get('/api/currency/new_tradehistory?legal_id=3&currency_id=99');
    expect(app.runner.stats().lastSeq).toBe(before);
    expect(BTC_USDT.symbol).toBe('BTC/USDT');
  });
});
