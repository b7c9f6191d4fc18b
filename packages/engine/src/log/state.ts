// The log area's state: the tree as its compact range (the roots of its perfect subtrees, largest first),
// the last checkpoint, the price samples of the command being applied, and the liabilities capture waiting
// to be published.
import type { LiabilitiesIdentity } from './events.ts';
import type { BatchSample } from './entries.ts';

export type LogCheckpoint = { readonly size: number; readonly root: string; readonly timeMs: number };

/** What a capture recorded, kept until its sum tree is published (the users' rows are only in its event). */
export type PendingCapture = {
  readonly snapshotId: string;
  readonly seq: number;
  readonly timeMs: number;
  /** Users with a non-zero amount: the sum tree's leaf count. */
  readonly leaves: number;
  readonly columns: readonly string[];
  readonly totals: readonly bigint[];
  readonly identity: readonly LiabilitiesIdentity[];
};

export class LogState {
  started = false;
  origin = '';
  intervalMs = 0;
  size = 0;
  range: Uint8Array[] = [];
  checkpoint: LogCheckpoint | null = null;
  pending: PendingCapture | null = null;
  /** The samples the command being applied has recorded so far; empty between commands. */
  batch: BatchSample[] = [];
  /** Each market's "BASE/QUOTE" symbol once looked up (codes never change). Derived, not state. */
  readonly symbols = new Map<number, string>();
}
