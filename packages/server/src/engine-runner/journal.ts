// SQL access to the engine journal and snapshots. One journal row holds one group-committed batch: its
// encoded envelopes joined by newlines. Writing a batch is one INSERT whatever its size, and replay reads
// a few large rows instead of one row per command; both are what make the throughput targets reachable.
import type { Queryable, Store } from '../store/index.ts';
import { JournalConflictError, RecoveryError } from './errors.ts';
import { deleteUnnamedSnapshotFiles, readSnapshotFile, writeSnapshotFile } from './snapshot-files.ts';

/** Encoded envelopes never contain a newline (they are single-line JSON), so a newline separates them. */
export const ENVELOPE_SEPARATOR = '\n';

export interface JournalBatchRow {
  firstSeq: number;
  lastSeq: number;
  /** The batch's encoded envelopes in seq order. */
  envelopes: string[];
  /** The engine's state hash after lastSeq, when the batch is a checkpoint. */
  stateHash: string | null;
}

export interface SnapshotRow {
  seq: number;
  timeMs: number;
  stateHash: string;
  body: string;
}

/** The journal row's columns, in the order both appends give their values. */
const JOURNAL_INSERT =
  'insert into engine_journal (first_seq, last_seq, command_count, envelopes, state_hash)';

/**
 * The fence of an append: the rows go in only when the journal ends exactly at the seq given as the
 * parameter numbered `param`. Together with the primary key this makes a second writer on the same database
 * fail loudly instead of interleaving.
 */
function journalEndsAt(param: number): string {
  return `where coalesce((select last_seq from engine_journal order by first_seq desc limit 1), 0) = $${param}`;
}

function journalConflict(endSeq: number): JournalConflictError {
  return new JournalConflictError(
    `the journal does not end at seq ${endSeq}: another engine runner is writing to this database`,
  );
}

/** Appends a batch, fenced: only when the journal ends exactly at firstSeq - 1. */
export async function appendBatch(tx: Queryable, batch: JournalBatchRow): Promise<void> {
  const text = batch.envelopes.join(ENVELOPE_SEPARATOR);
  const result = await tx.query(`${JOURNAL_INSERT} select $1, $2, $3, $4, $5 ${journalEndsAt(6)}`, [
    batch.firstSeq,
    batch.lastSeq,
    batch.envelopes.length,
    text,
    batch.stateHash,
    batch.firstSeq - 1,
  ]);
  if (result.rowCount !== 1) throw journalConflict(batch.firstSeq - 1);
}

/**
 * Appends consecutive batches in one statement (the projector stage writes the journal rows of every batch it
 * completes behind a durable log, and a restart's catch-up those the store lost): one round trip to the store
 * instead of one per batch. Fenced like appendBatch: all or none, only when the journal ends exactly before
 * the first.
 */
export async function appendBatches(tx: Queryable, batches: readonly JournalBatchRow[]): Promise<void> {
  const first = batches[0];
  if (first === undefined) return;
  if (batches.length === 1) return appendBatch(tx, first);
  for (let index = 1; index < batches.length; index++) {
    const batch = batches[index] as JournalBatchRow;
    if (batch.firstSeq !== (batches[index - 1] as JournalBatchRow).lastSeq + 1) {
      throw new RangeError(`journal batches to append are not consecutive at seq ${batch.firstSeq}`);
    }
  }
  const result = await tx.query(
    `${JOURNAL_INSERT}
     select * from unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[], $5::text[]) ${journalEndsAt(6)}`,
    [
      batches.map((batch) => batch.firstSeq),
      batches.map((batch) => batch.lastSeq),
      batches.map((batch) => batch.envelopes.length),
      batches.map((batch) => batch.envelopes.join(ENVELOPE_SEPARATOR)),
      batches.map((batch) => batch.stateHash),
      first.firstSeq - 1,
    ],
  );
  if (result.rowCount !== batches.length) throw journalConflict(first.firstSeq - 1);
}

/** The seq the journal ends at (0 when empty). */
export async function journalEnd(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ last_seq: bigint }>(
    'select last_seq from engine_journal order by first_seq desc limit 1',
  );
  return rows[0] ? toSafeNumber(rows[0].last_seq, 'last_seq') : 0;
}

/**
 * Calls `visit` for every batch that holds a seq above `afterSeq`, in order, reading `pageSize` batches at a
 * time so that memory stays bounded whatever the journal's length.
 */
