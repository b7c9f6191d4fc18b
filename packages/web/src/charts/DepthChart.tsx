import { useMemo, useRef, useState, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { groupThousands } from '../format/index.ts';
import { cumulativeDepth, depthGeometry, type BookLevelText } from './depth-points.ts';

export interface DepthChartProps {
  /** The book as the trading page draws it: best price first on each side. */
  bids: readonly BookLevelText[];
  asks: readonly BookLevelText[];
  base: string;
  quote: string;
  height: number;
}

const AXIS_HEIGHT = 24;

/**
 * The order book's depth: on each side the quantity offered at that price or better, summed outwards from
 * the best bid (left, rising colour) and the best ask (right, falling colour). Drawn from the same book
 * the page shows, so it moves with every book push.
 */
export function DepthChart({ bids, asks, base, quote, height }: DepthChartProps) {
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  // The place may be shorter than asked (a phone's chart area): the plot fits what is there.
  const [shownHeight, setShownHeight] = useState(height);
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    const measure = () => {
      setWidth(Math.max(120, host.clientWidth));
      setShownHeight(Math.max(80, Math.min(height, host.clientHeight || height)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(host);
    return () => observer.disconnect();
  }, [height]);
  const plotHeight = shownHeight - AXIS_HEIGHT;
  const bidPoints = useMemo(() => cumulativeDepth(bids), [bids]);
  const askPoints = useMemo(() => cumulativeDepth(asks), [asks]);
  const geometry = depthGeometry(bidPoints, askPoints, width, plotHeight);
  const bidTotal = bidPoints.at(-1)?.totalText;
  const askTotal = askPoints.at(-1)?.totalText;
  return (
    <div className="fx-depth-chart" ref={hostRef} style={{ height }} data-testid="depth-chart">
      {geometry === null ? (
        <div className="fx-chart-overlay">{t('chart.depthEmpty')}</div>
      ) : (
        <>
          <svg
            width={width}
            height={plotHeight}
            role="img"
            aria-label={t('chart.depthLabel', { base, quote })}
          >
            <path d={geometry.bidPath} className="fx-depth-bids" data-testid="depth-bids" />
            <path d={geometry.askPath} className="fx-depth-asks" data-testid="depth-asks" />
          </svg>
          <div className="fx-depth-legend">
            {bidTotal !== undefined && (
              <span className="is-up">
                {t('chart.depthBids')} {groupThousands(bidTotal)} {base}
              </span>
            )}
            {askTotal !== undefined && (
              <span className="is-down">
                {t('chart.depthAsks')} {groupThousands(askTotal)} {base}
              </span>
            )}
          </div>
          <div className="fx-depth-axis">
            <span>{groupThousands(bids.at(-1)?.price ?? asks[0]?.price ?? '')}</span>
            <span>{groupThousands(asks.at(-1)?.price ?? bids[0]?.price ?? '')}</span>
          </div>
        </>
      )}
    </div>
  );
}
