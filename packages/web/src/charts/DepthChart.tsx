import { useMemo, useRef, useState, useLayoutEffect, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '@fairex/shared/decimal.ts';
import { formatPrice, groupThousands, readDecimal } from '../format/index.ts';
import {
  DEPTH_BAND_PERCENT,
  depthWindow,
  nearestPoint,
  niceTicks,
  type BookLevelText,
  type WindowPoint,
} from './depth-window.ts';

export interface DepthChartProps {
  /** The book as the trading page draws it: best price first on each side. */
  bids: readonly BookLevelText[];
  asks: readonly BookLevelText[];
  base: string;
  quote: string;
  /** The pair's price precision: every price on the chart is written with it. */
  priceScale: number | undefined;
  height: number;
}

/** Height of the price axis under the plot, width of the size axis at its right, room for the legend. */
const PRICE_AXIS_HEIGHT = 24;
const SIZE_AXIS_WIDTH = 64;
const TOP_ROOM = 40;
const READOUT_WIDTH = 184;

interface Hover {
  point: WindowPoint;
  side: 'bid' | 'ask';
}

/** The places of a decimal text ("0.0900" has 4). */
function placesOf(text: string): number {
  return readDecimal(text)?.scale ?? 0;
}

/**
 * The order book's depth: on each side the quantity offered at that price or better, summed outwards from
 * the best bid (left, rising colour) and the best ask (right, falling colour), in a window of prices
 * around the mid (depth-window.ts) so that one far order does not squeeze the book into a sliver. A price
 * axis below, a cumulative size axis at the right, the mid marked, and a read-out of the level under the
 * pointer: its price, the quantity up to it, and what that quantity is worth. Drawn from the same book the
 * page shows, so it moves with every book push.
 */
export function DepthChart({ bids, asks, base, quote, priceScale, height }: DepthChartProps) {
  const { t } = useTranslation();
  const hostRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  // The place may be shorter than asked (a phone's chart area): the plot fits what is there.
  const [shownHeight, setShownHeight] = useState(height);
  const [hover, setHover] = useState<Hover | null>(null);
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (host === null) return undefined;
    const measure = () => {
      setWidth(Math.max(160, host.clientWidth));
      setShownHeight(Math.max(120, Math.min(height, host.clientHeight || height)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(host);
    return () => observer.disconnect();
  }, [height]);
  const shown = useMemo(() => depthWindow(bids, asks), [bids, asks]);
  const plotHeight = shownHeight - PRICE_AXIS_HEIGHT;
  const plotWidth = width - SIZE_AXIS_WIDTH;
  const price = (text: string) => formatPrice(text, priceScale);

  if (shown === null) {
    return (
      <div className="fx-depth-chart" ref={hostRef} style={{ height }} data-testid="depth-chart">
        <div className="fx-chart-overlay">{t('chart.depthEmpty')}</div>
      </div>
    );
  }

  // Numbers from here on only place things on the screen; every label is written from exact text.
  const low = Number(shown.lowText);
  const high = Number(shown.highText);
  const mid = Number(shown.midText);
  const sizeDecimals = placesOf(shown.maxTotalText);
  const sizeTicks = niceTicks(
    '0',
    shown.maxTotalText,
    Math.max(2, Math.floor((plotHeight - TOP_ROOM) / 36)),
    sizeDecimals,
  );
  const ceiling = Math.max(Number(shown.maxTotalText), Number(sizeTicks.at(-1) ?? '0')) * 1.05 || 1;
  const priceTicks = niceTicks(
    shown.lowText,
    shown.highText,
    Math.max(2, Math.floor(plotWidth / 110)),
    priceScale ?? placesOf(shown.lowText) - 1,
  );
  const x = (value: number) => ((value - low) / (high - low)) * plotWidth;
  const y = (total: number) => plotHeight - (total / ceiling) * (plotHeight - TOP_ROOM);
  const side = (points: readonly WindowPoint[], towards: number) => {
    if (points.length === 0) return '';
    let path = `M${x(points[0]!.price).toFixed(1)},${plotHeight} `;
    let previous = plotHeight;
    for (const point of points) {
      const px = x(point.price).toFixed(1);
      path += `L${px},${previous.toFixed(1)} L${px},${y(point.total).toFixed(1)} `;
      previous = y(point.total);
    }
    return `${path}L${towards.toFixed(1)},${previous.toFixed(1)} L${towards.toFixed(1)},${plotHeight} Z`;
  };
  const bidTotal = shown.bids.at(-1)?.totalText;
  const askTotal = shown.asks.at(-1)?.totalText;

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const px = event.clientX - box.left;
    if (px < 0 || px > plotWidth) {
      setHover(null);
      return;
    }
    const at = low + (px / plotWidth) * (high - low);
    const pick: Hover['side'] = at < mid ? 'bid' : 'ask';
    const point = nearestPoint(pick === 'bid' ? shown.bids : shown.asks, at);
    setHover(point === null ? null : { point, side: pick });
  };

  const hoverX = hover === null ? 0 : x(hover.point.price);
  const hoverY = hover === null ? 0 : y(hover.point.total);
  const readoutLeft = hoverX + 12 + READOUT_WIDTH > plotWidth ? hoverX - 12 - READOUT_WIDTH : hoverX + 12;
  const midX = x(mid);

  return (
    <div className="fx-depth-chart" ref={hostRef} style={{ height }} data-testid="depth-chart">
      <svg
        width={width}
        height={plotHeight}
        role="img"
        aria-label={t('chart.depthLabel', { base, quote })}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(null)}
      >
        {sizeTicks.map((tick) => (
          <line
            key={tick}
            className="fx-depth-grid"
            x1={0}
            x2={plotWidth}
            y1={y(Number(tick))}
            y2={y(Number(tick))}
          />
        ))}
        <path d={side(shown.bids, 0)} className="fx-depth-bids" data-testid="depth-bids" />
        <path d={side(shown.asks, plotWidth)} className="fx-depth-asks" data-testid="depth-asks" />
        <line className="fx-depth-mid-line" x1={midX} x2={midX} y1={TOP_ROOM - 8} y2={plotHeight} />
        <line className="fx-depth-axis-line" x1={plotWidth} x2={plotWidth} y1={0} y2={plotHeight} />
        {hover !== null && (
          <g className={`fx-depth-cross is-${hover.side}`}>
            <line x1={hoverX} x2={hoverX} y1={TOP_ROOM - 8} y2={plotHeight} />
            <circle cx={hoverX} cy={hoverY} r={4} />
          </g>
        )}
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
        {shown.hiddenLevels > 0 && (
          <span className="fx-depth-hidden" data-testid="depth-hidden">
            {t('chart.depthHidden', { count: shown.hiddenLevels, percent: String(DEPTH_BAND_PERCENT) })}
          </span>
        )}
      </div>
      <div
        className="fx-depth-mid"
        style={{ left: Math.min(Math.max(midX, 60), plotWidth - 60) }}
        data-testid="depth-mid"
      >
        {t('chart.depthMid')} {price(shown.midText)}
      </div>
      <div className="fx-depth-size-axis" style={{ left: plotWidth, height: plotHeight }}>
        {sizeTicks.map((tick) => (
          <span key={tick} style={{ top: y(Number(tick)) }} data-testid="depth-size-tick">
            {groupThousands(formatDecimal(readDecimal(tick)?.minor ?? 0n, sizeDecimals, { trim: true }))}
          </span>
        ))}
      </div>
      <div className="fx-depth-price-axis" style={{ width: plotWidth }}>
        {priceTicks.map((tick) => (
          <span key={tick} style={{ left: x(Number(tick)) }} data-testid="depth-price-tick">
            {price(tick)}
          </span>
        ))}
      </div>
      {hover !== null && (
        <dl
          className={`fx-depth-readout is-${hover.side}`}
          style={{ left: readoutLeft, top: Math.max(TOP_ROOM, Math.min(hoverY - 36, plotHeight - 84)) }}
          data-testid="depth-readout"
        >
          <dt>{t('chart.depthPrice')}</dt>
          <dd data-testid="depth-readout-price">{price(hover.point.priceText)}</dd>
          <dt>{t('chart.depthSize', { base })}</dt>
          <dd data-testid="depth-readout-size">{groupThousands(hover.point.totalText)}</dd>
          <dt>{t('chart.depthTotal', { quote })}</dt>
          <dd data-testid="depth-readout-total">{price(hover.point.valueText)}</dd>
        </dl>
      )}
    </div>
  );
}
