// Log events built the way the engine's log area emits them (docs/transparency.md): each entry appended with
// merkle.ts's appendLeaf, its completed perfect subtrees as `nodes`, and a checkpoint where the test asks.
// Tests of the server's log feed these to the projection, as the engine's events will be after its merge.
import { appendLeaf, leafHash, rangeRoot } from '@fairex/engine/log/merkle.ts';
import type { LogAppendedEvent, LogCheckpointEvent, LogEvent } from '../../src/transparency/events.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** A log being built: append entries, take checkpoints, read the events. */
export class LogBuilder {
  readonly origin: string;
  #range: Uint8Array[] = [];
  size = 0;
  readonly entries: string[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  append(entry: string, kind: 'prices' | 'liabilities' = 'prices'): LogAppendedEvent {
    const leaf = leafHash(Buffer.from(entry, 'utf8'));
    const { range, completed } = appendLeaf(this.#range, this.size, leaf);
    this.#range = range;
    const event: LogAppendedEvent = {
      type: 'logAppended',
      index: this.size,
      kind,
      entry,
      leafHash: hex(leaf),
      nodes: completed.map((node) => [node.level, node.index, hex(node.hash)]),
    };
    this.size += 1;
    this.entries.push(entry);
    return event;
  }

  root(): string {
    return hex(rangeRoot(this.#range));
  }

  checkpoint(timeMs: number): LogCheckpointEvent {
    return { type: 'logCheckpoint', origin: this.origin, size: this.size, root: this.root(), timeMs };
  }
}

/** The entry of a prices batch: "<symbol> <seq> <hash>" lines sorted by symbol. */
export function pricesEntry(timeMs: number, samples: readonly [string, number, string][]): string {
  const lines = [...samples]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([symbol, seq, hash]) => `${symbol} ${seq} ${hash}\n`);
  return `fairex-log-v1 prices\ntime ${timeMs}\n${lines.join('')}`;
}

/** `count` price batches of one market from `firstSeq`, one a second, with a checkpoint every `every`. */
export function priceBatches(
  log: LogBuilder,
  options: { count: number; startMs: number; every: number; hashOf?: (seq: number) => string },
): LogEvent[] {
  const events: LogEvent[] = [];
  for (let at = 0; at < options.count; at++) {
    const timeMs = options.startMs + at * 1000;
    const seq = log.size + 1;
    const hash = options.hashOf?.(seq) ?? seq.toString(16).padStart(64, '0');
    events.push(log.append(pricesEntry(timeMs, [['BTC/USDT', seq, hash]])));
    if ((at + 1) % options.every === 0 || at === options.count - 1) events.push(log.checkpoint(timeMs));
  }
  return events;
}
