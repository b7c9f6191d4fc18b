// The SQL store: PGlite in a data folder by default, PostgreSQL when a database URL is given. Both speak the
// same dialect, so migrations, Drizzle queries and raw SQL run unchanged on either.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, Transaction as PgliteTransaction } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { acquireFolderLock } from './folder-lock.ts';
import type { MigrationSession } from './migrate.ts';
import { loadMigrations, migrate, MIGRATIONS_URL } from './migrate.ts';
import { openPgliteThread } from './pglite-thread.ts';
import type { QueryResult, Row } from './rows.ts';
import { PGLITE_PARSERS } from './rows.ts';
import type * as schema from './schema/index.ts';
import { syncFolder } from './sync-folder.ts';

export type StoreKind = 'pglite' | 'postgres';
export type StoreSchema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, StoreSchema>;
export type { QueryResult, Row };

export interface Queryable {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

/** Inside `store.transaction`: raw SQL and a Drizzle database bound to the same transaction. Not nestable. */
export interface StoreTransaction extends Queryable {
  /** Drizzle bound to this transaction (see `Store.drizzle`). */
  drizzle(): Promise<Database>;
  /**
   * `COPY <table> (<columns>) FROM` the given COPY text (text format): on PostgreSQL FROM STDIN through the
   * pg-copy-streams protocol stream, on PGlite from an in-memory blob (about twice as fast as INSERT ...
   * SELECT FROM unnest on the WebAssembly build).
   */
  copyFrom?(table: string, columns: readonly string[], text: string): Promise<void>;
}

/** A connection held for the caller alone, e.g. for session-level advisory locks. Release it when done. */
export interface StoreConnection extends Queryable {
  release(): void;
}

export interface Store extends Queryable {
  readonly kind: StoreKind;
  /**
   * Whether the database's work runs off the thread that sends it statements: PostgreSQL (its own
   * processes) and PGlite on its own thread; not PGlite on the event loop (EMBEDDED_STORE_THREAD=off).
   */
  readonly offEventLoop: boolean;
  /**
   * Typed Drizzle queries over this store. The exchange's own code sends raw SQL; the Drizzle driver
   * adapters are loaded on the first call only, because loading them takes about a third of a second of
   * every start.
   */
  drizzle(): Promise<Database>;
  /** Migration files this open applied (empty when the database was already up to date). */
  readonly appliedMigrations: readonly string[];
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * A dedicated connection. On PGlite there is only one session, so this is that session and releasing
   * it does nothing; session-level locks then hold for the whole process, which owns the folder anyway.
   */
  connect(): Promise<StoreConnection>;
  /**
   * PGlite only: fsyncs every file of the embedded database, making all it wrote so far durable. PGlite
   * itself never flushes (its file layer has no fsync), so the engine runner keeps a durable log of its own
   * beside it and calls this before dropping the part of that log the store now holds durably.
   */
  syncToDisk?(): Promise<void>;
  /**
   * PGlite on its own thread only: the CPU time that thread has used so far, in microseconds (benchmarks
   * split a load's CPU time between the event loop, the database and the rest with it).
   */
  databaseThreadCpuMicros?(): number;
  /** PGlite only: the data folder the store lives in (the database is in its `pglite` folder). */
  readonly dataDir?: string;
  /**
   * How long opening took, in milliseconds: the database itself (on PGlite, which redoes the write-ahead log
   * written since its last checkpoint, most of a restart after a crash) and the migrations.
   */
  readonly openedInMs?: { open: number; migrate: number };
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** postgres:// URL; when absent the store is PGlite in `<dataDir>/pglite`. */
  databaseUrl?: string;
  dataDir: string;
  /**
   * PostgreSQL only: the schema to work in, created when missing. Lets several installations or test runs
   * share one database without seeing each other's tables.
   */
  schema?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Folder of migration files (default: this package's migrations). */
  migrationsFolder?: URL;
  /**
   * PGlite only: run it on a worker thread of its own (default true; see pglite-thread.ts) rather than on
   * the thread that opens the store.
   */
  embeddedThread?: boolean;
  /**
   * PGlite only: called once the data folder's lock is held, before PGlite itself opens (its thread takes a
   * second or more on a restart): work on the folder's other files that may not start before the lock
   * (the server reads its durable log meanwhile).
   */
  onFolderLocked?: () => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const migrations = await loadMigrations(options.migrationsFolder ?? MIGRATIONS_URL);
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options, migrations);
  }
  return openPglite(options.dataDir, migrations, options.embeddedThread ?? true, options.onFolderLocked);
}

