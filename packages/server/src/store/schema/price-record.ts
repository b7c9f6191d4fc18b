// Drizzle mirror of the price record (see migrations/0017_price_record.sql). The projector writes these
// tables with raw SQL; the /api/price routes read them with raw SQL too. Like the other projections they
// name markets by the engine's id without a foreign key (the engine, not SQL, is their source).
import { bigint, boolean, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export const priceSamples = pgTable(
  'price_samples',
  {
    marketId: integer('market_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    sourceTimeMs: bigint('source_time_ms', { mode: 'number' }),
    indexTicks: bigint('index_ticks', { mode: 'number' }),
    markTicks: bigint('mark_ticks', { mode: 'number' }),
    sources: text('sources').notNull(),
    stale: boolean('stale').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [primaryKey({ columns: [table.marketId, table.seq] })],
);

export const priceHeads = pgTable(
  'price_heads',
  {
    marketId: integer('market_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (table) => [primaryKey({ columns: [table.marketId, table.seq] })],
);
