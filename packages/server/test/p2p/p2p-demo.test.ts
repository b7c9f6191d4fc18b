// The demo merchant of a fresh `npm start`: approved, with a sell ad (escrowed) and a buy ad in the book,
// seeded once through the engine's own commands.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { P2pAd } from '@fairex/shared';
import { seedDemoMerchant } from '../../src/p2p/demo.ts';
import type { Store } from '../../src/store/index.ts';
import { buildTestApp, openTestStore, removeTempDirs } from '../helper.ts';

let store: Store;
let app: FastifyInstance;

beforeAll(async () => {
  store = await openTestStore();
  app = await buildTestApp(store, { env: { P2P_WINDOW_SECONDS: '10' } });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
  await removeTempDirs();
});

async function book(side: 'buy' | 'sell'): Promise<P2pAd[]> {
  const response = await app.inject({
    method: 'GET',
    url: `/api/p2p/ads?side=${side}&currency_id=3&fiat=CNY`,
  });
  return (response.json() as { message: { data: P2pAd[] } }).message.data;
}

describe('the demo merchant', () => {
  it('is absent from a test app, then seeded once with a sell ad and a buy ad', async () => {
    expect(await book('buy')).toEqual([]);
    expect(await seedDemoMerchant(store, app.runner)).toBe(true);
    expect(await seedDemoMerchant(store, app.runner)).toBe(false);
    const sells = await book('buy');
    const buys = await book('sell');
    expect(sells).toHaveLength(1);
    expect(buys).toHaveLength(1);
    expect(sells[0]).toMatchObject({
      side: 'sell',
      price: '7.24',
      price_type: 'floating',
      merchant: { nickname: 'Fairex Demo OTC' },
    });
    expect(buys[0]).toMatchObject({ side: 'buy', price: '7.15', methods: ['bank', 'ali_pay', 'we_chat'] });
    const merchant = sells[0]?.merchant.user_id as number;
    expect(app.engine.ledger.balance(merchant, 'change', 3).locked).toBe(20_000_000_000n);
  });

  it('posts ads with the short window of P2P_WINDOW_SECONDS (test and demo runs)', async () => {
    const { rows } = await store.query<{ id: number; user_id: number }>(
      `select id, user_id from p2p_payment_methods where method = 'bank' order by id limit 1`,
    );
    const method = rows[0] as { id: number; user_id: number };
    const ad = await app.p2p.ads.createAd(method.user_id, {
      side: 'buy',
      currency_id: 3,
      fiat: 'CNY',
      price_type: 'fixed',
      price: '7.00',
      total: '10',
      min_fiat: '10',
      max_fiat: '70',
      method_ids: [method.id],
      window_minutes: 30,
    });
    expect(app.engine.p2p.ad(ad.id)?.windowMs).toBe(10_000);
  });
});
