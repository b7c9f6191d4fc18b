import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { QRCodeSVG } from 'qrcode.react';
import { Alert, Segmented, Select, Skeleton, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { CopyButton } from '../account/CopyButton.tsx';
import {
  useBalanceRefresh,
  useDepositAddress,
  usePagedRecords,
  useWalletOverview,
} from '../../data/wallet.ts';
import type { DepositRecord } from '../../data/wallet.ts';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';
import { WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';

/** Default deposit currency: USDT, id 3 (spec 01 section 9). */
const DEFAULT_CURRENCY = 3;

/** Spec 01 section 2: the deposit page (query id = currency): chain, QR code, address, tips, records. */
export default function DepositPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const overview = useWalletOverview();
  useBalanceRefresh();
  const currency = Number(params.get('id')) || DEFAULT_CURRENCY;
  const [chainType, setChainType] = useState<number | null>(null);
  const address = useDepositAddress(currency, chainType);
  const onChain = (overview.data?.change_wallet.balance ?? []).filter((line) => line.udun_id > -1);
  const view = address.data;

  return (
    <WalletFrame title={t('wallet.depositTitle')} testId="deposit-page">
      <div className="fx-wallet-grid">
        <WalletPanel>
          <div className="fx-wallet-field">
            <label className="fx-wallet-field-label">{t('wallet.currency')}</label>
            <Select
              style={{ width: '100%' }}
              value={currency}
              onChange={(value: number) => {
                setChainType(null);
                setParams({ id: String(value) });
              }}
              options={onChain.map((line) => ({ value: line.currency, label: line.currency_name }))}
              data-testid="deposit-currency"
            />
          </div>
          {view && view.chains.length > 1 ? (
            <div className="fx-wallet-field">
              <label className="fx-wallet-field-label">{t('wallet.chain')}</label>
              <Segmented<number>
                value={view.type}
                onChange={(value) => setChainType(value)}
                options={view.chains.map((chain) => ({
                  value: chain.type,
                  label: <span data-testid={`deposit-chain-${chain.code}`}>{chain.code}</span>,
                }))}
              />
            </div>
          ) : null}
          {address.error ? <Alert type="error" showIcon message={address.error.message} /> : null}
          {!view ? (
            address.error ? null : (
              <Skeleton active />
            )
          ) : (
            <>
              {view.development ? (
                <Alert
                  type="warning"
                  showIcon
                  style={{ marginBottom: 16 }}
                  message={t('wallet.developmentAddress')}
                  data-testid="deposit-development"
                />
              ) : null}
              <div className="fx-wallet-deposit">
                <div className="fx-wallet-qr" data-testid="deposit-qr">
                  <QRCodeSVG value={view.address} size={168} />
                </div>
                <div>
                  <label className="fx-wallet-field-label">
                    {t('wallet.depositAddress', { currency: view.currency.name, chain: view.chain })}
                  </label>
                  <div className="fx-wallet-address" data-testid="deposit-address">
                    {view.address}
                  </div>
                  <div style={{ marginTop: 12 }}>
                    <CopyButton text={view.address} testId="deposit-copy" />
                  </div>
                </div>
              </div>
              <ul className="fx-wallet-tips" data-testid="deposit-tips">
                <li>{t('wallet.depositTipOnly', { currency: view.currency.name, chain: view.chain })}</li>
                <li>{t('wallet.depositTipConfirmations', { count: view.confirmations })}</li>
                <li>{t('wallet.depositTipSame')}</li>
              </ul>
            </>
          )}
        </WalletPanel>
        <DepositRecords currency={currency} />
      </div>
    </WalletFrame>
  );
}

export function depositColumns(t: TFunction): ColumnsType<DepositRecord> {
  return [
    walletTimeColumn(t('wallet.time'), 'created_time'),
    { title: t('wallet.currency'), dataIndex: 'currency_name' },
    walletAmountColumn(t('wallet.amount'), 'value'),
    {
      title: t('wallet.source'),
      dataIndex: 'info',
      render: (value: DepositRecord['info'], record) =>
        value === 'manual' ? t('wallet.sourceManual') : `${t('wallet.sourceChain')} ${record.chain}`,
    },
    {
      title: t('wallet.status'),
      dataIndex: 'status',
      render: (value: string) => (
        <Tag color={value === 'credited' ? 'green' : 'gold'}>
          {value === 'credited' ? t('wallet.depositCredited') : t('wallet.depositPending')}
        </Tag>
      ),
    },
  ];
}

function DepositRecords({ currency }: { currency: number }) {
  const { t } = useTranslation();
  const records = usePagedRecords<DepositRecord>('/wallet/in_list', 1, { currency });
  return (
    <WalletPanel title={t('wallet.recentDeposits')}>
      <WalletTable<DepositRecord>
        columns={depositColumns(t).filter((_, index) => index !== 1 && index !== 3)}
        dataSource={records.data?.data ?? []}
        loading={records.isLoading}
        data-testid="deposit-records"
      />
    </WalletPanel>
  );
}
