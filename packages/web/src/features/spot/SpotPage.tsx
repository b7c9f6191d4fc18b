import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import type { UpdateBalancePayload } from '@fairex/shared/socket-events.ts';
import { PriceChart } from '../../charts/index.ts';
import { DepthChart } from '../../charts/DepthChart.tsx';
import { useFeedStale, useMarketFeed, useSocketEvent, useTickers } from '../../data/feeds.ts';
import { ConnectionBadge } from '../../components/ConnectionBadge.tsx';
import { onReconnect } from '../../data/market-feeds.ts';
import { useBoardQuotations } from '../../data/market.ts';
import { fetchLatestMarkAndIndex, readMarkAndIndex } from '../../data/mark-price.ts';
import { useSession } from '../../data/session.ts';
import { directionOf } from '../../format/index.ts';
import { NoticesStrip } from '../news/NoticesStrip.tsx';
import { CurrencyIntro } from './CurrencyIntro.tsx';
import { MarketList } from '../../components/trading/MarketList.tsx';
import { OrderBook } from '../../components/trading/OrderBook.tsx';
import { OrderForm, type PickedPrice } from './OrderForm.tsx';
import { OrdersPanel } from './OrdersPanel.tsx';
import { PairHeader } from '../../components/trading/PairHeader.tsx';
import { RecentTrades, mergeTape } from '../../components/trading/RecentTrades.tsx';
import { choosePair, symbolForQuery, symbolFromQuery, syncPairFromStorage, usePair } from './pair.ts';
import { dealKey, pairSymbol, useDeal, type SpotDeal } from '../../data/spot.ts';
import './spot.css';
import { Spinner } from '../../components/trading/PanelStates.tsx';

// The spot trading centre, /dealCenter (spec 01 section 2): the notices strip, the price header, the book,
// the chart with the buy and sell panel, the market list and the tape, then the user's orders and the currency introduction.
// Server state comes from /api/transaction/deal and the order lists; live state from the socket feeds:
// `transaction` (the book), `market_detail` (trades), `daymarket` (the header) and `update_balance`.

/** The mark price moves every second whether or not anyone trades; the header asks for it this often. */
const MARK_POLL_MS = 5_000;

/** Pushes arrive in bursts; lists are refetched once a burst is over. */
const REFRESH_DEBOUNCE_MS = 300;

