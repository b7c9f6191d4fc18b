import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { directionOf, formatCompact, formatFixed, formatPercent } from '../../format/index.ts';
import { shownPrice, storeChosenPair } from '../../data/market.ts';
import { ShownPriceText } from '../../components/MarkTag.tsx';
import type { Language } from '../../i18n/languages.ts';
import { PRICE_DECIMALS, type BoardRow } from './board-rows.ts';

/** Cards for BTC, ETH, XRP, DOGE and LINK: price, 24-hour change and 24-hour turnover. */
export function MarketCards({ rows, language }: { rows: readonly BoardRow[]; language: Language }) {
  const { t } = useTranslation();
  if (rows.length === 0) return null;
  return (
    <section className="fx-market-cards" aria-label={t('market.featured')} data-testid="market-cards">
      {rows.map((row) => (
        <MarketCard key={row.key} row={row} language={language} />
      ))}
    </section>
  );
}

/** One card; rendered again only when its own pair's row changes. */
const MarketCard = memo(function MarketCard({ row, language }: { row: BoardRow; language: Language }) {
  const { t } = useTranslation();
  const shown = shownPrice(row);
  return (
    <Link
      to="/dealCenter"
      className="fx-market-card"
      data-testid={`market-card-${row.currency_name}`}
      data-direction={directionOf(row.change)}
      title={t('market.trade', { symbol: row.symbol })}
      onClick={() => storeChosenPair(row)}
    >
      <span className="fx-market-card-head">
        <span className="fx-market-card-symbol">
          {row.currency_name}
          <span className="fx-coin-quote">/{row.legal_name}</span>
        </span>
        <span className="fx-move-badge" data-testid="card-change">
          {formatPercent(row.change)}
        </span>
      </span>
      <span className="fx-market-card-price fx-move" data-testid="card-price" data-kind={shown.kind}>
        <ShownPriceText shown={shown} format={(price) => formatFixed(price, PRICE_DECIMALS)} />
      </span>
      <span className="fx-market-card-foot">
        {t('market.turnover')}{' '}
        <span className="fx-market-card-amount">{formatCompact(row.amount, language)}</span>
      </span>
    </Link>
  );
});
