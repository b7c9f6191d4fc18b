// Applies the plain SQL files in ./migrations in lexical order, each inside its own transaction, and records
// them in schema_migrations. A session-level advisory lock makes concurrent starts safe: the second process
// waits, then finds the files already applied.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** One database session: statements sent through it run on the same connection, in order. */
export interface MigrationSession {
  query(text: string, params?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Runs a script of several statements (simple query protocol). */
  exec(script: string): Promise<void>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export const MIGRATIONS_URL = new URL('./migrations/', import.meta.url);
const MIGRATION_NAME = /^\d{4}_[a-z0-9_]+\.sql$/;
// Any fixed 32-bit key works; hashtext keeps it readable in pg_locks.
const LOCK_SQL = `select pg_advisory_lock(hashtext('fairex:schema_migrations'))`;
const UNLOCK_SQL = `select pg_advisory_unlock(hashtext('fairex:schema_migrations'))`;

/**
 * Reads the migration files. Synchronously: this runs once, as a store opens, and a starting server (main.ts)
 * opens its store while it loads its modules, whose file reads an asynchronous read would wait behind (the
 * embedded store's thread then started only once the modules had loaded).
 */
export async function loadMigrations(folder: URL = MIGRATIONS_URL): Promise<Migration[]> {
  const entries = readdirSync(folder);
  const names = entries.filter((name) => name.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const name of names) {
    if (!MIGRATION_NAME.test(name)) {
      throw new Error(`Migration file name "${name}" must look like 0001_name.sql`);
    }
    const sql = readFileSync(new URL(name, folder), 'utf8');
    migrations.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

/**
 * Applies pending migrations and returns the names it applied. `prelude` runs first under the same lock
 * (e.g. creating the schema, which is not safe to race either).
 */
export async function migrate(
  session: MigrationSession,
  migrations: readonly Migration[],
  prelude?: string,
): Promise<string[]> {
  await session.query(LOCK_SQL);
  try {
    if (prelude) await session.exec(prelude);
    await session.exec(`create table if not exists schema_migrations (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`);
    const { rows } = await session.query('select name, checksum from schema_migrations');
    const applied = new Map(rows.map((row) => [String(row.name), String(row.checksum)]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum === undefined) {
        await applyOne(session, migration);
        done.push(migration.name);
      } else if (checksum !== migration.checksum) {
        // Editing an applied migration would leave databases that ran the old text silently different.
        throw new Error(
          `Migration ${migration.name} changed after it was applied to this database. ` +
            'Migrations are append-only: add a new file instead (or start from an empty data folder in development).',
        );
      }
    }
    return done;
  } finally {
    await session.query(UNLOCK_SQL);
  }
}

async function applyOne(session: MigrationSession, migration: Migration): Promise<void> {
  await session.exec('begin');
  try {
    await session.exec(migration.sql);
    await session.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
      migration.name,
      migration.checksum,
    ]);
    await session.exec('commit');
  } catch (error) {
    await session.exec('rollback');
    throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
  }
}
