// Fresh stores for the runner's tests: PGlite in a temporary folder always, and PostgreSQL in a schema of
// its own when DATABASE_URL is set, so every test starts from an empty journal.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { OpenStoreOptions, Store } from '../../src/store/index.ts';
import { openStore } from '../../src/store/index.ts';
import type { RunnerLogger } from '../../src/engine-runner/types.ts';

export interface StoreTarget {
  name: 'PGlite' | 'PostgreSQL';
  /** Options naming a new, empty database; open it as often as needed. */
  fresh(): Promise<OpenStoreOptions>;
  /** Removes every folder and schema this target made. */
  cleanup(): Promise<void>;
}

export function storeTargets(): StoreTarget[] {
  const targets = [pgliteTarget()];
  const url = process.env.DATABASE_URL;
  if (url) targets.push(postgresTarget(url));
  return targets;
}

function pgliteTarget(): StoreTarget {
  const folders: string[] = [];
  return {
    name: 'PGlite',
    async fresh() {
      const dataDir = await mkdtemp(join(tmpdir(), 'fairex-runner-'));
      folders.push(dataDir);
      return { dataDir };
    },
    async cleanup() {
      await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

function postgresTarget(url: string): StoreTarget {
  const schemas: string[] = [];
  const folders: string[] = [];
  return {
    name: 'PostgreSQL',
    async fresh() {
      const schema = `runner_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const dataDir = await mkdtemp(join(tmpdir(), 'fairex-runner-pg-'));
      folders.push(dataDir);
      return { databaseUrl: url, dataDir, schema, poolSize: 4 };
    },
    async cleanup() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const schema of schemas.splice(0)) await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
      await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
}

export async function open(options: OpenStoreOptions): Promise<Store> {
  return openStore(options);
}

/** A logger that keeps what it was told, so tests can assert on failures without printing. */
export function memoryLogger(): RunnerLogger & { lines: { level: string; message: string | undefined }[] } {
  const lines: { level: string; message: string | undefined }[] = [];
  return {
    lines,
    info: (_object, message) => lines.push({ level: 'info', message }),
    warn: (_object, message) => lines.push({ level: 'warn', message }),
    error: (_object, message) => lines.push({ level: 'error', message }),
  };
}

/** A clock that advances one millisecond per reading, for reproducible stamps. */
export function steppingClock(startMs = 1_700_000_000_000): () => number {
  let now = startMs;
  return () => now++;
}
