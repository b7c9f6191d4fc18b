import type { TFunction } from 'i18next';
import type { ChartLevel, ChartMoment } from '../../charts/index.ts';
import type { MicroOrder } from '../../data/micro.ts';

// What the candle chart of /secondDealCenter marks for the user's orders of the pair on screen: each order's
// open (an arrow the order's way at its acceptance, which the first recorded sample after it opens) and its
// expiry (a circle, with the outcome once settled), and for a running order a price line at its open price.

/** How long a settled order stays marked after it settled. */
export const SETTLED_MARK_MS = 120_000;

export function orderChartMarks(
  orders: readonly MicroOrder[],
  t: TFunction,
): { moments: ChartMoment[]; levels: ChartLevel[] } {
  const moments: ChartMoment[] = [];
  const levels: ChartLevel[] = [];
  const seen = new Set<number>();
  for (const order of orders) {
    if (seen.has(order.id)) continue;
    seen.add(order.id);
    const up = order.type === 1;
    const direction = t(up ? 'micro.up' : 'micro.down');
    moments.push({
      key: `${order.id}-open`,
      timeMs: order.created_time,
      shape: up ? 'arrowUp' : 'arrowDown',
      position: up ? 'belowBar' : 'aboveBar',
      tone: up ? 'up' : 'down',
      text: t('micro.chartMark.open', { id: order.id }),
    });
    const outcome = order.status === 3 ? order.outcome : null;
    moments.push({
      key: `${order.id}-expiry`,
      timeMs: order.expiry_time,
      shape: 'circle',
      position: up ? 'aboveBar' : 'belowBar',
      tone: outcome === 'win' ? 'up' : outcome === 'loss' ? 'down' : 'neutral',
      text:
        outcome === null
          ? t('micro.chartMark.expiry', { id: order.id })
          : t('micro.chartMark.settled', { id: order.id, outcome: t(`micro.outcome.${outcome}`) }),
    });
    if (order.status === 1 && order.open_price !== '')
      levels.push({
        key: `${order.id}-open-price`,
        price: order.open_price,
        tone: up ? 'up' : 'down',
        title: t('micro.chartMark.openLine', { id: order.id, direction }),
      });
  }
  return { moments, levels };
}
