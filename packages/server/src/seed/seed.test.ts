import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, openTestStore, removeTempDirs } from '../../test/helper.ts';
import type { Store } from '../store/index.ts';
import { seedDemoData } from './index.ts';

let store: Store;

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  await store?.close();
  await removeTempDirs();
});

async function dump(): Promise<unknown> {
  const currencies = await store.query('select * from currencies order by id');
  const markets = await store.query('select * from markets order by id');
  return { currencies: currencies.rows, markets: markets.rows };
}

describe('demo data', () => {
  it('seeds once; a second run changes nothing', async () => {
    expect(await seedDemoData(store)).toEqual({ currencies: 8, markets: 7 });
    const first = await dump();
    expect(await seedDemoData(store)).toEqual({ currencies: 0, markets: 0 });
    expect(await dump()).toEqual(first);
  });

  it('keeps the ids and chains the specifications use', async () => {
    const { rows } = await store.query<{ id: number; code: string; scale: number; chains: unknown }>(
      'select id, code, scale, chains from currencies where id in (1, 2, 3) order by id',
    );
    expect(rows).toEqual([
      { id: 1, code: 'BTC', scale: 8, chains: [{ type: 0, code: 'BTC', network: 'bitcoin' }] },
      { id: 2, code: 'ETH', scale: 8, chains: [{ type: 0, code: 'ERC20', network: 'ethereum' }] },
      {
        id: 3,
        code: 'USDT',
        scale: 6,
        chains: [
          { type: 0, code: 'TRC20', network: 'tron' },
          { type: 1, code: 'ERC20', network: 'ethereum' },
        ],
      },
    ]);
    const symbols = await store.query<{ symbol: string }>(
      'select symbol from markets order by display_order',
    );
    expect(symbols.rows.map((row) => row.symbol)).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'XRP/USDT',
      'DOGE/USDT',
      'LINK/USDT',
      'LTC/USDT',
      'TRX/USDT',
    ]);
  });

  it('gives every market exact trade values: price x quantity is whole quote minor units', async () => {
    const { rows } = await store.query<{
      symbol: string;
      price_scale: number;
      lot_size: bigint;
      min_size: bigint;
      base_scale: number;
      quote_scale: number;
    }>(
      `select m.symbol, m.price_scale, m.lot_size, m.min_size, b.scale as base_scale, q.scale as quote_scale
         from markets m join currencies b on b.id = m.base_currency_id join currencies q on q.id = m.quote_currency_id`,
    );
    for (const market of rows) {
      // value in quote minor units = priceUnits x quantityMinor x 10^quoteScale / 10^(priceScale + baseScale)
      const divisor = 10n ** BigInt(market.price_scale + market.base_scale);
      const lotValueScaled = market.lot_size * 10n ** BigInt(market.quote_scale);
      expect({ symbol: market.symbol, remainder: lotValueScaled % divisor }).toEqual({
        symbol: market.symbol,
        remainder: 0n,
      });
      expect(market.min_size).toBe(market.lot_size);
    }
  });

  it('never overwrites an operator’s change', async () => {
    await store.query(`update currencies set withdraw_fee = 123 where id = 1`);
    await seedDemoData(store);
    const { rows } = await store.query('select withdraw_fee from currencies where id = 1');
    expect(rows[0]?.withdraw_fee).toBe(123n);
  });

  it('runs when the app starts', async () => {
    const fresh = await openTestStore();
    const app = await buildTestApp(fresh);
    await app.ready();
    const { rows } = await fresh.query('select count(*) as n from markets');
    expect(rows[0]?.n).toBe(7n);
    await app.close();
    await fresh.close();
  });
});
