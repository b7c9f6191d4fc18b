// The embedded store's durable record of committed batches. PGlite writes each commit through to its files
// but never asks the operating system to flush them (its file layer has no fsync), so an operating-system
// crash or a power loss could take acknowledged commands with it. This log closes that gap: every batch is
// appended to a file and fdatasync'd before its callers are answered; the append is the batch's commit, and
// the store's journal row follows with the batch's projections (runner.ts). At start, what the store lacks is
// taken back from here (recovery.ts).
//
// Files: `<folder>/<firstSeq, 20 digits>.log` segments. One record per batch:
//   `B <firstSeq> <lastSeq> <payload bytes> <crc32 hex>\n<payload>\n`
// where the payload is the batch's encoded envelopes joined by newlines, exactly as the SQL journal row
// holds them. A record cut short or failing its checksum at the very end of the newest segment is a write
// that was never acknowledged (the reply waits for fdatasync) and is cut off; anywhere else it is damage,
// and opening fails.
//
// Segments only need to reach back to what the store itself holds durably. After a snapshot the runner
// rotates: later batches go to a new segment, the store's folder is fsync'd (`syncStore`), and the older
// segments whose every batch the store held when the flush began are deleted (the others wait for a later
// rotation). At start the same happens once recovery has put the store level with the log.
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readFile, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { syncPath } from '../store/sync-folder.ts';
import type { DurableBatch, DurableLogFiles } from './durable-log-files.ts';
import {
  crcHex,
  DURABLE_LOG_KEPT_OPEN_MAX_BYTES,
  readDurableLogFiles,
  scanSegment,
} from './durable-log-files.ts';
import { RecoveryError } from './errors.ts';
import { ENVELOPE_SEPARATOR } from './journal.ts';

export type { DurableBatch } from './durable-log-files.ts';
export { DURABLE_LOG_KEPT_OPEN_MAX_BYTES } from './durable-log-files.ts';

/** A durable batch's encoded envelopes, in seq order; a count that does not match its seqs is damage. */
export function durableBatchEnvelopes(batch: DurableBatch): string[] {
  const envelopes = batch.payload.toString('utf8').split(ENVELOPE_SEPARATOR);
  if (envelopes.length !== batch.lastSeq - batch.firstSeq + 1) {
    throw new RecoveryError(`durable log batch ${batch.firstSeq} holds ${envelopes.length} envelopes`);
  }
  return envelopes;
}

export interface DurableLog {
  /** The last seq the log holds (0 when empty). */
  readonly lastSeq: number;
  /** Bytes of its segment files: what reading it all back takes in memory. */
  readonly heldBytes: number;
  /** Batches whose lastSeq is above `afterSeq`, in order, read from the files. */
  batchesAfter(afterSeq: number): Promise<DurableBatch[]>;
  /** Appends one batch and flushes it to the disk (SEGMENT_FLAGS); resolves when it is durable. */
  append(batch: { firstSeq: number; lastSeq: number; text: string }): Promise<void>;
  /**
   * Starts a new segment with the next append; once `syncStore` made the store's files durable, the older
   * segments are deleted, except those holding a batch past `storedThroughSeq` (the last seq whose journal
   * row the store has written; default: all of them). Resolves when that is done (callers need not wait).
   */
  rotate(storedThroughSeq?: number): Promise<void>;
  /** Appends ever made and bytes written, for the bench. */
  stats(): { appends: number; bytes: number; segments: number };
  close(): Promise<void>;
}

export interface OpenDurableLogOptions {
  folder: string;
  /** Makes everything the store wrote so far durable (the embedded store fsyncs its folder). */
  syncStore: () => Promise<void>;
  /**
   * The folder's files as already read and checked while the caller held the data folder's lock
   * (DurableLogReadAhead, started as the store opened); default: read now.
   */
  files?: Promise<DurableLogFiles>;
}

/**
 * A segment is opened for appending with O_DSYNC where the system has it (Linux, macOS): each write then
 * returns once its data is on the disk, as if fdatasync had followed it, so an append is one call on the
 * thread pool instead of two. Each call's answer reaches this thread only at its next turn of the event
 * loop, which under load is many requests long: at the HTTP bench's maximum load the write and the flush
 * each waited about 15 ms for it. Elsewhere the write is followed by fdatasync.
 */
const DSYNC: number | undefined = constants.O_DSYNC;
const SEGMENT_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (DSYNC ?? 0);

interface Segment {
  firstSeq: number;
  path: string;
  /** The last seq written to it (0 while empty). */
  lastSeq: number;
}

export async function openDurableLog(options: OpenDurableLogOptions): Promise<DurableLog> {
  await mkdir(options.folder, { recursive: true });
  const files = await (options.files ?? readDurableLogFiles(options.folder));
  if (files.folder !== options.folder) {
    throw new Error(`the durable log's files were read from ${files.folder}, not ${options.folder}`);
  }
  const segments: Segment[] = [];
  let lastSeq = 0;
  let heldBytes = 0;
  let opened: Map<string, Buffer> | undefined = new Map();
  for (const { firstSeq, path, bytes, scan } of files.segments) {
    if (scan.goodBytes < scan.totalBytes) {
      // Only reached for the newest segment: an unacknowledged append cut short by the crash.
      await truncate(path, scan.goodBytes);
      await syncPath(path);
    }
    if (scan.lastSeq > 0) lastSeq = scan.lastSeq;
    segments.push({ firstSeq, path, lastSeq: scan.lastSeq });
    heldBytes += scan.goodBytes;
    if (bytes === undefined || heldBytes > DURABLE_LOG_KEPT_OPEN_MAX_BYTES) opened = undefined;
    else opened?.set(path, bytes.subarray(0, scan.goodBytes));
  }
  return new FileDurableLog(options, segments, lastSeq, heldBytes, opened);
}

