import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { AccountLayout } from '../account/AccountLayout.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { useLedger, usePagedRecords } from '../../data/wallet.ts';
import type { FlashRecord, LedgerEntry } from '../../data/wallet.ts';
import { signedText } from '../assets/wallet-format.ts';
import { WalletPager, WalletTable, walletAmountColumn, walletTimeColumn } from '../assets/WalletTable.tsx';
import '../assets/wallet.css';
import { depositColumns } from '../deposit/DepositPage.tsx';
import { transferColumns } from '../transfer/TransferPage.tsx';
import { withdrawalColumns } from '../withdrawal/WithdrawalPage.tsx';
import { LEDGER_PAGE_SIZE, ledgerEnd } from './ledger-pages.ts';

const TABS = ['ledger', 'transfers', 'deposits', 'withdrawals', 'flash'] as const;
type RecordTab = (typeof TABS)[number];

function isTab(value: string | null): value is RecordTab {
  return value !== null && (TABS as readonly string[]).includes(value);
}

/** The records of the account area: the ledger of every balance change, transfers, deposits, withdrawals, flash. */
export default function RecordsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: RecordTab = isTab(requested) ? requested : 'ledger';
  return (
    <AccountLayout title={t('wallet.recordsTitle')} testId="records-page">
      <RequireLogin>
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams({ tab: key })}
          items={TABS.map((key) => ({
            key,
            label: <span data-testid={`records-tab-${key}`}>{t(`wallet.recordTabs.${key}`)}</span>,
            children: key === tab ? <RecordTabBody tab={key} /> : null,
          }))}
        />
      </RequireLogin>
    </AccountLayout>
  );
}

function RecordTabBody({ tab }: { tab: RecordTab }) {
  const { t } = useTranslation();
  // Every tab but the ledger is a paged list of the server's, in a block named `records-<tab>`.
  const list = <R extends { id: number | string }>(path: string, columns: ColumnsType<R>) => (
    <PagedTable<R> path={path} columns={columns} testId={`records-${tab}`} />
  );
  switch (tab) {
    case 'ledger':
      return <Ledger />;
    case 'transfers':
      return list('/wallet/hzhistory', transferColumns(t));
    case 'deposits':
      return list('/wallet/in_list', depositColumns(t));
    case 'withdrawals':
      return list('/wallet/out_list', withdrawalColumns(t));
    case 'flash':
      return list('/wallet/myFlashAgainstList', flashColumns(t));
  }
}

type T = TFunction;

function flashColumns(t: T): ColumnsType<FlashRecord> {
  return [
    walletTimeColumn(t('wallet.time'), 'create_time'),
    { title: t('wallet.flashPair'), render: (_, record) => `${record.l_currency} → ${record.r_currency}` },
    walletAmountColumn(t('wallet.flashPaid'), 'num'),
    walletAmountColumn(t('wallet.flashPrice'), 'price'),
    walletAmountColumn(t('wallet.flashReceived'), 'absolute_quantity'),
  ];
}

function ledgerColumns(t: T): ColumnsType<LedgerEntry> {
  return [
    walletTimeColumn(t('wallet.time'), 'created_time'),
    { title: t('wallet.account'), dataIndex: 'account' },
    {
      title: t('wallet.info'),
      dataIndex: 'info',
      // The record a change belongs to under its description, so a hold and its release pair up.
      render: (info: string, entry) => (
        <>
          {info}
          {entry.reference !== '' && (
            <div className="fx-wallet-muted" data-testid="ledger-reference">
              {entry.reference}
            </div>
          )}
        </>
      ),
    },
    {
      title: t('wallet.change'),
      dataIndex: 'value',
      align: 'right',
      render: (value: string) => (
        <span
          className={`fx-wallet-num ${value.startsWith('-') ? 'fx-wallet-down' : value.startsWith('+') ? 'fx-wallet-up' : ''}`}
        >
          {signedText(value)}
        </span>
      ),
    },
    {
      title: t('wallet.frozenChange'),
      dataIndex: 'lock_value',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num fx-wallet-muted">{signedText(value)}</span>,
    },
    walletAmountColumn(t('wallet.balanceAfter'), 'balance'),
  ];
}

/** The account ledger, 20 at a time with "load more", then the no-data or no-more text. */
export function Ledger() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [entries, setEntries] = useState<LedgerEntry[]>([]);
  const [lastPageLength, setLastPageLength] = useState(0);
  const query = useLedger(page, LEDGER_PAGE_SIZE);
  useEffect(() => {
    const data = query.data;
    if (!data || data.current_page !== page) return;
    setEntries((loaded) =>
      page === 1 ? data.data : [...loaded.slice(0, (page - 1) * LEDGER_PAGE_SIZE), ...data.data],
    );
    setLastPageLength(data.data.length);
  }, [query.data, page]);
  const end = ledgerEnd(entries.length, lastPageLength);
  if (query.error) return <Alert type="error" showIcon message={query.error.message} />;
  return (
    <div data-testid="records-ledger">
      <WalletTable<LedgerEntry>
        columns={ledgerColumns(t)}
        dataSource={entries}
        loading={query.isFetching && entries.length === 0}
        scroll={{ x: 760 }}
      />
      {query.data && end === 'more' ? (
        <div className="fx-wallet-list-end">
          <Button onClick={() => setPage(page + 1)} loading={query.isFetching} data-testid="ledger-more">
            {t('wallet.loadMore')}
          </Button>
        </div>
      ) : null}
      {query.data && end === 'end' ? (
        <div className="fx-wallet-list-end" data-testid="ledger-no-more">
          {t('wallet.noMore')}
        </div>
      ) : null}
    </div>
  );
}

function PagedTable<R extends { id: number | string }>({
  path,
  columns,
  testId,
  body,
}: {
  path: string;
  columns: ColumnsType<R>;
  testId: string;
  body?: Record<string, string | number>;
}) {
  const [page, setPage] = useState(1);
  const records = usePagedRecords<R>(path, page, body);
  if (records.error) return <Alert type="error" showIcon message={records.error.message} />;
  return (
    <div data-testid={testId}>
      <WalletTable<R>
        columns={columns}
        dataSource={records.data?.data ?? []}
        loading={records.isLoading}
        scroll={{ x: 720 }}
      />
      <WalletPager list={records.data} page={page} onChange={setPage} />
    </div>
  );
}

export { PagedTable };
