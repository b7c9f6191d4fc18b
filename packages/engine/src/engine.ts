import { AREAS, PORTS } from './areas.ts';
import type { EngineQueries } from './areas.ts';
import type { Envelope } from './commands.ts';
import type { EngineEvent, Outcome } from './events.ts';
import { sha256HexOfText } from './hash/sha256.ts';
import { commandFingerprint, sameRequest, scopedIdempotencyKey } from './idempotency.ts';
import { invariant } from './invariant.ts';
import type { AnyArea, QueriesOf } from './kernel/area.ts';
import { Kernel } from './kernel/kernel.ts';
import type { PortBinding } from './kernel/ports.ts';
import { readSnapshot, writeSnapshot } from './kernel/snapshot.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.ts';
import { ResultCode } from './result-codes.ts';
import { defaultEngineOptions } from './state.ts';
import type { BookImplementation, EngineOptions } from './state.ts';
import { isCount, isNatural, isText } from './validate.ts';

export type EngineCreateOptions = Partial<EngineOptions> & {
  /** Which book implementation to run; 'reference' is the test oracle. Not part of the state. */
  book?: BookImplementation;
  /** The areas to install, in order (default: the product's list, AREAS in areas.ts). */
  areas?: readonly AnyArea[];
  /** The ports the areas read each other through (default: PORTS in areas.ts). */
  ports?: readonly PortBinding<never>[];
};

export type EngineRestoreOptions = {
  book?: BookImplementation;
  areas?: readonly AnyArea[];
  ports?: readonly PortBinding<never>[];
};

/**
 * The deterministic core: all money state (balances, books, pending withdrawals...) and one method, apply,
 * that changes it one envelope at a time. It reads no clock, no randomness and does no I/O, so the same
 * envelopes always give the same state and the same state hash. Bad input never throws: it returns a
 * non-zero result code and the command changes nothing (the envelope's sequence number and time are still
 * consumed, because the journal holds every envelope and a replay must meet the same refusal). Only a broken
 * invariant throws.
 *
 * The engine keeps sequence, time and idempotency and dispatches every command to the area that owns its
 * type (areas.ts). Reads go through each area's queries: `engine.ledger.balance(...)`,
 * `engine.spot.depth(...)`, `engine.funding.pendingWithdrawals(...)`, `engine.market.markPrice(...)`.
 */
class EngineCore {
  private readonly kernel: Kernel;

  private constructor(kernel: Kernel) {
    this.kernel = kernel;
    for (const { area, queries } of kernel.areas) {
      invariant(!(area.name in this), `area name ${area.name} is taken by the engine`);
      Object.defineProperty(this, area.name, { value: queries, enumerable: true });
    }
  }

  static create(options: EngineCreateOptions = {}): Engine {
    const engineOptions: EngineOptions = {
      idempotencyWindowMs: options.idempotencyWindowMs ?? defaultEngineOptions.idempotencyWindowMs,
      idempotencyMaxKeys: options.idempotencyMaxKeys ?? defaultEngineOptions.idempotencyMaxKeys,
      maxOpenOrdersPerOwner: options.maxOpenOrdersPerOwner ?? defaultEngineOptions.maxOpenOrdersPerOwner,
    };
    invariant(isCount(engineOptions.idempotencyWindowMs, Number.MAX_SAFE_INTEGER), 'idempotencyWindowMs');
    invariant(isCount(engineOptions.idempotencyMaxKeys, 100_000_000), 'idempotencyMaxKeys');
    invariant(isCount(engineOptions.maxOpenOrdersPerOwner, 10_000_000), 'maxOpenOrdersPerOwner');
    const kernel = new Kernel(
      options.areas ?? AREAS,
      engineOptions,
      options.book ?? 'fast',
      options.ports ?? PORTS,
    );
    return new EngineCore(kernel) as Engine;
  }

  /** Rebuilds an engine from snapshot text and checks every invariant before handing it out. */
  static restore(text: string, options: EngineRestoreOptions = {}): Engine {
    const engine = new EngineCore(
      readSnapshot(text, options.areas ?? AREAS, options.book ?? 'fast', options.ports ?? PORTS),
    ) as Engine;
    engine.checkInvariants();
    return engine;
  }

  get lastSeq(): number {
    return this.kernel.lastSeq;
  }

  /** The command time in force (the latest envelope time seen). */
  get timeMs(): number {
    return this.kernel.timeMs;
  }

  get bookImplementation(): BookImplementation {
    return this.kernel.bookImplementation;
  }

  /** The queries of an installed area, typed by its definition (for areas outside the product's list). */
  queries<A extends AnyArea>(area: A): QueriesOf<A> {
    return this.kernel.read(area);
  }

