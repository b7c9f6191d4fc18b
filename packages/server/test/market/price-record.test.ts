// The public price record on a real app (PGlite, or PostgreSQL with DATABASE_URL): samples, heads, proofs
// and mark bars answer what the engine chained, in the shapes of the contract; the repository's verifier
// accepts them as served and refuses them once one byte of one sample is changed; the mark and index reach
// the deal reply and every quotation row; bad input is a translated refusal, never a 500.
import type { FastifyInstance } from 'fastify';
import { formatTicks } from '@fairex/engine';
import type { PriceSampledEvent, PriceSourceQuote } from '@fairex/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sample } from '../../../../scripts/verify-prices.ts';
import { VerificationError, verifyChain, verifyExchange } from '../../../../scripts/verify-prices.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs } from '../helper.ts';
import { BTC_USDT, fundTraders, restingBid, trade, until } from './helpers.ts';

const HEAD_MS = 40;
let store: Store;
let app: FastifyInstance;
/** Every sample of BTC/USDT the engine emitted, in chain order. */
const events: PriceSampledEvent[] = [];

async function sample(btc: PriceSourceQuote[], eth: PriceSourceQuote[]): Promise<void> {
  const outcome = await app.runner.submit({
    type: 'recordPriceSamples',
    maxAgeMs: 10_000,
    minSources: 1,
    headIntervalMs: HEAD_MS,
    samples: [
      [1, btc],
      [2, eth],
    ],
  });
  expect(outcome.code).toBe(0);
  for (const event of outcome.events)
    if (event.type === 'priceSampled' && event.marketId === 1) events.push(event);
}

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store);
  await app.ready();
  await fundTraders(app);
  await restingBid(app, 6_690_000, 3);
  for (let step = 0; step < 24; step++) {
    const now = Date.now();
    // Every fifth sample has only an old source: stale.
    const btc: PriceSourceQuote[] =
      step % 5 === 4
        ? [['binance', 6_700_000 + step, now - 60_000]]
        : [
            ['binance', 6_700_000 + step * 3, now],
            ['simulated', 6_700_100 - step, now - 500],
          ];
    await sample(btc, [['simulated', 348_000 + step, now]]);
    await new Promise((resolve) => setTimeout(resolve, step % 3 === 0 ? HEAD_MS : 5));
  }
  // The public reads below come from the projections, written behind the journal.
  await projected(app);
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url, headers });
  expect(response.statusCode).toBe(200);
  // Replies of several shapes (samples, heads, proofs, bars, errors), each checked by value below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return response.json() as { type: string; message: any };
}

const fetchFromApp = async (url: string) => {
  const { pathname, search } = new URL(url);
  const response = await app.inject({ method: 'GET', url: pathname + search });
  return { json: async () => response.json() as unknown };
};

function expected(event: PriceSampledEvent): Sample {
  const price = (ticks: number | null) => (ticks === null ? null : formatTicks(ticks, '0.01'));
  return {
    symbol: 'BTC/USDT',
    seq: event.seq,
    time: event.timeMs,
    source_time: event.sourceTimeMs,
    index_price: price(event.indexTicks),
    mark_price: price(event.markTicks),
    sources: event.sources.map(([name, ticks, time]) => ({ name, price: formatTicks(ticks, '0.01'), time })),
    stale: event.stale,
    prev_hash: event.prevHash,
    hash: event.hash,
  };
}

