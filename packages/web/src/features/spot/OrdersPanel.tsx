import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Button } from 'antd';
import { openLoginDialog } from '../auth/auth-dialogs.ts';
import { formatPrice, groupThousands } from '../../format/index.ts';
import { CompactTabs } from '../../components/trading/CompactTabs.tsx';
import { CompactTable, type CompactColumn } from '../../components/trading/CompactTable.tsx';
import {
  fetchCompleted,
  fetchOpenOrders,
  pairSymbol,
  revokeOrder,
  type CompletedTrade,
  type OpenOrder,
  type OpenOrderSide,
  type Pair,
} from '../../data/spot.ts';
import { useMessage } from '../../app/message.tsx';
import { CompactSegmented } from '../../components/trading/CompactSegmented.tsx';
import { EmptyNote } from '../../components/trading/PanelStates.tsx';
import { dateTimeOf, withZone } from '../../components/trading/display.ts';
import { usePriceScales } from '../../data/market.ts';
import { openOrderStatusText, openOrderTypeText } from '../../components/trading/order-labels.ts';

// The user's orders under the trading panel (spec 01 sections 2 and 4): current orders with buy and sell
// sub-tabs and revoke (after a confirmation), and the order history - the user's fills, newest first -
// polled every 5 seconds, with "load more" once more than 8 rows are shown.

/** Spec 01 section 9. */
export const HISTORY_POLL_MS = 5_000;
export const LOAD_MORE_AFTER_ROWS = 8;

export const openOrdersKey = (pair: Pair, side: OpenOrderSide) =>
  ['spot', 'open-orders', pair.legalId, pair.currencyId, side] as const;
export const historyKey = (pair: Pair) => ['spot', 'history', pair.legalId, pair.currencyId] as const;

interface OrdersPanelProps {
  pair: Pair;
  loggedIn: boolean;
}

export function OrdersPanel({ pair, loggedIn }: OrdersPanelProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState('current');
  return (
    <section className="fx-spot-panel fx-spot-orders" data-testid="orders-panel">
      {loggedIn && (
        <Link to="/orders" className="fx-spot-all-orders" data-testid="all-orders-link">
          {t('spot.orders.allOrders')}
        </Link>
      )}
      <CompactTabs
        activeKey={tab}
        onChange={setTab}
        tabs={[
          {
            key: 'current',
            label: <span data-testid="tab-current">{t('spot.orders.current')}</span>,
            children: loggedIn ? <CurrentOrders pair={pair} /> : <LoginPrompt />,
          },
          {
            key: 'history',
            label: <span data-testid="tab-history">{t('spot.orders.history')}</span>,
            children: loggedIn ? <OrderHistory pair={pair} /> : <LoginPrompt />,
          },
        ]}
      />
    </section>
  );
}

function LoginPrompt() {
  const { t } = useTranslation();
  return (
    <div className="fx-spot-orders-login">
      <p className="fx-spot-muted">{t('spot.orders.loginPrompt')}</p>
      <Button type="primary" onClick={() => openLoginDialog()}>
        {t('spot.form.login')}
      </Button>
    </div>
  );
}

function SideLabel({ type }: { type: 'in' | 'out' }) {
  const { t } = useTranslation();
  return type === 'in' ? (
    <span className="is-up">{t('spot.orders.buy')}</span>
  ) : (
    <span className="is-down">{t('spot.orders.sell')}</span>
  );
}

function CurrentOrders({ pair }: { pair: Pair }) {
  const { t } = useTranslation();
  const scales = usePriceScales();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [side, setSide] = useState<OpenOrderSide>('in');
  const orders = useQuery({
    queryKey: openOrdersKey(pair, side),
    queryFn: ({ signal }) => fetchOpenOrders(side, pair, signal),
  });
  const revoke = async (order: OpenOrder) => {
    try {
      void message.success(await revokeOrder(order.id, order.type));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    }
    await queryClient.invalidateQueries({ queryKey: ['spot'] });
  };
  const columns: CompactColumn<OpenOrder>[] = [
    { key: 'time', title: withZone(t('spot.orders.time')), render: (order) => dateTimeOf(order.time) },
    { key: 'pair', title: t('spot.orders.pair'), render: (order) => order.symbol },
    { key: 'side', title: t('spot.orders.side'), render: (order) => <SideLabel type={order.type} /> },
    { key: 'type', title: t('orders.type'), render: (order) => openOrderTypeText(t, order) },
    {
      key: 'status',
      title: t('orders.statusTitle'),
      render: (order) => (
        <span data-testid="open-order-status">
          {openOrderStatusText(t, order, scales.byIds(order.legal_id, order.currency_id))}
        </span>
      ),
    },
    {
      key: 'price',
      title: t('spot.orders.price'),
      align: 'right',
      render: (order) => formatPrice(order.price, scales.byIds(order.legal_id, order.currency_id)),
    },
    { key: 'amount', title: t('spot.orders.amount'), align: 'right', render: (order) => order.total_number },
    {
      key: 'filled',
      title: t('spot.orders.filled'),
      align: 'right',
      render: (order) => order.complete_number,
    },
    { key: 'remaining', title: t('spot.orders.remaining'), align: 'right', render: (order) => order.number },
    {
      key: 'total',
      title: t('spot.orders.total'),
      align: 'right',
      render: (order) => groupThousands(order.total_money),
    },
    {
      key: 'action',
      title: t('spot.orders.action'),
      align: 'right',
      render: (order) => <RevokeButton order={order} onConfirm={() => revoke(order)} />,
    },
  ];
  return (
    <div data-testid="current-orders">
      <CompactSegmented
        size="small"
        className="fx-spot-subtabs"
        value={side}
        onChange={(value) => setSide(value === 'out' ? 'out' : 'in')}
        options={[
          { value: 'in', label: <span data-testid="subtab-buy">{t('spot.orders.buyOrders')}</span> },
          { value: 'out', label: <span data-testid="subtab-sell">{t('spot.orders.sellOrders')}</span> },
        ]}
      />
      <CompactTable<OpenOrder>
        caption={t('spot.orders.current')}
        columns={columns}
        rows={orders.data?.list ?? []}
        rowKey={(order) => order.id}
        loading={orders.isPending}
        empty={<EmptyNote>{t('spot.orders.empty', { pair: pairSymbol(pair) })}</EmptyNote>}
        rowTestId="open-order-row"
      />
    </div>
  );
}

