// Journal retention: the journal before the newest snapshot is needed by nothing that runs (recovery starts
// from the newest snapshot), only by a rebuild of the projections from the beginning and by audits. This
// module moves it out of the database - into gzip-compressed NDJSON files in DATA_DIR/archive, or nowhere -
// and prunes snapshots beyond the newest N.
//
// Safety: the cut is a snapshot that restores to its recorded state hash (checked here, each run), and only
// journal rows whose every command is at or before it are removed, never the journal's last row (the append
// check needs the journal's end). What recovery replays - the snapshot and every command after it - stays.
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
      const deleted = await store.query<{ count: bigint }>(
        `with gone as (delete from engine_journal where first_seq >= $1 and last_seq <= $2 returning command_count)
         select coalesce(sum(command_count), 0)::bigint as count from gone`,
        [firstSeq, lastSeq],
      );
      result.removedBatches = toSafeNumber(row.batches, 'batches');
      result.removedCommands = toSafeNumber(deleted.rows[0]?.count ?? 0n, 'count');
    }
  }
  if (cut > 0) result.removedQuotes = await pruneSystemQuotes(store, cut);
  if (options.mode === 'archive' && options.archiveDir !== undefined && result.removedBatches > 0) {
    await archiveGenesis(store, options.archiveDir);
  }
  result.removedSnapshots = await pruneSnapshots(store, snapshotsKept, cut);
  if (options.vacuum === true && result.removedBatches + result.removedQuotes + result.removedSnapshots > 0) {
    await store.query('vacuum');
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
async function pruneSystemQuotes(db: Pick<Store, 'transaction'>, cut: number): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ count: bigint }>(
      `with gone as (
         delete from spot_orders
          where owner_key < 0 and status = 2 and filled_lots = 0 and closed_seq <= $1
         returning order_id, owner_key),
       log as (
         delete from account_log l using gone
          where l.owner_key = gone.owner_key and l.reference_id = gone.order_id and l.reason in ($2, $3)
            and l.seq <= $1)
       select count(*)::bigint as count from gone`,
      [cut, ReasonCode.orderHold, ReasonCode.orderRelease],
    );
    return toSafeNumber(rows[0]?.count ?? 0n, 'count');
  });
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
