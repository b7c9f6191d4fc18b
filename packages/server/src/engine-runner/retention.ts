// Journal retention: the journal before the newest snapshot is needed by nothing that runs (recovery starts
// from the newest snapshot), only by a rebuild of the projections from the beginning and by audits. This
// module moves it out of the database - into gzip-compressed NDJSON files in DATA_DIR/archive, or nowhere -
// and prunes snapshots beyond the newest N.
//
// Safety: the cut is a snapshot that restores to its recorded state hash (checked here, each run), and only
// journal rows whose every command is at or before it are removed, never the journal's last row (the append
// check needs the journal's end). What recovery replays - the snapshot and every command after it - stays.
//
// Reads never wait behind the whole job: it removes rows in bounded batches (100 journal rows, 500
// market-maker quotes per statement), pausing between them, and vacuums table by table only the tables that
// lost rows, so that on the embedded store (where every statement waits for the one before it) a request's
// read waits at most for one batch.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ReasonCode } from '@fairex/engine';
import type { Queryable, Store } from '../store/index.ts';
import { engineKit } from './engine-kit.ts';
import type { ExchangeKit } from './engine-kit.ts';
import {
  deleteOrphanSnapshotParts,
  ENVELOPE_SEPARATOR,
  genesisSnapshot,
  snapshotText,
  toSafeNumber,
} from './journal.ts';
import { embeddedSnapshotFolder } from './snapshot-files.ts';
import type { RunnerLogger } from './types.ts';

export type RetentionMode = 'archive' | 'delete';

export interface CompactJournalOptions {
  /** archive: write the removed journal to DATA_DIR/archive first; delete: only remove it. */
  mode: RetentionMode;
  /** Folder of the archive files (archive mode). */
  archiveDir?: string;
  /** Cut at the newest snapshot at least this old (stamped command time); default 0: the newest one. */
  keepMs?: number;
  /** Now, in milliseconds since the epoch (default Date.now()). */
  nowMs?: number;
  /** Snapshots kept (default 3): the newest ones; never the cut snapshot or one after it. */
  snapshotsKept?: number;
  kit?: ExchangeKit;
  /**
   * Rows removed per statement (default 100 journal rows, 500 orders): the work goes in bounded batches,
   * with a yield to the event loop after each, so that the reads of other requests interleave with it
   * instead of waiting for one long statement (on the embedded store every statement waits for the one
   * before it).
   */
  batchRows?: number;
  /** Milliseconds to pause between two batches (default 10), leaving the store to other requests. */
  pauseMs?: number;
  /**
   * VACUUM afterwards when anything was removed (default false). PGlite runs no autovacuum: without it the
   * space of removed rows, and of rows that updates left behind, is never reused.
   */
  vacuum?: boolean;
}

export interface CompactJournalResult {
  /** The snapshot the journal was cut at (0: nothing was eligible). */
  cutSeq: number;
  /** Journal rows and commands removed from the database. */
  removedBatches: number;
  removedCommands: number;
  /** The archive file written, when there was something to archive. */
  archiveFile: string | undefined;
  removedSnapshots: number;
  /** Orders of system owners that ended without a fill, removed with their hold and release rows. */
  removedQuotes: number;
}

interface Batching {
  /** Journal rows per delete statement. */
  journalRows: number;
  /** System quotes per transaction. */
  orders: number;
  pauseMs: number;
}

/**
 * Between two batches: lets the event loop run what came in meanwhile (the requests whose reads must not
 * wait behind the whole job), and optionally pauses.
 */
function pause(batching: Batching): Promise<void> {
  return new Promise((resolve) =>
    batching.pauseMs > 0 ? setTimeout(resolve, batching.pauseMs) : setImmediate(resolve),
  );
}

/**
 * Deletes the journal rows from firstSeq to lastSeq, oldest first, `journalRows` rows per statement; answers
 * the commands removed. Each statement removes a prefix of what is left, so a run stopped half-way leaves
 * a journal that still starts after a verified snapshot and ends where it ended.
 */
async function deleteJournal(
  db: Queryable,
  firstSeq: number,
  lastSeq: number,
  batching: Batching,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rows } = await db.query<{ batches: bigint; count: bigint }>(
      `with gone as (
         delete from engine_journal where first_seq in (
           select first_seq from engine_journal where first_seq >= $1 and last_seq <= $2
            order by first_seq limit $3)
         returning command_count)
       select count(*)::bigint as batches, coalesce(sum(command_count), 0)::bigint as count from gone`,
      [firstSeq, lastSeq, batching.journalRows],
    );
    const batches = toSafeNumber(rows[0]?.batches ?? 0n, 'batches');
    removed += toSafeNumber(rows[0]?.count ?? 0n, 'count');
    if (batches < batching.journalRows) return removed;
    await pause(batching);
  }
}

/** The genesis snapshot's text (the empty engine with its creation options), gzip-compressed. */
export const GENESIS_FILE = 'snapshot-000000000000000.json.gz';