describe('GET /api/price/samples', () => {
  it('answers every sample as the engine chained it, oldest first, and the chain verifies', async () => {
    const body = await get(`/api/price/samples?symbol=BTC/USDT&from=0&to=${Date.now() + 1000}`);
    expect(body.type).toBe('ok');
    expect(body.message.symbol).toBe('BTC/USDT');
    expect(body.message.samples).toEqual(events.map(expected));
    expect(verifyChain(body.message.samples)?.seq).toBe(24);
    expect(body.message.samples.filter((s: Sample) => s.stale)).toHaveLength(4);
    // A stale sample repeats the last good prices.
    const fifth = body.message.samples[4] as Sample;
    expect(fifth).toMatchObject({ stale: true, index_price: body.message.samples[3].index_price });
    // The median of two sources is their mean rounded down; the bid alone makes no mid, so mark = index.
    expect(body.message.samples[1]).toMatchObject({ index_price: '67000.51', mark_price: '67000.51' });
  });

  it('answers the samples of a time range, inclusive, at most 600', async () => {
    const third = events[2] as PriceSampledEvent;
    const fifth = events[4] as PriceSampledEvent;
    const body = await get(`/api/price/samples?symbol=BTC/USDT&from=${third.timeMs}&to=${fifth.timeMs}`);
    expect(body.message.samples.map((s: Sample) => s.seq)).toEqual([3, 4, 5]);
    await store.query(
      `insert into price_samples (market_id, seq, time_ms, source_time_ms, index_ticks, mark_ticks, sources, stale,
         prev_hash, hash)
       select 5, n, 1000000000000 + n, null, null, null, '[]', true, repeat('0', 64), repeat('a', 64)
         from generate_series(1, 700) as n`,
    );
    const capped = await get('/api/price/samples?symbol=LINK/USDT&from=0&to=1000000100000');
    expect(capped.message.samples).toHaveLength(600);
    expect(capped.message.samples[599].seq).toBe(600);
    await store.query('delete from price_samples where market_id = 5');
  });

  it('refuses a time in seconds with a message that milliseconds are expected, in every language', async () => {
    const seconds = Math.floor(Date.now() / 1000);
    for (const query of [`from=${seconds}`, `from=${seconds - 600}&to=${seconds}`, `to=978307199999`]) {
      const body = await get(`/api/price/samples?symbol=BTC/USDT&${query}&lang=en`);
      expect(body.type, query).toBe('error');
      expect(body.message).toMatch(/milliseconds since 1970 .* looks like seconds/);
    }
    const zh = await get(`/api/price/samples?symbol=BTC/USDT&from=${seconds}&lang=zh`);
    expect(zh).toMatchObject({ type: 'error', message: expect.stringContaining('毫秒') });
    const bars = await get(`/api/price/mark_bars?symbol=BTC/USDT&period=1min&from=${seconds}&lang=en`);
    expect(bars.type).toBe('error');
    // The first millisecond of 2001 is a time in milliseconds; 0 reads from the beginning.
    const edge = await get('/api/price/samples?symbol=BTC/USDT&from=0&to=978307200000');
    expect(edge).toMatchObject({ type: 'ok', message: { samples: [] } });
  });
});

describe('GET /api/price/heads and /api/price/proof', () => {
  it('answers the published heads newest first, of one market or of all', async () => {
    const heads = events.filter((event) => event.head);
    expect(heads.length).toBeGreaterThan(2);
    const body = await get('/api/price/heads?symbol=BTC/USDT&limit=100');
    expect(body.message.heads).toEqual(
      heads
        .reverse()
        .map((event) => ({ symbol: 'BTC/USDT', seq: event.seq, time: event.timeMs, hash: event.hash })),
    );
    const two = await get('/api/price/heads?symbol=BTC/USDT&limit=2');
    expect(two.message.heads).toHaveLength(2);
    const all = await get('/api/price/heads?limit=1000');
    expect(new Set(all.message.heads.map((head: { symbol: string }) => head.symbol))).toEqual(
      new Set(['BTC/USDT', 'ETH/USDT']),
    );
  });

  it('proves each sample up to the first head at or after it, and refuses one no head covers yet', async () => {
    for (const event of events) {
      const head = events.find((candidate) => candidate.head && candidate.seq >= event.seq);
      const response = await get(`/api/price/proof?symbol=BTC/USDT&seq=${event.seq}`);
      if (head === undefined) {
        expect(response).toEqual({
          type: 'error',
          message:
            'No published head covers this sample yet; ask again after the next head (within a minute).',
        });
        continue;
      }
      expect(response.message.head).toEqual({
        symbol: 'BTC/USDT',
        seq: head.seq,
        time: head.timeMs,
        hash: head.hash,
      });
      expect(response.message.samples).toEqual(
        events.filter((e) => e.seq >= event.seq && e.seq <= head.seq).map(expected),
      );
    }
    const beyond = await get('/api/price/proof?symbol=BTC/USDT&seq=999&lang=zh');
    expect(beyond).toEqual({ type: 'error', message: '该交易对的价格记录中尚无此序号的样本。' });
  });
});

