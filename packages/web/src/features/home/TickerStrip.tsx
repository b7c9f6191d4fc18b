import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import { fetchBars, shownPrice, storeChosenPair, useBoardQuotations } from '../../data/market.ts';
import { ShownPriceText } from '../../components/MarkTag.tsx';
import { useFeedStale, useTickers } from '../../data/feeds.ts';
import { onReconnect } from '../../data/market-feeds.ts';
import { ConnectionBadge, staleClass } from '../../components/ConnectionBadge.tsx';
import { directionOf, formatFixed, formatPercent } from '../../format/index.ts';
import { boardRows, featuredRows, PRICE_DECIMALS, type BoardRow } from '../market/board-rows.ts';
import { SPARKLINE_POINTS, sparklinePoints, tradedCloses } from './sparkline.ts';

const DAY_MS = 86_400_000;
const CHART_WIDTH = 200;
const CHART_HEIGHT = 34;

/**
 * The main pairs with their live price, 24-hour change and a mini chart of the last seven daily closes.
 * Prices come from the quotation list and live tickers, closes from the daily bars of real trades; a pair
 * with fewer than two such days gets no chart, and without a quotation list the strip is not drawn.
 */
export function TickerStrip() {
  const { t } = useTranslation();
  const quotations = useBoardQuotations();
  const tickers = useTickers();
  const stale = useFeedStale();
  const refetchQuotations = quotations.refetch;
  useEffect(() => onReconnect(() => void refetchQuotations()), [refetchQuotations]);
  const rows = useMemo(
    () => featuredRows(boardRows(quotations.data ?? [], tickers)),
    [quotations.data, tickers],
  );
  const bars = useQueries({
    queries: rows.map((row) => ({
      queryKey: ['home', 'daily-closes', row.symbol],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const nowMs = Date.now();
        const list = await fetchBars(
          {
            symbol: row.symbol,
            period: '1day',
            fromMs: nowMs - (SPARKLINE_POINTS + 1) * DAY_MS,
            toMs: nowMs,
          },
          signal,
        );
        return tradedCloses(list);
      },
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });

  if (rows.length === 0) return null;
  return (
    <section className="fx-home-ticker" aria-label={t('home.ticker.title')} data-testid="home-ticker">
      <div className="fx-container fx-home-ticker-status">
        <ConnectionBadge />
      </div>
      <div className={`fx-container fx-home-ticker-grid ${staleClass(stale)}`} data-stale={stale}>
        {rows.map((row, index) => (
          <TickerCard key={row.key} row={row} closes={bars[index]?.data ?? []} />
        ))}
      </div>
    </section>
  );
}

function TickerCard({ row, closes }: { row: BoardRow; closes: readonly string[] }) {
  const { t } = useTranslation();
  const points = sparklinePoints(closes, CHART_WIDTH, CHART_HEIGHT);
  const shown = shownPrice(row);
  return (
    <Link
      to="/dealCenter"
      className="fx-home-ticker-card"
      data-direction={directionOf(row.change)}
      data-testid={`ticker-${row.currency_name}`}
      aria-label={t('home.ticker.trade', { symbol: row.symbol })}
      onClick={() => storeChosenPair(row)}
    >
      <span className="fx-home-ticker-head">
        <span className="fx-home-ticker-symbol">
          {row.currency_name}
          <span className="fx-home-ticker-quote">/{row.legal_name}</span>
        </span>
        <span className="fx-home-ticker-change">{formatPercent(row.change)}</span>
      </span>
      <span className="fx-home-ticker-price" data-testid="ticker-price" data-kind={shown.kind}>
        <ShownPriceText shown={shown} format={(price) => formatFixed(price, PRICE_DECIMALS)} />
      </span>
      {points !== null && (
        <svg
          className="fx-home-ticker-chart"
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={t('home.ticker.chart')}
          data-testid="ticker-chart"
        >
          <polyline
            points={points}
            fill="none"
            strokeWidth="1.6"
            strokeLinejoin="round"
            strokeLinecap="round"
          />
        </svg>
      )}
    </Link>
  );
}
