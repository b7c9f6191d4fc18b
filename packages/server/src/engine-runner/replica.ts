// The engine replica: a second engine on a worker thread that replays every committed batch from its journal
// text, and takes the state hashes and snapshots off the event loop.
//
// A state hash and a snapshot are passes over the whole state (serialising every resting order): at 700,000
// resting orders a snapshot held the event loop for seconds, and every request in flight with it. The replica
// is fed each committed batch's encoded envelopes (the text the journal holds, so it replays exactly what a
// recovery would) with the live outcome codes, which it checks; asked for a hash or a snapshot at seq N, it
// answers from its own state at N while the live engine goes on serving. Given a snapshot folder (the
// embedded store), the replica's thread also writes the snapshot file and flushes it (snapshot-files.ts), and
// the main thread only records its name; without one (PostgreSQL) it receives the text and writes it to the
// database in parts through the asynchronous driver.
//
// The replica costs a second copy of the engine's memory and the second core's time to apply each command
// once more. If it fails (a divergence, an exception, the thread dying), the runner logs it and goes back to
// hashing and snapshotting on its own thread: slower, never wrong.
//
// Batches fed within a few milliseconds of each other travel in one message: each message wakes the thread,
// and at 64 connections a batch of about twenty commands commits every few milliseconds. A hash or a
// snapshot asked and a load send what waits first, so the thread still sees every batch in order
// before the question.
import { Worker } from 'node:worker_threads';
import type { EngineCreateOptions } from '@fairex/engine';

export type ReplicaRequest =
  | { type: 'load'; body: string | null }
  | { type: 'feed'; texts: string[]; codes: number[] }
  | { type: 'feedLines'; lines: Uint8Array; codes: number[] }
  | { type: 'hash'; id: number; seq: number }
  | { type: 'snapshot'; id: number; seq: number; folder?: string | undefined };

export type ReplicaReply =
  | { type: 'hash'; id: number; seq: number; hash: string }
  | { type: 'snapshot'; id: number; seq: number; hash: string; body: string }
  | { type: 'snapshot'; id: number; seq: number; hash: string; file: string; bytes: number }
  | { type: 'refused'; id: number; message: string }
  | { type: 'failed'; message: string };

export interface EngineReplica {
  /** The state recovery started from: a snapshot's text, or null for a new, empty engine. */
  load(body: string | null): void;
  /** Committed envelopes in seq order, with the outcome codes the live engine gave them. */
  feed(texts: string[], codes: number[]): void;
  /**
   * The same as journal lines in bytes (UTF-8), each ended by a newline but maybe the last: a restart's
   * replay of the durable log, which reads them so.
   */
  feedLines(lines: Uint8Array, codes: number[]): void;
  /** The state hash after `seq`, the last seq fed. */
  hash(seq: number): Promise<string>;
  /**
   * The snapshot after `seq`, the last seq fed, and its hash: its text, or with `folder` the name of the file
   * the replica wrote there (fdatasync'd) instead.
   */
  snapshot(seq: number, folder?: string): Promise<ReplicaSnapshot>;
  /** Set once the replica failed; it answers nothing more. */
  readonly failure: Error | undefined;
  /** Messages that carried fed batches to the thread (several batches each, fed close together). */
  readonly feedMessages: number;
  close(): Promise<void>;
}

export type ReplicaSnapshot = { hash: string; body: string } | { hash: string; file: string; bytes: number };

/** How long a fed batch may wait for later ones to share its message. */
export const REPLICA_FEED_COALESCE_MS = 5;
/** A message is sent at once when this many commands wait (recovery feeds its chunks whole). */
export const REPLICA_FEED_MESSAGE_COMMANDS = 4_000;

const NEWLINE = 0x0a;

interface Waiting {
  resolve(value: ReplicaReply): void;
  reject(error: Error): void;
}