// ---------------------------------------------------------------- PGlite

async function openPglite(
  dataDir: string,
  migrations: Awaited<ReturnType<typeof loadMigrations>>,
  onThread: boolean,
  onFolderLocked?: () => void,
): Promise<Store> {
  const folder = join(dataDir, 'pglite');
  // Synchronously, as the lock and the migrations' files: see acquireFolderLock.
  mkdirSync(folder, { recursive: true });
  // PGlite is one process's embedded database: a second process on the same folder would corrupt it.
  const folderLock = await acquireFolderLock(join(dataDir, 'pglite.lock'));
  const startedMs = performance.now();
  let database: EmbeddedDatabase;
  try {
    const opening = onThread ? threadDatabase(folder) : inProcessDatabase(folder);
    onFolderLocked?.();
    database = await opening;
  } catch (error) {
    await folderLock.release();
    throw error;
  }
  const openedMs = performance.now();
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migrate(database.session, migrations);
  } catch (error) {
    await database.close();
    await folderLock.release();
    throw error;
  }
  const store: Store = {
    kind: 'pglite',
    offEventLoop: onThread,
    drizzle: database.drizzle,
    appliedMigrations,
    query: database.session.query,
    transaction: database.transaction,
    connect: async () => ({ query: database.session.query, release: () => {} }),
    syncToDisk: () => syncFolder(folder),
    dataDir,
    openedInMs: { open: openedMs - startedMs, migrate: performance.now() - openedMs },
    close: async () => {
      await database.close();
      await folderLock.release();
    },
  };
  if (database.cpuMicros) store.databaseThreadCpuMicros = database.cpuMicros;
  return store;
}

/** PGlite opened either on its own thread or on this one: what openPglite builds the store from. */
interface EmbeddedDatabase {
  session: MigrationSession & Pick<Queryable, 'query'>;
  transaction: Store['transaction'];
  drizzle: () => Promise<Database>;
  cpuMicros?: () => number;
  close(): Promise<void>;
}

async function threadDatabase(folder: string): Promise<EmbeddedDatabase> {
  const thread = await openPgliteThread(folder);
  const query = <T>(text: string, params?: readonly unknown[]) => thread.query<T>(text, params);
  return {
    session: { query, exec: (script) => thread.exec(script) },
    transaction: (fn) =>
      thread.transaction((tx) =>
        fn({
          query: (text, params) => thread.query(text, params, tx),
          copyFrom: (table, columns, text) => thread.copy(tx, table, columns, text),
          drizzle: once(() => proxyDrizzle((text, params, arrays) => thread.query(text, params, tx, arrays))),
        }),
      ),
    drizzle: once(() =>
      proxyDrizzle((text, params, arrays) => thread.query(text, params, undefined, arrays)),
    ),
    cpuMicros: () => thread.cpuMicros(),
    close: () => thread.close(),
  };
}

async function inProcessDatabase(folder: string): Promise<EmbeddedDatabase> {
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create(folder, { parsers: PGLITE_PARSERS });
  const query = <T>(text: string, params?: readonly unknown[]) => pgliteQuery<T>(client, text, params);
  return {
    session: {
      query,
      exec: async (script) => {
        await client.exec(script);
      },
    },
    transaction: (fn) => client.transaction((tx) => fn(pgliteTransaction(tx))),
    drizzle: once(() => pgliteDrizzle(client)),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** Calls `load` the first time, and gives every caller that first promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

// The Drizzle tables and driver adapters load with the first `drizzle()` call (see Store.drizzle).
async function pgliteDrizzle(client: PGlite | PgliteTransaction): Promise<Database> {
  const [{ drizzle }, schema] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('./schema/index.ts'),
  ]);
  return drizzle({ client: client as PGlite, schema });
}

