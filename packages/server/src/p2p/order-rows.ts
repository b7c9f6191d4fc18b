// The store's view of a P2P order: one row with its steps (paid, appealed, ended) and its ad's latest terms
// and methods, read by the orders, deals and back office alike.
import type { P2pOrderEnd, P2pOrderStatus } from '@fairex/shared';

export type OrderRow = {
  order_id: string;
  ad_id: string;
  buyer_id: number;
  seller_id: number;
  maker_id: number;
  currency_id: number;
  fiat: string;
  price_cents: string;
  amount: string;
  fiat_cents: string;
  buyer_fee: string;
  seller_fee: string;
  method_id: number;
  /** On an order of a sell ad: the seller's method the buyer paid with, once named (p2p_paid_methods). */
  paid_method_id: number | null;
  acceptor: boolean;
  created_ms: string;
  deadline_ms: string;
  paid_ms: string | null;
  appealed_ms: string | null;
  ended_ms: string | null;
  final_status: 'completed' | 'cancelled' | null;
  order_end: P2pOrderEnd | null;
  terms: string | null;
  ad_method_ids: number[] | null;
};

export const ORDER_SELECT = `
  select o.order_id::text, o.ad_id::text, o.buyer_id, o.seller_id, o.maker_id, o.currency_id, o.fiat,
         o.price_cents::text, o.amount::text, o.fiat_cents::text, o.buyer_fee::text, o.seller_fee::text,
         o.method_id, (select pm.method_id from p2p_paid_methods pm where pm.order_id = o.order_id) as paid_method_id,
         o.acceptor, o.created_ms::text, o.deadline_ms::text,
         (select s.time_ms::text from p2p_order_steps s where s.order_id = o.order_id and s.status = 'paid') as paid_ms,
         (select s.time_ms::text from p2p_order_steps s where s.order_id = o.order_id and s.status = 'appealed') as appealed_ms,
         e.time_ms::text as ended_ms, e.status as final_status, e.order_end,
         (select v.terms from p2p_ad_versions v where v.ad_id = o.ad_id order by v.seq desc limit 1) as terms,
         (select v.method_ids::int[] from p2p_ad_versions v where v.ad_id = o.ad_id order by v.seq desc limit 1) as ad_method_ids
    from p2p_orders o
    left join p2p_order_steps e on e.order_id = o.order_id and e.status in ('completed', 'cancelled')`;

export function statusOf(row: OrderRow): P2pOrderStatus {
  if (row.final_status !== null) return row.final_status;
  if (row.appealed_ms !== null) return 'appealed';
  if (row.paid_ms !== null) return 'paid';
  return 'unpaid';
}

/**
 * The payment method an order's fiat moves by: the taker's own on a buy ad's order; on a sell ad's order the
 * seller's method the buyer named on "paid", else the ad's only method; null when it is not known.
 */
export function usedMethodId(row: OrderRow): number | null {
  if (row.method_id > 0) return row.method_id;
  if (row.paid_method_id !== null) return row.paid_method_id;
  const offered = row.ad_method_ids ?? [];
  return offered.length === 1 ? (offered[0] as number) : null;
}
