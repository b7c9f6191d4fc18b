import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useCurrencyList, useWalletLog } from '../../data/wallet.ts';
import type { LedgerEntry } from '../../data/wallet.ts';
import { signedText } from '../assets/wallet-format.ts';
import { WalletPager, WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';
import { WalletFrame, WalletPanel } from '../assets/WalletFrame.tsx';

const DEFAULT_CURRENCY = 3;

/** Spec 02 section 2.14: the lever wallet's log for one currency (query id), from wallet/legal_log. */
export default function LeverLogPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const currency = Number(params.get('id')) || DEFAULT_CURRENCY;
  const [page, setPage] = useState(1);
  const currencies = useCurrencyList();
  const log = useWalletLog('lever', currency, page);
  const columns: ColumnsType<LedgerEntry> = [
    walletTimeColumn(t('wallet.time'), 'created_time'),
    { title: t('wallet.info'), dataIndex: 'info' },
    {
      // What the entry moved: a loss taken from the held margin shows the loss, not the unchanged available part.
      title: t('wallet.change'),
      dataIndex: 'amount',
      align: 'right',
      render: (value: string) => (
        <span className="fx-wallet-num" data-testid="lever-log-amount">
          {signedText(value)}
        </span>
      ),
    },
    {
      // Beside the change on wider screens; a phone keeps the four columns that fit its width.
      title: t('wallet.frozenChange'),
      dataIndex: 'lock_value',
      align: 'right',
      responsive: ['sm'],
      render: (value: string) => <span className="fx-wallet-num fx-wallet-muted">{signedText(value)}</span>,
    },
    walletAmountColumn(t('wallet.balanceAfter'), 'balance'),
  ];
  return (
    <WalletFrame title={t('wallet.leverLogTitle')} testId="lever-log-page">
      <WalletPanel>
        <div className="fx-wallet-field" style={{ maxWidth: 320 }}>
          <label className="fx-wallet-field-label">{t('wallet.currency')}</label>
          <Select
            style={{ width: '100%' }}
            value={currency}
            onChange={(value: number) => {
              setPage(1);
              setParams({ id: String(value) });
            }}
            options={(currencies.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          />
        </div>
        {log.error ? <Alert type="error" showIcon message={log.error.message} /> : null}
        <WalletTable<LedgerEntry>
          columns={columns}
          dataSource={log.data?.list ?? []}
          loading={log.isLoading}
        />
        <WalletPager list={log.data} page={page} onChange={setPage} />
      </WalletPanel>
    </WalletFrame>
  );
}
