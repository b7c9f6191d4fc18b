import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Segmented, Select, Skeleton } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import {
  flashExchange,
  useBalanceRefresh,
  useFlashList,
  usePagedRecords,
  useWalletDetail,
} from '../../data/wallet.ts';
import type { FlashCoin, FlashList, FlashRecord } from '../../data/wallet.ts';
import { amountText } from '../assets/wallet-format.ts';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';
import { WalletPager, WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';
import { meetsMinimum, paymentFor, receivedFor } from './flash-math.ts';
import type { FlashTerms } from './flash-math.ts';
import { useMessage } from '../../app/message.tsx';

/** Spec 02 sections 2.4 and 9: after a successful exchange the assets page follows after 1.5 s. */
export const REDIRECT_DELAY_MS = 1500;
/** Default coin: BTC, id 1 (spec 02 section 9). */
const DEFAULT_COIN = 1;

/** Spec 02 section 2.4: USDT <-> BTC (and any configured coin) at the server's price. */
export default function FlashPage() {
  const { t } = useTranslation();
  const flash = useFlashList();
  return (
    <WalletFrame title={t('wallet.flashTitle')} testId="flash-page">
      {flash.error ? <Alert type="error" showIcon message={flash.error.message} /> : null}
      {flash.data ? <FlashForm data={flash.data} /> : flash.error ? null : <Skeleton active />}
      <FlashRecords />
    </WalletFrame>
  );
}

function FlashForm({ data }: { data: FlashList }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const refresh = useBalanceRefresh();
  const [direction, setDirection] = useState<0 | 1>(0);
  const [coinId, setCoinId] = useState<number>(() =>
    data.list.some((coin) => coin.id === DEFAULT_COIN) ? DEFAULT_COIN : (data.list[0]?.id ?? DEFAULT_COIN),
  );
  const [paid, setPaid] = useState('');
  const [received, setReceived] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (redirect.current !== null) clearTimeout(redirect.current);
    },
    [],
  );

  const legal = data.legal;
  const coin: FlashCoin | undefined = data.list.find((item) => item.id === coinId);
  const fromName = direction === 0 ? legal?.name : coin?.name;
  const toName = direction === 0 ? coin?.name : legal?.name;
  const fromId = direction === 0 ? (legal?.id ?? null) : (coin?.id ?? null);
  const balance = useWalletDetail('change', fromId);
  const terms: FlashTerms | null =
    legal && coin && coin.price !== null
      ? { direction, price: coin.price, feePercent: data.fee, coinScale: coin.scale, legalScale: legal.scale }
      : null;

  const typePaid = (value: string) => {
    setPaid(value);
    setProblem(null);
    setReceived(terms && value.trim() !== '' ? receivedFor(terms, value) : '');
  };
  const typeReceived = (value: string) => {
    setReceived(value);
    setProblem(null);
    setPaid(terms && value.trim() !== '' ? paymentFor(terms, value) : '');
  };
  const turn = (value: 0 | 1) => {
    setDirection(value);
    setPaid('');
    setReceived('');
    setProblem(null);
  };

  const submit = async () => {
    if (!terms || !coin || !legal) return;
    if (!meetsMinimum(terms, paid, received, data.min)) {
      setProblem(t('wallet.flashMinimum', { min: data.min, currency: legal.name }));
      return;
    }
    setBusy(true);
    try {
      const reply = await flashExchange({ type: direction, coin: coin.id, number: paid.trim() });
      void message.success(reply.message);
      await refresh();
      redirect.current = setTimeout(() => void navigate('/new_account'), REDIRECT_DELAY_MS);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!legal || data.list.length === 0)
    return <Alert type="info" showIcon message={t('wallet.flashUnavailable')} />;
  return (
    <div className="fx-wallet-grid">
      <WalletPanel>
        <div className="fx-wallet-field">
          <Segmented<0 | 1>
            block
            value={direction}
            onChange={turn}
            options={[
              {
                value: 0,
                label: <span data-testid="flash-direction-0">{`${legal.name} → ${coin?.name ?? ''}`}</span>,
              },
              {
                value: 1,
                label: <span data-testid="flash-direction-1">{`${coin?.name ?? ''} → ${legal.name}`}</span>,
              },
            ]}
          />
        </div>
        {data.list.length > 1 ? (
          <div className="fx-wallet-field">
            <label className="fx-wallet-field-label">{t('wallet.coin')}</label>
            <Select
              style={{ width: '100%' }}
              value={coinId}
              onChange={(value: number) => {
                setCoinId(value);
                setPaid('');
                setReceived('');
              }}
              options={data.list.map((item) => ({ value: item.id, label: item.name }))}
              data-testid="flash-coin"
            />
          </div>
        ) : null}
        <div className="fx-wallet-field">
          <label className="fx-wallet-field-label" htmlFor="flash-paid">
            {t('wallet.flashPay')}
          </label>
          <Input
            id="flash-paid"
            value={paid}
            onChange={(event) => typePaid(event.target.value)}
            inputMode="decimal"
            suffix={fromName}
            disabled={!terms}
            data-testid="flash-paid"
          />
          <div className="fx-wallet-hint">
            <span>
              {t('wallet.available')}{' '}
              <span className="fx-wallet-num" data-testid="flash-available">
                {amountText(balance.data?.balance)}
              </span>{' '}
              {fromName}
            </span>
            <Button
              type="link"
              size="small"
              disabled={!terms}
              onClick={() => typePaid(balance.data?.balance ?? '')}
            >
              {t('wallet.all')}
            </Button>
          </div>
        </div>
        <div className="fx-wallet-field">
          <label className="fx-wallet-field-label" htmlFor="flash-received">
            {t('wallet.flashReceive')}
          </label>
          <Input
            id="flash-received"
            value={received}
            onChange={(event) => typeReceived(event.target.value)}
            inputMode="decimal"
            suffix={toName}
            disabled={!terms}
            data-testid="flash-received"
          />
        </div>
        {problem ? (
          <Alert
            type="error"
            showIcon
            message={problem}
            style={{ marginBottom: 16 }}
            data-testid="flash-problem"
          />
        ) : null}
        <Button
          type="primary"
          block
          loading={busy}
          disabled={!terms || paid.trim() === ''}
          onClick={() => void submit()}
          data-testid="flash-submit"
        >
          {t('wallet.flashSubmit')}
        </Button>
      </WalletPanel>
      <WalletPanel title={t('wallet.flashTerms')}>
        <dl className="fx-wallet-terms">
          <dt>{t('wallet.flashPrice')}</dt>
          <dd data-testid="flash-price">
            {coin && coin.price !== null
              ? `1 ${coin.name} = ${amountText(coin.price)} ${legal.name}`
              : t('wallet.noPrice')}
          </dd>
          <dt>{t('wallet.flashFee')}</dt>
          <dd data-testid="flash-fee">{data.fee}%</dd>
          <dt>{t('wallet.flashMin')}</dt>
          <dd>
            {data.min} {legal.name}
          </dd>
        </dl>
        <p className="fx-wallet-note">{t('wallet.flashPriceNote')}</p>
      </WalletPanel>
    </div>
  );
}

