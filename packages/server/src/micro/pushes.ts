// `closed_microorder` to the owner's room for every settled order, from committed batches only (what a
// user is told has happened is durable; their next read waits until the projections hold it). One message per user and committed batch: when a second's
// contracts settle together a user with many of them gets one message listing them all (`orders`, with
// `order` the last of them for clients that read only that field), not one socket write per order.
import type { Command, Engine, EngineEvent } from '@fairex/engine';
import type { MicroOrderView } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';
import { orderView, rowOfSettled } from './views.ts';

export interface MicroPushesOptions {
  engine: Engine;
  realtime: Pick<Realtime, 'toUser'>;
  symbolOf(marketId: number): string;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
  /**
   * Remembers that the user was told of what the batch up to `seq` did (the runner's noteAcknowledged), so
   * that their next read waits until the projections hold the settlement (read-your-writes).
   */
  acknowledge?(userId: number, seq: number): void;
  now?: () => number;
}

export function startMicroPushes(options: MicroPushesOptions): () => void {
  const now = options.now ?? Date.now;
  return options.onCommitted((batch) => {
    let byUser: Map<number, MicroOrderView[]> | null = null;
    const context = { engine: options.engine, symbolOf: options.symbolOf, nowMs: now(), memo: new Map() };
    for (const { outcome } of batch.entries) {
      // A refused outcome may carry its envelope's time-hook events: those settlements stand too.
      for (const event of outcome.events) {
        if (event.type !== 'microOrderSettled') continue;
        byUser ??= new Map();
        const order = orderView(context, rowOfSettled(event));
        const orders = byUser.get(event.userId);
        if (orders === undefined) byUser.set(event.userId, [order]);
        else orders.push(order);
      }
    }
    if (byUser === null) return;
    for (const [userId, orders] of byUser) {
      options.acknowledge?.(userId, batch.lastSeq);
      const order = orders[orders.length - 1] as MicroOrderView;
      options.realtime.toUser(
        userId,
        'closed_microorder',
        orders.length === 1
          ? { type: 'closed_microorder', order }
          : { type: 'closed_microorder', order, orders },
      );
    }
  });
}
