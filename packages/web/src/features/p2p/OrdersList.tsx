import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Badge, Pagination, Tag } from 'antd';
import { useMyOrders, type OrderListStatus, type P2pOrder } from '../../data/p2p.ts';
import { dateTimeOf } from '../../components/trading/display.ts';
import { EmptyNote, Spinner } from '../../components/trading/PanelStates.tsx';
import { Countdown } from './parts.tsx';

// The user's orders, as buyer or seller, by state: a card per order (phones) that reads as a row on wide
// screens, each a link to its order room with the countdown while unpaid and the unread chat count.

const STATUS_TABS: readonly OrderListStatus[] = ['open', 'appealed', 'completed', 'cancelled'];

export function OrdersList({ testId = 'p2p-orders' }: { testId?: string }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<OrderListStatus>('open');
  const [page, setPage] = useState(1);
  const orders = useMyOrders(status, page);
  return (
    <section className="fx-p2p-orders" data-testid={testId}>
      <div className="fx-p2p-subtabs" role="tablist">
        {STATUS_TABS.map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={key === status}
            className={key === status ? 'fx-p2p-subtab is-active' : 'fx-p2p-subtab'}
            onClick={() => {
              setStatus(key);
              setPage(1);
            }}
            data-testid={`${testId}-tab-${key}`}
          >
            {t(`p2p.orders.${key}`)}
          </button>
        ))}
      </div>
      {orders.isPending ? (
        <div className="fx-p2p-center">
          <Spinner label={t('p2p.loading')} />
        </div>
      ) : orders.isError ? (
        <Alert type="error" showIcon title={orders.error.message} />
      ) : orders.data.data.length === 0 ? (
        <EmptyNote>{t('p2p.orders.none')}</EmptyNote>
      ) : (
        <>
          {orders.data.data.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
          <Pagination
            size="small"
            align="center"
            current={page}
            pageSize={orders.data.per_page}
            total={orders.data.total}
            onChange={setPage}
            showSizeChanger={false}
            hideOnSinglePage
          />
        </>
      )}
    </section>
  );
}

function OrderRow({ order }: { order: P2pOrder }) {
  const { t } = useTranslation();
  const counterparty = order.my_side === 'buy' ? order.seller : order.buyer;
  return (
    <Link
      to={`/legalTrade?order=${order.id}`}
      className="fx-p2p-order-row"
      data-testid={`p2p-order-${order.id}`}
    >
      <span className={order.my_side === 'buy' ? 'fx-p2p-side-buy' : 'fx-p2p-side-sell'}>
        {order.my_side === 'buy' ? t('p2p.buy') : t('p2p.sell')} {order.currency_name}
      </span>
      <span>
        <strong>
          {order.fiat_amount} {order.fiat}
        </strong>
        <span className="fx-p2p-label">
          {' '}
          {order.amount} {order.currency_name} @ {order.price}
        </span>
      </span>
      <span className="fx-p2p-label">
        {counterparty.nickname} · {dateTimeOf(order.created_time)}
      </span>
      <span className="fx-p2p-order-state">
        <Tag>{t(`p2p.status.${order.status}`)}</Tag>
        {order.status === 'unpaid' && <Countdown deadline={order.deadline_time} />}
        {order.unread > 0 && <Badge count={order.unread} title={t('p2p.chat.unread')} />}
      </span>
    </Link>
  );
}
