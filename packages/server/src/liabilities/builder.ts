// Builds a captured liabilities snapshot's sum tree off the main thread and publishes its root
// (docs/transparency.md, "Proof of liabilities"):
//   1. the snapshot's amounts (liability_amounts, projected from liabilitiesCaptured) are read page by page
//      and handed to a worker thread (tree-worker.ts), which orders, salts, checks and hashes;
//   2. the leaves and nodes it answers are stored in one transaction (a rebuild replaces them);
//   3. `publishLiabilities` is submitted with the root, leaf count, columns and totals; the engine checks the
//      totals against its capture and appends the log entry.
// The main thread only reads pages, passes text on and writes COPY text: its longest stall stays far below
// the 50 ms the bench checks (scripts/bench.ts, section `liabilities`).
import { Worker } from 'node:worker_threads';
import type { Queryable, StoreTransaction } from '../store/index.ts';
import type { AmountsPage, TreeRoot } from './tree.ts';

export type ToTreeWorker =
  | { type: 'start'; secret: Uint8Array; snapshotId: string; columns: number }
  | { type: 'page'; users: number[]; amounts: string[] }
  | { type: 'build' }
  | { type: 'next' };

export type FromTreeWorker =
  | { type: 'built'; root: TreeRoot }
  | { type: 'rows'; table: 'liability_leaves' | 'liability_nodes'; text: string }
  | { type: 'end' }
  | { type: 'refused'; code: string; message: string }
  | { type: 'failed'; message: string };

/** A tree that cannot be built: `code` is the SumTreeError's (negative_amount, sum_overflow, ...) or `failed`. */
export class LiabilitiesTreeError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'LiabilitiesTreeError';
    this.code = code;
  }
}

/** One tree worker: requests answered in order, one at a time. */
class TreeWorker {
  readonly #worker: Worker;
  readonly #waiting: ((message: FromTreeWorker) => void)[] = [];
  #failure: Error | undefined;

