import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Alert, Button, Empty, Pagination, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { AccountLayout } from '../account/AccountLayout.tsx';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { useLedger, usePagedRecords } from '../../data/wallet.ts';
import type {
  DepositRecord,
  FlashRecord,
  LedgerEntry,
  TransferRecord,
  WalletType,
  WithdrawalRecord,
} from '../../data/wallet.ts';
import { amountText, signedText, timeText } from '../assets/wallet-format.ts';
import '../assets/wallet.css';
import { depositColumns } from '../deposit/DepositPage.tsx';
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
  switch (tab) {
    case 'ledger':
      return <Ledger />;
    case 'transfers':
      return (
        <PagedTable<TransferRecord>
          path="/wallet/hzhistory"
          columns={transferColumns(t)}
          testId="records-transfers"
        />
      );
    case 'deposits':
      return (
        <PagedTable<DepositRecord>
          path="/wallet/in_list"
          columns={depositColumns(t)}
          testId="records-deposits"
        />
      );
    case 'withdrawals':
      return (
        <PagedTable<WithdrawalRecord>
          path="/wallet/out_list"
          columns={withdrawalColumns(t)}
          testId="records-withdrawals"
        />
      );
    case 'flash':
      return (
        <PagedTable<FlashRecord>
          path="/wallet/myFlashAgainstList"
          columns={flashColumns(t)}
          testId="records-flash"
        />
      );
  }
}

type T = TFunction;

export function transferColumns(t: T): ColumnsType<TransferRecord> {
  return [
    { title: t('wallet.time'), dataIndex: 'create_time', render: (value: string) => timeText(value) },
    { title: t('wallet.currency'), dataIndex: 'currency_name' },
    {
      title: t('wallet.fromWallet'),
      dataIndex: 'from_account',
      render: (value: WalletType) => t(`wallet.names.${value}`),
    },
    {
      title: t('wallet.toWallet'),
      dataIndex: 'to_account',
      render: (value: WalletType) => t(`wallet.names.${value}`),
    },
    {
      title: t('wallet.amount'),
      dataIndex: 'number',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
    },
  ];
}

function flashColumns(t: T): ColumnsType<FlashRecord> {
  return [
    { title: t('wallet.time'), dataIndex: 'create_time', render: (value: string) => timeText(value) },
    { title: t('wallet.flashPair'), render: (_, record) => `${record.l_currency} → ${record.r_currency}` },
    {
      title: t('wallet.flashPaid'),
      dataIndex: 'num',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
    },
    {
      title: t('wallet.flashPrice'),
      dataIndex: 'price',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
    },
    {
      title: t('wallet.flashReceived'),
      dataIndex: 'absolute_quantity',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
    },
  ];
}

function ledgerColumns(t: T): ColumnsType<LedgerEntry> {
  return [
    { title: t('wallet.time'), dataIndex: 'created_time', render: (value: string) => timeText(value) },
    { title: t('wallet.account'), dataIndex: 'account' },
    { title: t('wallet.info'), dataIndex: 'info' },
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
    {
      title: t('wallet.balanceAfter'),
      dataIndex: 'balance',
      align: 'right',
      render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
    },
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
      <Table<LedgerEntry>
        rowKey="id"
        size="small"
        columns={ledgerColumns(t)}
        dataSource={entries}
        pagination={false}
        loading={query.isFetching && entries.length === 0}
        scroll={{ x: 760 }}
        locale={{ emptyText: <Empty description={t('wallet.noData')} /> }}
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
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const records = usePagedRecords<R>(path, page, body);
  if (records.error) return <Alert type="error" showIcon message={records.error.message} />;
  return (
    <div data-testid={testId}>
      <Table<R>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={records.data?.data ?? []}
        pagination={false}
        loading={records.isLoading}
        scroll={{ x: 720 }}
        locale={{ emptyText: <Empty description={t('wallet.noData')} /> }}
      />
      {records.data && records.data.last_page > 1 ? (
        <Pagination
          style={{ marginTop: 12, textAlign: 'right' }}
          current={page}
          pageSize={records.data.per_page}
          total={records.data.total}
          onChange={setPage}
          showSizeChanger={false}
        />
      ) : null}
    </div>
  );
}

export { PagedTable };
