// Drizzle mirror of the currencies and markets tables. The SQL migrations are the source of truth;
// a test checks that every column declared here exists in the migrated database.
import { bigint, boolean, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** A deposit or withdrawal network of a currency. `type` is the index the web client sends (TRC20 0, ERC20 1). */
export interface CurrencyChain {
  type: number;
  code: string;
  network: string;
}

/** Text per language code (zh, hk, en, kr, jp); a missing language falls back to English. */
export type LocalizedText = Partial<Record<string, string>>;

export const currencies = pgTable('currencies', {
  id: integer('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  scale: smallint('scale').notNull(),
  udunId: integer('udun_id').notNull().default(-1),
  chains: jsonb('chains').$type<CurrencyChain[]>().notNull().default([]),
  withdrawMin: bigint('withdraw_min', { mode: 'bigint' }).notNull().default(0n),
  withdrawFee: bigint('withdraw_fee', { mode: 'bigint' }).notNull().default(0n),
  displayOrder: integer('display_order').notNull().default(0),
  descriptions: jsonb('descriptions').$type<LocalizedText>().notNull().default({}),
  logo: text('logo'),
  isEnabled: boolean('is_enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const markets = pgTable('markets', {
  id: integer('id').primaryKey(),
  baseCurrencyId: integer('base_currency_id')
    .notNull()
    .references(() => currencies.id),
  quoteCurrencyId: integer('quote_currency_id')
    .notNull()
    .references(() => currencies.id),
  symbol: text('symbol').notNull().unique(),
  priceScale: smallint('price_scale').notNull(),
  priceTick: bigint('price_tick', { mode: 'bigint' }).notNull().default(1n),
  lotSize: bigint('lot_size', { mode: 'bigint' }).notNull(),
  minSize: bigint('min_size', { mode: 'bigint' }).notNull(),
  minNotional: bigint('min_notional', { mode: 'bigint' }).notNull().default(0n),
  makerFeePpm: integer('maker_fee_ppm').notNull().default(0),
  takerFeePpm: integer('taker_fee_ppm').notNull().default(0),
  isDisplay: boolean('is_display').notNull().default(true),
  displayOrder: integer('display_order').notNull().default(0),
  leverEnabled: boolean('lever_enabled').notNull().default(false),
  leverShareSize: bigint('lever_share_size', { mode: 'bigint' }).notNull().default(1n),
  leverShareMin: integer('lever_share_min').notNull().default(1),
  leverShareMax: integer('lever_share_max').notNull().default(0),
  leverSharePresets: jsonb('lever_share_presets').$type<number[]>().notNull().default([]),
  leverMultiples: jsonb('lever_multiples').$type<number[]>().notNull().default([]),
  leverSpreadPpm: integer('lever_spread_ppm').notNull().default(0),
  leverFeePpm: integer('lever_fee_ppm').notNull().default(0),
  leverOvernightPpm: integer('lever_overnight_ppm').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type Currency = typeof currencies.$inferSelect;
export type Market = typeof markets.$inferSelect;
