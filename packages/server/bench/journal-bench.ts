// Journal benchmark: durable group-commit throughput at maximum submission rate, commit latency at a paced
// 10,000 commands/s, and replay speed at start-up, on PGlite (a data folder) and, when DATABASE_URL is set,
// on PostgreSQL. Every figure is measured through the real runner with the real engine and a seeded
// exchange workload (bench/workload.ts): a command counts only once its batch's transaction committed.
//
// Run directly to print a table: node packages/server/bench/journal-bench.ts
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Command } from '@fairex/engine';
import { createExchangeRunner } from '../src/exchange-runner.ts';
import type { ExchangeRunner } from '../src/engine-runner/index.ts';
import { engineKit, whenCaughtUp } from '../src/engine-runner/index.ts';
import { recoverEngine } from '../src/engine-runner/recovery.ts';
import type { OpenStoreOptions, Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { setupCommands, Workload } from './workload.ts';

type Figures = Record<string, number | string>;

export interface JournalBenchOptions {
  /** Commands submitted at maximum rate (default 100,000). */
  maxRateCommands?: number;
  /** Seconds of paced submission at 10,000 commands/s (default 4). */
  pacedSeconds?: number;
  users?: number;
}

const quietLogger = { info() {}, warn() {}, error() {} };

export async function runJournalBench(options: JournalBenchOptions = {}): Promise<Figures> {
  const settings = { maxRateCommands: 100_000, pacedSeconds: 4, users: 200, ...options };
  // Other work on the machine slows every figure here; the load at the start says how much to trust them.
  const figures: Figures = { cpus: cpus().length, 'load average at start (1 min)': round(loadavg()[0] ?? 0) };
  const targets: {
    name: string;
    open: () => Promise<{ options: OpenStoreOptions; cleanup: () => Promise<void> }>;
  }[] = [{ name: 'pglite', open: pgliteDatabase }];
  const url = process.env.DATABASE_URL;
  if (url) targets.push({ name: 'postgres', open: () => postgresDatabase(url) });
  for (const target of targets) {
    Object.assign(figures, prefixed(target.name, await benchTarget(target.open, settings)));
  }
  if (!url) figures['postgres'] = 'skipped: DATABASE_URL not set';
  return figures;
}

async function benchTarget(
  openDatabase: () => Promise<{ options: OpenStoreOptions; cleanup: () => Promise<void> }>,
  settings: Required<JournalBenchOptions>,
): Promise<Figures> {
  const figures: Figures = {};
  for (const projections of [true, false]) {
    const database = await openDatabase();
    try {
      const store = await openStore(database.options);
      const runner = await benchRunner(store, projections);
      const workload = new Workload(42, settings.users);
      await submitAll(runner, setupCommands(settings.users));
      const label = projections ? 'with projections' : 'journal only';
      const maxRate = await maxRateRun(runner, workload, settings.maxRateCommands);
      figures[`max-rate commands/s (${label})`] = Math.round(maxRate.commandsPerSecond);
      figures[`max-rate mean batch size (${label})`] = Math.round(maxRate.meanBatch);
      const paced = await pacedRun(runner, workload, 10_000, settings.pacedSeconds);
      figures[`paced 10k/s achieved commands/s (${label})`] = Math.round(paced.achievedPerSecond);
      figures[`paced 10k/s commit latency p50 ms (${label})`] = paced.p50Ms;
      figures[`paced 10k/s commit latency p99 ms (${label})`] = paced.p99Ms;
      figures[`paced 10k/s commit latency max ms (${label})`] = paced.maxMs;
      if (projections) {
        const { projectorLag } = runner.stats();
        figures['projector lag at the end of the paced run (commands / ms)'] =
          `${projectorLag.commands} / ${projectorLag.ms}`;
      }
      await runner.close();
      if (projections) Object.assign(figures, await rowsPerCommand(store, runner.stats().lastSeq));
      await store.close();
      if (projections) {
        const reopened = await openStore(database.options);
        const replay = await replayRun(reopened, 'replay');
        const applied = await replayRun(reopened, 'apply');
        await reopened.close();
        figures['replay commands'] = replay.commands;
        figures['replay commands/s'] = Math.round(replay.commandsPerSecond);
        figures['replay: decode / apply ms (Engine.replay, no events; first, JIT cold)'] =
          `${replay.decodeMs} / ${replay.applyMs}`;
        figures['replay: decode / apply ms (apply with events, as before; second)'] =
          `${applied.decodeMs} / ${applied.applyMs}`;
      }
    } finally {
      await database.cleanup();
    }
  }
  return figures;
}

/** Snapshots and closing snapshots off, so that the replay measurement replays the whole journal. */
function benchRunner(store: Store, projections: boolean): Promise<ExchangeRunner> {
  return createExchangeRunner({
    store,
    logger: quietLogger,
    projections,
    snapshotEvery: Number.MAX_SAFE_INTEGER,
    snapshotOnClose: false,
    maxPendingCommands: 1_000_000,
    // The bench bounds what waits itself (maxRateRun's window); the projector may fall that far behind.
    projectorMaxLagCommands: 1_000_000,
    // JOURNAL_FSYNC=off measures PGlite without the durable log beside it, for the cost of the log.
    journalFsync: process.env.JOURNAL_FSYNC !== 'off',
  });
}

async function submitAll(runner: ExchangeRunner, commands: Command[]): Promise<void> {
  await Promise.all(commands.map((command) => runner.submit(command)));
}

/**
 * Submits as fast as the engine applies, keeping at most `window` commands waiting for their commit (a
 * gateway under overload would do the same through its connection limit), and times first submit to last
 * projection (journal-first: replies wait for the commit, the projections follow).
 */
async function maxRateRun(runner: ExchangeRunner, workload: Workload, count: number, window = 20_000) {
  const before = runner.stats();
  const startedMs = performance.now();
  let outstanding = 0;
  let finished: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  let resolved = 0;
  const onDone = () => {
    outstanding--;
    if (++resolved === count) finished();
  };
  for (let submitted = 0; submitted < count;) {
    while (outstanding < window && submitted < count) {
      outstanding++;
      submitted++;
      runner.submit(workload.next(runner.engine)).then(onDone, (error: unknown) => {
        throw error;
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await allDone;
  // Journal-first: the projections are written behind the commits; the run ends when they are too.
  await whenCaughtUp(runner);
  const elapsedMs = performance.now() - startedMs;
  const after = runner.stats();
  return {
    commandsPerSecond: (count / elapsedMs) * 1000,
    meanBatch:
      (after.committedCommands - before.committedCommands) /
      (after.committedBatches - before.committedBatches),
  };
}

/**
 * Submits at a fixed rate: command i is due at start + i / rate. Latency is measured from when a command was
 * due (not when the loop got round to it), so any lag of the submitting loop counts against the figure.
 */
async function pacedRun(runner: ExchangeRunner, workload: Workload, ratePerSecond: number, seconds: number) {
  const total = ratePerSecond * seconds;
  const latencies = new Float64Array(total);
  const startedMs = performance.now();
  let submitted = 0;
  let resolved = 0;
  let finished: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  while (submitted < total) {
    const nowMs = performance.now();
    const due = Math.min(total, Math.floor(((nowMs - startedMs) * ratePerSecond) / 1000) + 1);
    for (; submitted < due; submitted++) {
      const index = submitted;
      const dueMs = startedMs + (index * 1000) / ratePerSecond;
      void runner.submit(workload.next(runner.engine)).then(() => {
        latencies[index] = performance.now() - dueMs;
        if (++resolved === total) finished();
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await allDone;
  const elapsedMs = performance.now() - startedMs;
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  const at = (fraction: number) =>
    round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0);
  return { achievedPerSecond: (total / elapsedMs) * 1000, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

/** What the projections cost depends on how many rows each command makes; the workload is trade-heavy. */
async function rowsPerCommand(store: Store, commands: number): Promise<Figures> {
  const count = async (table: string) => {
    const { rows } = await store.query<{ count: bigint }>(`select count(*) as count from ${table}`);
    return Number(rows[0]?.count ?? 0) / commands;
  };
  return {
    'account-log rows per command': round(await count('account_log')),
    'trades per command': round(await count('spot_trades')),
    // An order's row is written once, when it closes (open orders are the engine's).
    'closed orders per command': round(await count('spot_orders')),
  };
}

/**
 * What start-up does: read the journal, decode every envelope, apply it, verify checkpoint hashes. With
 * `apply`, every envelope is applied with its events built (the engine's `replay` hidden), as recovery did
 * before Engine.replay, for the comparison.
 */
async function replayRun(store: Store, mode: 'replay' | 'apply') {
  const kit = engineKit();
  const withEvents = <G extends object>(engine: G): G => Object.assign(engine, { replay: undefined }) as G;
  const recovered = await recoverEngine(
    store,
    mode === 'replay'
      ? kit
      : { ...kit, create: () => withEvents(kit.create()), restore: (text) => withEvents(kit.restore(text)) },
  );
  return {
    commands: recovered.replayedCommands,
    commandsPerSecond: (recovered.replayedCommands / recovered.durationMs) * 1000,
    decodeMs: Math.round(recovered.phases.decodeMs),
    applyMs: Math.round(recovered.phases.applyMs),
  };
}

export async function pgliteDatabase(prefix = 'fairex-journal-bench-') {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  // EMBEDDED_STORE_THREAD=off measures PGlite on the event loop, as it ran before it had a thread.
  const embeddedThread = process.env.EMBEDDED_STORE_THREAD !== 'off';
  return {
    options: { dataDir, embeddedThread },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh PostgreSQL schema (and a scratch folder) that cleanup drops; also used by other bench sections. */
export async function postgresDatabase(url: string, prefix = 'journal_bench') {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const dataDir = await mkdtemp(join(tmpdir(), `fairex-${prefix}-pg-`));
  return {
    options: { databaseUrl: url, dataDir, schema },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs one bench section's measurement on a fresh PGlite folder and, when DATABASE_URL is set, on a fresh
 * PostgreSQL schema, each cleaned up afterwards; the figures of both, each named by its store.
 */
export async function onEachStore(
  prefix: string,
  measure: (name: string, options: OpenStoreOptions) => Promise<Figures>,
): Promise<Figures> {
  const figures: Figures = {};
  const pglite = await pgliteDatabase(`fairex-${prefix}-bench-`);
  try {
    Object.assign(figures, await measure('PGlite', pglite.options));
  } finally {
    await pglite.cleanup();
  }
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    const postgres = await postgresDatabase(url, `${prefix}_bench`);
    try {
      Object.assign(figures, await measure('PostgreSQL', postgres.options));
    } finally {
      await postgres.cleanup();
    }
  }
  return figures;
}

function prefixed(prefix: string, figures: Figures): Figures {
  return Object.fromEntries(Object.entries(figures).map(([key, value]) => [`${prefix}: ${key}`, value]));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runJournalBench();
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  for (const [key, value] of Object.entries(figures)) {
    console.log(`${key.padEnd(width)}  ${typeof value === 'number' ? value.toLocaleString('en-US') : value}`);
  }
}
