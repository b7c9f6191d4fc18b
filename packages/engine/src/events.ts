import type { LedgerEvent } from './ledger/events.ts';
import type { FundingEvent } from './funding/events.ts';
import type { SpotEvent } from './spot/events.ts';
import type { MarketDataEvent } from './prices/events.ts';
import type { MicroEvent } from './micro/events.ts';
import type { LeverEvent } from './lever/events.ts';
import type { ProductsEvent } from './products/events.ts';
import type { P2pEvent } from './p2p/events.ts';
import type { FreezeEvent } from './freeze/events.ts';
import type { LogEvent } from './log/events.ts';

export type * from './ledger/events.ts';
export type * from './funding/events.ts';
export type * from './pairs/events.ts';
export type * from './spot/events.ts';
export type * from './prices/events.ts';
export type * from './micro/events.ts';
export type * from './lever/events.ts';

/** Every event the engine emits, discriminated on `type`. Each area adds its own union here. */
export type EngineEvent =
  | LedgerEvent
  | FundingEvent
  | SpotEvent
  | MarketDataEvent
  | MicroEvent
  | LeverEvent
  | ProductsEvent
  | P2pEvent
  | FreezeEvent
  | LogEvent;
export type * from './products/events.ts';
export type * from './freeze/events.ts';

export type * from './p2p/events.ts';
export type * from './log/events.ts';

export type EngineEventType = EngineEvent['type'];

/**
 * The result of one envelope. `code` is a ResultCode. A non-zero code means the command changed nothing.
 *
 * When the envelope's time advanced, time hooks ran first (expired holds voided, contracts settled...):
 * their events lead `events`, `timeEvents` says how many (present only when there are any), and they stand
 * whatever became of the command, so a refused outcome may still carry them. Without such events a refused
 * outcome has `events: []`.
 *
 * A repeated idempotency key returns the first outcome's code and reply with `duplicate: true`,
 * `originalSeq` set, and no events of its own.
 */
export type Outcome = {
  seq: number;
  code: number;
  events: EngineEvent[];
  reply?: unknown;
  duplicate?: boolean;
  originalSeq?: number;
  /** How many leading events came from the time hooks of this envelope; absent when none. */
  timeEvents?: number;
};
