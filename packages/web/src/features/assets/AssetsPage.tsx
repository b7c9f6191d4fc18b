import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Skeleton, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { SwapOutlined, ThunderboltOutlined, UnorderedListOutlined } from '@ant-design/icons';
import {
  WALLET_TYPES,
  availableOf,
  frozenOf,
  useBalanceRefresh,
  useWalletOverview,
} from '../../data/wallet.ts';
import type { WalletGroup, WalletLine, WalletType } from '../../data/wallet.ts';
import { amountText, btcText, usdText } from './wallet-format.ts';
import { WalletFrame, WalletPanel } from './WalletFrame.tsx';
import { MyLiabilities } from '../transparency/LogViews.tsx';
import { CARD_ACTIONS, CARD_TABLE, cardColumns } from '../../components/card-table.ts';

/** Spec 02 section 2.2: the six wallets, each with its total in BTC and USD and its currencies. */
export default function AssetsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const overview = useWalletOverview();
  useBalanceRefresh();
  const [wallet, setWallet] = useState<WalletType>('change');
  const data = overview.data;
  return (
    <WalletFrame
      title={t('wallet.assetsTitle')}
      testId="assets-page"
      actions={
        <>
          <Button
            icon={<ThunderboltOutlined />}
            onClick={() => void navigate('/flash')}
            data-testid="assets-flash"
          >
            {t('wallet.flashTitle')}
          </Button>
          <Button
            type="primary"
            icon={<SwapOutlined />}
            onClick={() => void navigate('/transferLegal')}
            data-testid="assets-transfer"
          >
            {t('wallet.transferTitle')}
          </Button>
          <Button icon={<UnorderedListOutlined />} onClick={() => void navigate('/transferLog')}>
            {t('wallet.recordsTitle')}
          </Button>
        </>
      }
    >
      {overview.error ? <Alert type="error" showIcon message={overview.error.message} /> : null}
      {!data ? (
        overview.error ? null : (
          <Skeleton active />
        )
      ) : (
        <>
          <WalletPanel testId="assets-total">
            <Totals label={t('wallet.totalAssets')} group={data} testId="assets-total" note />
            {!data.priced ? <p className="fx-wallet-note">{t('wallet.unpricedNote')}</p> : null}
          </WalletPanel>
          <WalletPanel>
            <Tabs
              activeKey={wallet}
              onChange={(key) => setWallet(key as WalletType)}
              items={WALLET_TYPES.map((type) => ({
                key: type,
                label: <span data-testid={`assets-tab-${type}`}>{t(`wallet.names.${type}`)}</span>,
                children: <WalletTab wallet={type} group={data[`${type}_wallet`]} />,
              }))}
            />
          </WalletPanel>
          <WalletPanel testId="assets-liabilities">
            <MyLiabilities />
          </WalletPanel>
        </>
      )}
    </WalletFrame>
  );
}

function Totals({
  label,
  group,
  testId,
  note = false,
}: {
  label: string;
  group: Pick<WalletGroup, 'btc_total' | 'usdt_total'>;
  testId: string;
  /** Say how the USD values are reached (once per page is enough). */
  note?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="fx-wallet-totals">
      <div>
        <div className="fx-wallet-total-label">{label}</div>
        <div className="fx-wallet-total-value">
          <span data-testid={`${testId}-btc`}>{btcText(group.btc_total)}</span> BTC
        </div>
        <div className="fx-wallet-total-sub">
          ≈ <span data-testid={`${testId}-usd`}>{usdText(group.usdt_total)}</span>
        </div>
      </div>
      {note ? <div className="fx-wallet-muted fx-wallet-note">{t('wallet.usdNote')}</div> : null}
    </div>
  );
}

function WalletTab({ wallet, group }: { wallet: WalletType; group: WalletGroup }) {
  const { t } = useTranslation();
  const columns: ColumnsType<WalletLine> = [
    {
      title: t('wallet.currency'),
      dataIndex: 'currency_name',
      render: (name: string) => <strong>{name}</strong>,
    },
    {
      title: t('wallet.available'),
      align: 'right',
      render: (_, line) => (
        <span className="fx-wallet-num" data-testid={`asset-${wallet}-${line.currency_name}-available`}>
          {amountText(availableOf(line, wallet))}
        </span>
      ),
    },
    {
      title: t('wallet.frozen'),
      align: 'right',
      render: (_, line) => (
        <span className="fx-wallet-num" data-testid={`asset-${wallet}-${line.currency_name}-frozen`}>
          {amountText(frozenOf(line, wallet))}
        </span>
      ),
    },
    {
      title: t('wallet.usdValue'),
      align: 'right',
      render: (_, line) => (
        <span className="fx-wallet-num" data-testid={`asset-${wallet}-${line.currency_name}-usd`}>
          {line.priced ? usdText(line.usdt_total) : t('wallet.noPrice')}
        </span>
      ),
    },
    {
      title: t('wallet.actions'),
      align: 'right',
      className: CARD_ACTIONS,
      render: (_, line) => <LineActions wallet={wallet} line={line} />,
    },
  ];
  return (
    <div data-testid={`assets-wallet-${wallet}`}>
      <div style={{ marginBottom: 16 }}>
        <Totals
          label={t('wallet.walletTotal', { wallet: t(`wallet.names.${wallet}`) })}
          group={group}
          testId={`assets-${wallet}-total`}
        />
      </div>
      <Table<WalletLine>
        rowKey="currency"
        size="middle"
        className={CARD_TABLE}
        columns={cardColumns(columns)}
        dataSource={group.balance}
        pagination={false}
        scroll={{ x: 720 }}
      />
    </div>
  );
}

function LineActions({ wallet, line }: { wallet: WalletType; line: WalletLine }) {
  const { t } = useTranslation();
  // Recharge and withdrawal only where the currency travels on a chain (spec 02 section 2.2: udun_id > -1).
  const onChain = wallet === 'change' && line.udun_id > -1;
  return (
    <span className="fx-wallet-actions" style={{ justifyContent: 'flex-end' }}>
      {onChain ? (
        <>
          <Link to={`/recharge?id=${line.currency}`} data-testid={`asset-recharge-${line.currency_name}`}>
            {t('wallet.recharge')}
          </Link>
          <Link to={`/withdrawal?id=${line.currency}`} data-testid={`asset-withdraw-${line.currency_name}`}>
            {t('wallet.withdraw')}
          </Link>
        </>
      ) : null}
      <Link
        to={`/transferLegal?currency=${line.currency}&from=${wallet}`}
        data-testid={`asset-transfer-${line.currency_name}`}
      >
        {t('wallet.transfer')}
      </Link>
    </span>
  );
}
