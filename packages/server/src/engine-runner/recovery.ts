// Start-up: rebuild the engine's state from the latest snapshot and the journal after it, checking every
// recorded state hash on the way. Any mismatch stops the start: serving from a state that differs from the
// journal would answer callers with balances nobody can reproduce.
import type { Queryable, Store } from '../store/index.ts';
import type { DurableBatch, DurableLog } from './durable-log.ts';
import { DURABLE_LOG_KEPT_OPEN_MAX_BYTES, durableBatchEnvelopes } from './durable-log.ts';
import type { Projector } from './projector.ts';
import { RecoveryError } from './errors.ts';
import type { SnapshotReadOptions } from './journal.ts';
import type { JournalBatchRow } from './journal.ts';
import {
  appendBatches,
  forEachBatchAfter,
  genesisSnapshot,
  journalEnd,
  latestSnapshot,
  toSafeNumber,
} from './journal.ts';
import { readProjectedSeq, recordProjectedSeq } from './progress.ts';
import type { CommittedBatch, CommittedEntry, EngineKit, RunnerEngine, RunnerEnvelope } from './types.ts';
import { replayCode, stateHashOf } from './types.ts';

export interface RecoveredEngine<G> {
  engine: G;
  /** The last seq applied: the journal's end. */
  lastSeq: number;
  /** The time stamped on lastSeq (0 for an empty journal). */
  lastTimeMs: number;
  /** The seq of the snapshot recovery started from (0 when it started from an empty engine). */
  snapshotSeq: number;
  /** The last seq whose state hash was verified. */
  verifiedSeq: number;
  replayedCommands: number;
  /** Length of the replayed journal text: each encoded envelope and its newline. */
  replayedBytes: number;
  /**
   * Commands whose journal rows the store lacked and the durable log gave back (embedded store only; else 0):
   * rows the projector had not written yet when the process stopped, or that an operating-system crash took
   * from the store. The runner's projector writes their rows and projections once it serves.
   */
  fromDurableLog: number;
  /**
   * Commands of the store's journal that were read from the durable log's file instead of the store's rows
   * (the same batches, written to both; see journalBatchesAfter).
   */
  readFromDurableLog: number;
  /**
   * The durable log's batches past the store's journal end when recovery read the log's files (else
   * undefined): what catchUpFromDurableLog applies, handed over so that it does not read the files again. It
   * clears this once it has.
   */
  durableTail?: DurableBatch[] | undefined;
  /** The seq the projections were written up to when recovery began (projection progress row). */
  projectedSeqAtStart: number;
  /** Journaled commands whose projections recovery wrote (those after projectedSeqAtStart). */
  reprojectedCommands: number;
  durationMs: number;
  /** Where the recovery's time went, in milliseconds of this thread (see RecoveryPhases). */
  phases: RecoveryPhases;
}

/**
 * The parts of a recovery, in milliseconds: restoring the snapshot (and checking its hash), waiting for
 * journal rows, decoding envelopes, applying them to the engine, checking recorded state hashes, handing
 * them to the observer (the replica), writing the projections the projector had not reached, and taking
 * back what the store lost from the durable log.
 */
export interface RecoveryPhases {
  snapshotMs: number;
  readMs: number;
  decodeMs: number;
  applyMs: number;
  hashMs: number;
  observerMs: number;
  reprojectMs: number;
  durableLogMs: number;
}

/** Told what recovery restored and replayed, in order (the engine replica follows it: replica.ts). */
export interface RecoveryObserver {
  /** The snapshot text recovery started from, or null when it started from a new engine. */
  restored(body: string | null): void;
  /** Replayed envelopes in seq order, with their outcome codes. */
  replayed(texts: string[], codes: number[]): void;
  /**
   * The same, for envelopes replayed from the durable log's bytes: their journal lines in seq order, each
   * ended by a newline but maybe the last (UTF-8).
   */
  replayedLines(lines: Uint8Array, codes: number[]): void;
}

/**
 * A batch recovery replays: a journal row's envelopes, or the durable log's payload (the same lines, joined
 * by newlines, as bytes), which is decoded line by line without a string made of each.
 */
