// Starts the real Fairex server once for the whole end-to-end run: the built web app, a fresh data
// folder, a free port. Tests read the address with `inject('baseURL')`. With DATABASE_URL set (as CI sets
// it) the server runs on PostgreSQL in a schema of its own, made here and dropped at the end, so that every
// run starts from a new exchange as it does on the embedded store, not from what an earlier run left.
//
// E2E_BASE_URL points the tests at a server that is already running (for example `vite preview`
// while the server is being built); then nothing is started here.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ARTIFACTS_DIR, ROOT } from './support/paths.ts';
import { freePort, nodeBinary } from './support/server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
  }
}

const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

async function waitForHealth(baseURL: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`The server exited with code ${child.exitCode} before it was ready:\n${log()}`);
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`The server did not answer GET /api/health within ${START_TIMEOUT_MS} ms:\n${log()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  child.kill('SIGTERM');
  // An unreferenced timer: once the server has exited, nothing here may keep the test run alive.
  const timedOut = await Promise.race([
    exited.then(() => false),
    sleep(STOP_TIMEOUT_MS, undefined, { ref: false }).then(() => true),
  ]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A new, empty schema on the PostgreSQL of `databaseUrl`, and the address that puts the server in it (its
 * search path), with the schema's removal.
 */
async function freshSchema(databaseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create schema ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`drop schema if exists ${schema} cascade`) };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.E2E_BASE_URL;
  if (external !== undefined && external !== '') {
    project.provide('baseURL', external.replace(/\/$/, ''));
    return async () => undefined;
  }
  if (!existsSync(join(ROOT, 'packages/web/dist/index.html'))) {
    throw new Error('The web app is not built: run `npm run build:web` first (npm run test:e2e does).');
  }

  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = createWriteStream(join(ARTIFACTS_DIR, 'e2e-server.log'));
  let recent = '';
  const databaseUrl = process.env.DATABASE_URL;
  const schema = databaseUrl ? await freshSchema(databaseUrl) : undefined;
  const child = spawn(nodeBinary(), ['packages/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...(schema === undefined ? {} : { DATABASE_URL: schema.url }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    logFile.write(chunk);
    recent = (recent + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  try {
    await waitForHealth(baseURL, child, () => recent);
  } catch (error) {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    await schema?.drop();
    throw error;
  }
  project.provide('baseURL', baseURL);

  return async () => {
    await stop(child);
    logFile.end();
    await rm(dataDir, { recursive: true, force: true });
    await schema?.drop();
  };
}
