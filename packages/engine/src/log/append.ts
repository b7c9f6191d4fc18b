// Appending to the log and taking checkpoints.
import type { CommandContext } from '../kernel/context.ts';
import { toHex } from '../hash/sha256.ts';
import { appendLeaf, leafHash, rangeRoot } from './merkle.ts';
import type { LogState } from './state.ts';

const utf8 = new TextEncoder();

/** Appends one entry as the next leaf; emits `logAppended` with the subtrees it completed. Returns its index. */
export function appendEntry(
  ctx: CommandContext,
  state: LogState,
  kind: 'prices' | 'liabilities',
  entry: string,
): number {
  const leaf = leafHash(utf8.encode(entry));
  const index = state.size;
  const { range, completed } = appendLeaf(state.range, index, leaf);
  state.range = range;
  state.size = index + 1;
  // Replaying without events (Engine.replay) needs only the new range: no hex of anything.
  if (ctx.ledger.recordEvents)
    ctx.emit({
      type: 'logAppended',
      index,
      kind,
      entry,
      leafHash: toHex(leaf),
      nodes: completed.map((node) => [node.level, node.index, toHex(node.hash)]),
    });
  return index;
}

/** The checkpoint interval bucket of a time. */
function bucket(timeMs: number, intervalMs: number): number {
  return Math.floor(timeMs / intervalMs);
}

/**
 * Takes a checkpoint after an append when `force`, when none exists yet, or when the command time is in a
 * later interval bucket than the last checkpoint's.
 */
export function checkpointIfDue(ctx: CommandContext, state: LogState, force: boolean): void {
  const last = state.checkpoint;
  if (
    !force &&
    last !== null &&
    bucket(ctx.timeMs, state.intervalMs) <= bucket(last.timeMs, state.intervalMs)
  )
    return;
  const root = toHex(rangeRoot(state.range));
  state.checkpoint = { size: state.size, root, timeMs: ctx.timeMs };
  ctx.emit({ type: 'logCheckpoint', origin: state.origin, size: state.size, root, timeMs: ctx.timeMs });
}
