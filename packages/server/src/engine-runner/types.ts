// The runner's view of the engine. The runner is written against this small surface so that its queue,
// journal and recovery can be tested with a tiny fake engine, and so that it never reaches into engine
// internals; production uses the real engine through `engineKit` (engine-kit.ts).

/** A stamped command as the journal stores it. */
export interface RunnerEnvelope<C = unknown> {
  seq: number;
  timeMs: number;
  idempotencyKey?: string;
  command: C;
}

/** What applying one envelope produced. `code` 0 is accepted; anything else is refused with no state change. */
export interface RunnerOutcome<E = unknown> {
  seq: number;
  code: number;
  events: E[];
  reply?: unknown;
  /** The engine recognised the idempotency key and answered with the first outcome instead of applying. */
  duplicate?: boolean;
}

export interface RunnerEngine<C = unknown, E = unknown> {
  apply(envelope: RunnerEnvelope<C>): RunnerOutcome<E>;
  /**
   * Applies an envelope to the same state as `apply` without building its events, and gives its result code:
   * used where nobody reads the events (recovery of commands already projected, the replica). Without it,
   * `apply(envelope).code` is used.
   */
  replay?(envelope: RunnerEnvelope<C>): number;
  readonly lastSeq: number;
  snapshot(): string;
  stateHash(): string;
  /** Throws when the engine's state breaks one of its invariants. */
  checkInvariants(): void;
}

/** How the runner makes engines and turns envelopes into journal text and back. */
export interface EngineKit<C = unknown, E = unknown, G extends RunnerEngine<C, E> = RunnerEngine<C, E>> {
  create(): G;
  restore(text: string): G;
  encodeEnvelope(envelope: RunnerEnvelope<C>): string;
  decodeEnvelope(text: string): RunnerEnvelope<C>;
  /**
   * decodeEnvelope for the line in `bytes` (UTF-8) from `start` to `end`, without its newline, when the kit
   * can read it from the bytes directly (a restart's replay of the durable log); else the line is decoded
   * to text first.
   */
  decodeEnvelopeBytes?(bytes: Uint8Array, start: number, end: number): RunnerEnvelope<C>;
  /**
   * The state hash of an engine whose snapshot text this is, when it can be computed from the text (faster
   * than `stateHash()` when the runner holds the text anyway, or hashes natively).
   */
  hashSnapshot?(text: string): string;
}

/** The engine's state hash, through the kit's hash of the snapshot text when it has one. */
/** The result code of an envelope replayed where its events are not needed (RunnerEngine.replay). */
export function replayCode<C, E>(engine: RunnerEngine<C, E>, envelope: RunnerEnvelope<C>): number {
  return engine.replay ? engine.replay(envelope) : engine.apply(envelope).code;
}

export function stateHashOf<C, E, G extends RunnerEngine<C, E>>(kit: EngineKit<C, E, G>, engine: G): string {
  return kit.hashSnapshot ? kit.hashSnapshot(engine.snapshot()) : engine.stateHash();
}

/** The subset of a pino / Fastify logger the runner writes to. */
export interface RunnerLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/** One command of a committed batch, in seq order. */
export interface CommittedEntry<C = unknown, E = unknown> {
  envelope: RunnerEnvelope<C>;
  outcome: RunnerOutcome<E>;
}

/** A batch the journal holds durably. Listeners receive batches in seq order, each exactly once. */
export interface CommittedBatch<C = unknown, E = unknown> {
  firstSeq: number;
  lastSeq: number;
  entries: readonly CommittedEntry<C, E>[];
}

export type RunnerState = 'serving' | 'closing' | 'closed' | 'failed';