export default function SpotPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  useEffect(() => syncPairFromStorage(), []);
  const pair = usePair();
  const symbol = pairSymbol(pair);
  usePairInAddress(symbol);
  const loggedIn = useSession((state) => state.token !== null);
  const deal = useDeal(pair, loggedIn);
  const feed = useMarketFeed(symbol);
  const tickers = useTickers();
  const ticker = tickers[symbol];
  const [picked, setPicked] = useState<PickedPrice | null>(null);
  const book = useFreshestBook(deal.data, deal.dataUpdatedAt, feed?.transaction);
  const lastPrice =
    nonEmpty(feed?.transaction?.last_price) ?? nonEmpty(ticker?.now_price) ?? deal.data?.last_price ?? null;
  const direction = directionOf(ticker?.change);
  const sampled = useQuery({
    queryKey: ['spot', 'mark', symbol],
    queryFn: ({ signal }) => fetchLatestMarkAndIndex(symbol, Date.now(), signal),
    refetchInterval: MARK_POLL_MS,
    retry: false,
  });
  // The latest sample first; then the ticker's push; then the trading answer.
  const pushedPrices = readMarkAndIndex(ticker);
  const answeredPrices = readMarkAndIndex(deal.data);
  const prices = {
    mark: sampled.data?.mark ?? pushedPrices.mark ?? answeredPrices.mark,
    index: sampled.data?.index ?? pushedPrices.index ?? answeredPrices.index,
  };
  const tape = useMemo(
    () => mergeTape(deal.data?.complete, feed?.trades),
    [deal.data?.complete, feed?.trades],
  );
  const refresh = useDebouncedRefresh(REFRESH_DEBOUNCE_MS);

  // A balance push carries the wallet as its batch left it: apply it at once, then refresh the lists.
  useSocketEvent('update_balance', (payload: UpdateBalancePayload) => {
    if (payload.wallet !== 'change') return;
    if (payload.currency_id !== pair.currencyId && payload.currency_id !== pair.legalId) return;
    queryClient.setQueryData<SpotDeal>(dealKey(pair, true), (current) =>
      patchBalance(current, payload, pair.currencyId),
    );
    refresh(() => queryClient.invalidateQueries({ queryKey: ['spot', 'open-orders'] }));
    refresh(() => queryClient.invalidateQueries({ queryKey: ['spot', 'history'] }), 'history');
  });

  // Without a live trades feed, a new book push is the sign to fetch the latest trades with the book.
  const transactionSeq = feed?.transaction?.seq;
  const hasTradeFeed = feed?.trades !== undefined;
  useEffect(() => {
    if (transactionSeq !== undefined && !hasTradeFeed) {
      refresh(() => queryClient.invalidateQueries({ queryKey: dealKey(pair, loggedIn) }), 'deal');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the push sequence alone triggers this.
  }, [transactionSeq]);

  // Pushes sent while the connection was down are lost: fetch the book, balances and lists again.
  useEffect(
    () => onReconnect(() => void queryClient.invalidateQueries({ queryKey: ['spot'] })),
    [queryClient],
  );

  const pickPrice = (price: string) => setPicked({ price: price.replace(/,/g, ''), nonce: Date.now() });
  const market = deal.data?.market;
  // While the connection is down the book, the tape, the prices and the chart stop moving: they are greyed
  // out (spot.css, `data-stale`) until the reconnect has subscribed again and the lists were refetched.
  const stale = useFeedStale();
  // On a phone (spot.css, up to 599 px) the chart, the book and the trades share one place behind tabs,
  // and the order form shows the side picked in the bar at the bottom of the screen.
  const [phoneTab, setPhoneTab] = useState<PhoneTab>('chart');
  const [chartView, setChartView] = useState<'candles' | 'depth'>('candles');
  const [phoneSide, setPhoneSide] = useState<'buy' | 'sell'>('buy');
  const formRef = useRef<HTMLDivElement>(null);
  const openPhoneForm = (side: 'buy' | 'sell') => {
    setPhoneSide(side);
    formRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  return (
    <div
      className="fx-spot"
      data-testid="spot-page"
      data-symbol={symbol}
      data-stale={stale}
      data-phone-tab={phoneTab}
      data-phone-side={phoneSide}
    >
      <div className="fx-spot-grid">
        <div className="fx-spot-topbar">
          <NoticesStrip className="fx-spot-notices" />
          <ConnectionBadge />
        </div>
        <PairHeader
          symbol={symbol}
          market={market}
          lastPrice={lastPrice}
          direction={direction}
          ticker={ticker}
          prices={prices}
        />
        <div className="fx-spot-phone-tabs" role="tablist" aria-label={t('spot.phone.views')}>
          {PHONE_TABS.map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={phoneTab === tab}
              className={phoneTab === tab ? 'fx-spot-phone-tab is-active' : 'fx-spot-phone-tab'}
              onClick={() => setPhoneTab(tab)}
              data-testid={`phone-tab-${tab}`}
            >
              {t(`spot.phone.${tab}`)}
            </button>
          ))}
        </div>
        <div className="fx-spot-area-book">
          {market === undefined ? (
            <PanelState loading={deal.isPending} error={deal.error} onRetry={() => void deal.refetch()} />
          ) : (
            <OrderBook
              market={market}
              bids={book.bids}
              asks={book.asks}
              lastPrice={lastPrice}
              direction={direction}
              onPickPrice={pickPrice}
            />
          )}
        </div>
        <section className="fx-spot-panel fx-spot-chart" aria-label={t('spot.chart')}>
          <div className="fx-spot-chart-views" role="tablist" aria-label={t('chart.views')}>
            {(['candles', 'depth'] as const).map((view) => (
              <button
                key={view}
                type="button"
                role="tab"
                aria-selected={chartView === view}
                className={chartView === view ? 'fx-spot-chart-view is-active' : 'fx-spot-chart-view'}
                onClick={() => setChartView(view)}
                data-testid={`chart-view-${view}`}
              >
                {t(`chart.${view}`)}
              </button>
            ))}
          </div>
          {chartView === 'candles' ? (
            <PriceChart symbol={symbol} height={CHART_HEIGHT} />
          ) : (
            <DepthChart
              bids={book.bids}
              asks={book.asks}
              base={pair.currencyName}
              quote={pair.legalName}
              priceScale={market?.price_scale}
              height={CHART_HEIGHT}
            />
          )}
        </section>
        <div className="fx-spot-area-form" ref={formRef}>
          {market === undefined ? (
            <PanelState loading={deal.isPending} error={deal.error} onRetry={() => void deal.refetch()} />
          ) : (
            <OrderForm
              pair={pair}
              market={market}
              loggedIn={loggedIn}
              lastPrice={lastPrice}
              quoteAvailable={deal.data?.user_legal ?? null}
              baseAvailable={deal.data?.user_currency ?? null}
              picked={picked}
              onPlaced={() => {
                void queryClient.invalidateQueries({ queryKey: ['spot'] });
              }}
            />
          )}
        </div>
        <div className="fx-spot-area-markets">
          <MarketList pair={pair} onChoose={choosePair} />
        </div>
        <div className="fx-spot-area-trades">
          {market !== undefined && <RecentTrades market={market} trades={tape} onPickPrice={pickPrice} />}
        </div>
        <div className="fx-spot-area-orders">
          <OrdersPanel pair={pair} loggedIn={loggedIn} />
        </div>
        <div className="fx-spot-area-intro">
          <CurrencyIntro currencyId={pair.currencyId} code={pair.currencyName} />
        </div>
      </div>
      <div className="fx-spot-phone-bar" data-testid="phone-bar">
        <Button
          className="fx-spot-submit is-buy"
          type="primary"
          onClick={() => openPhoneForm('buy')}
          data-testid="phone-buy"
        >
          {t('spot.orders.buy')}
        </Button>
        <Button
          className="fx-spot-submit is-sell"
          type="primary"
          onClick={() => openPhoneForm('sell')}
          data-testid="phone-sell"
        >
          {t('spot.orders.sell')}
        </Button>
      </div>
    </div>
  );
}

