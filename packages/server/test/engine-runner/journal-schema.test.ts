// The Drizzle mirror (schema/journal.ts) must describe the tables migration 0002 creates: same columns, and
// the same nullability, so that reads through Drizzle see what the runner writes with raw SQL.
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import * as journalTables from '../../src/store/schema/journal.ts';
import { open, storeTargets } from './test-stores.ts';

const tables = Object.values(journalTables as Record<string, unknown>).filter(
  (value): value is PgTable => value instanceof PgTable,
);

for (const target of storeTargets()) {
  describe(`journal schema mirror on ${target.name}`, () => {
    afterAll(() => target.cleanup());

    it('declares exactly the migrated columns of every journal and projection table', async () => {
      const store = await open(await target.fresh());
      expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual([
        'account_log',
        'engine_journal',
        'engine_snapshot_parts',
        'engine_snapshots',
        'spot_orders',
        'spot_trades',
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
      await store.close();
    });
  });
}
