// Starts a Fairex server of a test's own (its own data folder, port and environment), for tests that need
// settings the shared server of the run does not have, such as a real SMTP server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from './paths.ts';

const START_TIMEOUT_MS = 90_000;

/** Node 24 runs the server's TypeScript directly; the project pins it in node_modules/.bin. */
export function nodeBinary(): string {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return process.execPath;
  const pinned = join(ROOT, 'node_modules', '.bin', 'node');
  if (existsSync(pinned)) return pinned;
  throw new Error(`The server needs Node 24 or newer; this is ${process.version}.`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolvePort(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcess {
  baseURL: string;
  dataDir: string;
  /** What the server wrote, for failure messages. */
  log(): string;
  /** Stops the server and removes its data folder, unless `keepData` (to start it again on the folder). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** A fresh data folder for a server (and for commands run against it before it starts). */
export function newDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'fairex-e2e-own-'));
}

/** Runs a command of the project (e.g. the administrator command line) with the given environment. */
export async function runNode(args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(nodeBinary(), args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}:\n${output}`);
  return output;
}

export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const baseURL = `http://127.0.0.1:${port}`;
  let recent = '';
  const child: ChildProcess = spawn(nodeBinary(), ['packages/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (recent = (recent + chunk.toString()).slice(-8000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async ({ keepData = false }: { keepData?: boolean } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
      child.kill('SIGTERM');
      const timedOut = await Promise.race([
        exited.then(() => false),
        sleep(15_000, undefined, { ref: false }).then(() => true),
      ]);
      if (timedOut) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    if (!keepData) await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server exited with code ${child.exitCode}:\n${recent}`);
    }
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return { baseURL, dataDir, log: () => recent, stop };
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`The server did not become healthy in ${START_TIMEOUT_MS} ms:\n${recent}`);
}
