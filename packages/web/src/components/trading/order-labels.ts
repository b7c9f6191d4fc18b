import type { TFunction } from 'i18next';
import { formatPrice } from '../../format/index.ts';

// The words of an open order's type and status, shared by the trading page's open orders and the orders page
// (issue 45): a stop-limit order waiting for its stop says so and names the stop, so that a sell far below
// the bid never reads as a limit that "should have filled".

/** What the server says of an open order's state (both lists carry it). */
export interface OpenOrderState {
  status: 'open' | 'partially_filled' | 'pending';
  /** A waiting stop-limit order's stop price; null for any other order. */
  stop_price: string | null;
  /** 1 market, 2 limit (the orders page's rows carry it; a resting order is always a limit). */
  mode?: 1 | 2;
}

/** "Waiting for stop 32,000.00", "Open" or "Partly filled"; the stop at the pair's price precision. */
export function openOrderStatusText(
  t: TFunction,
  order: OpenOrderState,
  priceScale: number | undefined,
): string {
  return order.status === 'pending' && order.stop_price !== null
    ? t('orders.status.pending', { stop: formatPrice(order.stop_price, priceScale) })
    : t(`orders.status.${order.status === 'pending' ? 'open' : order.status}`);
}

/** "Stop-limit" for a waiting stop order, else "Limit" (or "Market"). */
export function openOrderTypeText(t: TFunction, order: OpenOrderState): string {
  if (order.stop_price !== null) return t('spot.form.stopLimit');
  return t(order.mode === 1 ? 'spot.form.market' : 'spot.form.limit');
}
