// The Drizzle mirror (schema/market-data.ts) must describe the tables migrations 0004 and 0009 create: same columns
// and the same nullability, so that reads through Drizzle see what the projection writes with raw SQL.
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as marketTables from '../../src/store/schema/market-data.ts';
import type { Store } from '../../src/store/index.ts';
import { openTestStore, removeTempDirs } from '../helper.ts';

const tables = Object.values(marketTables as Record<string, unknown>).filter(
  (value): value is PgTable => value instanceof PgTable,
);

describe('market-data schema mirror', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store.close();
    await removeTempDirs();
  });

  it('declares exactly the migrated columns of every market-data table', async () => {
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual([
      'candles',
      'market_backfills',
      'market_data_progress',
      'market_maker_settings',
    ]);
    for (const table of tables) {
      const config = getTableConfig(table);
      const { rows } = await store.query<{ column_name: string; is_nullable: string }>(
        `select column_name, is_nullable from information_schema.columns
          where table_schema = current_schema() and table_name = $1`,
        [config.name],
      );
      const migrated = Object.fromEntries(rows.map((row) => [row.column_name, row.is_nullable === 'YES']));
      const declared = Object.fromEntries(config.columns.map((column) => [column.name, !column.notNull]));
      expect(declared, config.name).toEqual(migrated);
    }
  });

  it('refuses a bar whose source and trade ids disagree, or whose prices are not a bar', async () => {
    await store.query(
      `insert into currencies (id, code, name, scale) values (1, 'BTC', 'Bitcoin', 8), (3, 'USDT', 'Tether', 6)`,
    );
    await store.query(
      `insert into markets (id, base_currency_id, quote_currency_id, symbol, price_scale, lot_size, min_size)
       values (1, 1, 3, 'BTC/USDT', 2, 10000, 10000)`,
    );
    const insert = (source: string, firstTradeId: number | null, low = 90) =>
      store.query(
        `insert into candles (market_id, period, open_time_ms, open_ticks, high_ticks, low_ticks, close_ticks,
                              first_trade_id, last_trade_id, source)
         values (1, '1min', $1, 100, 110, $2, 105, $3, $3, $4)`,
        [Date.now() + Math.floor(Math.random() * 1e9), low, firstTradeId, source],
      );
    await expect(insert('trades', 1)).resolves.toBeDefined();
    await expect(insert('simulated', null)).resolves.toBeDefined();
    await expect(insert('trades', null)).rejects.toThrow();
    await expect(insert('simulated', 5)).rejects.toThrow();
    await expect(insert('trades', 2, 101)).rejects.toThrow();
  });
});
