// The P2P projections (migrations 0050 and 0180), insert-only and written in the batch's transaction: an order is
// listed the moment its creation is answered, and 10,000 orders timing out in one envelope cost one bulk
// insert of steps and one of ad versions. Pure functions of the entries: rebuilt rows equal live ones.
import type {
  Command,
  EngineEvent,
  P2pAdChangedEvent,
  P2pCancellationCountedEvent,
  P2pMerchantSetEvent,
  P2pOrderChangedEvent,
  P2pOrderCreatedEvent,
  P2pReferenceSetEvent,
} from '@fairex/engine';
import type { BulkMode, ProjectionTransaction, Projector } from '../engine-runner/projector.ts';
import { bulkModeOf, insertRows } from '../engine-runner/projector.ts';
import type { CommittedEntry } from '../engine-runner/types.ts';

type Entry = CommittedEntry<Command, EngineEvent>;

export const P2P_TABLES = [
  'p2p_ad_versions',
  'p2p_orders',
  'p2p_order_steps',
  'p2p_merchant_log',
  'p2p_cancellations',
  'p2p_reference_log',
] as const;

function pgArray(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}

export async function writeP2pRows(
  tx: ProjectionTransaction,
  entries: readonly Entry[],
  mode: BulkMode = 'unnest',
): Promise<void> {
  const ads: { e: P2pAdChangedEvent; seq: number }[] = [];
  const orders: { e: P2pOrderCreatedEvent; seq: number }[] = [];
  const steps: { e: P2pOrderChangedEvent; seq: number }[] = [];
  const merchants: { e: P2pMerchantSetEvent; seq: number; timeMs: number }[] = [];
  const cancellations: { e: P2pCancellationCountedEvent; seq: number; timeMs: number }[] = [];
  const references: { e: P2pReferenceSetEvent; seq: number }[] = [];
  for (const { envelope, outcome } of entries) {
    // The last version of each ad in this envelope (a take changes its ad; timeouts may change one ad often).
    const lastAd = new Map<number, P2pAdChangedEvent>();
    for (const event of outcome.events) {
      switch (event.type) {
        case 'p2pAdChanged':
          lastAd.set(event.adId, event);
          break;
        case 'p2pOrderCreated':
          orders.push({ e: event, seq: envelope.seq });
          break;
        case 'p2pOrderChanged':
          steps.push({ e: event, seq: envelope.seq });
          break;
        case 'p2pMerchantSet':
          merchants.push({ e: event, seq: envelope.seq, timeMs: envelope.timeMs });
          break;
        case 'p2pCancellationCounted':
          cancellations.push({ e: event, seq: envelope.seq, timeMs: envelope.timeMs });
          break;
        case 'p2pReferenceSet':
          references.push({ e: event, seq: envelope.seq });
          break;
        default:
          break;
      }
    }
    for (const event of lastAd.values()) ads.push({ e: event, seq: envelope.seq });
  }
  await insertRows(tx, mode, {
    table: 'p2p_ad_versions',
    columns: [
      'ad_id',
      'seq',
      'user_id',
      'side',
      'currency_id',
      'fiat',
      'price_cents',
      'float_bp',
      'min_fiat_cents',
      'max_fiat_cents',
      'window_ms',
      'method_ids',
      'terms',
      'total',
      'remaining',
      'status',
      'acceptor',
      'time_ms',
    ],
    types: [
      'bigint',
      'bigint',
      'int',
      'text',
      'int',
      'text',
      'numeric',
      'int',
      'numeric',
      'numeric',
      'int',
      'text',
      'text',
      'numeric',
      'numeric',
      'text',
      'boolean',
      'bigint',
    ],
    data: [
      ads.map(({ e }) => e.adId),
      ads.map(({ seq }) => seq),
      ads.map(({ e }) => e.userId),
      ads.map(({ e }) => e.side),
      ads.map(({ e }) => e.currencyId),
      ads.map(({ e }) => e.fiat),
      ads.map(({ e }) => e.priceCents.toString()),
      ads.map(({ e }) => e.floatBp),
      ads.map(({ e }) => e.minFiatCents.toString()),
      ads.map(({ e }) => e.maxFiatCents.toString()),
      ads.map(({ e }) => e.windowMs),
      ads.map(({ e }) => pgArray(e.methodIds)),
      ads.map(({ e }) => e.terms),
      ads.map(({ e }) => e.total.toString()),
      ads.map(({ e }) => e.remaining.toString()),
      ads.map(({ e }) => e.status),
      ads.map(({ e }) => e.acceptor),
      ads.map(({ e }) => e.timeMs),
    ],
  });
  await insertRows(tx, mode, {
    table: 'p2p_orders',
    columns: [
      'order_id',
      'ad_id',
      'buyer_id',
      'seller_id',
      'maker_id',
      'currency_id',
      'fiat',
      'price_cents',
      'amount',
      'fiat_cents',
      'buyer_fee',
      'seller_fee',
      'method_id',
      'acceptor',
      'created_ms',
      'deadline_ms',
      'created_seq',
    ],
    types: [
      'bigint',
      'bigint',
      'int',
      'int',
      'int',
      'int',
      'text',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'numeric',
      'int',
      'boolean',
      'bigint',
      'bigint',
      'bigint',
    ],
    data: [
      orders.map(({ e }) => e.orderId),
      orders.map(({ e }) => e.adId),
      orders.map(({ e }) => e.buyerId),
      orders.map(({ e }) => e.sellerId),
      orders.map(({ e }) => e.makerId),
      orders.map(({ e }) => e.currencyId),
      orders.map(({ e }) => e.fiat),
      orders.map(({ e }) => e.priceCents.toString()),
      orders.map(({ e }) => e.amount.toString()),
      orders.map(({ e }) => e.fiatCents.toString()),
      orders.map(({ e }) => e.buyerFee.toString()),
      orders.map(({ e }) => e.sellerFee.toString()),
      orders.map(({ e }) => e.methodId),
      orders.map(({ e }) => e.acceptor),
      orders.map(({ e }) => e.createdMs),
      orders.map(({ e }) => e.deadlineMs),
      orders.map(({ seq }) => seq),
    ],
  });
  await insertRows(tx, mode, {
    table: 'p2p_order_steps',
    columns: ['order_id', 'status', 'order_end', 'by_user', 'time_ms', 'seq'],
    types: ['bigint', 'text', 'text', 'int', 'bigint', 'bigint'],
    data: [
      steps.map(({ e }) => e.orderId),
      steps.map(({ e }) => e.status),
      steps.map(({ e }) => e.end),
      steps.map(({ e }) => e.by),
      steps.map(({ e }) => e.timeMs),
      steps.map(({ seq }) => seq),
    ],
  });
  await insertRows(tx, mode, {
    table: 'p2p_merchant_log',
    columns: ['seq', 'user_id', 'approved', 'acceptor', 'time_ms'],
    types: ['bigint', 'int', 'boolean', 'boolean', 'bigint'],
    data: [
      merchants.map(({ seq }) => seq),
      merchants.map(({ e }) => e.userId),
      merchants.map(({ e }) => e.approved),
      merchants.map(({ e }) => e.acceptor),
      merchants.map(({ timeMs }) => timeMs),
    ],
  });
  await insertRows(tx, mode, {
    table: 'p2p_cancellations',
    columns: ['seq', 'user_id', 'day', 'count', 'restricted_until_ms', 'time_ms'],
    types: ['bigint', 'int', 'int', 'int', 'bigint', 'bigint'],
    data: [
      cancellations.map(({ seq }) => seq),
      cancellations.map(({ e }) => e.userId),
      cancellations.map(({ e }) => e.day),
      cancellations.map(({ e }) => e.count),
      cancellations.map(({ e }) => e.restrictedUntilMs),
      cancellations.map(({ timeMs }) => timeMs),
    ],
  });
  await insertRows(tx, mode, {
    table: 'p2p_reference_log',
    columns: ['seq', 'currency_id', 'fiat', 'price_cents', 'time_ms'],
    types: ['bigint', 'int', 'text', 'bigint', 'bigint'],
    data: [
      references.map(({ seq }) => seq),
      references.map(({ e }) => e.currencyId),
      references.map(({ e }) => e.fiat),
      references.map(({ e }) => e.priceCents.toString()),
      references.map(({ e }) => e.timeMs),
    ],
  });
}

/** The P2P area's projector (registered in exchange-runner.ts). */
export function p2pProjector(kind: 'pglite' | 'postgres' | undefined): Projector<Command, EngineEvent> {
  const mode = bulkModeOf(kind);
  return {
    name: 'p2p',
    tables: P2P_TABLES,
    project: (entries, tx) => writeP2pRows(tx, entries, mode),
  };
}
