// P2P pushes from committed batches only: `p2p_order` to both parties' rooms on every change of an order,
// and `seller` to a user whose merchant status changed (the client stores is_seller and shows /myLegalShops).
import type { Command, EngineEvent } from '@fairex/engine';
import type { P2pOrderPayload } from '@fairex/shared';
import type { CommittedBatch } from '../engine-runner/index.ts';
import type { Realtime } from '../realtime/index.ts';

export interface P2pPushesOptions {
  realtime: Pick<Realtime, 'toUser' | 'mayReachUser'>;
  onCommitted(listener: (batch: CommittedBatch<Command, EngineEvent>) => void): () => void;
}

const CHANGES: Record<string, P2pOrderPayload['change']> = {
  paid: 'paid',
  appealed: 'appealed',
  released: 'released',
  buyerCancelled: 'cancelled',
  acceptorRejected: 'cancelled',
  timedOut: 'timedOut',
  arbiterToBuyer: 'decided',
  arbiterToSeller: 'decided',
};

export function startP2pPushes(options: P2pPushesOptions): () => void {
  const { realtime } = options;
  const both = (buyerId: number, sellerId: number, payload: P2pOrderPayload) => {
    for (const userId of [buyerId, sellerId])
      if (realtime.mayReachUser(userId)) realtime.toUser(userId, 'p2p_order', payload);
  };
  return options.onCommitted((batch) => {
    for (const { envelope, outcome } of batch.entries) {
      // A refused outcome may carry its envelope's time-hook events: timeouts stand too.
      for (const event of outcome.events) {
        if (event.type === 'p2pOrderCreated')
          both(event.buyerId, event.sellerId, {
            type: 'p2p_order',
            order_id: event.orderId,
            status: 'unpaid',
            end: null,
            change: 'created',
            time: event.createdMs,
          });
        else if (event.type === 'p2pOrderChanged')
          both(event.buyerId, event.sellerId, {
            type: 'p2p_order',
            order_id: event.orderId,
            status: event.status,
            end: event.end,
            change: CHANGES[event.end ?? event.status] ?? 'paid',
            time: event.timeMs,
          });
        else if (event.type === 'p2pMerchantSet')
          realtime.toUser(event.userId, 'seller', { type: 'seller', is_seller: event.approved ? 1 : 0 });
      }
      void envelope;
    }
  });
}
