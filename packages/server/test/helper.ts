// Test helpers: temporary folders, a PGlite store per test file, apps built on it, users and sessions.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { BuildAppOptions } from '../src/app.ts';
import { buildApp } from '../src/app.ts';
import { createSession } from '../src/auth/sessions.ts';
import type { Config } from '../src/config.ts';
import { loadConfig } from '../src/config.ts';
import type { Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { loadMigrations } from '../src/store/migrate.ts';
import { whenCaughtUp } from '../src/engine-runner/index.ts';

const folders: string[] = [];

export async function tempDir(prefix = 'fairex-test-'): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  // The engine replica (a worker thread per app) is tested on its own (engine-runner/replica.test.ts) and in
  // the end-to-end servers; the many apps of the route tests run without it, one isolate each.
  return loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: join(tmpdir(), 'fairex-no-web-dist'),
    ENGINE_REPLICA: 'off',
    // Route tests start with an empty seconds reserve (a production exchange's setting) unless they fund it.
    MICRO_RESERVE: '0',
    ...overrides,
  });
}

/**
 * A migrated, empty PGlite data folder to copy: copying it and opening the copy takes a fraction of a
 * fresh initdb. Keyed by the migrations, so a new or changed migration builds a new template.
 */
async function pgliteTemplate(): Promise<string> {
  const migrations = await loadMigrations();
  const key = createHash('sha256')
    .update(migrations.map((migration) => `${migration.name}:${migration.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const template = join(tmpdir(), `fairex-pglite-template-${key}`);
  if (existsSync(join(template, 'ready'))) return template;
  const building = await mkdtemp(join(tmpdir(), 'fairex-pglite-build-'));
  const store = await openStore({ dataDir: building });
  await store.close();
  await writeFile(join(building, 'ready'), '');
  // Another test run may have finished the same template first; either copy is as good.
  await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  return template;
}

/**
 * A migrated PGlite store in a fresh temporary folder, whatever DATABASE_URL says: for what only the embedded
 * store has (its durable log). Reopen the folder with `openStore({ dataDir })`.
 */
export async function openPgliteTestStore(): Promise<{ store: Store; dataDir: string }> {
  const dataDir = await tempDir('fairex-store-');
  await cp(join(await pgliteTemplate(), 'pglite'), join(dataDir, 'pglite'), { recursive: true });
  return { store: await openStore({ dataDir }), dataDir };
}

/**
 * A migrated store on an empty database: PGlite in a fresh temporary folder, or, when DATABASE_URL is set,
 * PostgreSQL in a fresh schema that closing drops (so the whole suite can run on either).
 */
export async function openTestStore(): Promise<Store> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return (await openPgliteTestStore()).store;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ databaseUrl, dataDir: tmpdir(), schema, poolSize: 4 });
  return {
    ...store,
    close: async () => {
      await store.close();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

export async function buildTestApp(
  store: Store,
  options: Partial<BuildAppOptions> & { env?: Record<string, string> } = {},
): Promise<FastifyInstance> {
  const { env, ...rest } = options;
  // No first-start demo data (DEMO) unless a test asks for it (demoData: true), live market or not.
  return buildApp({ config: testConfig(env), store, logger: false, demoData: false, ...rest });
}

export async function createUser(
  store: Pick<Store, 'query'>,
  input: { account?: string; reviewStatus?: number } = {},
): Promise<number> {
  const suffix = randomBytes(4).toString('hex');
  const { rows } = await store.query<{ id: number }>(
    `insert into users (account, email, password_hash, extension_code, review_status)
     values ($1, $1, 'not-a-real-hash', $2, $3) returning id`,
    [input.account ?? `user-${suffix}@example.com`, `INV${suffix}`, input.reviewStatus ?? 0],
  );
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('user insert returned nothing');
  return id;
}

/** A live session token for the user (one hour). */
export async function loginAs(store: Pick<Store, 'query'>, userId: number, kind?: string): Promise<string> {
  const session = await createSession(store, { userId, ttlMs: 3_600_000, kind });
  return session.token;
}

/**
 * Waits until the app's projector has written everything submitted so far. Replies wait only for the journal
 * (journal-first); a test that reads projection tables (or a route reading them for another user) right after
 * a submit calls this first.
 */
export async function projected(app: FastifyInstance): Promise<void> {
  if (app.hasDecorator('runner')) await whenCaughtUp(app.runner);
}
