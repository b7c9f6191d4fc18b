import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useCounters, useOrder, useOrderPush, useP2pConfig } from '../../data/p2p.ts';
import { useSession } from '../../data/session.ts';
import { useMessage } from '../../app/message.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { Spinner } from '../../components/trading/PanelStates.tsx';
import { OrderRoom } from './OrderRoom.tsx';
import { OrdersList } from './OrdersList.tsx';
import { CountersBar, P2pTabs } from './shell.tsx';
import './p2p.css';

// /legalTrade (spec 01: hidden in the menu): the user's P2P orders, and with `?order=<id>` that order's
// room. A `p2p_order` push refreshes what changed and says so, so both parties follow each step live.

export default function LegalTradePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const orderId = Number(params.get('order')) || null;
  return (
    <div className="fx-p2p" data-testid="p2p-legal-trade">
      <P2pTabs active="orders" />
      <RequireLogin>{orderId === null ? <OrdersHome /> : <Room orderId={orderId} />}</RequireLogin>
      {orderId !== null && (
        <Link to="/legalTrade" className="fx-p2p-back">
          <ArrowLeftOutlined /> {t('p2p.tabs.orders')}
        </Link>
      )}
    </div>
  );
}

function OrdersHome() {
  const counters = useCounters();
  const message = useMessage();
  const { t } = useTranslation();
  useOrderPush((payload) => {
    if (payload.change !== 'message')
      void message.info(t(`p2p.push.${payload.change}`, { id: payload.order_id }));
  });
  return (
    <>
      {counters.data && <CountersBar counters={counters.data} />}
      <OrdersList />
    </>
  );
}

function Room({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const message = useMessage();
  const myId = Number(useSession((state) => state.userId) ?? 0);
  const order = useOrder(orderId);
  const config = useP2pConfig();
  useOrderPush((payload) => {
    if (payload.order_id === orderId && payload.change !== 'message' && payload.change !== 'created') {
      void message.info(t(`p2p.push.${payload.change}`, { id: payload.order_id }));
    }
  });
  if (order.isPending) {
    return (
      <div className="fx-p2p-center">
        <Spinner label={t('p2p.loading')} />
      </div>
    );
  }
  if (order.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={order.error.message}
        action={
          <Button size="small" onClick={() => void order.refetch()}>
            {t('p2p.retry')}
          </Button>
        }
      />
    );
  }
  return (
    <OrderRoom order={order.data} myId={myId} appealWaitMinutes={config.data?.appeal_wait_minutes ?? null} />
  );
}
