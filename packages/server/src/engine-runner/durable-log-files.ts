// The durable log's segment files as read and checked at start (see durable-log.ts for the format). Kept
// apart from the log itself, with nothing but Node's own modules and the runner's errors to load, so that the
// server's entry point can read the files while the embedded store opens on its thread (main.ts): on a
// restart after a crash the main thread otherwise waits idle for the store, then reads the files.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { RecoveryError } from './errors.ts';

export interface DurableBatch {
  firstSeq: number;
  lastSeq: number;
  /**
   * The record's payload: the encoded envelopes in seq order, UTF-8, one per line (durableBatchEnvelopes).
   * Kept as bytes until the batch is visited: a restart reading a million commands back made all their
   * strings at once, and the collector marked them again and again while they waited to be replayed.
   */
  payload: Buffer;
}

/** A segment file as the opening scan read it. */
export interface SegmentFile {
  firstSeq: number;
  path: string;
  /** Its bytes, while the segments read so far hold at most DURABLE_LOG_KEPT_OPEN_MAX_BYTES. */
  bytes: Buffer | undefined;
  scan: SegmentScan;
}

/**
 * The most bytes of segments the log keeps from its opening scan for the restart's first batchesAfter (which
 * reads the log back whole up to recovery's cap, DURABLE_LOG_READ_MAX_BYTES, the same figure). A larger log
 * (snapshots turned off for a long time) is scanned a segment at a time and read again when asked.
 */
export const DURABLE_LOG_KEPT_OPEN_MAX_BYTES = 256 * 1024 * 1024;

/** The log's folder as read at start: its segments in seq order, each with its bytes and scan. */
export interface DurableLogFiles {
  folder: string;
  segments: SegmentFile[];
}

/** The folder of the embedded store's durable log, inside its data folder. */
export const DURABLE_LOG_FOLDER = 'durable-journal';

export function durableLogFolder(dataDir: string): string {
  return join(dataDir, DURABLE_LOG_FOLDER);
}

const SEGMENT = /^(\d{20})\.log$/;
const HEADER = /^B (\d+) (\d+) (\d+) ([0-9a-f]{8})$/;

/**
 * Reads and checks every segment of the log in `folder` (none when the folder does not exist yet); changes
 * nothing. A torn last write shows as a scan whose good bytes end before the file does; opening the log cuts
 * it off. Only valid while the caller holds the data folder's lock, so that nobody appends in between.
 */
export async function readDurableLogFiles(folder: string): Promise<DurableLogFiles> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { folder, segments: [] };
    throw error;
  }
  const found = names
    .map((name) => SEGMENT.exec(name))
    .filter((match) => match !== null)
    .map((match) => ({ firstSeq: Number(match[1]), path: join(folder, match[0]) }))
    .sort((a, b) => a.firstSeq - b.firstSeq);
  const segments: SegmentFile[] = [];
  let heldBytes = 0;
  for (const [index, segment] of found.entries()) {
    const bytes = await readFile(segment.path);
    const scan = scanSegment(bytes, segment.path, index === found.length - 1);
    heldBytes += scan.goodBytes;
    const keep = heldBytes <= DURABLE_LOG_KEPT_OPEN_MAX_BYTES;
    if (!keep) for (const held of segments) held.bytes = undefined;
    segments.push({ ...segment, bytes: keep ? bytes : undefined, scan });
  }
  return { folder, segments };
}

/**
 * Files read ahead of the store's opening, handed over once: whoever takes them holds the only reference,
 * so that the bytes are collected once the log is read (see FileDurableLog's opening scan).
 */
export class DurableLogReadAhead {
  readonly folder: string;
  #files: Promise<DurableLogFiles> | undefined;

  constructor(folder: string) {
    this.folder = folder;
    this.#files = readDurableLogFiles(folder);
    // A failure is the open's to report, when it takes the files; until then it is not unhandled.
    this.#files.catch(() => {});
  }

  /** The files read for `folder`, once; undefined after the first call or for another folder. */
  take(folder: string): Promise<DurableLogFiles> | undefined {
    const files = this.#files;
    this.#files = undefined;
    return folder === this.folder ? files : undefined;
  }
}

export function crcHex(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}

export interface SegmentScan {
  batches: DurableBatch[];
  lastSeq: number;
  goodBytes: number;
  totalBytes: number;
}

/**
 * Reads a segment's records (`bytes`, read from `path`); a damaged tail is tolerated only in the newest
 * segment. With `keepAfterSeq`, the batches after that seq are decoded and returned; the records up to it are
 * passed over by their headers without their checksums, which the scan at open (openDurableLog) checked: a
 * restart's catch-up wants only the batches past the store's end, at the end of a log that may hold a million
 * commands. `checked`: the bytes are the opening scan's, every checksum already checked.
 */
export function scanSegment(
  bytes: Buffer,
  path: string,
  newest: boolean,
  keepAfterSeq?: number,
  checked = false,
): SegmentScan {
  const batches: DurableBatch[] = [];
  let offset = 0;
  let lastSeq = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    const header = end < 0 ? null : HEADER.exec(bytes.toString('latin1', offset, end));
    const length = header ? Number(header[3]) : 0;
    const payloadEnd = end + 1 + length;
    const complete = header !== null && payloadEnd < bytes.length && bytes[payloadEnd] === 0x0a;
    const payload = complete ? bytes.subarray(end + 1, payloadEnd) : undefined;
    const verify =
      !checked && (keepAfterSeq === undefined || header === null || Number(header[2]) > keepAfterSeq);
    if (header === null || payload === undefined || (verify && crcHex(payload) !== header[4])) {
      if (!newest) throw new RecoveryError(`durable log segment ${path} is damaged at byte ${offset}`);
      // Any complete record after the damage would mean the damage is not a torn last write.
      break;
    }
    const firstSeq = Number(header[1]);
    const batchLast = Number(header[2]);
    if (lastSeq !== 0 && firstSeq !== lastSeq + 1) {
      throw new RecoveryError(`durable log segment ${path} jumps from seq ${lastSeq} to ${firstSeq}`);
    }
    if (keepAfterSeq !== undefined && batchLast > keepAfterSeq) {
      batches.push({ firstSeq, lastSeq: batchLast, payload });
    }
    lastSeq = batchLast;
    offset = payloadEnd + 1;
  }
  return { batches, lastSeq, goodBytes: offset, totalBytes: bytes.length };
}
