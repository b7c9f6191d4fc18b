import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ClosedMicroOrderPayload } from '@fairex/shared/socket-events.ts';
import { useMessage } from '../../app/message.tsx';
import { PriceChart } from '../../charts/index.ts';
import { useSocketEvent } from '../../data/feeds.ts';
import { useSession } from '../../data/session.ts';
import { MarketList } from '../../components/trading/MarketList.tsx';
import { choosePair, syncPairFromStorage, usePair } from '../spot/pair.ts';
import { pairSymbol, useDeal } from '../../data/spot.ts';
import { MarkTrail } from './MarkTrail.tsx';
import { fetchMicroOrders, fetchPayableCurrencies, fetchSeconds, type MicroOrder } from '../../data/micro.ts';
import { SETTLED_MARK_MS, orderChartMarks } from './chart-marks.ts';
import { OrderLists } from './OrderLists.tsx';
import { StatsPanel } from './StatsPanel.tsx';
import { ProofView } from './ProofView.tsx';
import { TradePanel } from './TradePanel.tsx';
import '../spot/spot.css';
import './micro.css';

// Seconds contracts, /secondDealCenter (spec 02 section 2.5; docs/micro.md): the candle chart with the user's
// running and just-settled orders of the pair marked on it (open, expiry, open price), the recorded mark
// around the chosen order with its open and expiry marked, the market list, the up/down panel, and the
// running (live countdown) and closed orders with "Verify". A settled order arrives as `closed_microorder`.

export default function MicroPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const message = useMessage();
  useEffect(() => syncPairFromStorage(), []);
  const pair = usePair();
  const symbol = pairSymbol(pair);
  const loggedIn = useSession((state) => state.token !== null);
  const deal = useDeal(pair, false);
  const seconds = useQuery({ queryKey: ['micro', 'seconds'], queryFn: ({ signal }) => fetchSeconds(signal) });
  const currencies = useQuery({
    queryKey: ['micro', 'currencies', loggedIn],
    queryFn: ({ signal }) => fetchPayableCurrencies(signal),
  });
  const [selected, setSelected] = useState<MicroOrder | null>(null);
  const [verifying, setVerifying] = useState<number | null>(null);
  // Orders settled while this page is open, kept marked on the chart for a while.
  const [justSettled, setJustSettled] = useState<{ order: MicroOrder; at: number }[]>([]);
  const running = useQuery({
    queryKey: ['micro', 'orders', 1, 1],
    queryFn: ({ signal }) => fetchMicroOrders(1, 1, signal),
    enabled: loggedIn,
    refetchInterval: 5_000,
  });
  useEffect(() => {
    if (justSettled.length === 0) return undefined;
    const first = Math.min(...justSettled.map((entry) => entry.at));
    const timer = setTimeout(
      () => setJustSettled((entries) => entries.filter((entry) => Date.now() - entry.at < SETTLED_MARK_MS)),
      Math.max(0, first + SETTLED_MARK_MS - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [justSettled]);
  const marks = useMemo(() => {
    const settledIds = new Set(justSettled.map((entry) => entry.order.id));
    const orders = [
      ...justSettled.map((entry) => entry.order),
      ...(selected !== null && !settledIds.has(selected.id) ? [selected] : []),
      ...(loggedIn ? (running.data?.data ?? []) : []).filter((order) => !settledIds.has(order.id)),
    ].filter((order) => order.symbol_name === symbol);
    return orderChartMarks(orders, t);
  }, [justSettled, selected, running.data, loggedIn, symbol, t]);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['micro'] });
  useSocketEvent('closed_microorder', (payload: ClosedMicroOrderPayload) => {
    // One message per user and settlement: several orders settled together come as `orders`.
    const orders = (payload.orders ?? [payload.order]) as MicroOrder[];
    if (orders.length > 3) void message.info(t('micro.settledManyToast', { count: orders.length }));
    else
      for (const order of orders)
        void message.info(
          t('micro.settledToast', {
            id: order.id,
            outcome: order.outcome === null ? '' : t(`micro.outcome.${order.outcome}`),
            profit: order.fact_profits,
            currency: order.currency_name,
          }),
        );
    const at = Date.now();
    setJustSettled((entries) => [
      ...entries.filter((entry) => !orders.some((order) => order.id === entry.order.id)),
      ...orders.map((order) => ({ order, at })),
    ]);
    const mine = orders.find((order) => order.id === selected?.id);
    if (mine !== undefined) setSelected(mine);
    refresh();
  });

  return (
    <div className="fx-spot fx-micro" data-testid="micro-page" data-symbol={symbol}>
      <div className="fx-micro-grid">
        <section className="fx-spot-panel fx-micro-chart" aria-label={t('micro.chart')}>
          <PriceChart symbol={symbol} height={380} moments={marks.moments} levels={marks.levels} />
          {marks.moments.length > 0 && (
            <ul
              className="fx-visually-hidden"
              aria-label={t('micro.chartMark.list')}
              data-testid="micro-chart-marks"
            >
              {marks.moments.map((moment) => (
                <li key={moment.key} data-key={moment.key}>
                  {moment.text}
                </li>
              ))}
            </ul>
          )}
          <MarkTrail symbol={symbol} order={selected} />
        </section>
        <div className="fx-micro-area-markets">
          <MarketList pair={pair} onChoose={choosePair} />
        </div>
        <div className="fx-micro-area-panel">
          <TradePanel
            marketId={deal.data?.market.id ?? null}
            symbol={symbol}
            loggedIn={loggedIn}
            seconds={seconds.data?.seconds ?? []}
            currencies={currencies.data ?? []}
            onPlaced={(order) => {
              setSelected(order);
              refresh();
            }}
          />
        </div>
        <div className="fx-micro-area-orders">
          <OrderLists loggedIn={loggedIn} onSelect={setSelected} onVerify={setVerifying} />
        </div>
        <div className="fx-micro-area-stats">
          <StatsPanel />
        </div>
      </div>
      <ProofView orderId={verifying} onClose={() => setVerifying(null)} />
    </div>
  );
}
