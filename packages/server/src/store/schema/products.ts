// Drizzle mirror of the products projections (see migrations/0040_products.sql). The projector writes these
// tables with raw SQL and the product calls read them with raw SQL too; amounts are numeric minor units,
// read as text.
import { bigint, integer, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

export const productChanges = pgTable(
  'product_changes',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    productId: integer('product_id').notNull(),
    kind: text('kind').$type<'ico' | 'miner' | 'defi'>().notNull(),
    change: text('change').$type<'created' | 'edited' | 'open' | 'closed'>().notNull(),
    terms: jsonb('terms'),
    details: jsonb('details'),
    reserve: numeric('reserve', { precision: 40, scale: 0 }),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.productId, table.seq] })],
);

export const productPurchases = pgTable('product_purchases', {
  holdingId: bigint('holding_id', { mode: 'number' }).primaryKey(),
  productId: integer('product_id').notNull(),
  kind: text('kind').$type<'ico' | 'miner' | 'defi'>().notNull(),
  userId: integer('user_id').notNull(),
  units: numeric('units', { precision: 40, scale: 0 }).notNull(),
  paid: numeric('paid', { precision: 40, scale: 0 }).notNull(),
  fee: numeric('fee', { precision: 40, scale: 0 }).notNull(),
  principal: numeric('principal', { precision: 40, scale: 0 }).notNull(),
  daily: numeric('daily', { precision: 40, scale: 0 }).notNull(),
  startDay: integer('start_day').notNull(),
  days: integer('days').notNull(),
  createdMs: bigint('created_ms', { mode: 'number' }).notNull(),
  createdSeq: bigint('created_seq', { mode: 'number' }).notNull(),
});

export const productAccruals = pgTable(
  'product_accruals',
  {
    productId: integer('product_id').notNull(),
    day: integer('day').notNull(),
    holdings: integer('holdings').notNull(),
    earnings: numeric('earnings', { precision: 40, scale: 0 }).notNull(),
    perUnit: numeric('per_unit', { precision: 40, scale: 0 }),
    released: numeric('released', { precision: 40, scale: 0 }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.productId, table.day] })],
);

export const productRates = pgTable(
  'product_rates',
  {
    productId: integer('product_id').notNull(),
    day: integer('day').notNull(),
    perUnit: numeric('per_unit', { precision: 40, scale: 0 }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.productId, table.day, table.seq] })],
);

export const productExtractions = pgTable(
  'product_extractions',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    holdingId: bigint('holding_id', { mode: 'number' }).notNull(),
    productId: integer('product_id').notNull(),
    userId: integer('user_id').notNull(),
    amount: numeric('amount', { precision: 40, scale: 0 }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.holdingId, table.seq] })],
);

export const productStakeEnds = pgTable('product_stake_ends', {
  holdingId: bigint('holding_id', { mode: 'number' }).primaryKey(),
  productId: integer('product_id').notNull(),
  userId: integer('user_id').notNull(),
  how: text('how').$type<'matured' | 'exited'>().notNull(),
  principal: numeric('principal', { precision: 40, scale: 0 }).notNull(),
  earnings: numeric('earnings', { precision: 40, scale: 0 }).notNull(),
  forfeited: numeric('forfeited', { precision: 40, scale: 0 }).notNull(),
  timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
});
