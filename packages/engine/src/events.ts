import type { LedgerEvent } from './ledger/events.ts';
import type { SpotEvent } from './spot/events.ts';
import type { MarketDataEvent } from './market/events.ts';
import type { MicroEvent } from './micro/events.ts';

export type * from './ledger/events.ts';
export type * from './spot/events.ts';
export type * from './market/events.ts';
export type * from './micro/events.ts';

/** Every event the engine emits, discriminated on `type`. */
export type EngineEvent = LedgerEvent | SpotEvent | MarketDataEvent | MicroEvent;
export type EngineEventType = EngineEvent['type'];

/**
 * The result of one envelope. `code` is a ResultCode; a non-zero code comes with no events and no state
 * change. A repeated idempotency key returns the first outcome's code and reply with `duplicate: true`,
 * `originalSeq` set, and no events.
 */
export type Outcome = {
  seq: number;
  code: number;
  events: EngineEvent[];
  reply?: unknown;
  duplicate?: boolean;
  originalSeq?: number;
};
