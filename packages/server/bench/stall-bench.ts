// Stall benchmark: the longest time the event loop is held while the runner takes state hashes and a
// snapshot of a large book, with the engine replica (a worker thread, engine-runner/replica.ts) and without
// it (the old way: on the event loop). The book is built by applying commands to an engine directly (a runner
// would take minutes to journal a million orders), stored as the snapshot a PGlite store starts from, and the
// runner is started on it; then a paced stream of small commands runs until one snapshot and two state
// hashes have been recorded, while `monitorEventLoopDelay` samples the loop every 10 ms. The same load with
// nothing due gives the floor: what the machine (other processes) and the garbage collector of a heap
// holding a million orders stall anyway. Garbage from the phase before is collected before each phase.
//
// `STALL_BENCH_ORDERS` sets the number of resting orders (default 1,000,000).
//
// Run directly to print a table: node packages/server/bench/stall-bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine } from '@fairex/engine';
import type { Command } from '@fairex/engine';
import { createEngineRunner, engineKit } from '../src/engine-runner/index.ts';
import { writeSnapshot } from '../src/engine-runner/journal.ts';
import type { Store } from '../src/store/index.ts';
import { openStore } from '../src/store/index.ts';
import { BTC_USDT, setupCommands, USDT } from './workload.ts';

type Figures = Record<string, number | string>;

const quietLogger = { info() {}, warn() {}, error() {} };
const traceLogger = {
  info() {},
  warn: (object: object, message?: string) => console.error('warn', message, object),
  error: (object: object, message?: string) => console.error('error', message, object),
};
const USERS = 100;
const START_MS = 1_700_000_000_000;

export async function runStallBench(
  orders = Number(process.env.STALL_BENCH_ORDERS ?? 1_000_000),
): Promise<Figures> {
  const figures: Figures = {
    'load average at start (1 min)': Math.round((loadavg()[0] ?? 0) * 100) / 100,
    'resting orders': orders,
  };
  const built = buildBook(orders);
  figures['snapshot text MB'] = Math.round(built.body.length / 1e5) / 10;
  figures['engine.snapshot() on this thread ms'] = Math.round(built.snapshotMs);
  // The same load with no hash and no snapshot due: what the machine and the collector stall anyway.
  const only = process.env.STALL_BENCH_MODES?.split(',');
  if (only !== undefined) {
    for (const mode of only as ('none' | 'event loop' | 'replica')[]) {
      const result = await measure(built, mode);
      figures[`${mode}: longest event-loop stall ms`] = result.maxStallMs;
    }
    return figures;
  }
  const floor = await measure(built, 'none');
  figures['no hash or snapshot due: longest event-loop stall ms'] = floor.maxStallMs;
  figures['no hash or snapshot due: event-loop delay p99 ms'] = floor.p99Ms;
  for (const replica of [false, true]) {
    const label = replica ? 'replica' : 'event loop';
    const result = await measure(built, replica ? 'replica' : 'event loop');
    figures[`${label}: longest event-loop stall ms`] = result.maxStallMs;
    figures[`${label}: event-loop delay p99 ms`] = result.p99Ms;
    figures[`${label}: commands committed meanwhile`] = result.commands;
    figures[`${label}: seconds to 2 hashes and 1 snapshot`] = result.seconds;
  }
  figures.target = 'longest stall <= 50 ms with 1,000,000 resting orders';
  return figures;
}

/** An engine holding `orders` resting limit orders that never cross, and its snapshot text. */
function buildBook(orders: number) {
  const engine = Engine.create({ maxOpenOrdersPerOwner: 10_000_000 });
  let seq = 0;
  let lastEnvelope = '';
  const apply = (command: Command) => {
    seq++;
    const envelope = { seq, timeMs: START_MS + seq, command };
    lastEnvelope = engineKit().encodeEnvelope(envelope);
    const outcome = engine.apply(envelope);
    if (outcome.code !== 0) throw new Error(`${command.type} refused with ${outcome.code}`);
  };
  for (const command of setupCommands(USERS)) apply(command);
  for (let index = 0; index < orders; index++) {
    const side = index % 2 === 0 ? 'buy' : 'sell';
    const level = index % 50_000;
    apply({
      type: 'placeOrder',
      owner: 1 + (index % USERS),
      marketId: BTC_USDT,
      side,
      kind: 'limit',
      priceTicks: side === 'buy' ? 5_000_000 - level : 7_000_000 + level,
      quantityLots: 1,
    });
  }
  const startedMs = performance.now();
  const body = engine.snapshot();
  const snapshotMs = performance.now() - startedMs;
  const stateHash = engineKit().hashSnapshot?.(body) ?? engine.stateHash();
  return { seq, timeMs: START_MS + seq, body, stateHash, snapshotMs, lastEnvelope };
}

