// Drizzle mirror of the engine journal, snapshots and event projections (see migrations/0002_journal.sql).
// The engine runner writes these tables with raw SQL on its hot path; routes read the projections through
// Drizzle. Amounts are numeric(40,0) and arrive as decimal strings: parse them with BigInt, never Number.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const amount = (name: string) => numeric(name, { precision: 40, scale: 0 });

export const engineJournal = pgTable('engine_journal', {
  firstSeq: bigint('first_seq', { mode: 'number' }).primaryKey(),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
  commandCount: integer('command_count').notNull(),
  envelopes: text('envelopes').notNull(),
  stateHash: text('state_hash'),
  committedAt: timestamp('committed_at', { withTimezone: true }).notNull().defaultNow(),
});

export const engineSnapshots = pgTable('engine_snapshots', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
  stateHash: text('state_hash').notNull(),
  body: text('body').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Parts in engine_snapshot_parts holding the body (0: the body is in this row). Migration 0022. */
  parts: integer('parts').notNull().default(0),
  /** The snapshot file holding the body, in the snapshot folder (snapshot-files.ts). Migration 0090. */
  file: text('file'),
});

/** A snapshot's text in order of `part`, when written in parts (migration 0022). */
export const engineSnapshotParts = pgTable(
  'engine_snapshot_parts',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    part: integer('part').notNull(),
    body: text('body').notNull(),
  },
  (table) => [primaryKey({ columns: [table.seq, table.part] })],
);

/** One row per closed spot order, written once when it closes (migration 0060; codes: spot/order-codes.ts). */
export const spotOrders = pgTable(
  'spot_orders',
  {
    ownerKey: integer('owner_key').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    marketId: integer('market_id').notNull(),
    /** 1 buy, 2 sell. */
    side: smallint('side').notNull(),
    /** 1 limit, 2 market. */
    kind: smallint('kind').notNull(),
    /** 1 filled, 2 cancelled. */
    status: smallint('status').notNull(),
    /** CANCEL_REASON_CODE; null when filled. */
    cancelReason: smallint('cancel_reason'),
    priceTicks: bigint('price_ticks', { mode: 'number' }).notNull(),
    quantityLots: bigint('quantity_lots', { mode: 'number' }).notNull(),
    filledLots: bigint('filled_lots', { mode: 'number' }).notNull(),
    quoteFilled: amount('quote_filled').notNull(),
    feePaid: amount('fee_paid').notNull(),
    clientOrderId: text('client_order_id'),
    createdTimeMs: bigint('created_time_ms', { mode: 'number' }).notNull(),
    closedSeq: bigint('closed_seq', { mode: 'number' }).notNull(),
    closedTimeMs: bigint('closed_time_ms', { mode: 'number' }).notNull(),
  },
  (table) => [uniqueIndex('spot_orders_owner_idx').on(table.ownerKey, table.orderId)],
);

export const spotTrades = pgTable(
  'spot_trades',
  {
    tradeId: bigint('trade_id', { mode: 'number' }).primaryKey(),
    marketId: integer('market_id').notNull(),
    priceTicks: bigint('price_ticks', { mode: 'number' }).notNull(),
    quantityLots: bigint('quantity_lots', { mode: 'number' }).notNull(),
    baseAmount: amount('base_amount').notNull(),
    quoteAmount: amount('quote_amount').notNull(),
    makerOrderId: bigint('maker_order_id', { mode: 'number' }).notNull(),
    makerOwnerKey: integer('maker_owner_key').notNull(),
    takerOrderId: bigint('taker_order_id', { mode: 'number' }).notNull(),
    takerOwnerKey: integer('taker_owner_key').notNull(),
    makerSide: text('maker_side').$type<'buy' | 'sell'>().notNull(),
    makerFee: amount('maker_fee').notNull(),
    makerFeeCurrencyId: integer('maker_fee_currency_id').notNull(),
    takerFee: amount('taker_fee').notNull(),
    takerFeeCurrencyId: integer('taker_fee_currency_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
    /** migrations/0016_no_wash_trades.sql: a user is on at least one side (only these count publicly). */
    withUser: boolean('with_user')
      .notNull()
      .generatedAlwaysAs(sql`maker_owner_key > 0 or taker_owner_key > 0`),
  },
  (table) => [
    index('spot_trades_market_with_user_idx')
      .on(table.marketId, table.tradeId)
      .where(sql`with_user`),
  ],
);

export const accountLog = pgTable(
  'account_log',
  {
    seq: bigint('seq', { mode: 'number' }).notNull(),
    eventIndex: integer('event_index').notNull(),
    transferId: bigint('transfer_id', { mode: 'number' }).notNull(),
    ownerKey: integer('owner_key').notNull(),
    wallet: text('wallet').$type<'change' | 'lever' | 'micro' | 'ico' | 'miner' | 'defi'>().notNull(),
    currencyId: integer('currency_id').notNull(),
    availableBefore: amount('available_before').notNull(),
    availableAfter: amount('available_after').notNull(),
    lockedBefore: amount('locked_before').notNull(),
    lockedAfter: amount('locked_after').notNull(),
    reason: smallint('reason').notNull(),
    referenceId: bigint('reference_id', { mode: 'number' }).notNull(),
    memo: text('memo'),
    timeMs: bigint('time_ms', { mode: 'number' }).notNull(),
  },
  (table) => [index('account_log_owner_idx').on(table.ownerKey, table.currencyId, table.seq)],
);

export type SpotOrderRow = typeof spotOrders.$inferSelect;
export type SpotTradeRow = typeof spotTrades.$inferSelect;
export type AccountLogRow = typeof accountLog.$inferSelect;