class FileDurableLog implements DurableLog {
  lastSeq: number;
  heldBytes: number;
  readonly #options: OpenDurableLogOptions;
  readonly #segments: Segment[];
  #handle: FileHandle | undefined;
  #rotatePending = true;
  #rotation: Promise<void> = Promise.resolve();
  #appends = 0;
  #bytes = 0;
  /**
   * The segments' bytes as the opening scan read them and checked every record's checksum, until the first
   * batchesAfter, append or rotation: a restart reads the log right after opening it, and reading a large
   * log's files again costs about as much as parsing them. Appends go to a new segment, so these stay exact.
   */
  #opened: Map<string, Buffer> | undefined;

  constructor(
    options: OpenDurableLogOptions,
    segments: Segment[],
    lastSeq: number,
    heldBytes: number,
    opened?: Map<string, Buffer>,
  ) {
    this.#options = options;
    this.#segments = segments;
    this.lastSeq = lastSeq;
    this.heldBytes = heldBytes;
    this.#opened = opened;
  }

  async batchesAfter(afterSeq: number): Promise<DurableBatch[]> {
    const opened = this.#opened;
    this.#opened = undefined;
    const batches: DurableBatch[] = [];
    for (const [index, segment] of this.#segments.entries()) {
      const next = this.#segments[index + 1];
      if (next !== undefined && next.firstSeq <= afterSeq + 1) continue;
      const newest = index === this.#segments.length - 1;
      const kept = opened?.get(segment.path);
      const scan =
        kept === undefined
          ? scanSegment(await readFile(segment.path), segment.path, newest, afterSeq)
          : scanSegment(kept, segment.path, newest, afterSeq, true);
      for (const batch of scan.batches) batches.push(batch);
    }
    return batches;
  }

  async append(batch: { firstSeq: number; lastSeq: number; text: string }): Promise<void> {
    this.#opened = undefined;
    // A new segment after a rotation may start past the log's end: the store holds the gap durably.
    const newSegment = this.#handle === undefined || this.#rotatePending;
    if (!newSegment && batch.firstSeq !== this.lastSeq + 1) {
      throw new RecoveryError(`the durable log ends at seq ${this.lastSeq}, not ${batch.firstSeq - 1}`);
    }
    let handle = this.#handle;
    if (newSegment || handle === undefined) {
      await handle?.close();
      const path = join(this.#options.folder, `${String(batch.firstSeq).padStart(20, '0')}.log`);
      handle = await open(path, SEGMENT_FLAGS);
      this.#handle = handle;
      this.#segments.push({ firstSeq: batch.firstSeq, path, lastSeq: 0 });
      this.#rotatePending = false;
      // The new file's name must survive a crash too.
      await syncPath(this.#options.folder);
    }
    const payload = Buffer.from(batch.text, 'utf8');
    const header = `B ${batch.firstSeq} ${batch.lastSeq} ${payload.length} ${crcHex(payload)}\n`;
    const record = Buffer.concat([Buffer.from(header, 'latin1'), payload, NEWLINE]);
    const { bytesWritten } = await handle.write(record);
    if (bytesWritten !== record.length) {
      // Never seen on a regular file short of a full disk; the record is torn, and the restart cuts it off.
      throw new Error(`the durable log wrote ${bytesWritten} of a record's ${record.length} bytes`);
    }
    if (DSYNC === undefined) await handle.datasync();
    this.lastSeq = batch.lastSeq;
    (this.#segments[this.#segments.length - 1] as Segment).lastSeq = batch.lastSeq;
    this.heldBytes += record.length;
    this.#appends++;
    this.#bytes += record.length;
  }

  rotate(storedThroughSeq = Number.MAX_SAFE_INTEGER): Promise<void> {
    this.#opened = undefined;
    this.#rotatePending = true;
    // The segments that exist now and whose batches the store holds; the next append opens a new one, which
    // is kept, and so is any segment with a batch the store has not written yet. Called when no append is in
    // flight, so no older segment grows after this.
    const older = this.#segments.filter((segment) => segment.lastSeq <= storedThroughSeq);
    this.#rotation = this.#rotation.then(async () => {
      await this.#options.syncStore();
      for (const segment of older) {
        await rm(segment.path, { force: true });
        const index = this.#segments.indexOf(segment);
        if (index >= 0) this.#segments.splice(index, 1);
      }
      await syncPath(this.#options.folder);
    });
    return this.#rotation;
  }

  stats() {
    return { appends: this.#appends, bytes: this.#bytes, segments: this.#segments.length };
  }

  async close(): Promise<void> {
    await this.#rotation.catch(() => {});
    await this.#handle?.close();
    this.#handle = undefined;
  }
}

const NEWLINE = Buffer.from('\n');