/** Collects garbage left by the phase before, when the collector can be reached. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function measure(built: ReturnType<typeof buildBook>, mode: 'none' | 'event loop' | 'replica') {
  const replica = mode === 'replica';
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-stall-bench-'));
  try {
    const store = await openStore({ dataDir });
    // The journal as retention leaves it: the batch holding the snapshot's seq, nothing before.
    await store.transaction(async (tx) => {
      await writeSnapshot(
        tx,
        { seq: built.seq, timeMs: built.timeMs, stateHash: built.stateHash, body: built.body },
        3,
      );
      await tx.query(
        `insert into engine_journal (first_seq, last_seq, command_count, envelopes, state_hash)
         values ($1, $1, 1, $2, null)`,
        [built.seq, built.lastEnvelope],
      );
    });
    let now = built.timeMs;
    const traced = process.env.STALL_BENCH_TRACE === '1' ? traceSlowQueries(store) : store;
    const runner = await createEngineRunner({
      store: traced,
      logger: process.env.STALL_BENCH_TRACE === '1' ? traceLogger : quietLogger,
      engineReplica: replica,
      clock: () => (now += 1),
      checkpointEvery: mode === 'none' ? Number.MAX_SAFE_INTEGER : 2_000,
      snapshotEvery: mode === 'none' ? Number.MAX_SAFE_INTEGER : 5_000,
      snapshotOnClose: false,
    });
    const snapshotsBefore = await snapshotCount(store);
    collectGarbage();
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    const startedMs = performance.now();
    let commands = 0;
    let userId = 0;
    // About 2,000 small commands a second, a few per turn, until the work is on record.
    for (;;) {
      const wave: Promise<unknown>[] = [];
      for (let index = 0; index < 20; index++) {
        userId = (userId % USERS) + 1;
        wave.push(runner.submit({ type: 'deposit', userId, currencyId: USDT, amount: 1n }));
      }
      await Promise.all(wave);
      commands += wave.length;
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (
        commands >= 5_000 &&
        (mode === 'none' || ((await hashCount(store)) >= 2 && (await snapshotCount(store)) > snapshotsBefore))
      )
        break;
      if (performance.now() - startedMs > 600_000) throw new Error('no snapshot within 10 minutes');
    }
    const seconds = Math.round((performance.now() - startedMs) / 100) / 10;
    monitor.disable();
    await runner.close();
    await store.close();
    return {
      maxStallMs: Math.round(monitor.max / 1e6),
      p99Ms: Math.round(monitor.percentile(99) / 1e6),
      commands,
      seconds,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** With STALL_BENCH_TRACE=1: prints every store call that took over 100 ms (PGlite runs on this thread). */
function traceSlowQueries(store: Store): Store {
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const startedMs = performance.now();
    try {
      return await run();
    } finally {
      const ms = performance.now() - startedMs;
      if (ms > 100) console.error(`slow store call ${Math.round(ms)} ms: ${label.slice(0, 80)}`);
    }
  };
  return Object.assign(Object.create(store) as Store, {
    query: (text: string, params?: readonly unknown[]) => timed(text, () => store.query(text, params)),
    transaction: <T>(fn: Parameters<Store['transaction']>[0]) =>
      timed(
        'transaction',
        () =>
          store.transaction((tx) =>
            fn(
              Object.assign(Object.create(tx) as typeof tx, {
                query: (text: string, params?: readonly unknown[]) =>
                  timed(`in a transaction: ${text}`, () => tx.query(text, params)),
              }),
            ),
          ) as Promise<T>,
      ),
  });
}

async function hashCount(store: Awaited<ReturnType<typeof openStore>>): Promise<number> {
  const { rows } = await store.query<{ count: bigint }>(
    'select count(*) as count from engine_journal where state_hash is not null',
  );
  return Number(rows[0]?.count ?? 0);
}

async function snapshotCount(store: Awaited<ReturnType<typeof openStore>>): Promise<number> {
  const { rows } = await store.query<{ count: bigint }>('select count(*) as count from engine_snapshots');
  return Number(rows[0]?.count ?? 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runStallBench();
  const width = Math.max(...Object.keys(figures).map((key) => key.length));
  for (const [key, value] of Object.entries(figures)) {
    console.log(`${key.padEnd(width)}  ${typeof value === 'number' ? value.toLocaleString('en-US') : value}`);
  }
}