export type ReplayBatch = JournalBatchRow | DurablePayloadBatch;

export interface DurablePayloadBatch {
  firstSeq: number;
  lastSeq: number;
  payload: Buffer;
  stateHash: string | null;
}

/** A replayed batch's journal lines as texts, whichever way it was read. */
export function replayBatchTexts(batch: ReplayBatch): string[] {
  return 'payload' in batch ? durableBatchEnvelopes(batch) : batch.envelopes;
}

const NEWLINE = 0x0a;

/**
 * Calls `line(seq, start, end)` for each line of a durable batch's payload, in order, and checks that it
 * holds one line per seq.
 */
export function forEachPayloadLine(
  batch: DurablePayloadBatch,
  line: (seq: number, start: number, end: number) => void,
): void {
  const payload = batch.payload;
  let start = 0;
  let seq = batch.firstSeq;
  // As many lines as seqs, counted as durableBatchEnvelopes counts them (split at every newline): the last
  // seq's line is the last line.
  let lastLine = false;
  while (seq <= batch.lastSeq) {
    const newline = payload.indexOf(NEWLINE, start);
    line(seq, start, newline < 0 ? payload.length : newline);
    seq++;
    if (newline < 0) {
      lastLine = true;
      break;
    }
    start = newline + 1;
  }
  if (!lastLine || seq !== batch.lastSeq + 1) {
    throw new RecoveryError(`durable log batch ${batch.firstSeq} does not hold one line per seq`);
  }
}

/**
 * Projections a recovery writes for the journaled commands the projector had not reached: in transactions of
 * `chunkCommands` commands each (default 10,000), each recording its progress.
 */
export interface Reprojection<C, E> {
  store: Pick<Store, 'transaction'>;
  projectors: readonly Projector<C, E>[];
  chunkCommands?: number;
}

/**
 * Restores the latest snapshot and replays the journal after it. With `reprojection`, the projections of
 * every command after the recorded projected seq are written on the way (the projector stage writes behind
 * the journal, so a crash may leave them behind it). A snapshot is only ever written once the projector has
 * reached its seq; should the latest one still be ahead of the projected seq, recovery starts from the
 * genesis snapshot instead, since the commands before a snapshot cannot be re-projected from it.
 */
