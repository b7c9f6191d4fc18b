/** A perfect subtree an append completed: level 0 is the leaf; it covers leaves [index * 2^level, ...). */
export type LogNode = [level: number, index: number, hash: string];

/** One leaf appended: its entry text, the leaf hash and every perfect subtree the append completed. */
export type LogAppendedEvent = {
  type: 'logAppended';
  index: number;
  kind: 'prices' | 'liabilities';
  entry: string;
  leafHash: string;
  /** Lowest level first. */
  nodes: LogNode[];
};

/** The log's state at a tree size: what the server signs as a checkpoint note. */
export type LogCheckpointEvent = {
  type: 'logCheckpoint';
  origin: string;
  size: number;
  root: string;
  timeMs: number;
};

/** Per currency, the ledger's sums: users' accounts, the exchange's own accounts, the outside world. */
export type LiabilitiesIdentity = { currency: string; users: bigint; exchange: bigint; outside: bigint };

/**
 * A liabilities snapshot taken at `seq`: one row per user with a non-zero amount (user id ascending), one
 * amount per column, every amount non-negative; the per-column totals; the ledger identity per currency.
 */
export type LiabilitiesCapturedEvent = {
  type: 'liabilitiesCaptured';
  snapshotId: string;
  seq: number;
  timeMs: number;
  columns: string[];
  users: [userId: number, amounts: bigint[]][];
  totals: bigint[];
  identity: LiabilitiesIdentity[];
};

/** A capture's sum tree root was published as the log's entry `index`. */
export type LiabilitiesPublishedEvent = {
  type: 'liabilitiesPublished';
  snapshotId: string;
  index: number;
  root: string;
  leafCount: number;
};

export type LogEvent =
  LogAppendedEvent | LogCheckpointEvent | LiabilitiesCapturedEvent | LiabilitiesPublishedEvent;
