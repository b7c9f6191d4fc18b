import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Result } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useBoardQuotations } from '../../data/market.ts';
import { useFeedStale, useTickers } from '../../data/feeds.ts';
import { onReconnect } from '../../data/market-feeds.ts';
import { ConnectionBadge, staleClass } from '../../components/ConnectionBadge.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { createBoardRows, featuredRows, filterRows } from './board-rows.ts';
import { MarketCards } from './MarketCards.tsx';
import { MarketRankings } from './MarketRankings.tsx';
import { MarketTable } from './MarketTable.tsx';
import './market.css';

/**
 * The market board (spec 02 section 2.9), open to visitors: cards for the main coins, the table of
 * every USDT pair and the turnover and gain rankings. The list comes from POST
 * /api/currency/quotation_new; live `daymarket` tickers are laid over it as they arrive.
 */
export default function MarketPage() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const quotations = useBoardQuotations();
  const tickers = useTickers();
  const [query, setQuery] = useState('');
  const [rowsOf] = useState(createBoardRows);
  const rows = useMemo(() => rowsOf(quotations.data ?? [], tickers), [rowsOf, quotations.data, tickers]);
  const featured = useMemo(() => featuredRows(rows), [rows]);
  const shown = useMemo(() => filterRows(rows, query), [rows, query]);
  const stale = useFeedStale();
  // Tickers pushed while the connection was down are lost: the board is fetched again when it is back.
  const refetchBoard = quotations.refetch;
  useEffect(() => onReconnect(() => void refetchBoard()), [refetchBoard]);
  const emptyText = rows.length === 0 ? t('market.empty') : t('market.noMatch', { query: query.trim() });

  return (
    <div className="fx-market" data-testid="market-board">
      <div className="fx-container">
        <header className="fx-market-head">
          <div>
            <h1 className="fx-market-title">{t('market.title')}</h1>
            <p className="fx-market-subtitle">{t('market.subtitle')}</p>
          </div>
          <ConnectionBadge />
        </header>
        {quotations.isError ? (
          <Result
            status="warning"
            title={t('market.loadError')}
            subTitle={quotations.error.message}
            extra={
              <Button type="primary" onClick={() => void quotations.refetch()}>
                {t('market.retry')}
              </Button>
            }
            data-testid="market-error"
          />
        ) : (
          <div className={staleClass(stale)} data-testid="market-live-data" data-stale={stale}>
            <MarketCards rows={featured} language={language} />
            <div className="fx-market-main">
              <section className="fx-market-panel" aria-labelledby="fx-market-all">
                <div className="fx-market-panel-head">
                  <h2 id="fx-market-all" className="fx-market-panel-title">
                    {t('market.allPairs')}
                  </h2>
                  <Input
                    className="fx-market-search"
                    allowClear
                    prefix={<SearchOutlined />}
                    placeholder={t('market.search')}
                    aria-label={t('market.search')}
                    value={query}
                    onChange={(event) => setQuery(event.target.value)}
                    data-testid="market-search"
                  />
                </div>
                <MarketTable
                  rows={shown}
                  language={language}
                  loading={quotations.isPending}
                  emptyText={emptyText}
                />
              </section>
              <MarketRankings rows={rows} language={language} />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
