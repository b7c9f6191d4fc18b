import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button, Pagination } from 'antd';
import { CompactTabs } from '../../components/trading/CompactTabs.tsx';
import { EmptyNote } from '../../components/trading/PanelStates.tsx';
import { dateTimeOf, withZone } from '../../components/trading/display.ts';
import { readDecimal } from '../../format/index.ts';
import { useMessage } from '../../app/message.tsx';
import { MICRO_PAGE_SIZE, fetchMicroExport, fetchMicroOrders, type MicroOrder } from '../../data/micro.ts';

// Running orders with a live countdown, and closed orders 20 a page with their time (accepted, display
// zone), duration, result, profit, fee and "Verify"; "Export CSV" downloads all of the user's orders with
// their proofs' fields, as the server reads them from the record (GET /microtrade/export). On a phone each order is a card of labelled values
// (micro.css), so that nothing needs a sideways scroll.

interface OrderListsProps {
  loggedIn: boolean;
  onSelect: (order: MicroOrder) => void;
  onVerify: (orderId: number) => void;
}

export function OrderLists({ loggedIn, onSelect, onVerify }: OrderListsProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'running' | 'closed'>('running');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const message = useMessage();
  const exportCsv = async () => {
    setExporting(true);
    try {
      const reply = await fetchMicroExport();
      downloadText(reply.filename, reply.csv, 'text/csv;charset=utf-8');
      void message.success(
        t(reply.truncated ? 'micro.exportTruncated' : 'micro.exportDone', { count: reply.rows }),
      );
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };
  const running = useQuery({
    queryKey: ['micro', 'orders', 1, 1],
    queryFn: ({ signal }) => fetchMicroOrders(1, 1, signal),
    enabled: loggedIn,
    refetchInterval: 5_000,
  });
  const closed = useQuery({
    queryKey: ['micro', 'orders', 3, page],
    queryFn: ({ signal }) => fetchMicroOrders(3, page, signal),
    enabled: loggedIn && tab === 'closed',
  });
  const now = useNow(100);
  // The countdown runs on the server's remaining time from the moment the list was read.
  const readAt = running.dataUpdatedAt;
  const live = (running.data?.data ?? []).filter((order) => order.remain_milli_seconds - (now - readAt) > 0);

  const runningContent = !loggedIn ? (
    <EmptyNote>{t('micro.loginToSee')}</EmptyNote>
  ) : live.length === 0 ? (
    <EmptyNote>{t('micro.noRunning')}</EmptyNote>
  ) : (
    <table className="fx-micro-table" data-testid="micro-running">
      <thead>
        <tr>
          <th>{t('micro.pair')}</th>
          <th>{t('micro.direction')}</th>
          <th>{t('micro.amount')}</th>
          <th>{t('micro.openPrice')}</th>
          <th>{t('micro.remaining')}</th>
        </tr>
      </thead>
      <tbody>
        {live.map((order) => (
          <tr key={order.id} onClick={() => onSelect(order)} data-testid={`micro-running-${order.id}`}>
            <td data-label={t('micro.pair')}>{order.symbol_name}</td>
            <td
              data-label={t('micro.direction')}
              className={order.type === 1 ? 'fx-micro-up-text' : 'fx-micro-down-text'}
            >
              {t(order.type === 1 ? 'micro.up' : 'micro.down')}
            </td>
            <td data-label={t('micro.amount')}>
              {order.number} {order.currency_name}
            </td>
            <td data-label={t('micro.openPrice')}>
              {order.open_price === '' ? t('micro.awaitingOpen') : order.open_price}
            </td>
            <td data-label={t('micro.remaining')} data-testid="micro-countdown">
              {t('micro.secondsLeft', {
                seconds: (Math.max(0, order.remain_milli_seconds - (now - readAt)) / 1000).toFixed(1),
              })}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  const timeTitle = withZone(t('micro.time'));
  const closedContent = !loggedIn ? (
    <EmptyNote>{t('micro.loginToSee')}</EmptyNote>
  ) : (closed.data?.data.length ?? 0) === 0 ? (
    <EmptyNote>{t('micro.noClosed')}</EmptyNote>
  ) : (
    <>
      <table className="fx-micro-table" data-testid="micro-closed">
        <thead>
          <tr>
            <th>{timeTitle}</th>
            <th>{t('micro.pair')}</th>
            <th>{t('micro.direction')}</th>
            <th>{t('micro.duration')}</th>
            <th>{t('micro.amount')}</th>
            <th>{t('micro.openPrice')}</th>
            <th>{t('micro.endPrice')}</th>
            <th>{t('micro.result')}</th>
            <th>{t('micro.profit')}</th>
            <th>{t('micro.fee')}</th>
            <th>
              <span className="fx-visually-hidden">{t('micro.verify')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {closed.data?.data.map((order) => (
            <tr key={order.id} onClick={() => onSelect(order)} data-testid={`micro-closed-${order.id}`}>
              <td data-label={timeTitle} data-testid="micro-closed-time">
                {dateTimeOf(order.created_time)}
              </td>
              <td data-label={t('micro.pair')}>{order.symbol_name}</td>
              <td
                data-label={t('micro.direction')}
                className={order.type === 1 ? 'fx-micro-up-text' : 'fx-micro-down-text'}
              >
                {t(order.type === 1 ? 'micro.up' : 'micro.down')}
              </td>
              <td data-label={t('micro.duration')} data-testid="micro-closed-duration">
                {t('micro.secondsValue', { seconds: order.seconds })}
              </td>
              <td data-label={t('micro.amount')}>
                {order.number} {order.currency_name}
              </td>
              <td data-label={t('micro.openPrice')}>{order.open_price || '-'}</td>
              <td data-label={t('micro.endPrice')}>{order.end_price || '-'}</td>
              <td data-label={t('micro.result')} data-testid="micro-result">
                {order.outcome === null ? '-' : t(`micro.outcome.${order.outcome}`)}
              </td>
              <td data-label={t('micro.profit')}>{order.fact_profits}</td>
              <td data-label={t('micro.fee')} data-testid="micro-closed-fee">
                {feeText(order, t)}
              </td>
              <td className="fx-micro-row-actions">
                <Button
                  size="small"
                  onClick={(event) => {
                    event.stopPropagation();
                    onVerify(order.id);
                  }}
                  data-testid={`micro-verify-${order.id}`}
                >
                  {t('micro.verify')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pagination
        size="small"
        current={page}
        pageSize={MICRO_PAGE_SIZE}
        total={closed.data?.total ?? 0}
        onChange={setPage}
        showSizeChanger={false}
      />
    </>
  );

  return (
    <section className="fx-micro-panel fx-micro-orders" data-testid="micro-orders">
      {loggedIn && (
        <div className="fx-micro-export">
          <Button
            size="small"
            loading={exporting}
            onClick={() => void exportCsv()}
            title={t('micro.exportHint')}
            data-testid="micro-export"
          >
            {t('micro.exportCsv')}
          </Button>
        </div>
      )}
      <CompactTabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'running' | 'closed')}
        tabs={[
          { key: 'running', label: t('micro.running'), children: runningContent },
          { key: 'closed', label: t('micro.closed'), children: closedContent },
        ]}
      />
    </section>
  );
}

/** The fee the order paid; on a void order, where it was returned, says so. */
function feeText(order: MicroOrder, t: TFunction): string {
  const fee = `${order.fee} ${order.currency_name}`;
  const refund = readDecimal(order.fee_refund);
  return refund !== null && refund.minor > 0n ? t('micro.feeReturned', { fee }) : fee;
}

/** Saves text as a file through a temporary object URL (the browser's own download). */
function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
