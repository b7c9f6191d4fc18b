import { useTranslation } from 'react-i18next';
import type { DaymarketPayload } from '@fairex/shared/socket-events.ts';
import { currentLanguage } from '../../i18n/index.ts';
import {
  NO_VALUE,
  formatCompact,
  formatPercent,
  groupThousands,
  type Direction,
} from '../../format/index.ts';
import type { SpotMarketInfo } from './spot-api.ts';

// The price header over the chart: the pair, its last traded price coloured by the day's direction, and
// the 24-hour change, high, low, volume and turnover from the live ticker. A figure the server has not
// sent shows a dash.

interface PairHeaderProps {
  symbol: string;
  market: SpotMarketInfo | undefined;
  lastPrice: string | null;
  direction: Direction;
  ticker: DaymarketPayload | undefined;
}

export function PairHeader({ symbol, market, lastPrice, direction, ticker }: PairHeaderProps) {
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
      <div className={`fx-spot-pair-price is-${direction}`} data-testid="pair-last-price">
        {lastPrice === null ? NO_VALUE : groupThousands(lastPrice)}
      </div>
      {stat(t('spot.header.change'), formatPercent(ticker?.change), 'pair-change', `is-${direction}`)}
      {stat(t('spot.header.high'), ticker?.high ? groupThousands(ticker.high) : NO_VALUE, 'pair-high')}
      {stat(t('spot.header.low'), ticker?.low ? groupThousands(ticker.low) : NO_VALUE, 'pair-low')}
      {stat(t('spot.header.volume', { base }), formatCompact(ticker?.volume, language), 'pair-volume')}
      {stat(t('spot.header.turnover', { quote }), formatCompact(ticker?.amount, language), 'pair-turnover')}
    </section>
  );
}