  constructor() {
    this.#worker = new Worker(new URL('./tree-worker.ts', import.meta.url));
    this.#worker.on('message', (message: FromTreeWorker) => this.#waiting.shift()?.(message));
    const fail = (error: Error) => {
      this.#failure = error;
      for (const waiter of this.#waiting.splice(0)) waiter({ type: 'failed', message: error.message });
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the liabilities tree worker exited (${code})`)));
  }

  post(message: ToTreeWorker): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#worker.postMessage(message);
  }

  ask(message: ToTreeWorker): Promise<FromTreeWorker> {
    if (this.#failure !== undefined)
      return Promise.resolve({ type: 'failed', message: this.#failure.message });
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners('exit');
    await this.#worker.terminate();
  }
}

function refusedOrFailed(message: FromTreeWorker): never {
  if (message.type === 'refused') throw new LiabilitiesTreeError(message.code, message.message);
  if (message.type === 'failed') throw new LiabilitiesTreeError('failed', message.message);
  throw new LiabilitiesTreeError('failed', `unexpected answer ${message.type} from the tree worker`);
}

/**
 * Builds a tree on a worker thread from pages of amounts, and hands every chunk of rows to `sink` (in order:
 * leaves, then nodes) only once the whole tree is built and checked: a refused amount or sum leaves nothing
 * stored. Throws LiabilitiesTreeError.
 */
export async function buildInWorker(
  input: { secret: Uint8Array; snapshotId: string; columns: number },
  pages: AsyncIterable<AmountsPage>,
  sink: (table: 'liability_leaves' | 'liability_nodes', text: string) => Promise<void>,
): Promise<TreeRoot> {
  const worker = new TreeWorker();
  try {
    worker.post({ type: 'start', ...input });
    for await (const page of pages)
      worker.post({ type: 'page', users: [...page.users], amounts: [...page.amounts] });
    const built = await worker.ask({ type: 'build' });
    if (built.type !== 'built') refusedOrFailed(built);
    for (;;) {
      const next = await worker.ask({ type: 'next' });
      if (next.type === 'end') break;
      if (next.type !== 'rows') refusedOrFailed(next);
      await sink(next.table, next.text);
    }
    return built.root;
  } finally {
    await worker.close();
  }
}

export const PAGE_ROWS = 5_000;
const LEAF_COLUMNS = ['snapshot_id', 'position', 'user_id', 'salt', 'amounts', 'hash'];
const NODE_COLUMNS = ['snapshot_id', 'level', 'idx', 'hash', 'sums'];

/** A snapshot's amounts from liability_amounts, by ascending user id, PAGE_ROWS a read. */
export async function* amountPages(db: Queryable, snapshotId: string): AsyncIterable<AmountsPage> {
  let after = -1;
  for (;;) {
    const { rows } = await db.query<{ user_id: string | number; amounts: string }>(
      `select user_id, amounts from liability_amounts
        where snapshot_id = $1 and user_id > $2 order by user_id limit ${PAGE_ROWS}`,
      [snapshotId, after],
    );
    if (rows.length === 0) return;
    const users = rows.map((row) => Number(row.user_id));
    yield { users, amounts: rows.map((row) => row.amounts) };
    after = users[users.length - 1] as number;
    if (rows.length < PAGE_ROWS) return;
  }
}

/** What the builder needs of the store. */
export interface LiabilitiesStore extends Queryable {
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
}

/** A captured snapshot as liability_snapshots holds it. */
export interface CapturedSnapshot {
  snapshotId: string;
  seq: number;
  columns: string[];
  totals: bigint[];
  /** Null until published. */
  logIndex: number | null;
}

export async function capturedSnapshot(
  db: Queryable,
  snapshotId: string,
): Promise<CapturedSnapshot | undefined> {
  const { rows } = await db.query<{
    seq: string | number;
    columns: string;
    totals: string;
    log_index: string | null;
  }>(`select seq, columns, totals, log_index from liability_snapshots where snapshot_id = $1`, [snapshotId]);
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    snapshotId,
    seq: Number(row.seq),
    columns: splitList(row.columns),
    totals: splitList(row.totals).map((total) => BigInt(total)),
    logIndex: row.log_index === null ? null : Number(row.log_index),
  };
}

export function splitList(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

/** The publishLiabilities command of a built tree (log-design.md). */
export interface PublishLiabilitiesCommand {
  type: 'publishLiabilities';
  snapshotId: string;
  root: string;
  leafCount: number;
  columns: string[];
  totals: bigint[];
}

/**
 * Builds and stores a captured snapshot's tree (replacing any rows a crash left), checks its root sums
 * against the captured totals, and gives the command that publishes it.
 */
export async function buildAndStore(
  db: LiabilitiesStore,
  secret: Uint8Array,
  snapshotId: string,
): Promise<PublishLiabilitiesCommand> {
  const snapshot = await capturedSnapshot(db, snapshotId);
  if (snapshot === undefined) throw new LiabilitiesTreeError('failed', `no captured snapshot ${snapshotId}`);
  // The amounts are read page by page outside any transaction, and each chunk of rows is written in a
  // transaction of its own, so the engine's commits never wait for the whole tree (on PGlite they share one
  // connection). Rows of a snapshot are served only once it is published, which happens after the last
  // chunk; a crash in between leaves rows that the next build deletes first.
  await db.transaction(async (tx) => {
    await tx.query(`delete from liability_leaves where snapshot_id = $1`, [snapshotId]);
    await tx.query(`delete from liability_nodes where snapshot_id = $1`, [snapshotId]);
  });
  const root = await buildInWorker(
    { secret, snapshotId, columns: snapshot.columns.length },
    amountPages(db, snapshotId),
    (table, text) =>
      db.transaction(async (tx) => {
        if (tx.copyFrom === undefined) throw new LiabilitiesTreeError('failed', 'the store has no COPY');
        await tx.copyFrom(table, table === 'liability_leaves' ? LEAF_COLUMNS : NODE_COLUMNS, text);
      }),
  );
  const totals = root.totals.map((total) => BigInt(total));
  if (totals.length !== snapshot.totals.length || totals.some((total, at) => total !== snapshot.totals[at]))
    throw new LiabilitiesTreeError(
      'totals_differ',
      `snapshot ${snapshotId}: the tree's totals ${totals.join(',')} are not the captured ${snapshot.totals.join(',')}`,
    );
  return {
    type: 'publishLiabilities',
    snapshotId,
    root: root.root,
    leafCount: root.leafCount,
    columns: snapshot.columns,
    totals,
  };
}
