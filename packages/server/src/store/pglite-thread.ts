// The embedded store on a thread of its own. PGlite runs each statement synchronously, on the thread that
// sends it, as WebAssembly: in the server's process that was the event loop, so every projection row the
// projector wrote and every history page a trader read took the main thread's time from the requests. Here
// PGlite lives on a worker thread (pglite-worker.ts) and the main thread only sends it statements and
// receives rows, which the structured clone carries as they are (bigint, Date, parsed JSON, bytes).
//
// A transaction is opened on the worker and held there while the caller's function runs on the main thread,
// each of its statements sent with the transaction's id; PGlite's own lock orders transactions and plain
// statements exactly as it does in one thread.
import { Worker } from 'node:worker_threads';
import type { QueryResult } from './rows.ts';

export type PgliteRequest =
  | { op: 'open'; id: number }
  | {
      op: 'query';
      id: number;
      tx?: number | undefined;
      text: string;
      params: unknown[];
      /** Rows as arrays of values (Drizzle's proxy driver asks for them). */
      arrays?: boolean;
    }
  | { op: 'exec'; id: number; text: string }
  | { op: 'copy'; id: number; tx: number; table: string; columns: readonly string[]; text: string }
  /** The request's id is the transaction's. */
  | { op: 'begin'; id: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'close'; id: number };

/** An error's message and its own fields (a PostgreSQL error's code, constraint, detail...). */
export interface SerializedError {
  message: string;
  fields: Record<string, string | number>;
}

export type PgliteReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

export interface PgliteThread {
  query<T>(text: string, params?: readonly unknown[], tx?: number, arrays?: boolean): Promise<QueryResult<T>>;
  /** A script of several statements (the simple query protocol), outside any transaction. */
  exec(text: string): Promise<void>;
  copy(tx: number, table: string, columns: readonly string[], text: string): Promise<void>;
  /** Runs `fn` with an open transaction's id: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: number) => Promise<T>): Promise<T>;
  /** The CPU time the thread has used so far, in microseconds (as of its last answer). */
  cpuMicros(): number;
  close(): Promise<void>;
}

type Request = PgliteRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Starts the thread and opens PGlite in `folder` there; rejects when it does not open. */
export async function openPgliteThread(folder: string): Promise<PgliteThread> {
  const cpu = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: { folder, cpu } });
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let failure: Error | undefined;
  // The thread keeps the process alive only while a statement is waiting for it, as a socket would.
  worker.unref();
  const fail = (error: Error): void => {
    failure ??= error;
    for (const entry of waiting.values()) entry.reject(failure);
    waiting.clear();
  };
  worker.on('message', (message: PgliteReply) => {
    const entry = waiting.get(message.id);
    if (entry === undefined) return;
    waiting.delete(message.id);
    if (waiting.size === 0) worker.unref();
    if (message.ok) entry.resolve(message.value);
    else entry.reject(Object.assign(new Error(message.error.message), message.error.fields));
  });
  worker.on('error', (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
  worker.on('exit', (code) => fail(new Error(`the embedded store's thread exited with code ${code}`)));
  const call = (request: Request, id = nextId++): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as PgliteRequest);
    });
  try {
    await call({ op: 'open' });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return {
    query: async <T>(text: string, params: readonly unknown[] = [], tx?: number, arrays?: boolean) =>
      (await call({ op: 'query', tx, text, params: [...params], arrays })) as QueryResult<T>,
    exec: async (text) => {
      await call({ op: 'exec', text });
    },
    copy: async (tx, table, columns, text) => {
      await call({ op: 'copy', tx, table, columns, text });
    },
    transaction: async (fn) => {
      const tx = nextId++;
      await call({ op: 'begin' }, tx);
      let result;
      try {
        result = await fn(tx);
      } catch (error) {
        // The caller's error is the one to report; a failed rollback ends the transaction as surely.
        await call({ op: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    cpuMicros: () => cpu[0] as number,
    close: async () => {
      if (!failure) await call({ op: 'close' });
      fail(new Error('the embedded store was closed'));
      await worker.terminate();
    },
  };
}