export async function recoverEngine<C, E, G extends RunnerEngine<C, E>>(
  db: Queryable,
  kit: EngineKit<C, E, G>,
  observer?: RecoveryObserver,
  reprojection?: Reprojection<C, E>,
  snapshots: SnapshotReadOptions = {},
  durableLog?: Pick<DurableLog, 'lastSeq' | 'batchesAfter' | 'heldBytes'>,
): Promise<RecoveredEngine<G>> {
  const startedMs = performance.now();
  const phases: RecoveryPhases = {
    snapshotMs: 0,
    readMs: 0,
    decodeMs: 0,
    applyMs: 0,
    hashMs: 0,
    observerMs: 0,
    reprojectMs: 0,
    durableLogMs: 0,
  };
  const projectedSeqAtStart = reprojection ? await readProjectedSeq(db) : Number.MAX_SAFE_INTEGER;
  // A snapshot whose file is missing or damaged is passed over: the one before it and a longer replay.
  let snapshot = await latestSnapshot(db, snapshots);
  if (snapshot && snapshot.seq > projectedSeqAtStart) snapshot = await genesisSnapshot(db);
  let engine: G;
  let lastSeq = 0;
  let lastTimeMs = 0;
  let verifiedSeq = 0;
  if (snapshot) {
    engine = restoreSnapshot(kit, snapshot.body, snapshot.seq);
    const hash = stateHashOf(kit, engine);
    if (hash !== snapshot.stateHash) {
      throw new RecoveryError(
        `snapshot ${snapshot.seq} restores to state hash ${hash}, not ${snapshot.stateHash}`,
      );
    }
    lastSeq = snapshot.seq;
    lastTimeMs = snapshot.timeMs;
    verifiedSeq = snapshot.seq;
  } else {
    // A new journal: the empty engine is recorded as the genesis snapshot below, so that any later replay
    // from the start uses the options it was created with, whatever the configuration says by then.
    engine = kit.create();
  }
  observer?.restored(snapshot ? snapshot.body : null);
  phases.snapshotMs = performance.now() - startedMs;
  const snapshotSeq = lastSeq;
  let replayedCommands = 0;
  let replayedBytes = 0;
  let reprojectedCommands = 0;
  let unprojected: CommittedEntry<C, E>[] = [];
  const chunkCommands = reprojection?.chunkCommands ?? 10_000;
  const reproject = async (): Promise<void> => {
    if (!reprojection || unprojected.length === 0) return;
    const entries = unprojected;
    unprojected = [];
    const upTo = (entries[entries.length - 1] as CommittedEntry<C, E>).envelope.seq;
    const reprojectStartedMs = performance.now();
    await reprojection.store.transaction(async (tx) => {
      for (const projector of reprojection.projectors) await projector.project(entries, tx);
      await recordProjectedSeq(tx, upTo);
    });
    phases.reprojectMs += performance.now() - reprojectStartedMs;
    reprojectedCommands += entries.length;
  };
  const reprojections = writeBehind();
  // Time between visits is time spent reading the journal (the rows of the next page).
  let visitedMs = performance.now();
  const fromLog = await journalBatchesAfter(db, lastSeq, durableLog, async (batch) => {
    let markMs = performance.now();
    phases.readMs += markMs - visitedMs;
    // Decoded first, then applied: each part timed once per batch.
    const texts: string[] = [];
    /** From the durable log: the payload from the first line replayed. */
    let lines: Uint8Array | undefined;
    const envelopes: RunnerEnvelope<C>[] = [];
    let expected = lastSeq + 1;
    const checked = (seq: number, envelope: RunnerEnvelope<C>): RunnerEnvelope<C> => {
      if (envelope.seq !== seq)
        throw new RecoveryError(`journal line for seq ${seq} holds seq ${envelope.seq}`);
      return envelope;
    };
    if ('payload' in batch) {
      const payload = batch.payload;
      let firstStart = -1;
      forEachPayloadLine(batch, (seq, start, end) => {
        if (seq < expected) return;
        if (seq !== expected) throw new RecoveryError(`the journal jumps from seq ${expected - 1} to ${seq}`);
        envelopes.push(checked(seq, decodeLine(kit, payload, start, end)));
        if (firstStart < 0) firstStart = start;
        // Bytes, where a text counts UTF-16 units: the same for the compact lines and nearly all JSON.
        replayedBytes += end - start + 1;
        expected++;
      });
      if (firstStart >= 0) lines = payload.subarray(firstStart);
    } else {
      for (let index = 0; index < batch.envelopes.length; index++) {
        const seq = batch.firstSeq + index;
        if (seq < expected) continue;
        if (seq !== expected) throw new RecoveryError(`the journal jumps from seq ${expected - 1} to ${seq}`);
        const text = batch.envelopes[index] as string;
        envelopes.push(checked(seq, kit.decodeEnvelope(text)));
        texts.push(text);
        replayedBytes += text.length + 1;
        expected++;
      }
    }
    let nowMs = performance.now();
    phases.decodeMs += nowMs - markMs;
    const codes: number[] = [];
    for (const envelope of envelopes) {
      // Only commands the projector had not reached need their events (for their projections): the others
      // are replayed without building any.
      if (reprojection && envelope.seq > projectedSeqAtStart) {
        const outcome = engine.apply(envelope);
        unprojected.push({ envelope, outcome });
        codes.push(outcome.code);
      } else codes.push(replayCode(engine, envelope));
      lastSeq = envelope.seq;
      lastTimeMs = envelope.timeMs;
      replayedCommands++;
    }
    markMs = performance.now();
    phases.applyMs += markMs - nowMs;
    if (texts.length > 0) observer?.replayed(texts, codes);
    if (lines !== undefined) observer?.replayedLines(lines, codes);
    nowMs = performance.now();
    phases.observerMs += nowMs - markMs;
    if (batch.stateHash !== null) {
      const hashStartedMs = performance.now();
      const hash = stateHashOf(kit, engine);
      phases.hashMs += performance.now() - hashStartedMs;
      if (hash !== batch.stateHash) {
        throw new RecoveryError(
          `replay reaches state hash ${hash} at seq ${batch.lastSeq}, not ${batch.stateHash}`,
        );
      }
      verifiedSeq = batch.lastSeq;
    }
    if (unprojected.length >= chunkCommands) await reprojections.next(reproject);
    visitedMs = performance.now();
  });
  await reprojections.next(reproject);
  await reprojections.drained();
  if (reprojection && projectedSeqAtStart > lastSeq) {
    throw new RecoveryError(
      `projections are recorded up to seq ${projectedSeqAtStart}, past the journal's end ${lastSeq}`,
    );
  }
  if (snapshot && lastSeq < snapshot.seq) {
    throw new RecoveryError(`snapshot ${snapshot.seq} is ahead of the journal, which ends at ${lastSeq}`);
  }
  engine.checkInvariants();
  return {
    engine,
    lastSeq,
    lastTimeMs,
    snapshotSeq,
    verifiedSeq,
    replayedCommands,
    replayedBytes,
    fromDurableLog: 0,
    readFromDurableLog: fromLog.commands,
    durableTail: fromLog.pastStoreEnd,
    projectedSeqAtStart: Math.min(projectedSeqAtStart, lastSeq),
    reprojectedCommands,
    durationMs: performance.now() - startedMs,
    phases,
  };
}

