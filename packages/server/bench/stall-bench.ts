// Stall benchmark: the longest time the event loop is held while the runner takes state hashes and a
// snapshot of a large book, with the engine replica (a worker thread, engine-runner/replica.ts) and without
// it (the old way: on the event loop). The book is built by applying commands to an engine directly (a runner
// would take minutes to journal a million orders), stored as the snapshot a PGlite store starts from, and the
// runner is started on it; then a paced stream of small commands runs until one snapshot and two state
// hashes have been recorded, while `monitorEventLoopDelay` samples the loop every 10 ms. A last phase sends a
// burst of 20,000 commands (200 a turn) and waits for the projector to catch up with them. The same load with
// nothing due gives the floor: what the machine (other processes) and the garbage collector of a heap
// holding a million orders stall anyway. Garbage from the phase before is collected before each phase.
//
// `STALL_BENCH_ORDERS` sets the number of resting orders (default 1,000,000); `STALL_BENCH_MODES` runs only
// the phases named (none, event loop, replica, catch-up); `STALL_BENCH_PROJECTOR_BATCH` and
// `STALL_BENCH_PROJECTOR_EVENTS` set the projector's largest transaction in commands and in events.
//
// Run directly to print a table: node packages/server/bench/stall-bench.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine } from '@fairex/engine';
import type { Command } from '@fairex/engine';
import { engineKit } from '../src/engine-runner/index.ts';
import { createExchangeRunner } from '../src/exchange-runner.ts';
import { storeSnapshot } from '../src/engine-runner/journal.ts';
import { recordProjectedSeq } from '../src/engine-runner/progress.ts';
import { embeddedSnapshotFolder } from '../src/engine-runner/snapshot-files.ts';
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
    for (const mode of only as Mode[]) {
      const result = await measure(built, mode);
      figures[`${mode}: longest event-loop stall ms`] = result.maxStallMs;
      figures[`${mode}: main-thread CPU in its longest turn ms`] = result.maxStallCpuMs;
      figures[`${mode}: garbage collection in that turn / longest pause ms`] =
        `${result.maxStallGcMs} / ${result.maxGc}`;
    }
    return figures;
  }
  const floor = await measure(built, 'none');
  figures['no hash or snapshot due: longest event-loop stall ms'] = floor.maxStallMs;
  figures['no hash or snapshot due: main-thread CPU in its longest turn ms'] = floor.maxStallCpuMs;
  figures['no hash or snapshot due: garbage collection in that turn / longest pause ms'] =
    `${floor.maxStallGcMs} / ${floor.maxGc}`;
  figures['no hash or snapshot due: event-loop delay p99 ms'] = floor.p99Ms;
  for (const replica of [false, true]) {
    const label = replica ? 'replica' : 'event loop';
    const result = await measure(built, replica ? 'replica' : 'event loop');
    figures[`${label}: longest event-loop stall ms`] = result.maxStallMs;
    figures[`${label}: main-thread CPU in its longest turn ms`] = result.maxStallCpuMs;
    figures[`${label}: garbage collection in that turn / longest pause ms`] =
      `${result.maxStallGcMs} / ${result.maxGc}`;
    figures[`${label}: event-loop delay p99 ms`] = result.p99Ms;
    figures[`${label}: commands committed meanwhile`] = result.commands;
    figures[`${label}: seconds to 2 hashes and 1 snapshot`] = result.seconds;
  }
  const catchUp = await measure(built, 'catch-up');
  figures['projector catch-up: longest event-loop stall ms'] = catchUp.maxStallMs;
  figures['projector catch-up: main-thread CPU in its longest turn ms'] = catchUp.maxStallCpuMs;
  figures['projector catch-up: garbage collection in that turn / longest pause ms'] =
    `${catchUp.maxStallGcMs} / ${catchUp.maxGc}`;
  figures['projector catch-up: commands in the burst / most projector lag'] =
    `${catchUp.commands} / ${catchUp.mostLag}`;
  figures['projector catch-up: seconds until caught up'] = catchUp.seconds;
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

type Mode = 'none' | 'event loop' | 'replica' | 'catch-up';

/** Commands of the catch-up phase's burst, sent 200 a turn of the event loop. */
const CATCH_UP_COMMANDS = 20_000;

/** The projector's lag in commands, when the runner keeps projections behind the journal (else 0). */
function projectorLagOf(stats: object): number {
  const lag = (stats as { projectorLag?: { commands?: number } }).projectorLag;
  return lag?.commands ?? 0;
}