/** Drizzle over a store whose statements go to another thread (Drizzle's proxy driver). */
async function proxyDrizzle(
  run: (text: string, params: readonly unknown[], arrays: boolean) => Promise<QueryResult>,
): Promise<Database> {
  const [{ drizzle }, schema] = await Promise.all([
    import('drizzle-orm/pg-proxy'),
    import('./schema/index.ts'),
  ]);
  return drizzle(
    async (text, params, method) => ({ rows: (await run(text, params, method === 'all')).rows }),
    {
      schema,
    },
  ) as unknown as Database;
}

async function postgresDrizzle(client: pg.Pool | pg.PoolClient): Promise<Database> {
  const [{ drizzle }, schema] = await Promise.all([
    import('drizzle-orm/node-postgres'),
    import('./schema/index.ts'),
  ]);
  return drizzle({ client, schema });
}

function pgliteTransaction(tx: PgliteTransaction): StoreTransaction {
  return {
    query: (text, params) => pgliteQuery(tx, text, params),
    copyFrom: async (table, columns, text) => {
      await tx.query(`copy ${table} (${columns.join(', ')}) from '/dev/blob'`, [], {
        blob: new Blob([text]),
      });
    },
    drizzle: once(() => pgliteDrizzle(tx)),
  };
}

async function pgliteQuery<T>(
  client: PGlite | PgliteTransaction,
  text: string,
  params: readonly unknown[] = [],
): Promise<QueryResult<T>> {
  const result = await client.query<T>(text, [...params]);
  return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
}

// ---------------------------------------------------------------- PostgreSQL

const PG_TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

async function openPostgres(
  url: string,
  options: OpenStoreOptions,
  migrations: Awaited<ReturnType<typeof loadMigrations>>,
): Promise<Store> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new Error(`Invalid schema name "${options.schema}"`);
  }
  const config: pg.PoolConfig = { connectionString: url, max: options.poolSize ?? 10 };
  if (options.schema) config.options = `-c search_path=${options.schema}`;
  const pool = new pg.Pool(config);
  // An idle client can fail (server restart); the pool replaces it. Without a listener Node would crash.
  pool.on('error', () => {});
  try {
    const appliedMigrations = await migratePostgres(pool, options.schema, migrations);
    return postgresStore(pool, appliedMigrations);
  } catch (error) {
    await pool.end();
    throw error;
  }
}

async function migratePostgres(
  pool: pg.Pool,
  schemaName: string | undefined,
  migrations: Awaited<ReturnType<typeof loadMigrations>>,
): Promise<string[]> {
  const client = await pool.connect();
  try {
    return await migrate(
      {
        query: (text, params) => postgresQuery(client, text, params),
        exec: async (script) => {
          await client.query(script);
        },
      },
      migrations,
      schemaName ? `create schema if not exists ${schemaName}` : undefined,
    );
  } finally {
    client.release();
  }
}

function postgresStore(pool: pg.Pool, appliedMigrations: string[]): Store {
  // Pool clients are reused, so a Drizzle instance per client is built once and kept with it.
  const clientDatabases = new WeakMap<pg.PoolClient, Promise<Database>>();
  const databaseFor = (client: pg.PoolClient): Promise<Database> => {
    let clientDb = clientDatabases.get(client);
    if (!clientDb) {
      clientDb = postgresDrizzle(client);
      clientDatabases.set(client, clientDb);
    }
    return clientDb;
  };
  return {
    kind: 'postgres',
    offEventLoop: true,
    drizzle: once(() => postgresDrizzle(pool)),
    appliedMigrations,
    query: (text, params) => postgresQuery(pool, text, params),
    transaction: async (fn) => {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('begin');
        const result = await fn({
          query: (text, params) => postgresQuery(client, text, params),
          copyFrom: (table, columns, text) => postgresCopyFrom(client, table, columns, text),
          drizzle: () => databaseFor(client),
        });
        await client.query('commit');
        return result;
      } catch (error) {
        try {
          await client.query('rollback');
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (text, params) => postgresQuery(client, text, params),
        release: () => client.release(),
      };
    },
    close: () => pool.end(),
  };
}

async function postgresCopyFrom(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  text: string,
): Promise<void> {
  await pipeline(
    Readable.from([text]),
    client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`)),
  );
}

async function postgresQuery<T>(
  client: pg.Pool | pg.PoolClient,
  text: string,
  params: readonly unknown[] = [],
): Promise<QueryResult<T>> {
  const result = await client.query({ text, values: [...params], types: PG_TYPES });
  return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
}
