import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrations } from './migrate.ts';
import * as schema from './schema/index.ts';
import type { OpenStoreOptions, Store } from './store.ts';
import { openStore } from './store.ts';

const databaseUrl = process.env.DATABASE_URL;

interface Target {
  name: string;
  /** Options for a store on a fresh, empty database. */
  fresh(): Promise<OpenStoreOptions>;
  cleanup(): Promise<void>;
}

function pgliteTarget(embeddedThread = true): Target {
  const folders: string[] = [];
  return {
    name: 'PGlite',
    async fresh() {
      const dataDir = await mkdtemp(join(tmpdir(), 'fairex-store-'));
      folders.push(dataDir);
      return { dataDir, embeddedThread };
    },
    async cleanup() {
      await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

function postgresTarget(url: string): Target {
  const schemas: string[] = [];
  return {
    name: 'PostgreSQL',
    async fresh() {
      const schemaName = `test_${randomBytes(6).toString('hex')}`;
      schemas.push(schemaName);
      return { databaseUrl: url, dataDir: tmpdir(), schema: schemaName };
    },
    async cleanup() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      for (const name of schemas) await client.query(`drop schema if exists ${name} cascade`);
      await client.end();
    },
  };
}

function tables(): PgTable[] {
  return Object.values(schema as Record<string, unknown>).filter(
    (value): value is PgTable => value instanceof PgTable,
  );
}

function storeSuite(target: Target) {
  let store: Store;
  let options: OpenStoreOptions;

  beforeAll(async () => {
    options = await target.fresh();
    store = await openStore(options);
  });
  afterAll(async () => {
    await store?.close();
    await target.cleanup();
  });

  it('applies every migration once and records it', async () => {
    const names = (await loadMigrations()).map((migration) => migration.name);
    expect(store.appliedMigrations).toEqual(names);
    const { rows } = await store.query<{ name: string }>('select name from schema_migrations order by name');
    expect(rows.map((row) => row.name)).toEqual(names);
  });

  it('has every column a Drizzle table declares', async () => {
    for (const table of tables()) {
      const config = getTableConfig(table);
      const { rows } = await store.query<{ column_name: string }>(
        `select column_name from information_schema.columns
          where table_schema = current_schema() and table_name = $1`,
        [config.name],
      );
      const present = new Set(rows.map((row) => row.column_name));
      const declared = config.columns.map((column) => column.name);
      expect({ table: config.name, missing: declared.filter((name) => !present.has(name)) }).toEqual({
        table: config.name,
        missing: [],
      });
    }
  });

  it('maps int8 to bigint, numeric to string and jsonb to objects on raw queries', async () => {
    const { rows } = await store.query(
      `select 9007199254740993::int8 as big, 1::int8 as small, 1.50::numeric as exact,
              '{"a":[1]}'::jsonb as doc, 7::int4 as int, true as flag`,
    );
    expect(rows[0]).toEqual({
      big: 9007199254740993n,
      small: 1n,
      exact: '1.50',
      doc: { a: [1] },
      int: 7,
      flag: true,
    });
  });

  it('round-trips bigint amounts through Drizzle and raw SQL', async () => {
    await (await store.drizzle()).insert(schema.currencies).values({
      id: 900,
      code: 'TSTA',
      name: 'Test A',
      scale: 12,
      withdrawMin: 9_223_372_036_854_775_807n,
      chains: [{ type: 0, code: 'TEST', network: 'test' }],
    });
    const [viaDrizzle] = await (
      await store.drizzle()
    )
      .select()
      .from(schema.currencies)
      .where(eq(schema.currencies.id, 900));
    expect(viaDrizzle?.withdrawMin).toBe(9_223_372_036_854_775_807n);
    expect(viaDrizzle?.chains).toEqual([{ type: 0, code: 'TEST', network: 'test' }]);
    const { rows } = await store.query('select withdraw_min from currencies where id = $1', [900]);
    expect(rows[0]?.withdraw_min).toBe(9_223_372_036_854_775_807n);
    const update = await store.query('update currencies set withdraw_fee = $1 where id = $2', [5n, 900]);
    expect(update.rowCount).toBe(1);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await store.transaction(async (tx) => {
      await tx.query(`insert into currencies (id, code, name, scale) values (901, 'TSTB', 'Test B', 2)`);
      await (
        await tx.drizzle()
      )
        .insert(schema.currencies)
        .values({ id: 902, code: 'TSTC', name: 'Test C', scale: 2 });
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.query(`insert into currencies (id, code, name, scale) values (903, 'TSTD', 'Test D', 2)`);
        const inside = await (
          await tx.drizzle()
        )
          .select()
          .from(schema.currencies)
          .where(eq(schema.currencies.id, 903));
        expect(inside).toHaveLength(1);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const { rows } = await store.query<{ id: number }>(
      'select id from currencies where id between 901 and 903 order by id',
    );
    expect(rows.map((row) => row.id)).toEqual([901, 902]);
  });

  it('enforces the constraints written in SQL', async () => {
    await expect(
      store.query(`insert into currencies (id, code, name, scale) values (904, 'bad code', 'x', 2)`),
    ).rejects.toThrow();
    await expect(
      store.query(
        `insert into currencies (id, code, name, scale, withdraw_fee) values (905, 'TSTE', 'x', 2, -1)`,
      ),
    ).rejects.toThrow();
  });

  it("keeps a PostgreSQL error's code and constraint, and the store goes on", async () => {
    await store.query(`insert into currencies (id, code, name, scale) values (906, 'TSTF', 'x', 2)`);
    await expect(
      store.query(`insert into currencies (id, code, name, scale) values (906, 'TSTG', 'x', 2)`),
    ).rejects.toMatchObject({ code: '23505', constraint: 'currencies_pkey' });
    const { rows } = await store.query('select count(*) as n from currencies where id = 906');
    expect(rows[0]?.n).toBe(1n);
  });

  it('reports a commit that fails, with nothing of the transaction kept', async () => {
    await store.query(
      `create table deferred_check (id int primary key, other int unique deferrable initially deferred)`,
    );
    await expect(
      store.transaction(async (tx) => {
        await tx.query('insert into deferred_check values (1, 7), (2, 7)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await store.query('select count(*) as n from deferred_check');
    expect(rows[0]?.n).toBe(0n);
    await store.transaction(async (tx) => {
      await tx.query('insert into deferred_check values (3, 8)');
      await tx.copyFrom?.('deferred_check', ['id', 'other'], '4\t9\n5\t10\n');
    });
    const after = await store.query<{ id: number }>('select id from deferred_check order by id');
    expect(after.rows.map((row) => row.id)).toEqual([3, 4, 5]);
  });

  it('gives a dedicated connection that keeps session state', async () => {
    const connection = await store.connect();
    try {
      await connection.query(`select set_config('application_name', 'fairex-test', false)`);
      const { rows } = await connection.query(`select current_setting('application_name') as name`);
      expect(rows[0]?.name).toBe('fairex-test');
    } finally {
      connection.release();
    }
  });

  it('applies nothing when opened again', async () => {
    await store.close();
    store = await openStore(options);
    expect(store.appliedMigrations).toEqual([]);
    const { rows } = await store.query('select count(*) as n from currencies where id = 900');
    expect(rows[0]?.n).toBe(1n);
  });
}

describe('store on PGlite, on its own thread', () => {
  storeSuite(pgliteTarget());

  it('runs a statement sent while a transaction is open after its commit, as on one thread', async () => {
    const target = pgliteTarget();
    const store = await openStore(await target.fresh());
    try {
      const cpuBefore = store.databaseThreadCpuMicros?.() ?? -1;
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const transaction = store.transaction(async (tx) => {
        await tx.query(`insert into currencies (id, code, name, scale) values (907, 'TSTH', 'x', 2)`);
        await held;
      });
      // Sent while the transaction holds the store: answered once it has committed, so it sees the row.
      const count = store.query('select count(*) as n from currencies where id = 907');
      release();
      await transaction;
      expect((await count).rows[0]?.n).toBe(1n);
      expect(store.databaseThreadCpuMicros?.()).toBeGreaterThan(cpuBefore);
    } finally {
      await store.close();
      await target.cleanup();
    }
  });

  it('fails every statement after it is closed, and lets the folder be opened again', async () => {
    const target = pgliteTarget();
    const options = await target.fresh();
    try {
      const store = await openStore(options);
      await store.close();
      await expect(store.query('select 1')).rejects.toThrow(/closed/);
      const again = await openStore(options);
      expect((await again.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await again.close();
    } finally {
      await target.cleanup();
    }
  });

  it('calls onFolderLocked once the folder is locked, before PGlite has opened', async () => {
    const target = pgliteTarget();
    const options = await target.fresh();
    try {
      const seen: { lockOwner: string; opened: boolean }[] = [];
      let opened = false;
      const opening = openStore({
        ...options,
        onFolderLocked: () =>
          seen.push({ lockOwner: readFileSync(join(options.dataDir, 'pglite.lock'), 'utf8'), opened }),
      });
      const store = await opening;
      opened = true;
      expect(seen).toEqual([{ lockOwner: String(process.pid), opened: false }]);
      await store.close();
    } finally {
      await target.cleanup();
    }
  });
});

describe('store on PGlite, on the event loop (EMBEDDED_STORE_THREAD=off)', () => {
  storeSuite(pgliteTarget(false));
});

describe.runIf(databaseUrl)('store on PostgreSQL', () => {
  storeSuite(postgresTarget(databaseUrl ?? ''));

  it('migrates once when two processes start together', async () => {
    const target = postgresTarget(databaseUrl ?? '');
    const options = await target.fresh();
    try {
      const [first, second] = await Promise.all([openStore(options), openStore(options)]);
      const applied = [...first.appliedMigrations, ...second.appliedMigrations].sort();
      expect(applied).toEqual((await loadMigrations()).map((migration) => migration.name));
      await Promise.all([first.close(), second.close()]);
    } finally {
      await target.cleanup();
    }
  });
});

describe('migration files', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'fairex-migrations-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('refuses an applied migration that changed, and rolls back a failing one', async () => {
    const folder = join(root, 'migrations');
    const dataDir = join(root, 'data');
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true });
    const folderUrl = pathToFileURL(folder + '/');
    await writeFile(join(folder, '0001_first.sql'), 'create table first_table (id int primary key);');
    const store = await openStore({ dataDir, migrationsFolder: folderUrl });
    expect(store.appliedMigrations).toEqual(['0001_first.sql']);
    await expect(openStore({ dataDir, migrationsFolder: folderUrl })).rejects.toThrow(/in use by process/);
    await store.close();

    await writeFile(join(folder, '0002_broken.sql'), 'create table second_table (id int); select nonsense(;');
    await expect(openStore({ dataDir, migrationsFolder: folderUrl })).rejects.toThrow(
      /0002_broken\.sql failed/,
    );
    await rm(join(folder, '0002_broken.sql'));

    await writeFile(join(folder, '0001_first.sql'), 'create table first_table (id bigint primary key);');
    await expect(openStore({ dataDir, migrationsFolder: folderUrl })).rejects.toThrow(
      /changed after it was applied/,
    );

    await writeFile(join(folder, '0001_first.sql'), 'create table first_table (id int primary key);');
    const reopened = await openStore({ dataDir, migrationsFolder: folderUrl });
    const { rows } = await reopened.query(`select to_regclass('second_table') as missing`);
    expect(rows[0]?.missing).toBeNull();
    await reopened.close();
  });

  it('rejects a file name that is not NNNN_name.sql', async () => {
    const folder = join(root, 'badnames');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'first.sql'), 'select 1;');
    await expect(loadMigrations(pathToFileURL(folder + '/'))).rejects.toThrow(/0001_name\.sql/);
  });
});