/** The chart's place is 460 px high; the switch between candles and depth takes the top 30. */
const CHART_HEIGHT = 430;

const PHONE_TABS = ['chart', 'book', 'trades'] as const;
type PhoneTab = (typeof PHONE_TABS)[number];

function nonEmpty(text: string | undefined | null): string | null {
  return typeof text === 'string' && text !== '' ? text : null;
}

function PanelState({
  loading,
  error,
  onRetry,
}: {
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <div className="fx-spot-panel fx-spot-panel-state">
        <Spinner label={t('spot.loading')} />
      </div>
    );
  }
  return (
    <div className="fx-spot-panel fx-spot-panel-state">
      {/* Not antd's Result: its illustrations would double this page's first download for a rare state. */}
      <div className="fx-spot-error" role="alert">
        <WarningFilled className="fx-spot-error-icon" />
        <div className="fx-spot-error-title">{t('spot.loadError')}</div>
        {error?.message && <div className="fx-spot-error-detail">{error.message}</div>}
        <Button onClick={onRetry}>{t('spot.retry')}</Button>
      </div>
    </div>
  );
}

/**
 * The book to draw: the `transaction` push when it is newer than the trading answer, else the answer's
 * book. Both describe committed states; the later one wins.
 */
function useFreshestBook(
  deal: SpotDeal | undefined,
  dealUpdatedAtMs: number,
  pushed: { in: { price: string; number: string }[]; out: { price: string; number: string }[] } | undefined,
) {
  const [pushedAtMs, setPushedAtMs] = useState(0);
  useEffect(() => {
    if (pushed !== undefined) setPushedAtMs(Date.now());
  }, [pushed]);
  const usePush = pushed !== undefined && pushedAtMs >= dealUpdatedAtMs;
  return {
    bids: usePush ? pushed.in : (deal?.in ?? []),
    asks: usePush ? pushed.out : (deal?.out ?? []),
  };
}

/** Runs each named job once, a moment after the last time it was asked for. */
function useDebouncedRefresh(delayMs: number) {
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);
  return (job: () => unknown, name = 'lists') => {
    const pending = timers.current;
    const existing = pending.get(name);
    if (existing !== undefined) clearTimeout(existing);
    pending.set(
      name,
      setTimeout(() => {
        pending.delete(name);
        void job();
      }, delayMs),
    );
  };
}

/** The trading answer with one wallet's new balance (the change wallet of the base or quote currency). */
export function patchBalance(
  deal: SpotDeal | undefined,
  payload: UpdateBalancePayload,
  baseCurrencyId: number,
): SpotDeal | undefined {
  if (deal === undefined) return deal;
  return payload.currency_id === baseCurrencyId
    ? { ...deal, user_currency: payload.balance, user_currency_lock: payload.lock_balance }
    : { ...deal, user_legal: payload.balance, user_legal_lock: payload.lock_balance };
}

/**
 * The pair in the address (`/dealCenter?symbol=ETH_USDT`), so that a market can be linked: a symbol in
 * the address is opened once the market list knows it (an unknown one is replaced by the pair shown),
 * and a pair picked on the page is written back into the address.
 */
function usePairInAddress(symbol: string): void {
  const [params, setParams] = useSearchParams();
  const quotations = useBoardQuotations();
  const wanted = symbolFromQuery(params.get('symbol'));
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (wanted !== null && wanted !== applied.current && wanted !== symbol) {
      if (quotations.data === undefined && !quotations.isError) return;
      applied.current = wanted;
      const found = quotations.data?.find(
        (quotation) => `${quotation.currency_name}/${quotation.legal_name}` === wanted,
      );
      if (found !== undefined) {
        choosePair({
          legalId: found.legal_id,
          currencyId: found.currency_id,
          legalName: found.legal_name,
          currencyName: found.currency_name,
        });
        return;
      }
    }
    applied.current = symbol;
    if (params.get('symbol') !== symbolForQuery(symbol)) {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('symbol', symbolForQuery(symbol));
          return next;
        },
        { replace: true },
      );
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the address, the pair and the list decide.
  }, [wanted, symbol, quotations.data, quotations.isError]);
}