function FlashRecords() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const records = usePagedRecords<FlashRecord>('/wallet/myFlashAgainstList', page);
  const columns: ColumnsType<FlashRecord> = [
    walletTimeColumn(t('wallet.time'), 'create_time'),
    {
      title: t('wallet.flashPair'),
      render: (_, record) => `${record.l_currency} → ${record.r_currency}`,
    },
    {
      title: t('wallet.flashPaid'),
      dataIndex: 'num',
      align: 'right',
      render: (value: string, record) => (
        <span className="fx-wallet-num">{`${amountText(value)} ${record.l_currency}`}</span>
      ),
    },
    walletAmountColumn(t('wallet.flashPrice'), 'price'),
    {
      title: t('wallet.flashReceived'),
      dataIndex: 'absolute_quantity',
      align: 'right',
      render: (value: string, record) => (
        <span className="fx-wallet-num">{`${amountText(value)} ${record.r_currency}`}</span>
      ),
    },
    {
      title: t('wallet.flashFee'),
      dataIndex: 'fee',
      align: 'right',
      render: (value: string, record) => (
        <span className="fx-wallet-num">{`${amountText(value)} ${record.r_currency}`}</span>
      ),
    },
  ];
  return (
    <WalletPanel title={t('wallet.flashRecords')}>
      <WalletTable<FlashRecord>
        columns={columns}
        dataSource={records.data?.data ?? []}
        loading={records.isLoading}
        scroll={{ x: 720 }}
        data-testid="flash-records"
      />
      <WalletPager list={records.data} page={page} onChange={setPage} />
    </WalletPanel>
  );
}
