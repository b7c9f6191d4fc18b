import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { usePreferences } from '../../app/preferences/preferences.ts';
import { NO_VALUE, formatPrice, groupThousands, type Direction } from '../../format/index.ts';
import { bookRows, groupDecimals, groupingSteps, type BookRow } from './book-levels.ts';
import type { BookLevel, SpotMarketInfo } from '../../data/spot.ts';

// The order book, drawn on two canvases (asks above, bids below) so that twenty updates a second cost a
// few fill calls instead of a hundred DOM rows. A visually hidden table carries the same rows for screen
// readers and tests. Clicking a row offers its price to the order form.

/** Rows per side before the panel has been measured, and the bounds of what a measurement may give. */
export const BOOK_ROWS = 14;
const MIN_ROWS = 6;
const MAX_ROWS = 40;
const ROW_HEIGHT = 20;
const LAST_PRICE_HEIGHT = 40;
const FONT =
  '12px -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

interface OrderBookProps {
  market: SpotMarketInfo;
  bids: readonly BookLevel[];
  asks: readonly BookLevel[];
  lastPrice: string | null;
  direction: Direction;
  onPickPrice: (price: string) => void;
}

export function OrderBook({ market, bids, asks, lastPrice, direction, onPickPrice }: OrderBookProps) {
  const { t } = useTranslation();
  const [factor, setFactor] = useState(1);
  const bodyRef = useRef<HTMLDivElement>(null);
  const rowCount = useRowsThatFit(bodyRef);
  const steps = groupingSteps(market);
  const grouping = steps.includes(factor) ? factor : 1;
  const rows = useMemo(
    () => bookRows(bids, asks, grouping, market, rowCount),
    [bids, asks, grouping, market, rowCount],
  );
  // Asks are drawn with the best (lowest) price at the bottom, next to the last price.
  const askRows = useMemo(() => [...rows.asks].reverse(), [rows.asks]);
  // Rows are written at the grouping's places: the pair's own precision at the finest grouping.
  const priceDecimals = groupDecimals(market, grouping);
  const tickText = (step: number) => groupThousands(stepLabel(market, step));

  return (
    <section
      className="fx-spot-panel fx-spot-book"
      aria-labelledby="fx-spot-book-title"
      data-testid="order-book"
    >
      <header className="fx-spot-panel-head">
        <h2 id="fx-spot-book-title" className="fx-spot-panel-title">
          {t('spot.book.title')}
        </h2>
        {/* A native select: the few steps need no searchable popup, and the page need not load antd's. */}
        <span className="fx-spot-select fx-spot-book-grouping">
          <select
            value={String(grouping)}
            onChange={(event) => setFactor(steps.find((step) => String(step) === event.target.value) ?? 1)}
            aria-label={t('spot.book.grouping')}
            data-testid="book-grouping"
          >
            {steps.map((step) => (
              <option key={step} value={String(step)}>
                {tickText(step)}
              </option>
            ))}
          </select>
        </span>
      </header>
      <div className="fx-spot-columns" aria-hidden="true">
        <span>{t('spot.book.price', { quote: market.legal_name })}</span>
        <span>{t('spot.book.amount', { base: market.currency_name })}</span>
        <span>{t('spot.book.total', { base: market.currency_name })}</span>
      </div>
      <div ref={bodyRef} className="fx-spot-book-body">
        {rows.bids.length === 0 && rows.asks.length === 0 && (
          <p className="fx-spot-book-empty" data-testid="book-empty">
            {t('spot.book.empty')}
          </p>
        )}
        <BookCanvas
          rows={askRows}
          rowCount={rowCount}
          side="ask"
          align="bottom"
          priceDecimals={priceDecimals}
          onPick={onPickPrice}
        />
        <div className={`fx-spot-book-last is-${direction}`} data-testid="book-last-price">
          <span className="fx-spot-book-last-price">
            {lastPrice === null ? NO_VALUE : formatPrice(lastPrice, market.price_scale)}
          </span>
          {direction === 'up' && <ArrowUpOutlined />}
          {direction === 'down' && <ArrowDownOutlined />}
        </div>
        <BookCanvas
          rows={rows.bids}
          rowCount={rowCount}
          side="bid"
          align="top"
          priceDecimals={priceDecimals}
          onPick={onPickPrice}
        />
      </div>
      <table className="fx-visually-hidden" data-testid="book-table">
        <caption>{t('spot.book.title')}</caption>
        <tbody>
          {askRows.map((row) => (
            <tr key={`a${row.price}`} data-testid="book-ask">
              <td>{formatPrice(row.price, priceDecimals)}</td>
              <td>{row.number}</td>
            </tr>
          ))}
          {rows.bids.map((row) => (
            <tr key={`b${row.price}`} data-testid="book-bid">
              <td>{formatPrice(row.price, priceDecimals)}</td>
              <td>{row.number}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Rows per side that fill the book's body: it takes whatever height the page grid gives the panel. */
function useRowsThatFit(bodyRef: React.RefObject<HTMLDivElement | null>): number {
  const [rows, setRows] = useState(BOOK_ROWS);
  useEffect(() => {
    const body = bodyRef.current;
    if (body === null || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver((entries) => {
      const height = entries[0]?.contentRect.height ?? 0;
      if (height <= 0) return;
      const fit = Math.floor((height - LAST_PRICE_HEIGHT) / 2 / ROW_HEIGHT);
      setRows(Math.max(MIN_ROWS, Math.min(MAX_ROWS, fit)));
    });
    observer.observe(body);
    return () => observer.disconnect();
  }, [bodyRef]);
  return rows;
}

function stepLabel(market: SpotMarketInfo, step: number): string {
  // The tick times the step, written out: 0.01, 0.1, 1, 10 for a tick of 0.01.
  const tick = market.price_tick;
  const point = tick.indexOf('.');
  const decimals = point < 0 ? 0 : tick.length - point - 1;
  const digits = BigInt(tick.replace('.', '')) * BigInt(step);
  const text = digits.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

interface CanvasColours {
  up: string;
  down: string;
  text: string;
  muted: string;
  hover: string;
}

function readColours(element: Element): CanvasColours {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    up: read('--fx-up', '#0ecb81'),
    down: read('--fx-down', '#f6465d'),
    text: read('--fx-text', '#1e2329'),
    muted: read('--fx-text-secondary', '#707a8a'),
    hover: read('--fx-row-hover', 'rgba(127, 127, 127, 0.08)'),
  };
}

interface BookCanvasProps {
  rows: readonly BookRow[];
  rowCount: number;
  side: 'bid' | 'ask';
  /** Asks fill from the bottom up, bids from the top down. */
  align: 'top' | 'bottom';
  /** The places the rows' prices are written with. */
  priceDecimals: number;
  onPick: (price: string) => void;
}

function BookCanvas({ rows, rowCount, side, align, priceDecimals, onPick }: BookCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<number | null>(null);
  const nightMode = usePreferences((state) => state.nightMode);
  const priceColours = usePreferences((state) => state.priceColours);
  const offset = align === 'bottom' ? rowCount - rows.length : 0;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null || typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver((entries) =>
      setWidth(Math.floor(entries[0]?.contentRect.width ?? 0)),
    );
    observer.observe(canvas);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null || width === 0) return undefined;
    const frame = requestAnimationFrame(() => {
      const context = canvas.getContext('2d');
      if (context === null) return;
      const ratio = window.devicePixelRatio || 1;
      const height = rowCount * ROW_HEIGHT;
      if (canvas.width !== width * ratio || canvas.height !== height * ratio) {
        canvas.width = width * ratio;
        canvas.height = height * ratio;
      }
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      drawRows(context, rows, {
        width,
        height,
        offset,
        side,
        hover,
        priceDecimals,
        colours: readColours(canvas),
      });
    });
    return () => cancelAnimationFrame(frame);
    // The theme and colour preference change the CSS variables the drawing reads.
  }, [rows, rowCount, width, offset, side, hover, nightMode, priceColours, priceDecimals]);

  const rowAt = (clientY: number): number | null => {
    const canvas = canvasRef.current;
    if (canvas === null) return null;
    const index = Math.floor((clientY - canvas.getBoundingClientRect().top) / ROW_HEIGHT) - offset;
    return index >= 0 && index < rows.length ? index : null;
  };

  return (
    <canvas
      ref={canvasRef}
      className="fx-spot-book-canvas"
      style={{ height: rowCount * ROW_HEIGHT }}
      aria-hidden="true"
      data-testid={`book-canvas-${side}`}
      onMouseMove={(event) => setHover(rowAt(event.clientY))}
      onMouseLeave={() => setHover(null)}
      onClick={(event) => {
        const index = rowAt(event.clientY);
        const row = index === null ? undefined : rows[index];
        if (row !== undefined) onPick(row.price);
      }}
    />
  );
}

interface DrawOptions {
  width: number;
  height: number;
  offset: number;
  side: 'bid' | 'ask';
  hover: number | null;
  priceDecimals: number;
  colours: CanvasColours;
}

function drawRows(context: CanvasRenderingContext2D, rows: readonly BookRow[], options: DrawOptions): void {
  const { width, height, offset, side, hover, priceDecimals, colours } = options;
  const sideColour = side === 'bid' ? colours.up : colours.down;
  context.clearRect(0, 0, width, height);
  context.font = FONT;
  context.textBaseline = 'middle';
  const padding = 12;
  rows.forEach((row, index) => {
    const top = (index + offset) * ROW_HEIGHT;
    const middle = top + ROW_HEIGHT / 2;
    if (hover === index) {
      context.fillStyle = colours.hover;
      context.fillRect(0, top, width, ROW_HEIGHT);
    }
    context.globalAlpha = 0.14;
    context.fillStyle = sideColour;
    const barWidth = Math.max(1, Math.round(width * row.depth));
    context.fillRect(width - barWidth, top + 1, barWidth, ROW_HEIGHT - 2);
    context.globalAlpha = 1;
    context.textAlign = 'left';
    context.fillStyle = sideColour;
    context.fillText(formatPrice(row.price, priceDecimals), padding, middle);
    context.textAlign = 'right';
    context.fillStyle = colours.text;
    context.fillText(row.number, Math.round(width * 0.66), middle);
    context.fillStyle = colours.muted;
    context.fillText(row.total, width - padding, middle);
  });
}
