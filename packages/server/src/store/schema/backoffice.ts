// Drizzle mirror of the tables migrations/0008_backoffice.sql creates: the administrators' authenticator
// secrets, the sessions that passed the second factor, and user freezes; and of 0015_site_settings.sql.
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { adminSessions, admins } from './accounts-security.ts';

export const adminTotp = pgTable('admin_totp', {
  adminId: integer('admin_id')
    .primaryKey()
    .references(() => admins.id, { onDelete: 'cascade' }),
  secret: text('secret'),
  pendingSecret: text('pending_secret'),
  lastStep: integer('last_step'),
  enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const adminSessionFactors = pgTable('admin_session_factors', {
  tokenHash: text('token_hash')
    .primaryKey()
    .references(() => adminSessions.tokenHash, { onDelete: 'cascade' }),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
});

export const userFreezes = pgTable('user_freezes', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  trading: boolean('trading').notNull().default(false),
  withdrawals: boolean('withdrawals').notNull().default(false),
  reason: text('reason').notNull(),
  updatedBy: integer('updated_by')
    .notNull()
    .references(() => admins.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const siteSettings = pgTable('site_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