/**
 * The largest durable log recovery reads back whole instead of the store's rows (about 1,700,000 commands of
 * the usual size; with the default size rule a log holds about one snapshot interval, 50,000).
 */
export const DURABLE_LOG_READ_MAX_BYTES = DURABLE_LOG_KEPT_OPEN_MAX_BYTES;

/** What journalBatchesAfter read from the durable log. */
export interface DurableLogRead {
  /** Commands visited from the log's files rather than the store's rows. */
  commands: number;
  /** The log's batches past the store's journal end, when the files were read (else undefined). */
  pastStoreEnd: DurableBatch[] | undefined;
}

/**
 * Visits the journal's batches after `afterSeq` up to the store's journal end, like forEachBatchAfter, but
 * reads them from the durable log's files where the log holds them: each committed batch is written to both,
 * the same text, and reading a file is many times faster than reading the rows back through the embedded
 * store (a quarter of a long replay's time). The state hashes recorded in the store's rows are attached to
 * the log's batches, so every one is still verified; when one does not fall on a batch of the log, or the
 * log does not reach back to `afterSeq + 1` or has a gap, the store's rows are read as before. Batches the log
 * holds past the store's end are not visited: they are returned for catchUpFromDurableLog. The log is read
 * whole, so a log larger than `maxBytes` (DURABLE_LOG_READ_MAX_BYTES) is not read: the rows are, a page at a
 * time, in bounded memory.
 */
