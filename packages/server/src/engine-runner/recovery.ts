// Start-up: rebuild the engine's state from the latest snapshot and the journal after it, checking every
// recorded state hash on the way. Any mismatch stops the start: serving from a state that differs from the
// journal would answer callers with balances nobody can reproduce.
import type { Queryable, Store } from '../store/index.ts';
import type { DurableLog } from './durable-log.ts';
import type { Projector } from './projector.ts';
import { RecoveryError } from './errors.ts';
import { appendBatch, forEachBatchAfter, latestSnapshot } from './journal.ts';
import type { CommittedEntry, EngineKit, RunnerEngine } from './types.ts';
import { stateHashOf } from './types.ts';

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
  /** Commands the store had lost and the durable log gave back (embedded store only; else 0). */
  fromDurableLog: number;
  durationMs: number;
}

/** Told what recovery restored and replayed, in order (the engine replica follows it: replica.ts). */
export interface RecoveryObserver {
  /** The snapshot text recovery started from, or null when it started from a new engine. */
  restored(body: string | null): void;
  /** Replayed envelopes in seq order, with their outcome codes. */
  replayed(texts: string[], codes: number[]): void;
}

export async function recoverEngine<C, E, G extends RunnerEngine<C, E>>(
  db: Queryable,
  kit: EngineKit<C, E, G>,
  observer?: RecoveryObserver,
): Promise<RecoveredEngine<G>> {
  const startedMs = performance.now();
  const snapshot = await latestSnapshot(db);
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
  const snapshotSeq = lastSeq;
  let replayedCommands = 0;
  let replayedBytes = 0;
  await forEachBatchAfter(db, lastSeq, (batch) => {
    const texts: string[] = [];
    const codes: number[] = [];
    for (let index = 0; index < batch.envelopes.length; index++) {
      const seq = batch.firstSeq + index;
      if (seq <= lastSeq) continue;
      if (seq !== lastSeq + 1) throw new RecoveryError(`the journal jumps from seq ${lastSeq} to ${seq}`);
      const text = batch.envelopes[index] as string;
      const envelope = kit.decodeEnvelope(text);
      replayedBytes += text.length + 1;
      if (envelope.seq !== seq)
        throw new RecoveryError(`journal line for seq ${seq} holds seq ${envelope.seq}`);
      const outcome = engine.apply(envelope);
      if (observer) {
        texts.push(text);
        codes.push(outcome.code);
      }
      lastSeq = seq;
      lastTimeMs = envelope.timeMs;
      replayedCommands++;
    }
    if (texts.length > 0) observer?.replayed(texts, codes);
    if (batch.stateHash !== null) {
      const hash = stateHashOf(kit, engine);
      if (hash !== batch.stateHash) {
        throw new RecoveryError(
          `replay reaches state hash ${hash} at seq ${batch.lastSeq}, not ${batch.stateHash}`,
        );
      }
      verifiedSeq = batch.lastSeq;
    }
  });
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
    durationMs: performance.now() - startedMs,
  };
}

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

/**
 * After an operating-system crash the embedded store may have lost the tail of its journal (it never
 * fsyncs); the durable log holds every acknowledged batch. Applies the log's batches after the store's end
 * to the recovered engine and writes them back to the store, journal rows and projections, one transaction
 * per batch, before anything is served. Updates `recovered` in place.
 */
export async function catchUpFromDurableLog<C, E, G extends RunnerEngine<C, E>>(
  store: Pick<Store, 'transaction'>,
  kit: EngineKit<C, E, G>,
  recovered: RecoveredEngine<G>,
  log: DurableLog,
  projectors: readonly Projector<C, E>[],
  observer?: RecoveryObserver,
): Promise<void> {
  if (log.lastSeq <= recovered.lastSeq) return;
  const batches = await log.batchesAfter(recovered.lastSeq);
  const first = batches[0];
  if (first === undefined || first.firstSeq > recovered.lastSeq + 1) {
    throw new RecoveryError(
      `the store's journal ends at seq ${recovered.lastSeq} and the durable log resumes only at seq ` +
        `${first?.firstSeq ?? log.lastSeq}: commands in between are lost`,
    );
  }
  const engine = recovered.engine;
  for (const batch of batches) {
    const entries: CommittedEntry<C, E>[] = [];
    const texts: string[] = [];
    for (let index = 0; index < batch.envelopes.length; index++) {
      const seq = batch.firstSeq + index;
      if (seq <= recovered.lastSeq) continue;
      const text = batch.envelopes[index] as string;
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
    await store.transaction(async (tx) => {
      await appendBatch(tx, { firstSeq, lastSeq: recovered.lastSeq, envelopes: texts, stateHash: null });
      for (const projector of projectors) await projector.project(entries, tx);
    });
  }
  engine.checkInvariants();
}
