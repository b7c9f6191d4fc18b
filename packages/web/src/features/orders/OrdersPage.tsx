import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Pagination, Popconfirm, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { formatPrice, groupThousands, NO_VALUE } from '../../format/index.ts';
import { CompactTabs } from '../../components/trading/CompactTabs.tsx';
import { CompactTable, type CompactColumn } from '../../components/trading/CompactTable.tsx';
import { EmptyNote } from '../../components/trading/PanelStates.tsx';
import { dateTimeOf, withZone } from '../../components/trading/display.ts';
import { openOrderStatusText, openOrderTypeText } from '../../components/trading/order-labels.ts';
import { displayTimeZone, displayZoneLabel } from '../../app/preferences/preferences.ts';
import { dateIn, dayRangeIn } from '../../format/time-zone.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { loadDayjsLocale } from '../../i18n/vendor-locales.ts';
import { useMessage } from '../../app/message.tsx';
import { useSocketEvent } from '../../data/feeds.ts';
import { revokeOrder } from '../../data/spot.ts';
import { symbolOf, useBoardQuotations, usePriceScales } from '../../data/market.ts';
import {
  cancelAllOrders,
  fetchAllOpenOrders,
  fetchOrderHistory,
  type HistoryStatusFilter,
  type SpotHistoryOrderRow,
  type SpotOpenOrderRow,
} from '../../data/orders.ts';
import '../spot/spot.css';
import './orders.css';

// The orders page across all pairs (issue 21): open orders (open, partly filled, stop-limit pending) and
// order history (filled, partly filled then cancelled, cancelled, with the average price, the fees and why
// it was cancelled), filtered by pair, side, status and time, a page at a time; cancel one, and cancel all
// of one pair or everywhere after a confirmation. All figures are the server's decimal text.

export const ORDERS_PAGE_SIZE = 20;
export const OPEN_POLL_MS = 5_000;

/** Time ranges the filter offers, in milliseconds back from now (0: all time). */
export const TIME_RANGES = { all: 0, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;
type TimeRange = keyof typeof TIME_RANGES;

/** The time filter: a preset back from now, or whole calendar days ("YYYY-MM-DD") of the display zone. */
type TimeFilter = { range: TimeRange } | { from: string; to: string };

interface Filters {
  symbol: string | undefined;
  side: 'buy' | 'sell' | undefined;
  time: TimeFilter;
}

const DATE_FORMAT = 'YYYY-MM-DD';

/** The creation-time bounds the server filters on; a picked range covers its days in the display zone. */
function boundsOf(time: TimeFilter): { startMs?: number; endMs?: number } {
  if ('from' in time) return dayRangeIn(displayTimeZone(), time.from, time.to);
  return time.range === 'all' ? {} : { startMs: Date.now() - TIME_RANGES[time.range] };
}

/** A stable query key part for the time filter. */
function timeKey(time: TimeFilter): string {
  return 'from' in time ? `${time.from}..${time.to}` : time.range;
}

export default function OrdersPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('open');
  const [filters, setFilters] = useState<Filters>({
    symbol: undefined,
    side: undefined,
    time: { range: 'all' },
  });
  return (
    <RequireLogin>
      <main className="fx-orders-page" data-testid="orders-page">
        <h1 className="fx-orders-title">{t('orders.title')}</h1>
        <FilterBar filters={filters} onChange={setFilters} />
        <section className="fx-spot-panel fx-orders-panel">
          <CompactTabs
            activeKey={tab}
            onChange={setTab}
            tabs={[
              {
                key: 'open',
                label: <span data-testid="orders-tab-open">{t('orders.open')}</span>,
                children: <OpenOrders filters={filters} />,
              },
              {
                key: 'history',
                label: <span data-testid="orders-tab-history">{t('orders.history')}</span>,
                children: <History filters={filters} />,
              },
            ]}
          />
        </section>
      </main>
    </RequireLogin>
  );
}

