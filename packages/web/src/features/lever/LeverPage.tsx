import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { LeverTradePayload, UpdateBalancePayload } from '@fairex/shared/socket-events.ts';
import { PriceChart } from '../../charts/index.ts';
import { useMarketFeed, useSocketEvent, useTickers } from '../../data/feeds.ts';
import { onReconnect } from '../../data/market-feeds.ts';
import { fetchLatestMarkAndIndex, readMarkAndIndex } from '../../data/mark-price.ts';
import { useSession } from '../../data/session.ts';
import { directionOf } from '../../format/index.ts';
import { MarketList } from '../../components/trading/MarketList.tsx';
import { OrderBook } from '../../components/trading/OrderBook.tsx';
import { PairHeader } from '../../components/trading/PairHeader.tsx';
import { RecentTrades, mergeTape } from '../../components/trading/RecentTrades.tsx';
import { CompactTabs } from '../../components/trading/CompactTabs.tsx';
import { Spinner } from '../../components/trading/PanelStates.tsx';
import { choosePair, syncPairFromStorage, usePair } from '../spot/pair.ts';
import { pairSymbol, useDeal } from '../../data/spot.ts';
import { useLeverDeal } from '../../data/lever.ts';
import { LeverForm } from './LeverForm.tsx';
import { PositionsPanel } from './PositionsPanel.tsx';
import { RiskBar, RiskNotice } from './RiskBar.tsx';
import '../spot/spot.css';
import './lever.css';

// The leverage trading screen, /leverdealCenter (spec 01 section 2): the market list on the left (300 px),
// in the centre the price header with the mark and index prices, the chart (516 px high) and the long and
// short forms; on the right the order book and all trades behind tabs. Below: the account's risk bar, the
// positions list with its four tabs, and the risk notice. Server state comes from /api/lever/deal and
// /api/lever/my_trade; `lever_trade` (also sent to holders on every mark move) and `update_balance` (lever
// wallet) pushes refresh them, and so does a reconnect: nothing polls them.

/** The mark moves every second; the header and the form ask for it this often. */
const MARK_POLL_MS = 2_000;
export const LEVER_CHART_HEIGHT = 516;

export default function LeverPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useEffect(() => syncPairFromStorage(), []);
  const pair = usePair();
  const symbol = pairSymbol(pair);
  const loggedIn = useSession((state) => state.token !== null);
  const spot = useDeal(pair, false);
  const lever = useLeverDeal(pair, loggedIn);
  const feed = useMarketFeed(symbol);
  const tickers = useTickers();
  const ticker = tickers[symbol];
  const [sideTab, setSideTab] = useState<'book' | 'trades'>('book');
  const sampled = useQuery({
    queryKey: ['lever', 'mark', symbol],
    queryFn: ({ signal }) => fetchLatestMarkAndIndex(symbol, Date.now(), signal),
    refetchInterval: MARK_POLL_MS,
    retry: false,
  });
  const answered = readMarkAndIndex(lever.data);
  const prices = {
    mark: sampled.data?.mark ?? readMarkAndIndex(ticker).mark ?? answered.mark,
    index: sampled.data?.index ?? readMarkAndIndex(ticker).index ?? answered.index,
  };
  const market = spot.data?.market;
  const lastPrice = feed?.transaction?.last_price || ticker?.now_price || spot.data?.last_price || null;
  const direction = directionOf(ticker?.change);
  const tape = useMemo(
    () => mergeTape(spot.data?.complete, feed?.trades),
    [spot.data?.complete, feed?.trades],
  );
  const bids = feed?.transaction?.in ?? spot.data?.in ?? [];
  const asks = feed?.transaction?.out ?? spot.data?.out ?? [];

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['lever'] });
  useSocketEvent('lever_trade', (_payload: LeverTradePayload) => refresh());
  useSocketEvent('update_balance', (payload: UpdateBalancePayload) => {
    if (payload.wallet === 'lever') refresh();
  });
  useEffect(() => onReconnect(() => refresh()), [queryClient]); // eslint-disable-line react-hooks/exhaustive-deps

  const priceScale = market?.price_scale ?? 2;
  const quoteScale = market?.legal_scale ?? 2;
  const risk = lever.data?.risk ?? null;

  return (
    <div className="fx-spot fx-lever" data-testid="lever-page" data-symbol={symbol}>
      <div className="fx-lever-grid">
        <div className="fx-lever-area-markets">
          <MarketList pair={pair} onChoose={choosePair} />
        </div>
        <div className="fx-lever-centre">
          <PairHeader
            symbol={symbol}
            market={market}
            lastPrice={lastPrice}
            direction={direction}
            ticker={ticker}
            prices={prices}
          />
          <section className="fx-spot-panel fx-lever-chart" aria-label={t('lever.chart')}>
            <PriceChart symbol={symbol} height={LEVER_CHART_HEIGHT} liveMark={prices.mark} />
          </section>
          {lever.data === undefined ? (
            <div className="fx-spot-panel fx-spot-panel-state">
              {lever.isError ? (
                <div role="alert">{lever.error.message}</div>
              ) : (
                <Spinner label={t('lever.loading')} />
              )}
            </div>
          ) : !lever.data.lever_available ? (
            <div className="fx-spot-panel fx-lever-closed" data-testid="lever-not-offered">
              {t('lever.notOffered', { symbol })}
            </div>
          ) : (
            <LeverForm
              pair={pair}
              deal={lever.data}
              priceScale={priceScale}
              quoteScale={quoteScale}
              mark={prices.mark}
              loggedIn={loggedIn}
              onPlaced={refresh}
            />
          )}
        </div>
        <div className="fx-lever-area-side">
          <section className="fx-spot-panel fx-lever-side-tabs">
            {market === undefined ? (
              <Spinner label={t('lever.loading')} />
            ) : (
              <CompactTabs
                activeKey={sideTab}
                onChange={(value) => setSideTab(value === 'trades' ? 'trades' : 'book')}
                tabs={[
                  {
                    key: 'book',
                    label: <span data-testid="lever-tab-book">{t('lever.book')}</span>,
                    children: (
                      <OrderBook
                        market={market}
                        bids={bids}
                        asks={asks}
                        lastPrice={lastPrice}
                        direction={direction}
                        onPickPrice={() => undefined}
                      />
                    ),
                  },
                  {
                    key: 'trades',
                    label: <span data-testid="lever-tab-trades">{t('lever.allTrades')}</span>,
                    children: <RecentTrades market={market} trades={tape} onPickPrice={() => undefined} />,
                  },
                ]}
              />
            )}
          </section>
        </div>
        <div className="fx-lever-area-positions">
          {loggedIn ? <RiskBar risk={risk} /> : null}
          <PositionsPanel
            pair={pair}
            loggedIn={loggedIn}
            markOf={(rowSymbol) => (rowSymbol === symbol ? prices.mark : null)}
          />
          <RiskNotice />
        </div>
      </div>
    </div>
  );
}