  apply(envelope: Envelope): Outcome {
    const kernel = this.kernel;
    if (typeof envelope !== 'object' || envelope === null) return refused(-1, ResultCode.invalidEnvelope);
    const { seq, timeMs, command, idempotencyKey } = envelope;
    if (!isCount(seq, Number.MAX_SAFE_INTEGER)) return refused(-1, ResultCode.invalidEnvelope);
    if (seq <= kernel.lastSeq) return refused(seq, ResultCode.sequenceNotIncreasing);
    if (!isNatural(timeMs, Number.MAX_SAFE_INTEGER)) return refused(seq, ResultCode.invalidEnvelope);
    // The envelope is accepted from here on: its sequence number and time are consumed even if the command
    // is refused. Time never runs backwards inside the engine, whatever the envelope says.
    kernel.lastSeq = seq;
    kernel.seq = seq;
    const events: EngineEvent[] = [];
    kernel.events = events;
    kernel.replyValue = undefined;
    if (timeMs > kernel.timeMs) {
      kernel.timeMs = timeMs;
      kernel.commandTimeAdvanced();
    }
    kernel.idempotency.evictExpired(kernel.timeMs);
    // Events of the time hooks stand whatever becomes of the command.
    const timeEvents = events.length;
    if (typeof command !== 'object' || command === null)
      return refused(seq, ResultCode.unknownCommand, events);

    const handler = kernel.handler(command.type);
    let scopedKey: string | undefined;
    let fingerprint: string | undefined;
    if (idempotencyKey !== undefined) {
      if (!isText(idempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH))
        return refused(seq, ResultCode.invalidIdempotencyKey, events);
      scopedKey = scopedIdempotencyKey(handler?.spec.owner, command, idempotencyKey);
      fingerprint = commandFingerprint(command);
      const stored = kernel.idempotency.get(scopedKey);
      if (stored !== undefined) {
        // A key names one request: the same key with any other parameter is not a retry.
        if (!sameRequest(stored, command, fingerprint))
          return refused(seq, ResultCode.idempotencyKeyReused, events);
        const duplicate: Outcome = {
          seq,
          code: ResultCode.ok,
          events,
          reply: stored.reply,
          duplicate: true,
          originalSeq: stored.seq,
        };
        if (timeEvents > 0) duplicate.timeEvents = timeEvents;
        return duplicate;
      }
    }

    // A frozen user's command that a freeze kind stops is refused before its handler runs (kernel/freezes.ts).
    if (handler !== undefined && kernel.freezes.size !== 0) {
      const frozen = kernel.freezeRefusal(handler, command);
      if (frozen !== 0) return refused(seq, frozen, events);
    }
    const code =
      handler === undefined ? ResultCode.unknownCommand : handler.spec.apply(kernel, handler.state, command);
    if (code !== ResultCode.ok) {
      invariant(
        events.length === timeEvents,
        `command ${command.type} was refused with ${code} after changing state`,
      );
      kernel.replyValue = undefined;
      return refused(seq, code, events);
    }
    kernel.commandEnded();
    const reply = kernel.replyValue;
    kernel.replyValue = undefined;
    if (scopedKey !== undefined) {
      kernel.idempotency.remember(scopedKey, {
        timeMs: kernel.timeMs,
        seq,
        commandType: command.type,
        reply,
        ...(fingerprint === undefined ? {} : { fingerprint }),
      });
    }
    const outcome: Outcome = { seq, code, events, reply };
    if (timeEvents > 0) outcome.timeEvents = timeEvents;
    return outcome;
  }

  /**
   * Applies an envelope as `apply` does, to the same state, but builds none of its events, and returns only
   * its result code: for replaying a journal whose events were delivered when it was first applied (a
   * restart's recovery of commands already projected, the replica's copy). Skipping the events takes about a
   * fifth of the instructions of an order's placement and most of its garbage. The one check it loses is
   * `apply`'s proof that a refused command changed nothing, made by counting events: the envelope passed it
   * when it was first applied, and applying is deterministic.
   */
  replay(envelope: Envelope): number {
    const ledger = this.kernel.ledger;
    ledger.recordEvents = false;
    try {
      return this.apply(envelope).code;
    } finally {
      ledger.recordEvents = true;
    }
  }

  snapshot(): string {
    return writeSnapshot(this.kernel);
  }

  /** SHA-256 (hex) of the canonical snapshot text: equal states, equal hashes. */
  stateHash(): string {
    return sha256HexOfText(writeSnapshot(this.kernel));
  }

  /**
   * Checks every rule the engine promises (exchange-core's validateInternalState): the ledger's (sums,
   * holds) and every area's. It walks the whole state, so tests call it after every command and the runner
   * may call it after a restore or periodically. Throws an EngineInvariantError naming the first rule that
   * does not hold.
   */
  checkInvariants(): void {
    this.kernel.checkInvariants();
  }

  /** Counts for monitoring: each area's (openOrders, accounts, pendingWithdrawals...) and idempotencyKeys. */
  stats(): Readonly<Record<string, number>> {
    return this.kernel.stats();
  }
}

function refused(seq: number, code: number, events?: EngineEvent[]): Outcome {
  if (events === undefined || events.length === 0) return { seq, code, events: [] };
  return { seq, code, events, timeEvents: events.length };
}

/** The engine with the product's areas' queries as `engine.<area name>`. */
export type Engine = EngineCore & EngineQueries;
export const Engine = EngineCore;
