// Snapshot files: the embedded store's snapshots live beside its durable log, one file each, and PGlite keeps
// only a row describing each (seq, time, state hash, file name; migration 0090).
//
// Why: PGlite ran on the event loop (it has a thread of its own now: store/pglite-thread.ts), so every byte
// of snapshot text written into it held up every request in flight, and still holds up every other statement. A snapshot of a million resting orders is about 50 MB of text; written into PGlite in 256 KB
// parts it still stalled the event loop for hundreds of milliseconds (the parts, then the CHECKPOINT that
// had to flush them). The replica's worker thread now writes the file itself (replica-worker.ts), flushes it
// with fdatasync and renames it into place, so the text never reaches the main thread; the main thread only
// inserts the descriptor row.
//
// A file is named by its seq and state hash, `snapshot-<seq, 15 digits>-<sha256>.json`. The state hash is
// SHA-256 of the snapshot text, so a file read back is checked against its own name and its row: a file that
// is missing, cut short or damaged is refused (readSnapshotFile returns why), and recovery falls back to the
// previous snapshot and the journal after it (journal.ts, latestSnapshot).
import { createHash } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Store } from '../store/index.ts';
import { syncPathSync } from '../store/sync-folder.ts';

/** The folder of the embedded store's snapshot files, inside its data folder (beside `durable-journal`). */
export const SNAPSHOT_FOLDER = 'snapshots';

/**
 * Where a store keeps its snapshot files: the embedded store in `<data folder>/snapshots`; PostgreSQL keeps
 * them in the database (undefined), where every process that may run the engine finds them.
 */
export function embeddedSnapshotFolder(store: Partial<Pick<Store, 'kind' | 'dataDir'>>): string | undefined {
  return store.kind === 'pglite' && store.dataDir !== undefined
    ? join(store.dataDir, SNAPSHOT_FOLDER)
    : undefined;
}

const FILE_PATTERN = /^snapshot-(\d{15})-([0-9a-f]{64})\.json$/;

/** `snapshot-<seq, zero-padded to 15 digits>-<state hash>.json`: names sort in seq order. */
export function snapshotFileName(seq: number, stateHash: string): string {
  if (!/^[0-9a-f]{64}$/.test(stateHash)) throw new TypeError('a snapshot file needs a SHA-256 state hash');
  return `snapshot-${String(seq).padStart(15, '0')}-${stateHash}.json`;
}

/** The seq a snapshot file name stands for, or undefined when the name is not a snapshot file's. */
export function snapshotFileSeq(name: string): number | undefined {
  const match = FILE_PATTERN.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * Writes a snapshot file and makes it durable: a temporary file written and fdatasync'd, renamed into place,
 * and the folder fsync'd so that the name survives an operating-system crash too. Blocking: for the replica's
 * worker thread, which has nothing else to do meanwhile. Returns the file's name and its size in bytes.
 */
export function writeSnapshotFileSync(
  folder: string,
  seq: number,
  stateHash: string,
  body: string,
): { file: string; bytes: number } {
  const file = snapshotFileName(seq, stateHash);
  mkdirSync(folder, { recursive: true });
  const temporary = join(folder, `${file}.tmp`);
  const bytes = Buffer.from(body, 'utf8');
  const fd = openSync(temporary, 'w');
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, join(folder, file));
  syncPathSync(folder);
  return { file, bytes: bytes.length };
}

/** The same as writeSnapshotFileSync without blocking the thread (the closing snapshot, the tests). */
export async function writeSnapshotFile(
  folder: string,
  seq: number,
  stateHash: string,
  body: string,
): Promise<{ file: string; bytes: number }> {
  const file = snapshotFileName(seq, stateHash);
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `${file}.tmp`);
  const bytes = Buffer.from(body, 'utf8');
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(folder, file));
  const directory = await open(folder, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return { file, bytes: bytes.length };
}

export type SnapshotFileRead = { ok: true; body: string } | { ok: false; reason: string };

/**
 * Reads a snapshot file and checks it: its name must be the one its row records and its text must hash to
 * the row's state hash. Never throws for a bad file: says why it cannot be used.
 */
export async function readSnapshotFile(
  folder: string | undefined,
  file: string,
  seq: number,
  stateHash: string,
): Promise<SnapshotFileRead> {
  if (folder === undefined) return { ok: false, reason: 'no snapshot folder is configured' };
  if (snapshotFileSeq(file) !== seq || !file.includes(stateHash)) {
    return { ok: false, reason: `the file name ${file} does not match seq ${seq} and its state hash` };
  }
  let body: string;
  try {
    body = await readFile(join(folder, file), 'utf8');
  } catch (error) {
    return { ok: false, reason: `the file ${file} cannot be read: ${(error as Error).message}` };
  }
  if (sha256Hex(body) !== stateHash) {
    return { ok: false, reason: `the file ${file} does not hash to its state hash (damaged or cut short)` };
  }
  return { ok: true, body };
}

/**
 * Deletes the snapshot files no row names any more (pruned snapshots) and temporary files of writes cut
 * short, up to `uptoSeq` (a write of a later seq may be under way). A file that cannot be deleted is left for
 * the next time.
 */
export async function deleteUnnamedSnapshotFiles(
  folder: string,
  named: ReadonlySet<string>,
  uptoSeq: number,
): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  let deleted = 0;
  for (const name of names) {
    const base = name.endsWith('.tmp') ? name.slice(0, -'.tmp'.length) : name;
    const seq = snapshotFileSeq(base);
    if (seq === undefined || seq > uptoSeq || named.has(name)) continue;
    try {
      await rm(join(folder, name), { force: true });
      deleted++;
    } catch {
      // Left for the next pruning.
    }
  }
  return deleted;
}
