// The embedded store's thread (see pglite-thread.ts): PGlite opened here, answering the statements the main
// thread sends. PGlite is PostgreSQL compiled to WebAssembly and runs every statement synchronously on the
// thread that calls it; here that is not the thread serving requests.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import type { PgliteReply, PgliteRequest, SerializedError } from './pglite-thread.ts';
import { PGLITE_PARSERS } from './rows.ts';

const port = parentPort;
if (port === null) throw new Error('the embedded store runs as a worker thread');

const { folder, cpu } = workerData as { folder: string; cpu: Float64Array };

/** Thrown inside a transaction's callback to have PGlite roll it back; never leaves this thread. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  /** Commits or rolls back; the outcome answers the request `replyId`. */
  end(commit: boolean, replyId: number): void;
}

const transactions = new Map<number, OpenTransaction>();
let client: PGlite | undefined;
const opening = PGlite.create(folder, { parsers: PGLITE_PARSERS }).then((opened) => {
  client = opened;
  return opened;
});
// A failed open is answered to the first request (the main thread sends 'open' first).
opening.catch(() => {});

function reply(message: PgliteReply): void {
  (port as NonNullable<typeof port>).postMessage(message);
}

/** The fields a PostgreSQL error carries (code, constraint...) survive the crossing: an Error's own do not. */
function serialize(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { message: error.message, fields };
}

function target(txId: number | undefined): PGlite | Transaction {
  if (txId === undefined) return client as PGlite;
  const open = transactions.get(txId);
  if (open === undefined) throw new Error(`transaction ${txId} is not open`);
  return open.tx;
}

async function handle(request: PgliteRequest): Promise<unknown> {
  if (request.op === 'open') {
    await opening;
    return null;
  }
  const db = client;
  if (db === undefined) throw new Error('the embedded store is not open');
  switch (request.op) {
    case 'query': {
      const result = await target(request.tx).query(
        request.text,
        request.params,
        request.arrays ? { rowMode: 'array' } : undefined,
      );
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    }
    case 'exec':
      await db.exec(request.text);
      return null;
    case 'copy':
      await target(request.tx).query(
        `copy ${request.table} (${request.columns.join(', ')}) from '/dev/blob'`,
        [],
        { blob: new Blob([request.text]) },
      );
      return null;
    case 'begin':
      return begin(db, request.id);
    case 'end': {
      const open = transactions.get(request.tx);
      if (open === undefined) throw new Error(`transaction ${request.tx} is not open`);
      // Answered when PGlite has committed or rolled back (see begin).
      open.end(request.commit, request.id);
      return undefined;
    }
    case 'close':
      if (!db.closed) await db.close();
      return null;
  }
}

/**
 * Opens a transaction with the given id: answered once PGlite holds it, and kept open until the main thread
 * sends 'end', which is answered with the commit's (or the rollback's) outcome.
 */
function begin(db: PGlite, txId: number): Promise<unknown> {
  return new Promise((begun, failedToBegin) => {
    let endId: number | undefined;
    db.transaction(async (tx) => {
      const commit = await new Promise<boolean>((end) => {
        transactions.set(txId, {
          tx,
          end: (value, replyId) => {
            endId = replyId;
            end(value);
          },
        });
        begun(null);
      });
      if (!commit) throw ROLLBACK;
    }).then(
      () => {
        transactions.delete(txId);
        reply({ id: endId as number, ok: true, value: null });
      },
      (error: unknown) => {
        transactions.delete(txId);
        if (endId === undefined) failedToBegin(error);
        else if (error === ROLLBACK) reply({ id: endId, ok: true, value: null });
        else reply({ id: endId, ok: false, error: serialize(error) });
      },
    );
  });
}

/** This thread's CPU time so far (µs), where the main thread reads it without asking (PgliteThread.cpuMicros). */
function recordCpu(): void {
  const used = process.threadCpuUsage();
  cpu[0] = used.user + used.system;
}

port.on('message', (request: PgliteRequest) => {
  handle(request)
    .finally(recordCpu)
    .then(
      (value) => {
        // undefined: answered later (a transaction's end).
        if (value !== undefined) reply({ id: request.id, ok: true, value });
      },
      (error: unknown) => reply({ id: request.id, ok: false, error: serialize(error) }),
    );
});