describe('GET /api/price/mark_bars', () => {
  it('folds the marks of good samples into bars, oldest first', async () => {
    const good = events.filter((event) => !event.stale);
    const buckets = new Map<number, number[]>();
    for (const event of good) {
      const bucket = Math.floor(event.timeMs / 60_000) * 60_000;
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), event.markTicks as number]);
    }
    const price = (ticks: number) => formatTicks(ticks, '0.01');
    const body = await get(`/api/price/mark_bars?symbol=BTC/USDT&period=1min&from=0&to=${Date.now() + 1000}`);
    expect(body.message).toEqual({
      symbol: 'BTC/USDT',
      period: '1min',
      bars: [...buckets].map(([time, marks]) => [
        time,
        price(marks[0] as number),
        price(Math.max(...marks)),
        price(Math.min(...marks)),
        price(marks.at(-1) as number),
      ]),
    });
    const day = await get(`/api/price/mark_bars?symbol=BTC/USDT&period=1day`);
    const dayStart = Math.floor((Date.now() + 8 * 3_600_000) / 86_400_000) * 86_400_000 - 8 * 3_600_000;
    expect(day.message.bars.at(-1)?.[0]).toBe(dayStart);
  });
});

describe('mark and index elsewhere', () => {
  it('adds the latest mark and index to both deal replies and to each quotation row', async () => {
    const last = events.at(-1) as PriceSampledEvent;
    const mark = formatTicks(last.markTicks as number, '0.01');
    const index = formatTicks(last.indexTicks as number, '0.01');
    const deal = await app.inject({
      method: 'POST',
      url: '/api/transaction/deal',
      payload: { legal_id: BTC_USDT.quoteId, currency_id: BTC_USDT.baseId },
    });
    expect(deal.json().message).toMatchObject({ mark_price: mark, index_price: index });
    const leverDeal = await app.inject({
      method: 'POST',
      url: '/api/lever/deal',
      payload: { legal_id: BTC_USDT.quoteId, currency_id: BTC_USDT.baseId },
    });
    expect(leverDeal.json().message).toMatchObject({ mark_price: mark, index_price: index });
    const quotations = await get('/api/currency/quotation_new');
    const rows = quotations.message.flatMap((group: { quotation: unknown[] }) => group.quotation);
    expect(rows.find((row: { symbol: string }) => row.symbol === 'BTC/USDT')).toMatchObject({
      mark_price: mark,
      index_price: index,
    });
    // A market without samples has none yet.
    expect(rows.find((row: { symbol: string }) => row.symbol === 'LINK/USDT')).toMatchObject({
      mark_price: null,
      index_price: null,
    });
    const payload = app.marketData.daymarketPayload(
      app.marketData.catalog.cachedById(1)!,
      app.marketData.ticker(1),
    );
    expect(payload).toMatchObject({ mark_price: mark, index_price: index });
  });

  it('gives each pair one price and its kind: the mark before a user trade, then the last trade', async () => {
    const last = events.at(-1) as PriceSampledEvent;
    const mark = formatTicks(last.markTicks as number, '0.01');
    const row = async (symbol: string) => {
      const quotations = await get('/api/currency/quotation_new');
      const rows = quotations.message.flatMap((group: { quotation: unknown[] }) => group.quotation);
      return rows.find((entry: { symbol: string }) => entry.symbol === symbol);
    };
    const daymarket = () =>
      app.marketData.daymarketPayload(app.marketData.catalog.cachedById(1)!, app.marketData.ticker(1));
    // No user has traded BTC/USDT: the recorded mark stands in as the price now, and says so.
    expect(await row('BTC/USDT')).toMatchObject({ now_price: mark, price: mark, price_kind: 'mark' });
    expect(daymarket()).toMatchObject({ now_price: mark, price: mark, price_kind: 'mark' });
    // No sample yet: nothing to show.
    expect(await row('LINK/USDT')).toMatchObject({ now_price: '', price: '', price_kind: 'none' });
    await trade(app, 6_700_500, 2);
    await until(() => app.marketData.ticker(1).lastTicks === 6_700_500);
    expect(await row('BTC/USDT')).toMatchObject({
      now_price: '67005.00',
      price: '67005.00',
      price_kind: 'trade',
    });
    expect(daymarket()).toMatchObject({ price: '67005.00', price_kind: 'trade' });
  });
});

