/**
 * Starts the transparency log (admin): from this command on, every `recordPriceSamples` command appends one
 * leaf, and a checkpoint is taken when an append's command time enters a later `checkpointIntervalMs`
 * bucket than the last checkpoint's. A repeat may change the interval, never the origin.
 */
export type StartLogCommand = { type: 'startLog'; origin: string; checkpointIntervalMs: number };

/**
 * Takes a liabilities snapshot at this command's sequence number (admin): every user's amounts per column,
 * emitted as `liabilitiesCaptured` and kept (without the users' rows) until published. A new capture
 * replaces one still waiting.
 */
export type CaptureLiabilitiesCommand = { type: 'captureLiabilities'; snapshotId: string };

/**
 * Publishes the waiting capture's sum tree (admin): refused unless the snapshot id is the waiting one and
 * the columns, per-column totals and leaf count equal what the capture recorded. Appends the liabilities
 * entry and takes a checkpoint.
 */
export type PublishLiabilitiesCommand = {
  type: 'publishLiabilities';
  snapshotId: string;
  /** The sum tree's root hash, 64 lowercase hex digits. */
  root: string;
  leafCount: number;
  columns: string[];
  totals: bigint[];
};

export type StartLogReply = { origin: string; size: number };
export type CaptureLiabilitiesReply = {
  snapshotId: string;
  seq: number;
  leaves: number;
  columns: string[];
  totals: bigint[];
};
export type PublishLiabilitiesReply = { snapshotId: string; index: number; size: number };

export type LogCommand = StartLogCommand | CaptureLiabilitiesCommand | PublishLiabilitiesCommand;
