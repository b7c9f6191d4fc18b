// Drizzle mirror of the wallet tables (see migrations/0006_wallets.sql). Amounts are numeric(40,0) minor
// units and arrive as decimal strings: parse them with BigInt, never Number.
import { bigint, boolean, integer, numeric, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const amount = (name: string) => numeric(name, { precision: 40, scale: 0 });

export const walletChains = pgTable('wallet_chains', {
  currencyId: integer('currency_id').notNull(),
  chainType: smallint('chain_type').notNull(),
  code: text('code').notNull(),
  network: text('network').notNull(),
  mainCoinType: integer('main_coin_type').notNull(),
  coinType: text('coin_type').notNull(),
  chainDecimals: smallint('chain_decimals').notNull(),
  confirmations: integer('confirmations').notNull(),
  isEnabled: boolean('is_enabled').notNull().default(true),
});

export const depositAddresses = pgTable('deposit_addresses', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull(),
  network: text('network').notNull(),
  address: text('address').notNull(),
  derivationPath: text('derivation_path').notNull(),
  keyFingerprint: text('key_fingerprint').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const deposits = pgTable('deposits', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull(),
  currencyId: integer('currency_id').notNull(),
  chainType: smallint('chain_type'),
  address: text('address').notNull().default(''),
  coinType: text('coin_type').notNull().default(''),
  txId: text('tx_id').notNull(),
  tradeId: text('trade_id'),
  chainAmount: amount('chain_amount').notNull(),
  chainDecimals: smallint('chain_decimals').notNull(),
  amount: amount('amount').notNull(),
  source: text('source').notNull(),
  adminId: integer('admin_id'),
  note: text('note'),
  status: text('status').notNull(),
  engineSeq: bigint('engine_seq', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  creditedAt: timestamp('credited_at', { withTimezone: true }),
});

export const withdrawals = pgTable('withdrawals', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull(),
  currencyId: integer('currency_id').notNull(),
  chainType: smallint('chain_type').notNull(),
  network: text('network').notNull(),
  address: text('address').notNull(),
  amount: amount('amount').notNull(),
  fee: amount('fee').notNull(),
  engineWithdrawalId: bigint('engine_withdrawal_id', { mode: 'number' }),
  status: text('status').notNull(),
  reviewNote: text('review_note'),
  reviewedBy: integer('reviewed_by'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  payoutAdapter: text('payout_adapter'),
  payoutError: text('payout_error'),
  txId: text('tx_id'),
  tradeId: text('trade_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const flashExchanges = pgTable('flash_exchanges', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull(),
  coinCurrencyId: integer('coin_currency_id').notNull(),
  legalCurrencyId: integer('legal_currency_id').notNull(),
  direction: smallint('direction').notNull(),
  amount: amount('amount').notNull(),
  payout: amount('payout').notNull(),
  fee: amount('fee').notNull(),
  feePpm: integer('fee_ppm').notNull(),
  price: text('price').notNull(),
  indexPriceTimeMs: bigint('index_price_time_ms', { mode: 'number' }).notNull(),
  status: text('status').notNull(),
  failure: text('failure'),
  engineSeq: bigint('engine_seq', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const withdrawAddresses = pgTable('withdraw_addresses', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id').notNull(),
  currencyId: integer('currency_id').notNull(),
  chainType: smallint('chain_type').notNull(),
  address: text('address').notNull(),
  notes: text('notes').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const custodyCallbacks = pgTable('custody_callbacks', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  ip: text('ip'),
  timestampText: text('timestamp_text'),
  nonce: text('nonce'),
  signOk: boolean('sign_ok').notNull(),
  outcome: text('outcome').notNull(),
  detail: text('detail'),
  tradeType: smallint('trade_type'),
  txId: text('tx_id'),
  body: text('body'),
});
