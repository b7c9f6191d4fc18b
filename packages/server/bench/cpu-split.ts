// Where the CPU time of a measured load goes: the server's main thread (the event loop: HTTP, the engine),
// the server process's other threads (the engine replica, the durable log's thread-pool work, the
// collector's helpers), and the database: PostgreSQL's backends serving this server's connections, read from
// /proc, or the embedded store's own thread (PGlite, which reports its thread's CPU time to the main thread).
//
// The main thread's clock is process.threadCpuUsage() (microseconds); the process's, process.cpuUsage().
// PostgreSQL backends are counted from /proc/<pid>/stat in clock ticks (1/100 s on Linux), which over a
// measured load of seconds and thousands of orders is fine enough; off Linux they read as unavailable.
import { readFileSync } from 'node:fs';
import type { Store } from '../src/store/index.ts';

/** Linux's USER_HZ: /proc times are in 1/100 s whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

export interface CpuSplit {
  /** Microseconds over the window. */
  mainThread: number;
  otherThreads: number;
  /**
   * The database's processes or the embedded store's thread (undefined: not measurable, e.g. off Linux; 0
   * with PGlite run on the main thread, counted in main).
   */
  database: number | undefined;
}

/** The PostgreSQL backends behind a store's pool: as many concurrent queries as it has connections, and more. */
export async function postgresBackendPids(store: Pick<Store, 'query'>, poolSize: number): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: poolSize * 3 }, () =>
      store.query<{ pid: number }>('select pg_backend_pid() as pid, pg_sleep(0.05)'),
    ),
  );
  return [...new Set(answers.map((answer) => Number(answer.rows[0]?.pid)))].filter(Number.isSafeInteger);
}

/** utime + stime of the processes, in microseconds; undefined when /proc cannot be read. */
function processesCpuMicros(pids: readonly number[]): number | undefined {
  let ticks = 0;
  for (const pid of pids) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are 14 and 15.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks * 1e6) / TICKS_PER_SECOND;
}

/**
 * Starts a window; the returned function ends it. `databasePids` are PostgreSQL backends to count; with none,
 * the store's own thread is the database when it has one (PGlite on its thread), else the database's work is
 * on the main thread.
 */
export function cpuSplitWindow(
  databasePids: readonly number[] = [],
  store?: Pick<Store, 'databaseThreadCpuMicros'>,
): () => CpuSplit {
  const thread = process.threadCpuUsage();
  const whole = process.cpuUsage();
  const storeThread = databasePids.length === 0 ? store?.databaseThreadCpuMicros?.bind(store) : undefined;
  const databaseNow = () =>
    storeThread !== undefined
      ? storeThread()
      : databasePids.length === 0
        ? 0
        : processesCpuMicros(databasePids);
  const database = databaseNow();
  return () => {
    const threadUsed = process.threadCpuUsage(thread);
    const wholeUsed = process.cpuUsage(whole);
    const mainThread = threadUsed.user + threadUsed.system;
    const databaseEnd = databaseNow();
    const used = database === undefined || databaseEnd === undefined ? undefined : databaseEnd - database;
    // The store's thread is one of the process's: counted as the database, not among the others.
    const ownThread = storeThread !== undefined ? (used ?? 0) : 0;
    return {
      mainThread,
      otherThreads: Math.max(0, wholeUsed.user + wholeUsed.system - mainThread - ownThread),
      database: used,
    };
  };
}

/** "main 41.2 / other threads 6.3 / database 18.0" µs per unit, or with the database not measurable. */
export function describeCpuSplit(split: CpuSplit, units: number, embeddedInMain: boolean): string {
  const per = (micros: number) => (units > 0 ? (micros / units).toFixed(1) : 'n/a');
  const database = embeddedInMain
    ? 'database in main (PGlite runs on the main thread)'
    : split.database === undefined
      ? 'database n/a (no /proc)'
      : `database ${per(split.database)}`;
  return `main ${per(split.mainThread)} / other threads ${per(split.otherThreads)} / ${database}`;
}
