// Drizzle mirror of the users and sessions tables (see migrations/0001_core.sql; 0003_accounts.sql adds the
// password, invite and two-factor columns of users; 0130_session_changes.sql the session changes).
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { bigserial, boolean, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  account: text('account').notNull().unique(),
  email: text('email').unique(),
  phone: text('phone'),
  areaCode: text('area_code'),
  passwordHash: text('password_hash').notNull(),
  extensionCode: text('extension_code').notNull().unique(),
  parentId: integer('parent_id').references((): AnyPgColumn => users.id),
  isSeller: boolean('is_seller').notNull().default(false),
  reviewStatus: smallint('review_status').notNull().default(0),
  // migrations/0140_demo_accounts.sql: a demo account (DEMO=on), left out of every public figure.
  isDemo: boolean('is_demo').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  invitedWith: text('invited_with'),
  totpSecret: text('totp_secret'),
  totpPendingSecret: text('totp_pending_secret'),
  totpLastStep: integer('totp_last_step'),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  lastLoginIp: text('last_login_ip'),
});

export const sessions = pgTable('sessions', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull().default('user'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  // migrations/0010_session_origin.sql: where the session began.
  ip: text('ip'),
  userAgent: text('user_agent'),
});

// migrations/0130_session_changes.sql: what ended or altered a session's answer, written by triggers and
// polled by every process's session cache (auth/sessions.ts).
export const sessionChanges = pgTable('session_changes', {
  seq: bigserial('seq', { mode: 'bigint' }).primaryKey(),
  tokenHash: text('token_hash'),
  userId: integer('user_id').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
