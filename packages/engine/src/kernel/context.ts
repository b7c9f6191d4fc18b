import type { EngineEvent } from '../events.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { EngineOptions } from '../state.ts';
import type { Port } from './ports.ts';

/**
 * A price the price area (prices/) recorded for a market, handed to every area's `onPrice` hook: an index price
 * (`recordIndexPrice`, `sample` false, no mark) or one price sample (`recordPriceSamples`, `sample` true; a
 * stale sample repeats the last good index and mark, null before any).
 */
export type PriceUpdate = {
  readonly marketId: number;
  readonly timeMs: number;
  readonly sample: boolean;
  /** The sample's sequence number in its market's price chain (0 for an index price). */
  readonly seq: number;
  /** The sample's chain hash, 64 lowercase hex digits (null for an index price). */
  readonly hash: string | null;
  readonly stale: boolean;
  readonly indexTicks: number | null;
  readonly markTicks: number | null;
};

/**
 * What a command handler (and a hook) may use. One context lives as long as the engine; the kernel sets
 * `seq` and `timeMs` for each envelope. Handlers change money only through `ledger` (transfers and the hold
 * registry), report through `emit`, and answer through `reply`.
 */
export interface CommandContext {
  /** The envelope's sequence number. */
  readonly seq: number;
  /** The command time in force: never decreases. */
  readonly timeMs: number;
  readonly options: EngineOptions;
  /** Accounts, currencies, postings and the hold registry. */
  readonly ledger: Ledger;
  /** Appends an event to the envelope's outcome. */
  emit(event: EngineEvent): void;
  /** Sets the command's reply (kept for idempotent retries). */
  reply(value: unknown): void;
  /** What another area answers through a port this area declares (kernel/ports.ts). */
  port<Q>(target: Port<Q>): Q;
  /** Runs every area's `onPrice` hook for a price just recorded (called by the price area). */
  priceRecorded(price: PriceUpdate): void;
}
