// Start-up benchmark (docs/product.md: "an embedded start serves in under 3 s"): the real command-line
// server (`packages/server/src/main.ts`, live market included) on embedded PGlite, timed from the moment the
// process is spawned to the first `GET /api/health` that answers ok. Three starts on one data folder:
//
// - first start: a new folder (PGlite's initdb, every migration, the demo data, the genesis snapshot, the
//   market's history backfill);
// - restart: the same folder after a graceful stop (recovery from the closing snapshot);
// - restart after a crash: the folder after SIGKILL while the market maker traded for a few seconds, so
//   that recovery replays the journal written since the last snapshot;
// - restart after a crash with a long journal, twice: long-journal-writer.ts runs the app on the folder (no
//   live market) and writes commands as fast as they commit, first 1,000,000 with no snapshot rule at all
//   (SNAPSHOT_EVERY_COMMANDS=0, SNAPSHOT_EVERY_MB=0 and a clock standing still, so the time rule never
//   fires either: issue #24's "1,000,000-command journal since the last snapshot";
//   STARTUP_NO_SNAPSHOT_COMMANDS sets another count), then 200,000 with the default size rule; it is killed
//   with SIGKILL once everything is committed, and the server is
//   timed to its first health answer. Each run also prints how many snapshots each rule took, what recovery
//   replayed (from the server's log), and what one snapshot of the state written costs the event loop.
//
// Run directly to print the figures: node packages/server/bench/startup-bench.ts
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../../e2e/support/server-process.ts';

type Figures = Record<string, number | string>;

const MAIN = new URL('../src/main.ts', import.meta.url);
const WRITER = new URL('./long-journal-writer.ts', import.meta.url);
/** Commands of the long journal, written as fast as the runner commits them, then killed with SIGKILL. */
const LONG_JOURNAL_COMMANDS = 200_000;
/**
 * Commands since the last snapshot of the issue #24 target ("restart after kill -9 serves within 3 s with a
 * 1,000,000-command journal since the last snapshot"): written with no snapshot rule at all.
 */
const NO_SNAPSHOT_COMMANDS = Number(process.env.STARTUP_NO_SNAPSHOT_COMMANDS ?? 1_000_000);
const START_TIMEOUT_MS = 120_000;
/** A restart that replays a long journal (and PGlite's redo of its write-ahead log) may take longer. */
const LONG_START_TIMEOUT_MS = 300_000;
/** The start-up target of docs/product.md (Performance targets) for an embedded start. */
export const START_BUDGET_MS = 3_000;
const TRADING_MS = 5_000;

interface Started {
  child: ChildProcess;
  /** From spawn to the first health answer that is ok. */
  ms: number;
  /** What the runner logged about its recovery (replayed commands, milliseconds, where they went). */
  recovery: { replayedCommands?: number; durationMs?: number; phasesMs?: Record<string, number> };
  /** What the store logged about its opening (on PGlite, open includes the redo of its write-ahead log). */
  store: { openMs?: number; migrateMs?: number };
  /** From spawn to the log line that says the engine recovered. */
  recoveredAtMs?: number;
  /** Committed commands not yet projected at the first health answer (the durable log's tail after a kill). */
  lagAtFirstAnswer: number;
}

/** The server's environment: embedded (no PostgreSQL, no Redis, whatever this shell has set). */
function serverEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...env } = process.env;
  return { ...env, DATA_DIR: dataDir, WEB_DIST: join(dataDir, 'no-web-build'), ...extra };
}

