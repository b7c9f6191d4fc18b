import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import { currentLanguage } from '../../i18n/index.ts';
import {
  NO_VALUE,
  formatCompact,
  formatPercent,
  formatPrice,
  groupThousands,
  type Direction,
} from '../../format/index.ts';
import type { MarkAndIndex } from '../../data/mark-price.ts';
import type { SpotMarketInfo } from '../../data/spot.ts';
import { MarkTag } from '../MarkTag.tsx';

// The price header over the chart: the pair, its last traded price coloured by the day's direction, and
// the 24-hour change, high, low, volume and turnover from the live ticker, and the pair's mark and index
// prices, each with a note on how it is made and a link to the public price record. Before the pair's
// first trade there is no last price: the mark price takes its place, labelled as the mark ("M" with its
// tooltip, as on every screen), instead of a blank or a zero. A figure the server has not sent shows a dash.

export const PRICE_RECORD_PATH = '/priceRecord';

interface PairHeaderProps {
  symbol: string;
  market: SpotMarketInfo | undefined;
  lastPrice: string | null;
  direction: Direction;
  ticker: DaymarketPayload | undefined;
  /** The pair's mark and index prices (null while the server has none). */
  prices: MarkAndIndex;
}

export function PairHeader({ symbol, market, lastPrice, direction, ticker, prices }: PairHeaderProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const base = market?.currency_name ?? symbol.split('/')[0] ?? '';
  const quote = market?.legal_name ?? symbol.split('/')[1] ?? '';
  const stat = (label: string, value: string, testId: string, className = '') => (
    <div className="fx-spot-stat" data-testid={testId}>
      <span className="fx-spot-stat-label">{label}</span>
      <span className={`fx-spot-stat-value ${className}`}>{value}</span>
    </div>
  );
  return (
    <section className="fx-spot-panel fx-spot-pair-header" aria-label={symbol} data-testid="pair-header">
      <div className="fx-spot-pair-name">
        <strong>{base}</strong>
        <span className="fx-spot-muted">/{quote}</span>
      </div>
      {lastPrice === null && prices.mark !== null ? (
        <div className="fx-spot-pair-price is-flat" data-testid="pair-last-price" data-kind="mark">
          {formatPrice(prices.mark, market?.price_scale)}
          <MarkTag />
        </div>
      ) : (
        <div className={`fx-spot-pair-price is-${direction}`} data-testid="pair-last-price" data-kind="last">
          {lastPrice === null ? NO_VALUE : formatPrice(lastPrice, market?.price_scale)}
        </div>
      )}
      <ExplainedStat
        label={t('spot.header.mark')}
        value={prices.mark}
        note={t('spot.header.markNote')}
        testId="pair-mark"
      />
      <ExplainedStat
        label={t('spot.header.index')}
        value={prices.index}
        note={t('spot.header.indexNote')}
        testId="pair-index"
      />
      {stat(t('spot.header.change'), formatPercent(ticker?.change), 'pair-change', `is-${direction}`)}
      {stat(
        t('spot.header.high'),
        ticker?.high ? formatPrice(ticker.high, market?.price_scale) : NO_VALUE,
        'pair-high',
      )}
      {stat(
        t('spot.header.low'),
        ticker?.low ? formatPrice(ticker.low, market?.price_scale) : NO_VALUE,
        'pair-low',
      )}
      {stat(t('spot.header.volume', { base }), formatCompact(ticker?.volume, language), 'pair-volume')}
      {stat(t('spot.header.turnover', { quote }), formatCompact(ticker?.amount, language), 'pair-turnover')}
    </section>
  );
}

/**
 * A figure whose label explains it: hovering or focusing the label shows a note drawn with CSS (the
 * trading page carries no popup library) with a link to the price record.
 */
function ExplainedStat({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: string | null;
  note: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const noteId = useId();
  return (
    <div className="fx-spot-stat fx-spot-explained" data-testid={testId}>
      <button type="button" className="fx-spot-stat-label fx-spot-explained-label" aria-describedby={noteId}>
        {label}
      </button>
      <span className="fx-spot-stat-value">{value === null ? NO_VALUE : groupThousands(value)}</span>
      <span role="tooltip" id={noteId} className="fx-spot-explained-note">
        {note} <Link to={PRICE_RECORD_PATH}>{t('spot.header.priceRecord')}</Link>
      </span>
    </div>
  );
}