export async function journalBatchesAfter(
  db: Queryable,
  afterSeq: number,
  log: Pick<DurableLog, 'lastSeq' | 'batchesAfter' | 'heldBytes'> | undefined,
  visit: (batch: ReplayBatch) => Promise<void>,
  maxBytes = DURABLE_LOG_READ_MAX_BYTES,
): Promise<DurableLogRead> {
  if (log === undefined || log.lastSeq <= afterSeq || log.heldBytes > maxBytes) {
    await forEachBatchAfter(db, afterSeq, visit);
    return { commands: 0, pastStoreEnd: undefined };
  }
  const storeEnd = await journalEnd(db);
  const held = await log.batchesAfter(afterSeq);
  const batches = held.filter((batch) => batch.lastSeq <= storeEnd);
  const pastStoreEnd = held.filter((batch) => batch.lastSeq > storeEnd);
  const first = batches[0];
  let usable = first !== undefined && first.firstSeq <= afterSeq + 1;
  for (let index = 1; usable && index < batches.length; index++) {
    usable = (batches[index] as DurableBatch).firstSeq === (batches[index - 1] as DurableBatch).lastSeq + 1;
  }
  const logEnd = batches[batches.length - 1]?.lastSeq ?? afterSeq;
  const hashes = new Map<number, string>();
  if (usable) {
    const { rows } = await db.query<{ last_seq: bigint; state_hash: string }>(
      `select last_seq, state_hash from engine_journal
        where last_seq > $1 and last_seq <= $2 and state_hash is not null`,
      [afterSeq, logEnd],
    );
    const ends = new Set(batches.map((batch) => batch.lastSeq));
    for (const row of rows) {
      const seq = toSafeNumber(row.last_seq, 'last_seq');
      if (!ends.has(seq)) usable = false;
      hashes.set(seq, row.state_hash);
    }
  }
  if (!usable) {
    await forEachBatchAfter(db, afterSeq, visit);
    return { commands: 0, pastStoreEnd };
  }
  let commands = 0;
  for (const batch of batches) {
    const { firstSeq, lastSeq } = batch;
    await visit({ firstSeq, lastSeq, payload: batch.payload, stateHash: hashes.get(lastSeq) ?? null });
    commands += batch.lastSeq - Math.max(batch.firstSeq - 1, afterSeq);
  }
  if (logEnd < storeEnd) await forEachBatchAfter(db, logEnd, visit);
  return { commands, pastStoreEnd };
}

/**
 * Writes done in order, one at a time, without the caller waiting for each: `next` starts a write once the
 * one before it has finished and returns as soon as it has started, so that recovery decodes and applies the
 * next chunk while the store writes this one (on the embedded store's own thread, or PostgreSQL's process).
 * A failed write is thrown by the next call or by `drained`.
 */
function writeBehind(): { next(write: () => Promise<void>): Promise<void>; drained(): Promise<void> } {
  let last: Promise<void> = Promise.resolve();
  return {
    async next(write) {
      await last;
      last = write();
      // Seen by the next call or drained(); until then not an unhandled rejection.
      last.catch(() => {});
    },
    drained: () => last,
  };
}

