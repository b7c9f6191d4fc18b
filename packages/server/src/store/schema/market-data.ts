// Drizzle mirror of the market-data tables (see migrations/0004_market_data.sql). The candle projection
// writes them with raw SQL; volumes and turnovers are numeric(40,0) and arrive as decimal strings: parse
// them with BigInt, never Number.
import { bigint, boolean, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { markets } from './catalog.ts';

const amount = (name: string) => numeric(name, { precision: 40, scale: 0 });

export const candles = pgTable(
  'candles',
  {
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id),
    period: text('period').notNull(),
    openTimeMs: bigint('open_time_ms', { mode: 'number' }).notNull(),
    openTicks: bigint('open_ticks', { mode: 'number' }).notNull(),
    highTicks: bigint('high_ticks', { mode: 'number' }).notNull(),
    lowTicks: bigint('low_ticks', { mode: 'number' }).notNull(),
    closeTicks: bigint('close_ticks', { mode: 'number' }).notNull(),
    volume: amount('volume').notNull().default('0'),
    turnover: amount('turnover').notNull().default('0'),
    tradeCount: integer('trade_count').notNull().default(0),
    firstTradeId: bigint('first_trade_id', { mode: 'number' }),
    lastTradeId: bigint('last_trade_id', { mode: 'number' }),
    source: text('source').notNull(),
  },
  (table) => [primaryKey({ columns: [table.marketId, table.period, table.openTimeMs] })],
);

export const marketDataProgress = pgTable('market_data_progress', {
  name: text('name').primaryKey(),
  lastTradeId: bigint('last_trade_id', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const marketBackfills = pgTable('market_backfills', {
  marketId: integer('market_id')
    .primaryKey()
    .references(() => markets.id),
  source: text('source').notNull(),
  fromMs: bigint('from_ms', { mode: 'number' }).notNull(),
  toMs: bigint('to_ms', { mode: 'number' }).notNull(),
  barCount: integer('bar_count').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** migrations/0009_market_maker.sql: the market maker's settings per pair (null: the server's default). */
export const marketMakerSettings = pgTable('market_maker_settings', {
  marketId: integer('market_id')
    .primaryKey()
    .references(() => markets.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  levels: integer('levels'),
  halfSpreadPpm: integer('half_spread_ppm'),
  levelStepPpm: integer('level_step_ppm'),
  levelNotional: text('level_notional'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
