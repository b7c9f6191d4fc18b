import { useEffect, useState } from 'react';
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
import { fetchPayableCurrencies, fetchSeconds, type MicroOrder } from '../../data/micro.ts';
import { OrderLists } from './OrderLists.tsx';
import { StatsPanel } from './StatsPanel.tsx';
import { ProofView } from './ProofView.tsx';
import { TradePanel } from './TradePanel.tsx';
import '../spot/spot.css';
import './micro.css';

// Seconds contracts, /secondDealCenter (spec 02 section 2.5; docs/micro.md): the chart, the recorded mark
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

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['micro'] });
  useSocketEvent('closed_microorder', (payload: ClosedMicroOrderPayload) => {
    const order = payload.order as MicroOrder;
    void message.info(
      t('micro.settledToast', {
        id: order.id,
        outcome: order.outcome === null ? '' : t(`micro.outcome.${order.outcome}`),
        profit: order.fact_profits,
        currency: order.currency_name,
      }),
    );
    if (selected?.id === order.id) setSelected(order);
    refresh();
  });

  return (
    <div className="fx-spot fx-micro" data-testid="micro-page" data-symbol={symbol}>
      <div className="fx-micro-grid">
        <section className="fx-spot-panel fx-micro-chart" aria-label={t('micro.chart')}>
          <PriceChart symbol={symbol} height={380} />
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
