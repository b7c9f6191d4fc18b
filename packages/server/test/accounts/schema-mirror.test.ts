// The Drizzle mirrors of migration 0003 (schema/accounts-security.ts, and the users columns it adds) and of
// migration 0011 (the administrator set-up tokens) declare exactly the migrated columns with the same
// nullability, so that reads through Drizzle see what the account services write with raw SQL.
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as accountTables from '../../src/store/schema/accounts-security.ts';
import { sessions, users } from '../../src/store/schema/accounts.ts';
import type { Store } from '../../src/store/index.ts';
import { openTestStore, removeTempDirs } from '../helper.ts';

const tables = [
  users,
  sessions,
  ...Object.values(accountTables as Record<string, unknown>).filter(
    (value): value is PgTable => value instanceof PgTable,
  ),
];

let store: Store;

beforeAll(async () => {
  store = await openTestStore();
});

afterAll(async () => {
  await store?.close();
  await removeTempDirs();
});

describe('accounts schema mirror', () => {
  it('covers every table of migration 0003 and the set-up tokens of 0011', () => {
    expect(tables.map((table) => getTableConfig(table).name).sort()).toEqual([
      'admin_sessions',
      'admin_setup_tokens',
      'admins',
      'audit_log',
      'auth_throttle',
      'operator_invite_codes',
      'outbound_messages',
      'real_name_submissions',
      'sessions',
      'upload_quota',
      'uploads',
      'users',
      'verification_codes',
    ]);
  });

  it.each(tables.map((table) => [getTableConfig(table).name, table] as const))(
    '%s declares exactly the migrated columns',
    async (name, table) => {
      const { rows } = await store.query<{ column_name: string; is_nullable: string }>(
        `select column_name, is_nullable from information_schema.columns
          where table_schema = current_schema() and table_name = $1`,
        [name],
      );
      const migrated = Object.fromEntries(rows.map((row) => [row.column_name, row.is_nullable === 'YES']));
      const declared = Object.fromEntries(
        getTableConfig(table).columns.map((column) => [column.name, !column.notNull]),
      );
      expect(declared).toEqual(migrated);
    },
  );
});
