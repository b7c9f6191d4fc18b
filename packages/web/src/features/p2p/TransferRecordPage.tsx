import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Pagination, Radio, Select, Tabs, Tag } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  P2P_KEY,
  createAcceptorDeal,
  useAcceptorDeals,
  useAdBook,
  useOrderPush,
  useP2pConfig,
  usePaymentMethods,
  type AcceptorDeal,
} from '../../data/p2p.ts';
import { useMessage } from '../../app/message.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { EmptyNote, Spinner } from '../../components/trading/PanelStates.tsx';
import { MethodTag } from './parts.tsx';
import { P2pTabs } from './shell.tsx';
import { checkFiatLimits, isPositiveAt } from './p2p-math.ts';
import './p2p.css';

// /transferRecord (spec 02): fiat deposits and withdrawals through acceptor merchants, tabs "buy deposits"
// and "sell withdrawals" (query `current`: 0 or 1), from GET /api/acceptor/my_deal in the spec's shape.
// is_sure 0 waits for the acceptor, 1 confirmed, 2 rejected; the confirm time shows only above 0. A new
// deal is an order on an acceptor's ad; its room is the order room.

export default function TransferRecordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const type = params.get('current') === '1' ? 'sell' : 'buy';
  useOrderPush();
  return (
    <div className="fx-p2p" data-testid="p2p-transfer-record">
      <P2pTabs active="records" />
      <div className="fx-p2p-card-head">
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => void navigate(-1)}>
          {t('p2p.back')}
        </Button>
      </div>
      <RequireLogin>
        <NewDeal type={type} />
        <Tabs
          activeKey={type}
          onChange={(key) => setParams({ current: key === 'sell' ? '1' : '0' })}
          items={[
            { key: 'buy', label: <span data-testid="p2p-deals-tab-buy">{t('p2p.deals.buyTab')}</span> },
            { key: 'sell', label: <span data-testid="p2p-deals-tab-sell">{t('p2p.deals.sellTab')}</span> },
          ]}
        />
        <DealList type={type} />
      </RequireLogin>
    </div>
  );
}

function DealList({ type }: { type: 'buy' | 'sell' }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const deals = useAcceptorDeals(type, page);
  if (deals.isPending) return <Spinner label={t('p2p.loading')} />;
  if (deals.isError) return <Alert type="error" showIcon title={deals.error.message} />;
  if (deals.data.data.length === 0) return <EmptyNote>{t('p2p.deals.none')}</EmptyNote>;
  return (
    <section className="fx-p2p-deals" data-testid={`p2p-deals-${type}`}>
      {deals.data.data.map((deal) => (
        <DealCard key={deal.id} deal={deal} />
      ))}
      <Pagination
        size="small"
        align="center"
        current={page}
        pageSize={deals.data.per_page}
        total={deals.data.total}
        onChange={setPage}
        showSizeChanger={false}
        hideOnSinglePage
      />
    </section>
  );
}

const SURE_COLOURS = ['processing', 'success', 'error'] as const;

function DealCard({ deal }: { deal: AcceptorDeal }) {
  const { t } = useTranslation();
  return (
    <Link
      to={`/legalTrade?order=${deal.order_id}`}
      className="fx-p2p-deal"
      data-testid={`p2p-deal-${deal.id}`}
    >
      <div className="fx-p2p-deal-top">
        <strong>{deal.money}</strong>
        <span>{deal.number} USDT</span>
        <Tag color={SURE_COLOURS[deal.is_sure]} data-testid="p2p-deal-sure">
          {t(`p2p.deals.sure${deal.is_sure}`)}
        </Tag>
      </div>
      <dl className="fx-p2p-deal-facts">
        <dt>{t('p2p.deals.acceptor')}</dt>
        <dd>{deal.acceptor_name}</dd>
        <dt>{t('p2p.deals.way')}</dt>
        <dd>
          <MethodTag method={deal.way} />
        </dd>
        <dt>{t('p2p.deals.myAccount')}</dt>
        <dd>{deal.deal_account}</dd>
        <dt>{t('p2p.deals.hesAccount')}</dt>
        <dd>{deal.hes_account}</dd>
        <dt>{t('p2p.deals.created')}</dt>
        <dd>{deal.create_time}</dd>
        {deal.is_sure > 0 && (
          <>
            <dt>{t('p2p.deals.confirmed')}</dt>
            <dd>{deal.update_time}</dd>
          </>
        )}
      </dl>
    </Link>
  );
}