/** Archive files are named by the seqs they hold, zero-padded so that names sort in seq order. */
export function archiveFileName(firstSeq: number, lastSeq: number): string {
  const pad = (seq: number) => String(seq).padStart(15, '0');
  return `journal-${pad(firstSeq)}-${pad(lastSeq)}.ndjson.gz`;
}

export async function compactJournal(
  store: Pick<Store, 'query' | 'transaction'> & Partial<Pick<Store, 'kind' | 'dataDir'>>,
  options: CompactJournalOptions,
): Promise<CompactJournalResult> {
  const kit = options.kit ?? engineKit();
  const nowMs = options.nowMs ?? Date.now();
  const keepMs = options.keepMs ?? 0;
  const snapshotsKept = options.snapshotsKept ?? 3;
  const batching: Batching = {
    journalRows: options.batchRows ?? 100,
    orders: (options.batchRows ?? 100) * 5,
    pauseMs: options.pauseMs ?? 10,
  };
  const cut = await verifiedCut(store, kit, nowMs - keepMs, embeddedSnapshotFolder(store));
  const result: CompactJournalResult = {
    cutSeq: cut,
    removedBatches: 0,
    removedCommands: 0,
    archiveFile: undefined,
    removedSnapshots: 0,
    removedQuotes: 0,
  };
  if (cut > 0) {
    // Whole batches at or before the cut, never the journal's last row.
    const range = await store.query<{ first: bigint | null; last: bigint | null; batches: bigint }>(
      `select min(first_seq) as first, max(last_seq) as last, count(*) as batches from engine_journal
        where last_seq <= $1 and first_seq < (select max(first_seq) from engine_journal)`,
      [cut],
    );
    const row = range.rows[0];
    if (row?.first != null && row.last != null) {
      const firstSeq = toSafeNumber(row.first, 'first_seq');
      const lastSeq = toSafeNumber(row.last, 'last_seq');
      if (options.mode === 'archive') {
        if (options.archiveDir === undefined) throw new TypeError('archive mode needs archiveDir');
        result.archiveFile = await archiveJournal(store, options.archiveDir, firstSeq, lastSeq);
      }
      result.removedBatches = toSafeNumber(row.batches, 'batches');
      result.removedCommands = await deleteJournal(store, firstSeq, lastSeq, batching);
    }
  }
  if (cut > 0) result.removedQuotes = await pruneSystemQuotes(store, cut, batching);
  if (options.mode === 'archive' && options.archiveDir !== undefined && result.removedBatches > 0) {
    await archiveGenesis(store, options.archiveDir);
  }
  result.removedSnapshots = await pruneSnapshots(store, snapshotsKept, cut);
  if (options.vacuum === true) {
    // Table by table, only those that lost rows, with a pause between them, rather than one VACUUM of the
    // whole database (on the embedded store every read waits for the statement before it).
    const vacuumed = [
      ...(result.removedBatches > 0 ? ['engine_journal'] : []),
      ...(result.removedQuotes > 0 ? ['spot_orders', 'account_log'] : []),
      ...(result.removedSnapshots > 0 ? ['engine_snapshots', 'engine_snapshot_parts'] : []),
    ];
    for (const table of vacuumed) {
      await pause(batching);
      await store.query(`vacuum ${table}`);
    }
  }
  return result;
}

/**
 * The seq of the newest snapshot taken at or before `beforeMs` that restores to its recorded state hash, or
 * 0. Restoring is a pass over the whole state (as at start-up); only the chosen snapshot is restored.
 */
async function verifiedCut(
  db: Queryable,
  kit: ExchangeKit,
  beforeMs: number,
  folder: string | undefined,
): Promise<number> {
  const { rows } = await db.query<{ seq: bigint; state_hash: string; file: string | null }>(
    `select seq, state_hash, file from engine_snapshots where seq > 0 and time_ms <= $1
      order by seq desc limit 1`,
    [beforeMs],
  );
  const snapshot = rows[0];
  if (snapshot === undefined) return 0;
  const seq = toSafeNumber(snapshot.seq, 'seq');
  try {
    const text = await snapshotText(db, seq, snapshot.state_hash, snapshot.file, folder);
    if (!text.ok) return 0;
    const engine = kit.restore(text.body);
    const hash = kit.hashSnapshot?.(engine.snapshot()) ?? engine.stateHash();
    if (engine.lastSeq !== seq || hash !== snapshot.state_hash) return 0;
  } catch {
    return 0;
  }
  return seq;
}

/**
 * Writes the journal rows from firstSeq to lastSeq as one gzip file of NDJSON: one encoded envelope per line,
 * exactly the journal's lines, in seq order. The file appears under its final name only once complete.
 */