describe('the verifier against the app', () => {
  it('accepts the record as served', async () => {
    const report = await verifyExchange('http://exchange.test', undefined, fetchFromApp);
    // Two markets, and the transparency log, not started in this app: said, not checked.
    expect(report).toHaveLength(3);
    expect(report[0]).toMatch(/^BTC\/USDT: 24 samples chained from seq 1 to 24/);
    expect(report[2]).toMatch(/^log: no checkpoint yet, not checked/);
  });

  it('refuses a record with one changed byte in one sample', async () => {
    const tampering = async (url: string) => {
      const reply = await fetchFromApp(url);
      const body = (await reply.json()) as { message: { samples?: Sample[] } };
      const target = body.message.samples?.find((s) => s.seq === 7);
      if (target !== undefined && url.includes('/samples'))
        target.mark_price = target.mark_price!.replace(/.$/, (d) =>
          d === '9' ? '8' : String(Number(d) + 1),
        );
      return { json: async () => body as unknown };
    };
    await expect(verifyExchange('http://exchange.test', 'BTC/USDT', tampering)).rejects.toThrow(
      /BTC\/USDT sample seq 7: hash .* does not match its record/,
    );
    await expect(verifyExchange('http://exchange.test', 'BTC/USDT', tampering)).rejects.toBeInstanceOf(
      VerificationError,
    );
  });
});

describe('bad input', () => {
  it.each<[string, string?]>([
    ['/api/price/samples?symbol=NOPE/USDT', 'This market does not exist.'],
    [
      '/api/price/samples?symbol=BTC/USDT&from=1000000000010&to=1000000000005',
      'The start of the range must not be after its end.',
    ],
    ['/api/price/samples?symbol=BTC/USDT&from=-1'],
    ['/api/price/samples?from=1'],
    ['/api/price/heads?limit=5000'],
    ['/api/price/heads?symbol=NOPE/USDT', 'This market does not exist.'],
    ['/api/price/proof?symbol=BTC/USDT&seq=0'],
    ['/api/price/proof?symbol=BTC/USDT&seq=abc'],
    ['/api/price/proof?symbol=BTC/USDT'],
    ['/api/price/mark_bars?symbol=BTC/USDT&period=2min'],
    ['/api/price/mark_bars?symbol=BTC/USDT&period=1week'],
    ['/api/price/mark_bars?symbol=BTC/USDT&period=1min&to=99999999999999'],
  ])('%s is a translated refusal', async (url, message) => {
    const before = await store.query('select count(*)::int as n from price_samples');
    const body = await get(url);
    expect(body.type).toBe('error');
    expect(typeof body.message).toBe('string');
    expect(body.message.length).toBeGreaterThan(5);
    if (message !== undefined) expect(body.message).toBe(message);
    expect((await store.query('select count(*)::int as n from price_samples')).rows).toEqual(before.rows);
  });
});

describe('socket', () => {
  it('pushes a published head as price_head to the market channel', async () => {
    const published: [string, string, unknown][] = [];
    const original = app.realtime.publish.bind(app.realtime);
    app.realtime.publish = ((channel: string, event: string, payload: unknown) => {
      published.push([channel, event, payload]);
      return original(channel as never, event as never, payload as never);
    }) as typeof app.realtime.publish;
    try {
      await new Promise((resolve) => setTimeout(resolve, HEAD_MS + 5));
      await sample([['binance', 6_700_500, Date.now()]], []);
      const head = events.at(-1) as PriceSampledEvent;
      expect(head.head).toBe(true);
      await until(() => published.some(([, event]) => event === 'price_head'));
      expect(
        published.filter(([channel, event]) => event === 'price_head' && channel.includes('BTC')),
      ).toEqual([
        [
          'market:BTC/USDT',
          'price_head',
          { type: 'price_head', symbol: 'BTC/USDT', seq: head.seq, time: head.timeMs, hash: head.hash },
        ],
      ]);
    } finally {
      app.realtime.publish = original;
    }
  });
});
