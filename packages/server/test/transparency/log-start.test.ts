// A fresh exchange's log holds its price record from the very first sample: start-up starts the log (a
// journaled `startLog`) before the scheduler submits its first `recordPriceSamples`, so the first sample of
// a market has a leaf and an inclusion proof to a signed checkpoint (docs/transparency.md, "Starting the
// log"). Before, the log started after the live market's first samples, which stayed outside it for good.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInclusion, parseNoteKey, verifyCheckpointNote } from '../../../../scripts/verify-prices.ts';
import type { HistoryBar, PriceQuote, PriceSource } from '../../src/market/price-source.ts';
import type { Period } from '../../src/market/periods.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, projected, removeTempDirs, tempDir } from '../helper.ts';
import { until } from '../market/helpers.ts';

const ORIGIN = 'start.test/fairex-log';

/** A source that prices BTC/USDT only, at one price, with no history to backfill. */
const source: PriceSource = {
  name: 'simulated',
  knows: (symbol) => symbol === 'BTC/USDT',
  start: () => {},
  resume: () => {},
  latest: (symbol, nowMs): PriceQuote | undefined =>
    symbol === 'BTC/USDT' ? { price: '67250.00', timeMs: nowMs } : undefined,
  history: async () => new Map<Period, HistoryBar[]>(),
  close: async () => {},
};

let store: Store;
let app: FastifyInstance;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, {
    liveMarket: true,
    transparencyLog: true,
    market: { source, intervals: { indexMs: 50, indexWaitMs: 2_000 } },
    env: {
      DATA_DIR: await tempDir('fairex-log-start-'),
      LOG_ORIGIN: ORIGIN,
      LOG_CHECKPOINT_INTERVAL_MS: '1000',
      MARKET_MAKER: 'off',
    },
  });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await store?.close();
  await removeTempDirs();
});

async function get(url: string) {
  const response = await app.inject({ method: 'GET', url });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as { message: any } };
}

describe('a fresh exchange', () => {
  it('has its very first price sample in the log, with an inclusion proof to a signed checkpoint', async () => {
    const first = async () =>
      (
        await store.query<{ seq: string }>(
          'select seq::text as seq from price_samples where market_id = 1 order by seq limit 1',
        )
      ).rows[0]?.seq;
    await until(async () => (await first()) !== undefined);
    const seq = await first();
    const leaf = await get(`/api/log/sample?symbol=BTC/USDT&seq=${seq}`);
    expect(leaf.status, JSON.stringify(leaf.body)).toBe(200);
    const index = leaf.body.message.index as number;
    expect(leaf.body.message.entry).toContain(`BTC/USDT ${seq} `);

    // A checkpoint that covers the leaf, signed with the log's key; the proof leads from the leaf to its root.
    await until(async () => (await get('/api/log/checkpoint')).body.message.size > index);
    await projected(app);
    const key = (await get('/api/log/key')).body.message.key as string;
    const note = (await get('/api/log/checkpoint')).body.message.note as string;
    const checkpoint = verifyCheckpointNote(note, parseNoteKey(key));
    const inclusion = await get(`/api/log/inclusion?index=${index}&size=${checkpoint.size}`);
    expect(inclusion.status).toBe(200);
    const proof = (inclusion.body.message.proof as string[]).map((hex) => Buffer.from(hex, 'hex'));
    const leafHash = Buffer.from(inclusion.body.message.leaf_hash as string, 'hex');
    expect(checkInclusion(leafHash, index, checkpoint.size, proof, checkpoint.root)).toBe(true);
  });
});
