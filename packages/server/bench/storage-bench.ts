// Storage benchmark: how fast the data folder grows. Two measurements on embedded PGlite, each in a new data
// folder with the whole app in this process:
//
// - idle with the live market on (price source, index scheduler, market maker; nobody trading): after the
//   history backfill and a warm-up, the bytes each table gains over a measured window and the folder's
//   growth, extrapolated to a day, with the rows written per minute; then the same after a VACUUM, and
//   after a retention run (journal:compact's work, cutting at the newest snapshot) whose freed space the
//   next window reuses;
// - 1,000 limit orders from users through the runner (as the HTTP route submits them), about a third
//   crossing: the bytes each table gains, per 1,000 orders.
//
// Table sizes are PostgreSQL's own (pg_total_relation_size: heap, TOAST and indexes); the folder's growth is
// the files' sizes (PGlite's WAL segments are recycled, so the folder can grow in steps of 16 MB).
//
// Run directly to print the figures: node packages/server/bench/storage-bench.ts [idle seconds]
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { compactJournal } from '../src/engine-runner/index.ts';
import type { Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { Workload } from './workload.ts';

type Figures = Record<string, number | string>;

export interface StorageBenchOptions {
  /** Seconds of the idle window (default 60), after `warmUpSeconds` (default 10). */
  idleSeconds?: number;
  warmUpSeconds?: number;
  /** Orders of the order measurement (default 1,000). */
  orders?: number;
}

const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

interface TableSizes {
  bytes: Map<string, number>;
  rows: Map<string, number>;
}

async function tableSizes(store: Store): Promise<TableSizes> {
  const { rows } = await store.query<{ name: string; bytes: bigint }>(
    `select c.relname as name, pg_total_relation_size(c.oid)::bigint as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r'`,
  );
  const counted = [
    'engine_journal',
    'engine_snapshots',
    'spot_orders',
    'spot_trades',
    'account_log',
    'candles',
  ];
  const counts = await store.query<Record<string, bigint>>(
    `select ${counted.map((table) => `(select count(*) from ${table})::bigint as ${table}`).join(', ')}`,
  );
  const journal = await store.query<{ commands: bigint }>(
    'select coalesce(sum(command_count), 0)::bigint as commands from engine_journal',
  );
  const rowCounts = new Map(Object.entries(counts.rows[0] ?? {}).map(([name, n]) => [name, Number(n)]));
  rowCounts.set('journal commands', Number(journal.rows[0]?.commands ?? 0n));
  return { bytes: new Map(rows.map((row) => [row.name, Number(row.bytes)])), rows: rowCounts };
}

/** Tables that grew, largest first, as "name bytes (rows)". */
function growth(before: TableSizes, after: TableSizes, scale: number): [string, number, number][] {
  const grown: [string, number, number][] = [];
  for (const [name, bytes] of after.bytes) {
    const delta = bytes - (before.bytes.get(name) ?? 0);
    if (delta !== 0) {
      const rows = (after.rows.get(name) ?? 0) - (before.rows.get(name) ?? 0);
      grown.push([name, delta * scale, rows * scale]);
    }
  }
  return grown.sort((a, b) => b[1] - a[1]);
}

async function withApp<T>(
  live: boolean,
  fn: (app: FastifyInstance, store: Store, dataDir: string) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-storage-bench-'));
  const store = await openStore({ dataDir });
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        WEB_DIST: join(dataDir, 'no-web-build'),
        MARKET_MAKER: live ? 'on' : 'off',
        // Idle: snapshots every 1,000 commands, so that retention has snapshots to cut at within minutes.
        ...(live ? { SNAPSHOT_EVERY_COMMANDS: '1000' } : {}),
      }),
      store,
      liveMarket: live,
      logger: false,
    });
    await app.ready();
    return await fn(app, store, dataDir);
  } finally {
    await app?.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runStorageBench(options: StorageBenchOptions = {}): Promise<Figures> {
  const settings = { idleSeconds: 60, warmUpSeconds: 10, orders: 1_000, ...options };
  const figures: Figures = {};

  await withApp(true, async (app, store, dataDir) => {
    // The first start's history backfill writes candles for a while; idle begins after it.
    await app.marketLive?.started;
    await sleep(settings.warmUpSeconds * 1000);
    // Two windows: the second after the maintenance VACUUM, which lets PGlite (no autovacuum) reuse the
    // space of rows that updates left dead (orders filled or cancelled, candles folded).
    // A third window with retention cutting at the newest snapshot (a window of 0 hours instead of the
    // default 24, so that a minute shows it): what it removed, and the growth once its space is reused.
    for (const window of ['idle', 'idle after vacuum', 'idle with retention'] as const) {
      if (window === 'idle after vacuum') {
        const vacuumStartedMs = performance.now();
        await store.query('vacuum');
        figures['vacuum of the whole database (ms)'] = Math.round(performance.now() - vacuumStartedMs);
      }
      if (window === 'idle with retention') {
        const compactStartedMs = performance.now();
        const result = await compactJournal(store, { mode: 'delete', vacuum: true });
        figures['retention run: ms, commands / market-maker orders removed'] =
          `${Math.round(performance.now() - compactStartedMs)}, ${result.removedCommands} / ${result.removedQuotes}`;
      }
      const before = await tableSizes(store);
      const folderBefore = await folderBytes(dataDir);
      const startedMs = performance.now();
      await sleep(settings.idleSeconds * 1000);
      const elapsedMs = performance.now() - startedMs;
      const after = await tableSizes(store);
      const folderAfter = await folderBytes(dataDir);
      const perMinute = 60_000 / elapsedMs;
      const perDay = DAY_MS / elapsedMs;
      let tablesPerDay = 0;
      for (const [name, bytes] of growth(before, after, perDay)) {
        tablesPerDay += bytes;
        const rows = Math.round(((after.rows.get(name) ?? 0) - (before.rows.get(name) ?? 0)) * perMinute);
        figures[`${window}: ${name} MB/day (rows/min)`] = `${(bytes / MB).toFixed(1)} (${rows})`;
      }
      const commands = (after.rows.get('journal commands') ?? 0) - (before.rows.get('journal commands') ?? 0);
      figures[`${window}: journaled commands per minute`] = Math.round(commands * perMinute);
      figures[`${window}: all tables MB/day`] = Number((tablesPerDay / MB).toFixed(1));
      figures[`${window}: data folder MB/day`] = Number(
        (((folderAfter - folderBefore) * perDay) / MB).toFixed(1),
      );
      figures[`${window}: measured window (s)`] = Math.round(elapsedMs / 1000);
    }
    const snapshotStartedMs = performance.now();
    const snapshotBytes = app.engine.snapshot().length;
    figures['idle: one snapshot: KB, ms to take'] =
      `${Math.round(snapshotBytes / 1024)}, ${Math.round(performance.now() - snapshotStartedMs)}`;
    const stats = app.runner.stats();
    figures['idle: snapshots by size / by time'] = `${stats.snapshotsBySize} / ${stats.snapshotsByTime}`;
  });

  await withApp(false, async (app, store) => {
    const users = 100;
    const firstUserId = 1_000_000;
    for (let userId = firstUserId; userId < firstUserId + users; userId++) {
      await app.runner.submit({ type: 'deposit', userId, currencyId: 1, amount: 1_000n * 100_000_000n });
      await app.runner.submit({ type: 'deposit', userId, currencyId: 3, amount: 10n ** 14n });
    }
    const workload = new Workload(3, users, { quoteCurrencyId: 3, marketId: 1, firstUserId });
    const before = await tableSizes(store);
    let orders = 0;
    while (orders < settings.orders) {
      const command = workload.next(app.engine);
      if (command.type !== 'placeOrder') continue;
      orders++;
      await app.runner.submit(command);
    }
    const after = await tableSizes(store);
    let total = 0;
    for (const [name, bytes] of growth(before, after, 1_000 / orders)) {
      total += bytes;
      figures[`orders: ${name} KB per 1,000 orders`] = Math.round(bytes / 1024);
    }
    figures['orders: all tables KB per 1,000 orders'] = Math.round(total / 1024);
  });
  return figures;
}

if (import.meta.main) {
  const idleSeconds = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const figures = await runStorageBench(idleSeconds === undefined ? {} : { idleSeconds });
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(56)} ${value}`);
}