/** A new deposit (buy USDT from an acceptor) or withdrawal (sell USDT to one): acceptor, money, account. */
function NewDeal({ type }: { type: 'buy' | 'sell' }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = useP2pConfig();
  const usdt = config.data?.assets.find((asset) => asset.name === 'USDT');
  const fiat = config.data?.fiats[0] ?? 'CNY';
  const book = useAdBook(usdt ? { side: type, currencyId: usdt.currency_id, fiat, page: 1 } : null);
  const methods = usePaymentMethods(type === 'sell');
  const acceptors = (book.data?.data ?? []).filter((ad) => ad.acceptor);
  const [adId, setAdId] = useState<number | null>(null);
  const [money, setMoney] = useState('');
  const [methodId, setMethodId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const ad = acceptors.find((item) => item.id === adId) ?? acceptors[0];

  if (!usdt || book.isPending) return null;
  if (acceptors.length === 0) {
    return <Alert className="fx-p2p-card" type="info" showIcon title={t('p2p.deals.noAcceptor')} />;
  }

  const submit = async () => {
    if (!ad || !isPositiveAt(money, 2)) return void message.error(t('p2p.take.enterAmount'));
    const limits = checkFiatLimits(money, ad.min_fiat, ad.max_fiat);
    if (limits !== 'ok') {
      return void message.error(t('p2p.deals.limits', { min: ad.min_fiat, max: ad.max_fiat, fiat: ad.fiat }));
    }
    if (type === 'sell' && methodId === null) return void message.error(t('p2p.take.chooseMethod'));
    setBusy(true);
    try {
      const deal = await createAcceptorDeal({
        type,
        ad_id: ad.id,
        money,
        method_id: type === 'sell' ? (methodId ?? undefined) : undefined,
      });
      setMoney('');
      await queryClient.invalidateQueries({ queryKey: P2P_KEY });
      void navigate(`/legalTrade?order=${deal.order_id}`);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="fx-p2p-card fx-p2p-new-deal" data-testid="p2p-new-deal">
      <h2>{type === 'buy' ? t('p2p.deals.newBuy') : t('p2p.deals.newSell')}</h2>
      <div className="fx-p2p-form-row">
        <Select
          value={ad?.id}
          onChange={setAdId}
          aria-label={t('p2p.deals.acceptor')}
          options={acceptors.map((item) => ({
            value: item.id,
            label: `${item.merchant.nickname} · ${item.price} ${item.fiat}`,
          }))}
        />
        <Input
          inputMode="decimal"
          value={money}
          onChange={(event) => setMoney(event.target.value.trim())}
          suffix={ad?.fiat}
          placeholder={ad ? `${ad.min_fiat} - ${ad.max_fiat}` : ''}
          data-testid="p2p-deal-money"
        />
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="p2p-deal-submit">
          {type === 'buy' ? t('p2p.deals.deposit') : t('p2p.deals.withdraw')}
        </Button>
      </div>
      {type === 'sell' && (
        <Radio.Group value={methodId} onChange={(event) => setMethodId(event.target.value as number)}>
          {(methods.data ?? [])
            .filter((method) => method.active)
            .map((method) => (
              <Radio key={method.id} value={method.id}>
                <MethodTag method={method.method} /> {method.account}
              </Radio>
            ))}
        </Radio.Group>
      )}
    </section>
  );
}
