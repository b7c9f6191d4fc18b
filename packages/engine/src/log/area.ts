// The transparency log area: an append-only RFC 9162 Merkle tree whose leaves are the price record's
// samples (one leaf per `recordPriceSamples` command) and the published liabilities snapshots. Checkpoints
// (size and root) are engine events, so a replay of the journal reproduces every leaf, node and checkpoint
// byte for byte; the server signs them. Nothing happens before `startLog`: no leaf, no snapshot section.
import { toHex } from '../hash/sha256.ts';
import { invariant } from '../invariant.ts';
import { command, defineArea } from '../kernel/area.ts';
import { NOT_FROZEN } from '../kernel/freezes.ts';
import { LogResultCode } from './codes.ts';
import type { CaptureLiabilitiesCommand, PublishLiabilitiesCommand, StartLogCommand } from './commands.ts';
import type { LiabilitiesIdentity } from './events.ts';
import { captureLiabilities, onCommandEnd, onPrice, publishLiabilities, startLog } from './handlers.ts';
import { HASH_BYTES, rangeRoot } from './merkle.ts';
import { LogState } from './state.ts';
import type { LogCheckpoint } from './state.ts';

export type LogStatus = {
  started: boolean;
  origin: string;
  size: number;
  /** The root of the whole tree now, hex (the empty tree's before any leaf). */
  root: string;
  checkpoint: LogCheckpoint | null;
  pendingLiabilities: { snapshotId: string; seq: number } | null;
};

export type LogQueries = {
  status(): LogStatus;
  /** The checkpoint interval in force (0 before the log starts). */
  checkpointIntervalMs(): number;
};

/** The `log` snapshot section (written once the log has started). */
type LogSection = {
  origin: string;
  intervalMs: number;
  size: number;
  /** The compact range, largest subtree first, hex. */
  range: string[];
  checkpoint: [size: number, root: string, timeMs: number] | null;
  pending: {
    snapshotId: string;
    seq: number;
    timeMs: number;
    leaves: number;
    columns: string[];
    totals: string[];
    identity: [currency: string, users: string, exchange: string, outside: string][];
  } | null;
};

function fromHex(hex: string): Uint8Array {
  invariant(/^[0-9a-f]{64}$/.test(hex), `log snapshot hash ${hex}`);
  const bytes = new Uint8Array(HASH_BYTES);
  for (let index = 0; index < HASH_BYTES; index += 1)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function popcount(n: number): number {
  let count = 0;
  for (let value = n; value > 0; value = Math.floor(value / 2)) count += value % 2;
  return count;
}

export const logArea = defineArea({
  name: 'log',
  commands: {
    startLog: command<LogState, StartLogCommand>(startLog),
    captureLiabilities: command<LogState, CaptureLiabilitiesCommand>(captureLiabilities),
    publishLiabilities: command<LogState, PublishLiabilitiesCommand>(publishLiabilities),
  },
  freezes: { startLog: NOT_FROZEN, captureLiabilities: NOT_FROZEN, publishLiabilities: NOT_FROZEN },
  createState: () => new LogState(),
  queries: (state): LogQueries => ({
    status: () => ({
      started: state.started,
      origin: state.origin,
      size: state.size,
      root: toHex(rangeRoot(state.range)),
      checkpoint: state.checkpoint === null ? null : { ...state.checkpoint },
      pendingLiabilities:
        state.pending === null ? null : { snapshotId: state.pending.snapshotId, seq: state.pending.seq },
    }),
    checkpointIntervalMs: () => state.intervalMs,
  }),
  writeSnapshot: (state) => {
    if (!state.started) return {};
    const { checkpoint, pending } = state;
    const section: LogSection = {
      origin: state.origin,
      intervalMs: state.intervalMs,
      size: state.size,
      range: state.range.map(toHex),
      checkpoint: checkpoint === null ? null : [checkpoint.size, checkpoint.root, checkpoint.timeMs],
      pending:
        pending === null
          ? null
          : {
              snapshotId: pending.snapshotId,
              seq: pending.seq,
              timeMs: pending.timeMs,
              leaves: pending.leaves,
              columns: [...pending.columns],
              totals: pending.totals.map(String),
              identity: pending.identity.map(({ currency, users, exchange, outside }) => [
                currency,
                users.toString(),
                exchange.toString(),
                outside.toString(),
              ]),
            },
    };
    return { log: section };
  },
  readSnapshot: (state, document) => {
    const section = document.log as LogSection | undefined;
    if (section === undefined) return;
    state.started = true;
    state.origin = section.origin;
    state.intervalMs = section.intervalMs;
    state.size = section.size;
    state.range = section.range.map(fromHex);
    state.checkpoint =
      section.checkpoint === null
        ? null
        : { size: section.checkpoint[0], root: section.checkpoint[1], timeMs: section.checkpoint[2] };
    const pending = section.pending;
    state.pending =
      pending === null
        ? null
        : {
            snapshotId: pending.snapshotId,
            seq: pending.seq,
            timeMs: pending.timeMs,
            leaves: pending.leaves,
            columns: pending.columns,
            totals: pending.totals.map((total) => BigInt(total)),
            identity: pending.identity.map(([currency, users, exchange, outside]): LiabilitiesIdentity => ({
              currency,
              users: BigInt(users),
              exchange: BigInt(exchange),
              outside: BigInt(outside),
            })),
          };
  },
  checkInvariants: (state) => {
    invariant(state.batch.length === 0, 'log: price samples left unappended after a command');
    if (!state.started) {
      invariant(
        state.size === 0 && state.range.length === 0 && state.checkpoint === null && state.pending === null,
        'log: a log that has not started holds something',
      );
      return;
    }
    invariant(state.intervalMs >= 1, 'log: checkpoint interval');
    invariant(
      Number.isSafeInteger(state.size) && state.size >= 0 && state.range.length === popcount(state.size),
      `log: a compact range of ${state.range.length} subtrees for ${state.size} leaves`,
    );
    for (const hash of state.range) invariant(hash.length === HASH_BYTES, 'log: a range hash of 32 bytes');
    const checkpoint = state.checkpoint;
    if (checkpoint === null) invariant(state.size === 0, 'log: leaves without a checkpoint');
    else {
      invariant(checkpoint.size >= 1 && checkpoint.size <= state.size, 'log: checkpoint size');
      if (checkpoint.size === state.size)
        invariant(checkpoint.root === toHex(rangeRoot(state.range)), 'log: checkpoint root is not the root');
    }
    const pending = state.pending;
    if (pending !== null) {
      invariant(pending.columns.length === pending.totals.length, 'log: one total per column');
      for (const total of pending.totals) invariant(total >= 0n, 'log: a negative liabilities total');
      for (const { users, exchange, outside } of pending.identity)
        invariant(users + exchange + outside === 0n, 'log: the ledger identity does not hold');
    }
  },
  bigintFields: ['totals', 'users', 'exchange', 'outside'],
  resultCodes: LogResultCode,
  onPrice,
  onCommandEnd,
  stats: (state) => ({ logSize: state.size }),
});
