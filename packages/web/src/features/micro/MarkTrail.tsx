import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fetchPriceSamples } from '../../data/price-record.ts';
import type { MicroOrder } from '../../data/micro.ts';

// The recorded index price around the chosen order, with its open (first sample after acceptance) and expiry
// marked: the samples and the price the order is settled on (rule fairex-micro-v2), drawn from the public
// price record.

const WIDTH = 600;
const HEIGHT = 140;
const PAD = 8;

export function MarkTrail({ symbol, order }: { symbol: string; order: MicroOrder | null }) {
  const { t } = useTranslation();
  const fromMs = order === null ? 0 : order.created_time - 10_000;
  const toMs = order === null ? 0 : order.expiry_time + 3_000;
  const samples = useQuery({
    queryKey: ['micro', 'trail', symbol, order?.id, order?.status],
    queryFn: ({ signal }) => fetchPriceSamples(symbol, fromMs, toMs, signal),
    enabled: order !== null && symbol !== '',
    refetchInterval: order?.status === 1 ? 1_000 : false,
  });
  if (order === null)
    return (
      <div className="fx-micro-trail fx-micro-trail-empty" data-testid="micro-trail">
        {t('micro.chooseOrder')}
      </div>
    );
  const points = (samples.data ?? []).filter((sample) => !sample.stale && sample.index_price !== null);
  const prices = points.map((sample) => Number(sample.index_price));
  // Display only: the pixel position of a price; no amount is computed from these numbers.
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const x = (time: number) => PAD + ((time - fromMs) / (toMs - fromMs)) * (WIDTH - 2 * PAD);
  const y = (price: number) =>
    high === low ? HEIGHT / 2 : PAD + ((high - price) / (high - low)) * (HEIGHT - 2 * PAD);
  const line = points.map(
    (sample, index) => `${index === 0 ? 'M' : 'L'}${x(sample.time)},${y(prices[index]!)}`,
  );
  return (
    <div className="fx-micro-trail" data-testid="micro-trail">
      <div className="fx-micro-trail-title">
        {t('micro.trailTitle', { id: order.id, symbol: order.symbol_name })}
      </div>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('micro.trailTitle', { id: order.id, symbol })}
      >
        <path d={line.join(' ')} className="fx-micro-trail-line" fill="none" />
        <line
          x1={x(order.created_time)}
          x2={x(order.created_time)}
          y1={0}
          y2={HEIGHT}
          className="fx-micro-trail-open"
        />
        <line
          x1={x(order.expiry_time)}
          x2={x(order.expiry_time)}
          y1={0}
          y2={HEIGHT}
          className="fx-micro-trail-expiry"
        />
      </svg>
      <div className="fx-micro-trail-legend">
        <span className="fx-micro-trail-open-key">
          {t('micro.openMark', { price: order.open_price || t('micro.awaitingOpen') })}
        </span>
        <span className="fx-micro-trail-expiry-key">
          {t('micro.expiryMark', { price: order.end_price || '-' })}
        </span>
      </div>
    </div>
  );
}