async function start(dataDir: string, port: number, timeoutMs = START_TIMEOUT_MS): Promise<Started> {
  const startedMs = performance.now();
  const child = spawn(process.execPath, [MAIN.pathname], {
    env: serverEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const recovery: Started['recovery'] = {};
  const store: Started['store'] = {};
  let recoveredAtMs: number | undefined;
  createInterface({ input: child.stdout as Readable }).on('line', (line) => {
    if (line.includes('engine recovered from the journal')) {
      Object.assign(recovery, JSON.parse(line));
      recoveredAtMs = performance.now() - startedMs;
    }
    if (line.includes('"msg":"store opened')) Object.assign(store, JSON.parse(line));
  });
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  while (performance.now() - startedMs < timeoutMs) {
    if (exited !== null) throw new Error(`the server exited with ${exited} before it served`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      const body = (await response.json()) as HealthReply;
      if (body.type === 'ok') {
        const ms = performance.now() - startedMs;
        const lagAtFirstAnswer = body.message?.projector_lag_commands ?? 0;
        return {
          child,
          ms,
          recovery,
          store,
          lagAtFirstAnswer,
          ...(recoveredAtMs === undefined ? {} : { recoveredAtMs }),
        };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(10);
  }
  child.kill('SIGKILL');
  throw new Error('the server did not serve in time');
}

interface HealthReply {
  type?: string;
  message?: { projector_lag_commands?: number };
}

/**
 * Milliseconds from now until the server's projector has caught up (its health says no lag): after a kill,
 * how long it takes to write the durable log's tail once the server serves.
 */
async function caughtUpMs(port: number, timeoutMs = LONG_START_TIMEOUT_MS): Promise<number> {
  const startedMs = performance.now();
  while (performance.now() - startedMs < timeoutMs) {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    const body = (await response.json()) as HealthReply;
    if (body.type === 'ok' && body.message?.projector_lag_commands === 0)
      return performance.now() - startedMs;
    await sleep(10);
  }
  throw new Error('the projector did not catch up in time');
}

interface Written {
  lastSeq: number;
  snapshotsBySize: number;
  snapshotsByTime: number;
  lastSnapshotSeq: number;
  /** One snapshot of the state written: its size, and how long taking it stalls the event loop. */
  snapshotKb: number;
  snapshotMs: number;
  /** Submissions refused as busy while writing (the projector too far behind), sent again. */
  refusedBusy: number;
}

/**
 * Writes a long journal through the engine runner (long-journal-writer.ts) with the given snapshot settings,
 * kills the writer with SIGKILL once everything is committed, and reports what it wrote.
 */
async function writeLongJournal(
  dataDir: string,
  commands: number,
  extra: NodeJS.ProcessEnv,
): Promise<Written> {
  const child = spawn(process.execPath, [WRITER.pathname], {
    env: serverEnv(dataDir, { COMMANDS: String(commands), LOG_LEVEL: 'warn', ...extra }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout as Readable }).on('line', (text) => {
        if (text.startsWith('done ')) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`the journal writer exited with ${code}`)));
    });
    const [
      lastSeq = 0,
      snapshotsBySize = 0,
      snapshotsByTime = 0,
      lastSnapshotSeq = 0,
      kb = 0,
      ms = 0,
      refusedBusy = 0,
    ] = line.split(' ').slice(1).map(Number);
    return {
      lastSeq,
      snapshotsBySize,
      snapshotsByTime,
      lastSnapshotSeq,
      snapshotKb: kb,
      snapshotMs: ms,
      refusedBusy,
    };
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * Where a restart's time went, from the server's own log: the store's opening (on PGlite the redo of its
 * write-ahead log), the recovery's parts (recovery.ts, RecoveryPhases), and the rest (loading the modules
 * before the store opens, the plugins and the catalogue after recovery, listening).
 */
function restartPhases(started: Started): string {
  const phases = started.recovery.phasesMs ?? {};
  const parts: [string, number | undefined][] = [
    ['store open', started.store.openMs],
    ['migrations', started.store.migrateMs],
    ['snapshot', phases.snapshotMs],
    ['journal read', phases.readMs],
    ['decode', phases.decodeMs],
    ['replay', phases.applyMs],
    ['hash checks', phases.hashMs],
    ['replica feed', phases.observerMs],
    ['projector catch-up', phases.reprojectMs],
    ['durable log', phases.durableLogMs],
    [
      'after recovery until health',
      started.recoveredAtMs === undefined ? undefined : started.ms - started.recoveredAtMs,
    ],
  ];
  return parts
    .filter((part): part is [string, number] => part[1] !== undefined)
    .map(([name, value]) => `${name} ${Math.round(value)}`)
    .join(', ');
}

/** Restarts are what an operator waits for; the first start also creates the database, shown apart. */
function targetVerdict(firstMs: number, restartMs: number): string {
  if (restartMs >= START_BUDGET_MS) return 'NOT met';
  return firstMs < START_BUDGET_MS
    ? 'met'
    : 'met by restarts; NOT by the first start (it creates the database)';
}

export async function runStartupBench(): Promise<Figures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fairex-startup-bench-'));
  const port = await freePort();
  const running: ChildProcess[] = [];
  try {
    const first = await start(dataDir, port);
    running.push(first.child);
    await stop(first.child, 'SIGTERM');
    const restart = await start(dataDir, port);
    running.push(restart.child);
    // Let the market maker and the index scheduler journal commands, then crash.
    await sleep(TRADING_MS);
    await stop(restart.child, 'SIGKILL');
    const afterCrash = await start(dataDir, port);
    running.push(afterCrash.child);
    await stop(afterCrash.child, 'SIGTERM');
    const ms = (value: number) => Math.round(value);
    const figures: Figures = {
      'first start, new data folder (ms)': ms(first.ms),
      'restart after a graceful stop (ms)': ms(restart.ms),
      [`restart after SIGKILL, ${TRADING_MS / 1000} s of live market to replay (ms)`]: ms(afterCrash.ms),
    };
    // A long journal after the last snapshot: the time-only rule of old (no size rule) against the default
    // size rule. Each run starts after a graceful stop, i.e. from a closing snapshot.
    let slowest = Math.max(restart.ms, afterCrash.ms);
    const rules: { name: string; commands: number; env: NodeJS.ProcessEnv }[] = [
      {
        name: 'no snapshot since',
        commands: NO_SNAPSHOT_COMMANDS,
        env: { SNAPSHOT_EVERY_COMMANDS: '0', SNAPSHOT_EVERY_MB: '0', NO_SNAPSHOTS: '1' },
      },
      { name: 'size rule (defaults)', commands: LONG_JOURNAL_COMMANDS, env: {} },
    ];
    for (const rule of rules) {
      const written = await writeLongJournal(dataDir, rule.commands, rule.env);
      let afterLong: Started;
      try {
        afterLong = await start(dataDir, port, LONG_START_TIMEOUT_MS);
      } catch (error) {
        // Said as a figure, so that the section's other figures are still reported.
        figures[`SIGKILL after ${rule.commands.toLocaleString('en-US')} commands, ${rule.name}: restart`] =
          `did not serve within ${LONG_START_TIMEOUT_MS / 1000} s (${(error as Error).message})`;
        if (rule.env.NO_SNAPSHOTS === '1') {
          figures['restart after SIGKILL with the no-snapshot journal (ms)'] =
            `over ${LONG_START_TIMEOUT_MS}`;
        }
        slowest = Math.max(slowest, LONG_START_TIMEOUT_MS);
        continue;
      }
      running.push(afterLong.child);
      const tailMs = await caughtUpMs(port);
      await stop(afterLong.child, 'SIGTERM');
      const label = `SIGKILL after ${rule.commands.toLocaleString('en-US')} commands, ${rule.name}`;
      figures[`${label}: snapshots by size / by time while writing`] =
        `${written.snapshotsBySize} / ${written.snapshotsByTime}`;
      figures[`${label}: submissions refused as busy while writing, sent again`] = written.refusedBusy;
      figures[`${label}: one snapshot of that state: KB, ms on the event loop`] =
        `${written.snapshotKb}, ${written.snapshotMs}`;
      figures[`${label}: commands replayed, replay ms`] =
        `${afterLong.recovery.replayedCommands ?? '?'}, ${afterLong.recovery.durationMs ?? '?'}`;
      figures[`${label}: restart until /api/health answers (ms)`] = ms(afterLong.ms);
      figures[`${label}: phases (ms)`] = restartPhases(afterLong);
      // What the durable log gave back is written by the projector once the server serves.
      figures[`${label}: unprojected at the first answer (commands), caught up after (ms)`] =
        `${afterLong.lagAtFirstAnswer}, ${ms(tailMs)}`;
      if (rule.env.SNAPSHOT_EVERY_COMMANDS === undefined) slowest = Math.max(slowest, afterLong.ms);
      else {
        // Issue #24: the restart with a million commands since the last snapshot, against its 3 s.
        figures['restart after SIGKILL with the no-snapshot journal (ms)'] = ms(afterLong.ms);
        figures['no-snapshot journal: commands replayed'] = afterLong.recovery.replayedCommands ?? '?';
        figures['no-snapshot journal: restart phases (ms)'] = restartPhases(afterLong);
      }
    }
    figures[`target (< ${START_BUDGET_MS} ms)`] = targetVerdict(first.ms, slowest);
    return figures;
  } finally {
    for (const child of running)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const figures = await runStartupBench();
  for (const [key, value] of Object.entries(figures)) console.log(`${key.padEnd(60)} ${value}`);
}