async function archiveJournal(
  db: Queryable,
  archiveDir: string,
  firstSeq: number,
  lastSeq: number,
): Promise<string> {
  await mkdir(archiveDir, { recursive: true });
  const file = join(archiveDir, archiveFileName(firstSeq, lastSeq));
  const partial = `${file}.partial`;
  async function* lines(): AsyncGenerator<string> {
    let cursor = firstSeq - 1;
    for (;;) {
      const page = await db.query<{ first_seq: bigint; envelopes: string }>(
        `select first_seq, envelopes from engine_journal where first_seq > $1 and last_seq <= $2
          order by first_seq limit 200`,
        [cursor, lastSeq],
      );
      for (const row of page.rows) {
        yield row.envelopes + ENVELOPE_SEPARATOR;
        cursor = toSafeNumber(row.first_seq, 'first_seq');
      }
      if (page.rows.length < 200) return;
    }
  }
  try {
    await pipeline(lines(), createGzip(), createWriteStream(partial, { flush: true }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return file;
}

/**
 * The market maker's quotes that ended without trading - cancelled, nothing filled, last changed at or before
 * the cut - are most of what an idle exchange writes: an order row and the hold and release rows of its
 * account log, which cancel each other out. They are removed from the projections with those two rows; the
 * journal (or its archive) still holds the commands. Users' orders, and every order that traded, stay.
 */
async function pruneSystemQuotes(
  db: Pick<Store, 'transaction'>,
  cut: number,
  batching: Batching,
): Promise<number> {
  // The reasons are literals in the statement below so that it matches the partial index
  // account_log_system_order_idx, which names them.
  if (ReasonCode.orderHold !== 300 || ReasonCode.orderRelease !== 301) {
    throw new Error('the hold and release reason codes changed: update account_log_system_order_idx');
  }
  let removed = 0;
  // A cursor over the orders index (owner_key, order_id): each batch starts where the last one ended.
  let after: [number, string] = [-2_147_483_648, '-1'];
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ owner_key: number; order_id: string; count: bigint }>(
        `with picked as (
           select owner_key, order_id from spot_orders
            where owner_key < 0 and (owner_key, order_id) > ($2::int, $3::bigint)
              and status = 2 and filled_lots = 0 and closed_seq <= $1
            order by owner_key, order_id limit $4),
         gone as (
           delete from spot_orders o using picked
            where o.owner_key = picked.owner_key and o.order_id = picked.order_id
           returning o.owner_key, o.order_id),
         log as (
           delete from account_log l using gone
            where l.owner_key < 0 and l.reason in (300, 301) and l.reference_id = gone.order_id
              and l.owner_key = gone.owner_key and l.seq <= $1)
         select owner_key, order_id::text as order_id, count(*) over ()::bigint as count from gone
          order by owner_key desc, order_id desc limit 1`,
        [cut, after[0], after[1], batching.orders],
      );
      return rows[0];
    });
    if (batch === undefined) return removed;
    const count = toSafeNumber(batch.count, 'count');
    removed += count;
    after = [batch.owner_key, batch.order_id];
    if (count < batching.orders) return removed;
    await pause(batching);
  }
}

/**
 * The genesis snapshot, which a replay of the archive from seq 1 starts from, goes to the archive before
 * pruneSnapshots deletes it (once the journal no longer starts at seq 1).
 */
async function archiveGenesis(db: Queryable, archiveDir: string): Promise<void> {
  const genesis = await genesisSnapshot(db);
  if (genesis === undefined) return;
  const file = join(archiveDir, GENESIS_FILE);
  await pipeline([genesis.body], createGzip(), createWriteStream(`${file}.partial`, { flush: true }));
  await rename(`${file}.partial`, file);
}

/**
 * Deletes all but the newest `keep` snapshots, never the cut snapshot or a later one. The genesis snapshot
 * (seq 0) goes only once the journal no longer starts at seq 1: a replay from the beginning needs both.
 */
async function pruneSnapshots(db: Queryable, keep: number, cut: number): Promise<number> {
  const { rows } = await db.query<{ count: bigint }>(
    `with newest as (select seq from engine_snapshots where seq > 0 order by seq desc limit $1),
          gone as (
       delete from engine_snapshots
        where seq < $2 and seq not in (select seq from newest)
          and (seq > 0 or coalesce((select min(first_seq) from engine_journal), 1) > 1)
       returning seq)
     select count(*)::bigint as count from gone`,
    [keep, Math.max(cut, 1)],
  );
  await deleteOrphanSnapshotParts(db);
  return toSafeNumber(rows[0]?.count ?? 0n, 'count');
}

/**
 * Runs compaction a minute after start (`firstAfterMs`; not during start-up, since checking the snapshot is a
 * pass over the whole state on this thread) and then every `everyMs` (an hour), logging what it did; returns
 * a function that stops it.
 */
export function scheduleJournalRetention(
  store: Pick<Store, 'query' | 'transaction'>,
  logger: RunnerLogger,
  options: CompactJournalOptions & { everyMs?: number; firstAfterMs?: number },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= compactJournal(store, options)
      .then((result) => {
        if (result.removedBatches > 0 || result.removedSnapshots > 0)
          logger.info({ ...result }, 'journal retention removed old journal and snapshots');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'journal retention failed; it runs again later'))
      .finally(() => (running = undefined));
  };
  let timer = setTimeout(() => {
    run();
    timer = setInterval(run, options.everyMs ?? 3_600_000);
    timer.unref();
  }, options.firstAfterMs ?? 60_000);
  timer.unref();
  return async () => {
    clearTimeout(timer);
    clearInterval(timer);
    await running;
  };
}