export function startReplica(engineOptions: EngineCreateOptions = {}): EngineReplica {
  const worker = new Worker(new URL('./replica-worker.ts', import.meta.url), {
    workerData: { engineOptions },
  });
  // The replica must never keep the process alive on its own.
  worker.unref();
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const entry of waiting.values()) entry.reject(failure);
    waiting.clear();
  };
  worker.on('message', (message: ReplicaReply) => {
    if (message.type === 'failed') {
      fail(new Error(`the engine replica failed: ${message.message}`));
      void worker.terminate();
      return;
    }
    const entry = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.type === 'refused') entry?.reject(new Error(message.message));
    else entry?.resolve(message);
  });
  worker.on('error', (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
  worker.on('exit', (code) => fail(new Error(`the engine replica exited with code ${code}`)));
  let feedMessages = 0;
  // What waits to be sent: texts or lines, never both (feeding one kind sends the other's first).
  let waitingTexts: string[] = [];
  let waitingLines: Uint8Array[] = [];
  let waitingLineBytes = 0;
  let waitingCodes: number[] = [];
  let feedTimer: NodeJS.Timeout | undefined;
  const sendFed = () => {
    if (feedTimer !== undefined) clearTimeout(feedTimer);
    feedTimer = undefined;
    if (waitingCodes.length === 0) return;
    const [texts, parts, bytes, codes] = [waitingTexts, waitingLines, waitingLineBytes, waitingCodes];
    waitingTexts = [];
    waitingLines = [];
    waitingLineBytes = 0;
    waitingCodes = [];
    if (failure) return;
    feedMessages++;
    if (parts.length === 0) {
      worker.postMessage({ type: 'feed', texts, codes } satisfies ReplicaRequest);
      return;
    }
    // One buffer of the parts joined by newlines, handed over to the thread rather than copied.
    const lines = new Uint8Array(bytes + parts.length - 1);
    let at = 0;
    for (const part of parts) {
      if (at > 0) lines[at++] = NEWLINE;
      lines.set(part, at);
      at += part.length;
    }
    worker.postMessage({ type: 'feedLines', lines, codes } satisfies ReplicaRequest, [lines.buffer]);
  };
  /** Sends what waits once enough commands do, else within REPLICA_FEED_COALESCE_MS. */
  const fedMore = () => {
    if (waitingCodes.length >= REPLICA_FEED_MESSAGE_COMMANDS) sendFed();
    else if (feedTimer === undefined) {
      feedTimer = setTimeout(sendFed, REPLICA_FEED_COALESCE_MS);
      feedTimer.unref();
    }
  };
  const ask = (request: { type: 'hash' | 'snapshot'; seq: number; folder?: string | undefined }) =>
    new Promise<ReplicaReply>((resolve, reject) => {
      if (failure) return reject(failure);
      sendFed();
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } satisfies ReplicaRequest);
    });
  return {
    get failure() {
      return failure;
    },
    get feedMessages() {
      return feedMessages;
    },
    load(body) {
      sendFed();
      if (!failure) worker.postMessage({ type: 'load', body } satisfies ReplicaRequest);
    },
    feed(texts, codes) {
      if (failure) return;
      if (waitingLines.length > 0) sendFed();
      if (waitingTexts.length === 0 && texts.length >= REPLICA_FEED_MESSAGE_COMMANDS) {
        feedMessages++;
        worker.postMessage({ type: 'feed', texts, codes } satisfies ReplicaRequest);
        return;
      }
      for (let index = 0; index < texts.length; index++) {
        waitingTexts.push(texts[index] as string);
        waitingCodes.push(codes[index] as number);
      }
      fedMore();
    },
    feedLines(lines, codes) {
      if (failure || codes.length === 0) return;
      if (waitingTexts.length > 0) sendFed();
      waitingLines.push(lines);
      waitingLineBytes += lines.length;
      for (const code of codes) waitingCodes.push(code);
      fedMore();
    },
    hash: async (seq) => {
      const answer = await ask({ type: 'hash', seq });
      if (answer.type !== 'hash') throw new Error(`the engine replica answered a hash with ${answer.type}`);
      return answer.hash;
    },
    snapshot: async (seq, folder) => {
      const answer = await ask({ type: 'snapshot', seq, folder });
      if (answer.type !== 'snapshot')
        throw new Error(`the engine replica answered a snapshot with ${answer.type}`);
      return 'file' in answer
        ? { hash: answer.hash, file: answer.file, bytes: answer.bytes }
        : { hash: answer.hash, body: answer.body };
    },
    async close() {
      fail(new Error('the engine replica was closed'));
      await worker.terminate();
    },
  };
}