function OrderHistory({ pair }: { pair: Pair }) {
  const { t } = useTranslation();
  const scales = usePriceScales();
  const history = useInfiniteQuery({
    queryKey: historyKey(pair),
    queryFn: ({ pageParam, signal }) => fetchCompleted(pair, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.current_page < last.last_page ? last.current_page + 1 : undefined),
    refetchInterval: HISTORY_POLL_MS,
  });
  const rows = history.data?.pages.flatMap((page) => page.list) ?? [];
  const columns: CompactColumn<CompletedTrade>[] = [
    { key: 'time', title: withZone(t('spot.orders.time')), render: (trade) => dateTimeOf(trade.time_ms) },
    { key: 'pair', title: t('spot.orders.pair'), render: (trade) => trade.symbol },
    { key: 'side', title: t('spot.orders.side'), render: (trade) => <SideLabel type={trade.type} /> },
    {
      key: 'price',
      title: t('spot.orders.price'),
      align: 'right',
      render: (trade) => formatPrice(trade.price, scales.byIds(trade.legal_id, trade.currency_id)),
    },
    { key: 'amount', title: t('spot.orders.amount'), align: 'right', render: (trade) => trade.number },
    {
      key: 'total',
      title: t('spot.orders.total'),
      align: 'right',
      render: (trade) => groupThousands(trade.total_money),
    },
    {
      key: 'fee',
      title: t('spot.orders.fee'),
      align: 'right',
      render: (trade) =>
        trade.type === 'in'
          ? `${trade.in_fee} ${trade.currency_name}`
          : `${trade.out_fee} ${trade.legal_name}`,
    },
    {
      key: 'role',
      title: t('spot.orders.role'),
      render: (trade) => t(trade.role === 'maker' ? 'spot.orders.maker' : 'spot.orders.taker'),
    },
  ];
  return (
    <div data-testid="order-history">
      <CompactTable<CompletedTrade>
        caption={t('spot.orders.history')}
        columns={columns}
        rows={rows}
        rowKey={(trade) => trade.id}
        loading={history.isPending}
        empty={<EmptyNote>{t('spot.orders.historyEmpty')}</EmptyNote>}
        rowTestId="history-row"
      />
      {rows.length > LOAD_MORE_AFTER_ROWS && history.hasNextPage && (
        <div className="fx-spot-load-more">
          <Button
            onClick={() => void history.fetchNextPage()}
            loading={history.isFetchingNextPage}
            data-testid="history-load-more"
          >
            {t('spot.orders.loadMore')}
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * Revoke, then an inline question with yes and no in the row itself, so that a stray click never revokes.
 * (antd's Popconfirm would load its popup code into the trading page for this one question.)
 */
function RevokeButton({ order, onConfirm }: { order: OpenOrder; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking)
    return (
      <Button
        size="small"
        type="link"
        danger
        data-testid={`revoke-${order.id}`}
        onClick={() => setAsking(true)}
      >
        {t('spot.orders.revoke')}
      </Button>
    );
  return (
    <span className="fx-spot-confirm" role="group" aria-label={t('spot.orders.revokeConfirm')}>
      <span className="fx-spot-muted">{t('spot.orders.revokeConfirm')}</span>
      <Button size="small" onClick={() => setAsking(false)} disabled={busy} autoFocus>
        {t('spot.orders.no')}
      </Button>
      <Button
        size="small"
        type="primary"
        danger
        loading={busy}
        onClick={() => {
          setBusy(true);
          void onConfirm().finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {t('spot.orders.yes')}
      </Button>
    </span>
  );
}
