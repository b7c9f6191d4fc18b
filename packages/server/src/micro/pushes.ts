// `closed_microorder` to the owner's room for every settled order, from committed batches only (what a
// user is told has happened is durable).
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import { orderView, rowOfSettled } from './views.ts';

export interface MicroPushesOptions {
  engine: Engine;
  realtime: Pick<Realtime, 'toUser'>;
  symbolOf(marketId: number): string;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  now?: () => number;
}

export function startMicroPushes(options: MicroPushesOptions): () => void {
  const now = options.now ?? Date.now;
  return options.onCommitted((batch) => {
    for (const { outcome } of batch.entries) {
      // A refused outcome may carry its envelope's time-hook events: those settlements stand too.
      for (const event of outcome.events) {
        if (event.type !== 'microOrderSettled') continue;
        const order = orderView(
          { engine: options.engine, symbolOf: options.symbolOf, nowMs: now() },
          rowOfSettled(event),
        );
        options.realtime.toUser(event.userId, 'closed_microorder', { type: 'closed_microorder', order });
      }
    }
  });
}
