// Drizzle mirror of the tables migrations/0003_accounts.sql creates: verification codes, outbound messages,
// uploads, real-name submissions, administrators with their sessions and audit log, operator invite codes
// and the brute-force counters; and of each user's upload quota of the day (0012_upload_quota.sql).
import { date, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const verificationCodes = pgTable('verification_codes', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  purpose: text('purpose').notNull(),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  salt: text('salt').notNull(),
  attempts: smallint('attempts').notNull().default(0),
  requestIp: text('request_ip'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  /** migrations/0014_code_client.sql: SHA-256 of the sending client's cookie token. */
  clientHash: text('client_hash'),
});

export const outboundMessages = pgTable('outbound_messages', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  channel: text('channel').notNull(),
  recipient: text('recipient').notNull(),
  subject: text('subject'),
  body: text('body'),
  purpose: text('purpose').notNull(),
  status: text('status').notNull(),
  error: text('error'),
  createdAt: createdAt(),
});

export const uploads = pgTable('uploads', {
  id: text('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  sha256: text('sha256').notNull(),
  createdAt: createdAt(),
});

export const uploadQuota = pgTable('upload_quota', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  day: date('day').notNull(),
  used: integer('used').notNull(),
});

export const admins = pgTable('admins', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  username: text('username').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role').notNull(),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const adminSessions = pgTable('admin_sessions', {
  tokenHash: text('token_hash').primaryKey(),
  adminId: integer('admin_id')
    .notNull()
    .references(() => admins.id, { onDelete: 'cascade' }),
  ip: text('ip'),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/** migrations/0011_admin_setup_tokens.sql: the one-time links that create the first administrator. */
export const adminSetupTokens = pgTable('admin_setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: createdAt(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

export const auditLog = pgTable('audit_log', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  adminId: integer('admin_id').references(() => admins.id),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  ip: text('ip'),
  createdAt: createdAt(),
});

export const realNameSubmissions = pgTable('real_name_submissions', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  cardId: text('card_id').notNull(),
  frontUploadId: text('front_upload_id')
    .notNull()
    .references(() => uploads.id),
  reverseUploadId: text('reverse_upload_id')
    .notNull()
    .references(() => uploads.id),
  handUploadId: text('hand_upload_id')
    .notNull()
    .references(() => uploads.id),
  status: text('status').notNull().default('pending'),
  rejectReason: text('reject_reason'),
  reviewedBy: integer('reviewed_by').references(() => admins.id),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const operatorInviteCodes = pgTable('operator_invite_codes', {
  code: text('code').primaryKey(),
  note: text('note'),
  maxUses: integer('max_uses'),
  usedCount: integer('used_count').notNull().default(0),
  createdBy: integer('created_by').references(() => admins.id),
  createdAt: createdAt(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

export const authThrottle = pgTable('auth_throttle', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  scope: text('scope').notNull(),
  subject: text('subject').notNull(),
  createdAt: createdAt(),
});