export async function forEachBatchAfter(
  db: Queryable,
  afterSeq: number,
  visit: (batch: JournalBatchRow) => void | Promise<void>,
  pageSize = 200,
): Promise<void> {
  // The batch holding afterSeq + 1 starts at or before it; found through the primary key.
  const start = await db.query<{ first_seq: bigint | null }>(
    'select max(first_seq) as first_seq from engine_journal where first_seq <= $1',
    [afterSeq + 1],
  );
  let fromSeq = start.rows[0]?.first_seq ?? null;
  if (fromSeq === null) fromSeq = BigInt(afterSeq + 1);
  type PageRow = { first_seq: bigint; last_seq: bigint; envelopes: string; state_hash: string | null };
  const readPage = (cursor: number) =>
    db.query<PageRow>(
      `select first_seq, last_seq, envelopes, state_hash from engine_journal
       where first_seq > $1 order by first_seq limit $2`,
      [cursor, pageSize],
    );
  // The next page is asked for before this one is applied, so that PostgreSQL reads it meanwhile (PGlite,
  // which runs on this thread, reads it when this thread next waits).
  let page: ReturnType<typeof readPage> | undefined = readPage(Number(fromSeq) - 1);
  while (page !== undefined) {
    const { rows }: { rows: PageRow[] } = await page;
    const last = rows[rows.length - 1];
    page = rows.length < pageSize || last === undefined ? undefined : readPage(Number(last.first_seq));
    // A visit that throws ends the walk; the page read ahead is then of no interest.
    page?.catch(() => {});
    for (const row of rows) {
      const batch: JournalBatchRow = {
        firstSeq: toSafeNumber(row.first_seq, 'first_seq'),
        lastSeq: toSafeNumber(row.last_seq, 'last_seq'),
        envelopes: row.envelopes.split(ENVELOPE_SEPARATOR),
        stateHash: row.state_hash,
      };
      if (batch.envelopes.length !== batch.lastSeq - batch.firstSeq + 1) {
        throw new RecoveryError(`journal batch ${batch.firstSeq} holds ${batch.envelopes.length} envelopes`);
      }
      await visit(batch);
    }
  }
}

/** Why a snapshot recovery could not use was passed over (its file missing or damaged). */
export interface SkippedSnapshot {
  seq: number;
  reason: string;
}

export interface SnapshotReadOptions {
  /** The folder of snapshot files (snapshot-files.ts); rows naming a file are unusable without it. */
  folder?: string | undefined;
  /** Told of each snapshot passed over, newest first. */
  skipped?: (skipped: SkippedSnapshot) => void;
}

/**
 * The newest snapshot that can be read. A snapshot kept in a file whose file is missing or does not hash to
 * its state hash is passed over (and reported through `skipped`): the one before it, and the longer journal
 * after that one, give the same state.
 */
export async function latestSnapshot(
  db: Queryable,
  options: SnapshotReadOptions = {},
): Promise<SnapshotRow | undefined> {
  const { rows } = await db.query<{ seq: bigint; time_ms: bigint; state_hash: string; file: string | null }>(
    'select seq, time_ms, state_hash, file from engine_snapshots order by seq desc',
  );
  for (const row of rows) {
    const seq = toSafeNumber(row.seq, 'seq');
    const text = await snapshotText(db, seq, row.state_hash, row.file, options.folder);
    if (!text.ok) {
      options.skipped?.({ seq, reason: text.reason });
      continue;
    }
    return { seq, timeMs: toSafeNumber(row.time_ms, 'time_ms'), stateHash: row.state_hash, body: text.body };
  }
  return undefined;
}

/** The snapshot of the empty engine taken before the first command, when the journal was started with one. */
export async function genesisSnapshot(db: Queryable): Promise<SnapshotRow | undefined> {
  const { rows } = await db.query<{
    seq: bigint;
    time_ms: bigint;
    state_hash: string;
    body: string;
    parts: number;
  }>('select seq, time_ms, state_hash, body, parts from engine_snapshots where seq = 0');
  const row = rows[0];
  if (!row) return undefined;
  return {
    seq: 0,
    timeMs: toSafeNumber(row.time_ms, 'time_ms'),
    stateHash: row.state_hash,
    body: await snapshotBody(db, 0, row.body, row.parts),
  };
}

/**
 * A snapshot's text wherever it is kept: in a file (checked against its state hash), in parts, or in its row.
 * Says why when it cannot be used; never throws for a missing or damaged file.
 */
export async function snapshotText(
  db: Queryable,
  seq: number,
  stateHash: string,
  file: string | null,
  folder: string | undefined,
): Promise<{ ok: true; body: string } | { ok: false; reason: string }> {
  if (file !== null) return readSnapshotFile(folder, file, seq, stateHash);
  const { rows } = await db.query<{ body: string; parts: number }>(
    'select body, parts from engine_snapshots where seq = $1',
    [seq],
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: `snapshot ${seq} is gone` };
  return { ok: true, body: await snapshotBody(db, seq, row.body, row.parts) };
}

/** A snapshot row's text: its body, or its parts joined when it was written in parts. */
export async function snapshotBody(db: Queryable, seq: number, body: string, parts: number): Promise<string> {
  if (parts === 0) return body;
  const { rows } = await db.query<{ body: string }>(
    'select body from engine_snapshot_parts where seq = $1 order by part',
    [seq],
  );
  if (rows.length !== parts) {
    throw new RecoveryError(`snapshot ${seq} has ${rows.length} of its ${parts} parts`);
  }
  return rows.map((row) => row.body).join('');
}

/**
 * Writes a snapshot and drops all but the newest `keep` ones (older ones only cost space). The genesis
 * snapshot (seq 0) is kept for good: it records the options the engine was created with, which a replay
 * from the start of the journal needs.
 */
