// The transparency log's projection (docs/transparency.md): every `logAppended` event becomes a log_leaves
// row and a log_nodes row per perfect subtree the append completed; every `logCheckpoint` a log_checkpoints
// row whose note is signed here, with the log key, in the batch's own transaction. Ed25519 signatures are
// deterministic, so a rebuild from the journal writes the same notes byte for byte.
import type { Command, EngineEvent } from '@fairex/engine';
import type { Projector, ProjectionTransaction } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { BulkMode } from '../engine-runner/projector.ts';
import type { LogAppendedEvent, LogCheckpointEvent, LogEvent } from './events.ts';
import { logEventsOf } from './events.ts';
import type { LogKeyRef } from './log-key.ts';
import type { Ed25519Key } from './note.ts';
import { checkpointBody, signCheckpoint } from './note.ts';

export const LOG_TABLES = ['log_leaves', 'log_nodes', 'log_checkpoints'] as const;

/** The time of an entry: its "time <ms>" line (every entry kind has one). */
export function entryTime(entry: string): number {
  const line = entry.split('\n').find((text) => text.startsWith('time '));
  const time = line === undefined ? Number.NaN : Number(line.slice(5));
  if (!Number.isSafeInteger(time) || time < 0) throw new Error(`a log entry has no time line: ${entry}`);
  return time;
}

/** The signed note of a checkpoint event: the body signed by the log key under the origin's name. */
export function checkpointNote(event: LogCheckpointEvent, key: Ed25519Key): string {
  return signCheckpoint(checkpointBody(event.origin, event.size, event.root), event.origin, key);
}

/** Writes the rows of a batch's log events. */
export async function writeLogEvents(
  tx: ProjectionTransaction,
  events: readonly LogEvent[],
  key: Ed25519Key | undefined,
  mode: BulkMode,
): Promise<void> {
  if (events.length === 0) return;
  const appended = events.filter((event): event is LogAppendedEvent => event.type === 'logAppended');
  const checkpoints = events.filter((event): event is LogCheckpointEvent => event.type === 'logCheckpoint');
  await insertRows(tx, mode, {
    table: 'log_leaves',
    columns: ['idx', 'kind', 'entry', 'leaf_hash', 'time_ms'],
    types: ['bigint', 'text', 'text', 'text', 'bigint'],
    data: [
      appended.map((event) => event.index),
      appended.map((event) => event.kind),
      appended.map((event) => event.entry),
      appended.map((event) => event.leafHash),
      appended.map((event) => entryTime(event.entry)),
    ],
  });
  const nodes = appended.flatMap((event) => event.nodes);
  await insertRows(tx, mode, {
    table: 'log_nodes',
    columns: ['level', 'idx', 'hash'],
    types: ['integer', 'bigint', 'text'],
    data: [nodes.map((node) => node[0]), nodes.map((node) => node[1]), nodes.map((node) => node[2])],
  });
  if (checkpoints.length === 0) return;
  if (key === undefined)
    throw new Error('a log checkpoint is signed when projected: this projector was given no log key');
  await insertRows(tx, mode, {
    table: 'log_checkpoints',
    columns: ['size', 'root', 'time_ms', 'note'],
    types: ['bigint', 'text', 'bigint', 'text'],
    data: [
      checkpoints.map((event) => event.size),
      checkpoints.map((event) => event.root),
      checkpoints.map((event) => event.timeMs),
      checkpoints.map((event) => checkpointNote(event, key)),
    ],
  });
}

/** The log key a projector signs with: the key, or where the running server keeps it (log-key.ts). */
export type LogKeySource = Ed25519Key | LogKeyRef | undefined;

/**
 * The log's projector for a store of the given kind. `key` signs the checkpoints; without one a batch holding
 * a checkpoint fails (crash-only), so a runner of a started log must be handed the key (app.ts reads it).
 */
export function transparencyProjector(
  kind: 'pglite' | 'postgres' | undefined,
  key: LogKeySource,
): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  const current = () => (key !== undefined && 'current' in key ? key.current : key);
  return {
    name: 'transparency-log',
    tables: LOG_TABLES,
    project: (entries, tx) => writeLogEvents(tx, logEventsOf(entries), current(), mode),
  };
}
