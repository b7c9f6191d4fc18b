// The market area's projection: the price record. Every `priceSampled` event becomes a price_samples row
// (in chain order), and those the engine marked as heads also a price_heads row, written with the journal
// batch that recorded them (docs/price-record.md).
import type { Command, EngineEvent, PriceSampledEvent } from '@fairex/engine';
import type { BulkMode, Projector, ProjectionTransaction } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

const PRICE_SAMPLE_COLUMNS = {
  table: 'price_samples',
  columns: [
    'market_id',
    'seq',
    'time_ms',
    'source_time_ms',
    'index_ticks',
    'mark_ticks',
    'sources',
    'stale',
    'prev_hash',
    'hash',
  ],
  types: ['integer', 'bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'boolean', 'text', 'text'],
} as const;

const PRICE_HEAD_COLUMNS = {
  table: 'price_heads',
  columns: ['market_id', 'seq', 'time_ms', 'hash'],
  types: ['integer', 'bigint', 'bigint', 'text'],
} as const;

/** The price samples of a batch in chain order; those with `head` are also published heads. */
export function priceSamplesOf(entries: readonly Entry[]): PriceSampledEvent[] {
  const samples: PriceSampledEvent[] = [];
  for (const { outcome } of entries) {
    for (const event of outcome.events) if (event.type === 'priceSampled') samples.push(event);
  }
  return samples;
}

export async function writePriceSamples(
  tx: ProjectionTransaction,
  samples: readonly PriceSampledEvent[],
  mode: BulkMode,
): Promise<void> {
  await insertRows(tx, mode, {
    ...PRICE_SAMPLE_COLUMNS,
    data: [
      samples.map((sample) => sample.marketId),
      samples.map((sample) => sample.seq),
      samples.map((sample) => sample.timeMs),
      samples.map((sample) => sample.sourceTimeMs),
      samples.map((sample) => sample.indexTicks),
      samples.map((sample) => sample.markTicks),
      samples.map((sample) => JSON.stringify(sample.sources)),
      samples.map((sample) => sample.stale),
      samples.map((sample) => sample.prevHash),
      samples.map((sample) => sample.hash),
    ],
  });
  const heads = samples.filter((sample) => sample.head);
  await insertRows(tx, mode, {
    ...PRICE_HEAD_COLUMNS,
    data: [
      heads.map((head) => head.marketId),
      heads.map((head) => head.seq),
      heads.map((head) => head.timeMs),
      heads.map((head) => head.hash),
    ],
  });
}

/** The price record's projector for a store of the given kind. */
export function priceRecordProjector(
  kind: 'pglite' | 'postgres' | undefined,
): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'price-record',
    tables: ['price_samples', 'price_heads'],
    project: (entries, tx) => writePriceSamples(tx, priceSamplesOf(entries), mode),
  };
}