export async function writeSnapshot(tx: Queryable, snapshot: SnapshotRow, keep: number): Promise<void> {
  await tx.query('insert into engine_snapshots (seq, time_ms, state_hash, body) values ($1, $2, $3, $4)', [
    snapshot.seq,
    snapshot.timeMs,
    snapshot.stateHash,
    snapshot.body,
  ]);
  await pruneSnapshots(tx, keep);
}

/** Characters of snapshot text per part: one part's INSERT holds the embedded store's thread briefly. */
export const SNAPSHOT_PART_CHARS = 256 * 1024;

/**
 * Writes a snapshot in parts, one short statement each with a turn of the event loop between them, then the
 * row that makes it a snapshot, in a transaction of its own with the pruning. One INSERT of a 50 MB text took
 * PGlite, when its thread was the event loop, 3.6 s; a part takes a few milliseconds. A write cut short leaves
 * parts without a row, which the next pruning deletes.
 */
export async function writeSnapshotInParts(
  store: Pick<Store, 'query' | 'transaction'>,
  snapshot: SnapshotRow,
  keep: number,
  partChars = SNAPSHOT_PART_CHARS,
): Promise<void> {
  // Parts of an earlier write of this seq that was cut short.
  await store.query('delete from engine_snapshot_parts where seq = $1', [snapshot.seq]);
  const text = snapshot.body;
  let part = 0;
  for (let start = 0; start < text.length; part++) {
    let end = Math.min(start + partChars, text.length);
    // Never between the two halves of a surrogate pair: each part must be valid text on its own.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    await store.query('insert into engine_snapshot_parts (seq, part, body) values ($1, $2, $3)', [
      snapshot.seq,
      part,
      text.slice(start, end),
    ]);
    start = end;
    await new Promise((resolve) => setImmediate(resolve));
  }
  await store.transaction(async (tx) => {
    await tx.query(
      `insert into engine_snapshots (seq, time_ms, state_hash, body, parts) values ($1, $2, $3, '', $4)`,
      [snapshot.seq, snapshot.timeMs, snapshot.stateHash, part],
    );
    await pruneSnapshots(tx, keep);
  });
}

/** A snapshot as it is handed over to be stored: its text, or the file the replica's thread already wrote. */
export type SnapshotToStore = Omit<SnapshotRow, 'body'> & ({ body: string } | { file: string });

/**
 * Stores a snapshot taken off the transaction of its batch (by the replica, or at close) and prunes the older
 * ones. With a snapshot folder (the embedded store) the text goes to a file (written here unless the replica
 * wrote it already) and the store gets only its descriptor row, in a transaction with the pruning; files no
 * row names any more are then deleted. Without one (PostgreSQL, whose driver does not hold the event loop)
 * the text is written in parts.
 */
export async function storeSnapshot(
  store: Pick<Store, 'query' | 'transaction'>,
  snapshot: SnapshotToStore,
  keep: number,
  folder: string | undefined,
): Promise<void> {
  if (folder === undefined) {
    if (!('body' in snapshot)) throw new TypeError('a snapshot file needs a snapshot folder');
    await writeSnapshotInParts(store, snapshot, keep);
    return;
  }
  const file =
    'file' in snapshot
      ? snapshot.file
      : (await writeSnapshotFile(folder, snapshot.seq, snapshot.stateHash, snapshot.body)).file;
  const named = await store.transaction(async (tx) => {
    await tx.query(
      `insert into engine_snapshots (seq, time_ms, state_hash, body, parts, file) values ($1, $2, $3, '', 0, $4)`,
      [snapshot.seq, snapshot.timeMs, snapshot.stateHash, file],
    );
    await pruneSnapshots(tx, keep);
    const { rows } = await tx.query<{ file: string }>(
      'select file from engine_snapshots where file is not null',
    );
    return new Set(rows.map((row) => row.file));
  });
  await deleteUnnamedSnapshotFiles(folder, named, snapshot.seq);
}

async function pruneSnapshots(tx: Queryable, keep: number): Promise<void> {
  await tx.query(
    `delete from engine_snapshots where seq > 0 and seq < (
       select min(seq) from (select seq from engine_snapshots order by seq desc limit $1) as newest)`,
    [keep],
  );
  await deleteOrphanSnapshotParts(tx);
}

/** Deletes parts whose snapshot row is gone, except those of a write still under way (above every row). */
export async function deleteOrphanSnapshotParts(tx: Queryable): Promise<void> {
  await tx.query(
    `delete from engine_snapshot_parts p
      where p.seq < (select coalesce(max(seq), 0) from engine_snapshots)
        and not exists (select 1 from engine_snapshots s where s.seq = p.seq)`,
  );
}

/** Both drivers return int8 as bigint; seqs and times are far below 2^53, which this asserts. */
export function toSafeNumber(value: bigint | number | string, column: string): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number))
    throw new RecoveryError(`${column} ${String(value)} is not a safe integer`);
  return number;
}