async function measure(built: ReturnType<typeof buildBook>, mode: Mode) {
  const replica = mode === 'replica' || mode === 'catch-up';
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-stall-bench-'));
  try {
    const store = await openStore({ dataDir });
    // The journal as retention leaves it: the batch holding the snapshot's seq, nothing before; the snapshot
    // where the server keeps it (a file on the embedded store), and the store checkpointed, so that what is
    // measured is only what the run itself writes.
    await storeSnapshot(
      store,
      { seq: built.seq, timeMs: built.timeMs, stateHash: built.stateHash, body: built.body },
      3,
      embeddedSnapshotFolder(store),
    );
    await store.query(
      `insert into engine_journal (first_seq, last_seq, command_count, envelopes, state_hash)
       values ($1, $1, 1, $2, null)`,
      [built.seq, built.lastEnvelope],
    );
    // Its projections count as written (the book was built beside the store): recovery starts from it.
    await recordProjectedSeq(store, built.seq);
    await store.query('checkpoint');
    let now = built.timeMs;
    const traced = process.env.STALL_BENCH_TRACE === '1' ? traceSlowQueries(store) : store;
    // The exchange's projectors: the checkpoint after a snapshot flushes what they wrote meanwhile.
    const runner = await createExchangeRunner({
      store: traced,
      logger: process.env.STALL_BENCH_TRACE === '1' ? traceLogger : quietLogger,
      engineReplica: replica,
      clock: () => (now += 1),
      checkpointEvery: mode === 'none' ? Number.MAX_SAFE_INTEGER : 2_000,
      snapshotEvery: mode === 'none' ? Number.MAX_SAFE_INTEGER : 5_000,
      snapshotOnClose: false,
      // STALL_BENCH_PROJECTOR_BATCH: the projector's largest transaction in commands (default: the runner's).
      ...(process.env.STALL_BENCH_PROJECTOR_BATCH === undefined
        ? {}
        : { projectorMaxBatchCommands: Number(process.env.STALL_BENCH_PROJECTOR_BATCH) }),
      // STALL_BENCH_PROJECTOR_EVENTS: the projector's largest transaction in events (default: the runner's).
      ...(process.env.STALL_BENCH_PROJECTOR_EVENTS === undefined
        ? {}
        : { projectorMaxBatchEvents: Number(process.env.STALL_BENCH_PROJECTOR_EVENTS) }),
    });
    const snapshotsBefore = await snapshotCount(store);
    collectGarbage();
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    const sampler = loopCpuSampler();
    const startedMs = performance.now();
    let commands = 0;
    let userId = 0;
    let mostLag = 0;
    // The projector's catch-up: a burst far above what the projector keeps up with, 200 commands a turn,
    // then until the projector has caught up with all of it. Each answer is counted as it arrives and then
    // dropped, as a server drops a reply once it is sent: holding all 20,000 outcomes until the end would
    // have the collector copy and promote them, a cost of the load generator and not of the server.
    for (let sent = 0; mode === 'catch-up' && sent < CATCH_UP_COMMANDS;) {
      let answered = 0;
      let accepted = 0;
      let allAnswered = () => {};
      const answer = () => {
        answered++;
        if (answered === CATCH_UP_COMMANDS) allAnswered();
      };
      const finished = new Promise<void>((resolve) => (allAnswered = resolve));
      for (; sent < CATCH_UP_COMMANDS;) {
        for (let index = 0; index < 200; index++, sent++) {
          userId = (userId % USERS) + 1;
          runner.submit({ type: 'deposit', userId, currencyId: USDT, amount: 1n }).then(() => {
            accepted++;
            answer();
          }, answer);
        }
        await new Promise((resolve) => setImmediate(resolve));
        mostLag = Math.max(mostLag, projectorLagOf(runner.stats()));
      }
      await finished;
      commands = accepted;
      while (projectorLagOf(runner.stats()) > 0) {
        mostLag = Math.max(mostLag, projectorLagOf(runner.stats()));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    // About 2,000 small commands a second, a few per turn, until the work is on record.
    for (; mode !== 'catch-up';) {
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
    const cpu = sampler.stop();
    await runner.close();
    await store.close();
    return {
      maxStallMs: Math.round(monitor.max / 1e6),
      maxStallCpuMs: Math.round(cpu.maxTurnCpuMs),
      maxStallGcMs: Math.round(cpu.maxTurnGcMs),
      maxGc: `${Math.round(cpu.maxGcMs)} (${cpu.maxGcKind})`,
      p99Ms: Math.round(monitor.percentile(99) / 1e6),
      commands,
      seconds,
      mostLag,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The main thread's own CPU time in its longest turn: a timer every 5 ms reads the thread's CPU clock, so the
 * CPU spent between two ticks is what the event loop itself worked (the collector's pauses on this thread
 * included) while it did not come back to the timers. On a machine shared with other work a stall measured by
 * the wall clock also holds the time other processes had the core; this figure does not. The collector's
 * pauses are observed too: the longest one, and how much of the longest turn they took.
 */
function loopCpuSampler(): {
  stop(): { maxTurnCpuMs: number; maxTurnGcMs: number; maxGcMs: number; maxGcKind: string };
} {
  let lastCpu = process.threadCpuUsage();
  let lastTickMs = performance.now();
  let lastTickUs = process.hrtime.bigint() / 1000n;
  let maxTurnCpuMs = 0;
  let maxTurn = { startMs: 0, endMs: 0 };
  let timer: NodeJS.Timeout | undefined;
  const pauses: { startMs: number; endMs: number; kind: string }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = gcKind(entry);
      pauses.push({ startMs: entry.startTime, endMs: entry.startTime + entry.duration, kind });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const tick = () => {
    const cpu = process.threadCpuUsage();
    const nowMs = performance.now();
    const nowUs = process.hrtime.bigint() / 1000n;
    const turnMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (turnMs > maxTurnCpuMs) {
      maxTurnCpuMs = turnMs;
      maxTurn = { startMs: lastTickMs, endMs: nowMs };
      // With STALL_BENCH_TRACE=1, the window on the monotonic clock in µs, the time base of a --cpu-prof
      // profile's samples: what the longest turn did can be read from the profile.
      if (process.env.STALL_BENCH_TRACE === '1' && turnMs > 20)
        console.error(`turn of ${Math.round(turnMs)} ms CPU: monotonic µs ${lastTickUs}..${nowUs}`);
    }
    lastCpu = cpu;
    lastTickMs = nowMs;
    lastTickUs = nowUs;
    timer = setTimeout(tick, 5);
  };
  timer = setTimeout(tick, 5);
  return {
    stop() {
      clearTimeout(timer);
      for (const entry of observer.takeRecords()) {
        const kind = gcKind(entry);
        pauses.push({ startMs: entry.startTime, endMs: entry.startTime + entry.duration, kind });
      }
      observer.disconnect();
      let maxTurnGcMs = 0;
      let longest = { ms: 0, kind: 'none' };
      for (const pause of pauses) {
        const ms = pause.endMs - pause.startMs;
        if (ms > longest.ms) longest = { ms, kind: pause.kind };
        const overlap = Math.min(pause.endMs, maxTurn.endMs) - Math.max(pause.startMs, maxTurn.startMs);
        if (overlap > 0) maxTurnGcMs += overlap;
      }
      return { maxTurnCpuMs, maxTurnGcMs, maxGcMs: longest.ms, maxGcKind: longest.kind };
    },
  };
}

/** A `gc` entry's kind (its `detail.kind`) by name. */
function gcKind(entry: PerformanceEntry): string {
  const detail = (entry as PerformanceEntry & { detail?: { kind?: number } | null }).detail;
  return GC_KINDS[detail?.kind ?? 0] ?? 'other';
}

/** The collector's kinds as `PerformanceObserver` names them (perf_hooks constants NODE_PERFORMANCE_GC_*). */
const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/**
 * With STALL_BENCH_TRACE=1: prints every store call that took over STALL_BENCH_TRACE_MS (default 100 ms), with
 * the thread's CPU time meanwhile (PGlite runs on this thread: a statement's own cost).
 */
function traceSlowQueries(store: Store): Store {
  const timed = async <T>(label: string, run: () => Promise<T>): Promise<T> => {
    const startedMs = performance.now();
    const startedCpu = process.threadCpuUsage();
    try {
      return await run();
    } finally {
      const ms = performance.now() - startedMs;
      const cpu = process.threadCpuUsage(startedCpu);
      if (ms > Number(process.env.STALL_BENCH_TRACE_MS ?? 100))
        console.error(
          `slow store call ${Math.round(ms)} ms (this thread's CPU meanwhile ` +
            `${Math.round((cpu.user + cpu.system) / 1000)} ms): ${label.slice(0, 80)}`,
        );
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
