// The engine's log area as the server sees it (docs/transparency.md): the events its projection reads, the
// `startLog` command start-up submits and the `engine.log` status query. The engine declares these in its own
// unions; this file names the shapes the server relies on, and `logEventsOf` picks them out of a batch.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { CommittedEntry } from '../engine-runner/types.ts';

/** One entry appended to the log, with the perfect subtrees the append completed ([level, index, hash hex]). */
export interface LogAppendedEvent {
  type: 'logAppended';
  index: number;
  kind: 'prices' | 'liabilities';
  entry: string;
  leafHash: string;
  nodes: [number, number, string][];
}

/** A checkpoint the engine decided to publish: the tree of the first `size` leaves. */
export interface LogCheckpointEvent {
  type: 'logCheckpoint';
  origin: string;
  size: number;
  root: string;
  timeMs: number;
}

export type LogEvent = LogAppendedEvent | LogCheckpointEvent;

/** The journaled administrator command that starts the log (a repeat may change the interval only). */
export interface StartLogCommand {
  type: 'startLog';
  origin: string;
  checkpointIntervalMs: number;
}

export interface LogStatus {
  started: boolean;
  origin: string;
  size: number;
  root: string;
  checkpoint: { size: number; root: string; timeMs: number } | null;
  pendingLiabilities: { snapshotId: string; seq: number } | null;
}

export interface LogQueries {
  status(): LogStatus;
}

/** The log events of committed entries, in order. */
export function logEventsOf(entries: readonly CommittedEntry<Command, EngineEvent>[]): LogEvent[] {
  const events: LogEvent[] = [];
  for (const { outcome } of entries) {
    for (const event of outcome.events) {
      const type = (event as { type: string }).type;
      if (type === 'logAppended' || type === 'logCheckpoint') events.push(event as unknown as LogEvent);
    }
  }
  return events;
}

/** The engine's log queries; undefined for an engine built without the log area. */
export function logQueriesOf(engine: Engine): LogQueries | undefined {
  return (engine as unknown as { log?: LogQueries }).log;
}

/** `startLog` as a command of the engine's union. */
export function startLogCommand(origin: string, checkpointIntervalMs: number): Command {
  const command: StartLogCommand = { type: 'startLog', origin, checkpointIntervalMs };
  return command as unknown as Command;
}