function FilterBar({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const { t } = useTranslation();
  const markets = useBoardQuotations();
  const symbols = [...new Set((markets.data ?? []).map((quotation) => symbolOf(quotation)))];
  return (
    <div className="fx-orders-filters" role="group" aria-label={t('orders.filters')}>
      <label className="fx-orders-filter">
        <span>{t('orders.pair')}</span>
        <Select
          data-testid="orders-filter-pair"
          value={filters.symbol ?? ''}
          onChange={(value: string) => onChange({ ...filters, symbol: value === '' ? undefined : value })}
          options={[
            { value: '', label: t('orders.allPairs') },
            ...symbols.map((symbol) => ({ value: symbol, label: symbol })),
          ]}
          showSearch
          popupMatchSelectWidth={false}
        />
      </label>
      <label className="fx-orders-filter">
        <span>{t('orders.side')}</span>
        <Select
          data-testid="orders-filter-side"
          value={filters.side ?? ''}
          onChange={(value: string) =>
            onChange({ ...filters, side: value === 'buy' || value === 'sell' ? value : undefined })
          }
          options={[
            { value: '', label: t('orders.allSides') },
            { value: 'buy', label: t('spot.orders.buy') },
            { value: 'sell', label: t('spot.orders.sell') },
          ]}
        />
      </label>
      <TimeFilterControls time={filters.time} onChange={(time) => onChange({ ...filters, time })} />
    </div>
  );
}

/**
 * The presets and, beside them, a date range picker. The picker's days are calendar days of the display
 * zone (Asia/Shanghai unless the reader chose another), labelled with its offset; days after today there
 * cannot be picked. Picking a preset clears the dates, clearing the dates returns to all time.
 */
function TimeFilterControls({ time, onChange }: { time: TimeFilter; onChange: (next: TimeFilter) => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  useEffect(() => void loadDayjsLocale(language), [language]);
  const zone = displayTimeZone();
  const today = dateIn(zone, Date.now());
  const custom = 'from' in time;
  const presets = (Object.keys(TIME_RANGES) as TimeRange[]).map((range) => ({
    value: range as string,
    label: t(`orders.range.${range}`),
  }));
  return (
    <>
      <label className="fx-orders-filter">
        <span>{t('orders.time')}</span>
        <Select
          data-testid="orders-filter-time"
          value={custom ? 'custom' : time.range}
          onChange={(value: string) => {
            if (value in TIME_RANGES) onChange({ range: value as TimeRange });
          }}
          options={
            custom
              ? [...presets, { value: 'custom', label: t('orders.range.custom'), disabled: true }]
              : presets
          }
          popupMatchSelectWidth={false}
        />
      </label>
      <label className="fx-orders-filter fx-orders-dates" data-testid="orders-filter-dates">
        <span>{t('orders.dates', { zone: displayZoneLabel() })}</span>
        <DatePicker.RangePicker
          size="middle"
          format={DATE_FORMAT}
          classNames={{ popup: { root: 'fx-orders-dates-popup' } }}
          value={custom ? [dayjs(time.from, DATE_FORMAT), dayjs(time.to, DATE_FORMAT)] : null}
          placeholder={[t('orders.dateFrom'), t('orders.dateTo')]}
          disabledDate={(day: Dayjs) => day.format(DATE_FORMAT) > today}
          onChange={(days) => {
            const [from, to] = days ?? [];
            if (from && to) onChange({ from: from.format(DATE_FORMAT), to: to.format(DATE_FORMAT) });
            else onChange({ range: 'all' });
          }}
        />
      </label>
    </>
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

function Pager({
  page,
  total,
  onChange,
  testId,
}: {
  page: number;
  total: number;
  onChange: (page: number) => void;
  testId: string;
}) {
  if (total <= ORDERS_PAGE_SIZE) return null;
  return (
    <div className="fx-orders-pager" data-testid={testId}>
      <Pagination
        size="small"
        current={page}
        pageSize={ORDERS_PAGE_SIZE}
        total={total}
        onChange={onChange}
        showSizeChanger={false}
      />
    </div>
  );
}

function OpenOrders({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const scales = usePriceScales();
  const message = useMessage();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const query = {
    symbol: filters.symbol,
    side: filters.side,
    ...boundsOf(filters.time),
    page,
    perPage: ORDERS_PAGE_SIZE,
  };
  // A fill of one's own order, on any pair, changes the lists at once (the poll is the fallback).
  useSocketEvent('my_fill', () => void queryClient.invalidateQueries({ queryKey: ['orders'] }));
  const orders = useQuery({
    queryKey: ['orders', 'open', filters.symbol, filters.side, timeKey(filters.time), page],
    queryFn: ({ signal }) => fetchAllOpenOrders(query, signal),
    refetchInterval: OPEN_POLL_MS,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['orders'] });
  const revoke = async (order: SpotOpenOrderRow) => {
    try {
      void message.success(await revokeOrder(order.id, order.type));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    }
    await refresh();
  };
  const cancelAll = async () => {
    try {
      const result = await cancelAllOrders(filters.symbol ?? null);
      void message.success(result.message);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    }
    setPage(1);
    await refresh();
  };
  const columns: CompactColumn<SpotOpenOrderRow>[] = [
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
      render: (o) => formatPrice(o.price, scales.byIds(o.legal_id, o.currency_id)),
    },
    { key: 'amount', title: t('spot.orders.amount'), align: 'right', render: (o) => o.total_number },
    { key: 'filled', title: t('spot.orders.filled'), align: 'right', render: (o) => o.complete_number },
    {
      key: 'total',
      title: t('spot.orders.total'),
      align: 'right',
      render: (o) => `${groupThousands(o.total_money)} ${o.legal_name}`,
    },
    {
      key: 'action',
      title: t('spot.orders.action'),
      align: 'right',
      render: (order) => (
        <Popconfirm
          title={t('spot.orders.revokeConfirm')}
          okText={t('spot.orders.yes')}
          cancelText={t('spot.orders.no')}
          onConfirm={() => revoke(order)}
        >
          <Button size="small" type="link" danger data-testid={`orders-revoke-${order.id}`}>
            {t('spot.orders.revoke')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  const rows = orders.data?.list ?? [];
  return (
    <div data-testid="orders-open">
      <div className="fx-orders-actions">
        <Popconfirm
          title={
            filters.symbol === undefined
              ? t('orders.cancelAllConfirm')
              : t('orders.cancelPairConfirm', { pair: filters.symbol })
          }
          okText={t('spot.orders.yes')}
          cancelText={t('spot.orders.no')}
          okButtonProps={{ danger: true }}
          onConfirm={cancelAll}
          disabled={rows.length === 0}
        >
          <Button danger size="small" disabled={rows.length === 0} data-testid="orders-cancel-all">
            {filters.symbol === undefined
              ? t('orders.cancelAll')
              : t('orders.cancelPair', { pair: filters.symbol })}
          </Button>
        </Popconfirm>
      </div>
      {orders.error ? <Alert type="error" showIcon message={orders.error.message} /> : null}
      <CompactTable<SpotOpenOrderRow>
        caption={t('orders.open')}
        columns={columns}
        rows={rows}
        rowKey={(order) => order.id}
        loading={orders.isPending}
        empty={<EmptyNote>{t('orders.openEmpty')}</EmptyNote>}
        rowTestId="orders-open-row"
      />
      <Pager page={page} total={orders.data?.total ?? 0} onChange={setPage} testId="orders-open-pager" />
    </div>
  );
}

function History({ filters }: { filters: Filters }) {
  const { t } = useTranslation();
  const scales = usePriceScales();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<HistoryStatusFilter | undefined>(undefined);
  const history = useQuery({
    queryKey: ['orders', 'history', filters.symbol, filters.side, timeKey(filters.time), status, page],
    queryFn: ({ signal }) =>
      fetchOrderHistory(
        {
          symbol: filters.symbol,
          side: filters.side,
          ...boundsOf(filters.time),
          status,
          page,
          perPage: ORDERS_PAGE_SIZE,
        },
        signal,
      ),
  });
  const statusText = (order: SpotHistoryOrderRow) => {
    const base = t(`orders.status.${order.status}`);
    return order.cancel_reason === null ? base : `${base} · ${t(`orders.reason.${order.cancel_reason}`)}`;
  };
  const columns: CompactColumn<SpotHistoryOrderRow>[] = [
    { key: 'time', title: withZone(t('spot.orders.time')), render: (order) => dateTimeOf(order.time) },
    { key: 'pair', title: t('spot.orders.pair'), render: (order) => order.symbol },
    { key: 'side', title: t('spot.orders.side'), render: (order) => <SideLabel type={order.type} /> },
    {
      key: 'type',
      title: t('orders.type'),
      render: (order) => t(order.mode === 1 ? 'spot.form.market' : 'spot.form.limit'),
    },
    {
      key: 'status',
      title: t('orders.statusTitle'),
      render: (order) => <span data-testid="history-order-status">{statusText(order)}</span>,
    },
    {
      key: 'price',
      title: t('spot.orders.price'),
      align: 'right',
      render: (o) =>
        o.price === null
          ? t('spot.form.market')
          : formatPrice(o.price, scales.byIds(o.legal_id, o.currency_id)),
    },
    {
      key: 'average',
      title: t('orders.average'),
      align: 'right',
      render: (o) =>
        o.average_price === null
          ? NO_VALUE
          : formatPrice(o.average_price, scales.byIds(o.legal_id, o.currency_id)),
    },
    {
      key: 'filled',
      title: t('orders.filledOfAmount'),
      align: 'right',
      render: (o) => `${o.complete_number} / ${o.total_number}`,
    },
    {
      key: 'deal',
      title: t('spot.orders.total'),
      align: 'right',
      render: (o) => `${groupThousands(o.deal_money)} ${o.legal_name}`,
    },
    { key: 'fee', title: t('spot.orders.fee'), align: 'right', render: (o) => `${o.fee} ${o.fee_currency}` },
  ];
  return (
    <div data-testid="orders-history">
      <div className="fx-orders-actions">
        <label className="fx-orders-filter">
          <span>{t('orders.statusTitle')}</span>
          <Select
            data-testid="orders-filter-status"
            value={status ?? ''}
            onChange={(value: string) => {
              setPage(1);
              setStatus(value === '' ? undefined : (value as HistoryStatusFilter));
            }}
            options={[
              { value: '', label: t('orders.allStatuses') },
              { value: 'filled', label: t('orders.status.filled') },
              { value: 'partially_filled_cancelled', label: t('orders.status.partially_filled_cancelled') },
              { value: 'cancelled', label: t('orders.status.cancelled') },
            ]}
            popupMatchSelectWidth={false}
          />
        </label>
      </div>
      {history.error ? <Alert type="error" showIcon message={history.error.message} /> : null}
      <CompactTable<SpotHistoryOrderRow>
        caption={t('orders.history')}
        columns={columns}
        rows={history.data?.list ?? []}
        rowKey={(order) => order.id}
        loading={history.isPending}
        empty={<EmptyNote>{t('orders.historyEmpty')}</EmptyNote>}
        rowTestId="orders-history-row"
      />
      <Pager page={page} total={history.data?.total ?? 0} onChange={setPage} testId="orders-history-pager" />
    </div>
  );
}
