import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CompactInput } from './CompactInput.tsx';
import { SearchOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { toggleFavourite, useFavourites } from './favourites.ts';
import { useTickers } from '../../data/feeds.ts';
import {
  tickersByPair,
  pairKey,
  shownPrice,
  useBoardQuotations,
  withTicker,
  type BoardQuotation,
} from '../../data/market.ts';
import { NO_VALUE, directionOf, formatPercent, formatPrice } from '../../format/index.ts';
import type { Pair } from '../../data/spot.ts';
import { CompactSegmented } from './CompactSegmented.tsx';
import { EmptyNote } from './PanelStates.tsx';
import { ShownPriceText } from '../MarkTag.tsx';

// The market list beside the book: every displayed pair of one quote currency with its live price and
// 24-hour change (coloured by direction), a search box, and the pair being traded highlighted. Picking a
// row stores the choice and the page follows.

interface MarketListProps {
  pair: Pair;
  onChoose: (pair: Pair) => void;
}

/** Pairs whose base or symbol contains the query, ignoring case and a typed slash. */
export function matchesQuery(quotation: BoardQuotation, query: string): boolean {
  const wanted = query.trim().toUpperCase().replace(/\s+/g, '');
  if (wanted === '') return true;
  const symbol = `${quotation.currency_name}/${quotation.legal_name}`;
  return symbol.includes(wanted) || symbol.replace('/', '').includes(wanted);
}

/** The market list's first tab: the reader's starred pairs of every quote currency. */
const FAVOURITES = '★';

export function MarketList({ pair, onChoose }: MarketListProps) {
  const { t } = useTranslation();
  const quotations = useBoardQuotations();
  const tickers = useTickers();
  const [query, setQuery] = useState('');
  const live = useMemo(() => {
    const byPair = tickersByPair(tickers);
    return (quotations.data ?? [])
      .filter((quotation) => quotation.is_display === 1)
      .map((quotation) =>
        withTicker(quotation, byPair.get(pairKey(quotation.legal_id, quotation.currency_id))),
      );
  }, [quotations.data, tickers]);
  const quotes = useMemo(() => [...new Set(live.map((quotation) => quotation.legal_name))], [live]);
  const [chosenQuote, setQuote] = useState<string | null>(null);
  const quote =
    chosenQuote ?? (quotes.includes(pair.legalName) ? pair.legalName : (quotes[0] ?? pair.legalName));
  const favourites = useFavourites();
  const symbolOf = (quotation: BoardQuotation) => `${quotation.currency_name}/${quotation.legal_name}`;
  const rows = live.filter(
    (quotation) =>
      (quote === FAVOURITES ? favourites.includes(symbolOf(quotation)) : quotation.legal_name === quote) &&
      matchesQuery(quotation, query),
  );

  return (
    <section
      className="fx-spot-panel fx-spot-markets"
      aria-labelledby="fx-spot-markets-title"
      data-testid="market-list"
    >
      <header className="fx-spot-panel-head">
        <h2 id="fx-spot-markets-title" className="fx-spot-panel-title">
          {t('spot.markets.title')}
        </h2>
        <CompactSegmented
          size="small"
          value={quote}
          onChange={(value) => setQuote(String(value))}
          options={[
            {
              value: FAVOURITES,
              label: (
                <span data-testid="markets-favourites" aria-label={t('spot.markets.favourites')}>
                  <StarFilled />
                </span>
              ),
            },
            ...quotes.map((code) => ({ value: code, label: code })),
          ]}
        />
      </header>
      <div className="fx-spot-search">
        <CompactInput
          size="small"
          clearLabel={t('spot.markets.clearSearch')}
          prefix={<SearchOutlined />}
          placeholder={t('spot.markets.search')}
          aria-label={t('spot.markets.search')}
          value={query}
          onChange={setQuery}
          data-testid="market-search"
        />
      </div>
      <div className="fx-spot-columns">
        <span>{t('spot.markets.pair')}</span>
        <span>{t('spot.markets.price')}</span>
        <span>{t('spot.markets.change')}</span>
      </div>
      {quotations.isError ? (
        <p className="fx-spot-note">{t('spot.markets.loadError')}</p>
      ) : rows.length === 0 && !quotations.isPending ? (
        <EmptyNote className="fx-spot-empty">
          {t(quote === FAVOURITES ? 'spot.markets.noFavourites' : 'spot.markets.empty')}
        </EmptyNote>
      ) : (
        <ul className="fx-spot-market-rows">
          {rows.map((quotation) => {
            const active = quotation.legal_id === pair.legalId && quotation.currency_id === pair.currencyId;
            const direction = directionOf(quotation.change);
            const starred = favourites.includes(symbolOf(quotation));
            return (
              <li key={pairKey(quotation.legal_id, quotation.currency_id)} className="fx-spot-market-item">
                <button
                  type="button"
                  className={starred ? 'fx-spot-star is-on' : 'fx-spot-star'}
                  aria-pressed={starred}
                  aria-label={t('spot.markets.favourite', { symbol: symbolOf(quotation) })}
                  onClick={() => toggleFavourite(symbolOf(quotation))}
                  data-testid={`favourite-${quotation.currency_name}-${quotation.legal_name}`}
                >
                  {starred ? <StarFilled /> : <StarOutlined />}
                </button>
                <button
                  type="button"
                  className={active ? 'fx-spot-market-row is-active' : 'fx-spot-market-row'}
                  aria-pressed={active}
                  data-testid={`market-row-${quotation.currency_name}-${quotation.legal_name}`}
                  onClick={() =>
                    onChoose({
                      legalId: quotation.legal_id,
                      currencyId: quotation.currency_id,
                      legalName: quotation.legal_name,
                      currencyName: quotation.currency_name,
                    })
                  }
                >
                  <span className="fx-spot-market-pair">
                    <strong>{quotation.currency_name}</strong>
                    <span className="fx-spot-muted">/{quotation.legal_name}</span>
                  </span>
                  <LastOrMark quotation={quotation} direction={direction} />
                  <span className={`fx-spot-num is-${direction}`}>{formatPercent(quotation.change)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The pair's last traded price; before its first trade, its mark price, marked as such (a blank or a
 * zero would say something false about the market).
 */
function LastOrMark({ quotation, direction }: { quotation: BoardQuotation; direction: string }) {
  // No trade with a user yet: the mark stands in for the last price, labelled (the one rule, shownPrice).
  const shown = shownPrice(quotation);
  return (
    <span
      className={
        shown.kind === 'mark' ? 'fx-spot-num is-flat fx-spot-mark-price' : `fx-spot-num is-${direction}`
      }
      data-kind={shown.kind}
    >
      <ShownPriceText
        shown={shown}
        format={(price) => (price === undefined ? NO_VALUE : formatPrice(price, quotation.price_scale))}
      />
    </span>
  );
}