/** The envelope of the journal line from `start` to `end` of `bytes`: from the bytes where the kit can. */
function decodeLine<C>(
  kit: EngineKit<C, unknown, RunnerEngine<C, unknown>>,
  bytes: Uint8Array,
  start: number,
  end: number,
): RunnerEnvelope<C> {
  return kit.decodeEnvelopeBytes
    ? kit.decodeEnvelopeBytes(bytes, start, end)
    : kit.decodeEnvelope(utf8.decode(bytes.subarray(start, end)));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function restoreSnapshot<C, E, G extends RunnerEngine<C, E>>(
  kit: EngineKit<C, E, G>,
  body: string,
  seq: number,
): G {
  let engine: G;
  try {
    engine = kit.restore(body);
  } catch (error) {
    throw new RecoveryError(`snapshot ${seq} does not restore: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (engine.lastSeq !== seq) {
    throw new RecoveryError(`snapshot ${seq} restores an engine at seq ${engine.lastSeq}`);
  }
  return engine;
}

/** A batch the durable log gave back past the store's journal end, applied: its entries and its journal row. */
export interface RecoveredTailBatch<C, E> {
  batch: CommittedBatch<C, E>;
  journalRow: JournalBatchRow;
}

/**
 * The embedded store's journal rows end before the durable log's when the process stopped while the
 * projector was behind (it writes them with the projections), or when an operating-system crash took the
 * tail of its files (it never fsyncs); the durable log holds every acknowledged batch. Applies the log's
 * batches after the recovered seq to the recovered engine, with their events, and returns them with their
 * journal rows, which the store does not hold yet: the runner's projector writes them behind serving
 * (startRunner), or catchUpFromDurableLog before it. Reads the batches from the log's files unless recovery
 * handed them over (`recovered.durableTail`). Updates `recovered` in place.
 */
export async function applyDurableTail<C, E, G extends RunnerEngine<C, E>>(
  kit: EngineKit<C, E, G>,
  recovered: RecoveredEngine<G>,
  log: Pick<DurableLog, 'lastSeq' | 'batchesAfter'>,
  observer?: RecoveryObserver,
): Promise<RecoveredTailBatch<C, E>[]> {
  const handedOver = recovered.durableTail;
  recovered.durableTail = undefined;
  if (log.lastSeq <= recovered.lastSeq) return [];
  const startedMs = performance.now();
  const batches = handedOver ?? (await log.batchesAfter(recovered.lastSeq));
  const first = batches[0];
  if (first === undefined || first.firstSeq > recovered.lastSeq + 1) {
    throw new RecoveryError(
      `the store's journal ends at seq ${recovered.lastSeq} and the durable log resumes only at seq ` +
        `${first?.firstSeq ?? log.lastSeq}: commands in between are lost`,
    );
  }
  const engine = recovered.engine;
  const tail: RecoveredTailBatch<C, E>[] = [];
  for (const batch of batches) {
    const entries: CommittedEntry<C, E>[] = [];
    const texts: string[] = [];
    const envelopes = durableBatchEnvelopes(batch);
    for (let index = 0; index < envelopes.length; index++) {
      const seq = batch.firstSeq + index;
      if (seq <= recovered.lastSeq) continue;
      const text = envelopes[index] as string;
      const envelope = kit.decodeEnvelope(text);
      if (envelope.seq !== seq)
        throw new RecoveryError(`durable log line for seq ${seq} holds seq ${envelope.seq}`);
      entries.push({ envelope, outcome: engine.apply(envelope) });
      texts.push(text);
      recovered.lastSeq = seq;
      recovered.lastTimeMs = envelope.timeMs;
      recovered.replayedCommands++;
      recovered.replayedBytes += text.length + 1;
      recovered.fromDurableLog++;
    }
    if (entries.length === 0) continue;
    observer?.replayed(
      texts,
      entries.map((entry) => entry.outcome.code),
    );
    const firstSeq = (entries[0] as CommittedEntry<C, E>).envelope.seq;
    tail.push({
      batch: { firstSeq, lastSeq: recovered.lastSeq, entries },
      journalRow: { firstSeq, lastSeq: recovered.lastSeq, envelopes: texts, stateHash: null },
    });
  }
  engine.checkInvariants();
  recovered.phases.durableLogMs += performance.now() - startedMs;
  return tail;
}

/**
 * applyDurableTail, then the batches written back to the store (journal rows, projections and the projected
 * seq) in transactions of whole batches of about `chunkCommands` commands (default 10,000), so that the
 * store is level with the log when it resolves: for a runner without projectors, whose commits write the
 * journal rows themselves, and for tools.
 */
export async function catchUpFromDurableLog<C, E, G extends RunnerEngine<C, E>>(
  store: Pick<Store, 'transaction'>,
  kit: EngineKit<C, E, G>,
  recovered: RecoveredEngine<G>,
  log: Pick<DurableLog, 'lastSeq' | 'batchesAfter'>,
  projectors: readonly Projector<C, E>[],
  observer?: RecoveryObserver,
  chunkCommands = 10_000,
): Promise<void> {
  const tail = await applyDurableTail(kit, recovered, log, observer);
  const startedMs = performance.now();
  const writes = writeBehind();
  // Batches not yet written: their journal rows, and the entries their projections come from.
  let rows: JournalBatchRow[] = [];
  let pending: CommittedEntry<C, E>[] = [];
  const write = async (): Promise<void> => {
    if (rows.length === 0) return;
    const [written, entries] = [rows, pending];
    rows = [];
    pending = [];
    await store.transaction(async (tx) => {
      await appendBatches(tx, written);
      for (const projector of projectors) await projector.project(entries, tx);
      await recordProjectedSeq(tx, (written[written.length - 1] as JournalBatchRow).lastSeq);
    });
  };
  for (const { batch, journalRow } of tail) {
    rows.push(journalRow);
    for (const entry of batch.entries) pending.push(entry);
    if (pending.length >= chunkCommands) await writes.next(write);
  }
  await writes.next(write);
  await writes.drained();
  recovered.phases.durableLogMs += performance.now() - startedMs;
}
