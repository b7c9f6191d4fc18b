import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin, Table, type TableColumnsType } from 'antd';
import { useSession } from '../../data/session.ts';
import { formatRecordTime } from '../price-record/record-format.ts';
import { checkLatestLiabilities } from './checks.ts';
import { KeeperCard, MyLiabilities, heldCheckpoint, useLogConsistency } from './LogViews.tsx';
import type { LiabilitiesEntry } from './verify.ts';
import '../price-record/price-record.css';
import './transparency.css';

// The transparency page (/transparency): what this browser holds of the exchange's log, the latest
// published liabilities (totals per column and the ledger identity, the entry checked for inclusion in the
// held checkpoint), the signed-in user's own check, what is not proven (reserves), and how to check all
// of it without this page.

export default function TransparencyPage() {
  const { t } = useTranslation();
  const consistency = useLogConsistency();
  const loggedIn = useSession((state) => state.token !== null);
  return (
    <div className="fx-price-record" data-testid="transparency-page">
      <div className="fx-container fx-price-record-inner">
        <header className="fx-price-record-head">
          <h1 className="fx-price-record-title">{t('transparency.title')}</h1>
          <p className="fx-price-record-intro">{t('transparency.intro')}</p>
        </header>
        <KeeperCard query={consistency} />
        <LiabilitiesCard />
        <section className="fx-price-record-card">
          {loggedIn ? <MyLiabilities /> : <p className="fx-log-muted">{t('transparency.signIn')}</p>}
        </section>
        <VerifyCard />
      </div>
    </div>
  );
}

function LiabilitiesCard() {
  const { t } = useTranslation();
  const consistency = useLogConsistency();
  const held = heldCheckpoint(consistency.data);
  const latest = useQuery({
    queryKey: ['transparency', 'latest-liabilities', held?.size ?? 0, held?.root ?? ''],
    queryFn: ({ signal }) => checkLatestLiabilities(held!, signal),
    enabled: held !== null,
    retry: false,
  });
  const data = latest.data;
  return (
    <section
      className="fx-price-record-card"
      aria-labelledby="fx-log-liabilities"
      data-testid="published-liabilities"
    >
      <h2 id="fx-log-liabilities">{t('transparency.liabilitiesTitle')}</h2>
      <p>{t('transparency.liabilitiesIntro')}</p>
      {held === null ? null : latest.isPending ? (
        <Spin size="small" />
      ) : latest.isError ? (
        <Alert
          type="warning"
          showIcon
          title={t('transparency.loadError')}
          description={latest.error.message}
        />
      ) : data === null ? (
        <Alert type="info" showIcon title={t('transparency.none')} />
      ) : data === 'malformed' || data === undefined ? (
        <Alert type="error" showIcon title={t('transparency.entryMalformed')} />
      ) : (
        <PublishedEntry entry={data.entry} inclusion={data.inclusion} />
      )}
      <h3 className="fx-log-subtitle">{t('transparency.reservesTitle')}</h3>
      <p data-testid="reserves-note">{t('transparency.reserves')}</p>
    </section>
  );
}

function PublishedEntry({
  entry,
  inclusion,
}: {
  entry: LiabilitiesEntry;
  inclusion: 'included' | 'pending' | 'not-included';
}) {
  const { t } = useTranslation();
  const totals: TableColumnsType<LiabilitiesEntry['totals'][number]> = [
    { title: t('transparency.column'), dataIndex: 'column', key: 'column' },
    {
      title: t('transparency.total'),
      key: 'amount',
      align: 'right',
      render: (_, row) => <code>{row.amount.toString()}</code>,
    },
  ];
  const identity: TableColumnsType<LiabilitiesEntry['identity'][number]> = [
    { title: t('transparency.currency'), dataIndex: 'currency', key: 'currency' },
    ...(['users', 'exchange', 'outside'] as const).map((part) => ({
      title: t(`transparency.${part}`),
      key: part,
      align: 'right' as const,
      render: (_: unknown, row: LiabilitiesEntry['identity'][number]) => <code>{row[part].toString()}</code>,
    })),
  ];
  return (
    <>
      <p data-testid="liabilities-snapshot">
        {t('transparency.snapshot', {
          id: entry.snapshotId,
          date: formatRecordTime(entry.time),
          leaves: entry.leaves,
        })}
      </p>
      <Alert
        type={inclusion === 'included' ? 'success' : inclusion === 'pending' ? 'info' : 'error'}
        showIcon
        data-testid="liabilities-inclusion"
        data-result={inclusion}
        title={t(
          inclusion === 'included'
            ? 'transparency.entryIncluded'
            : inclusion === 'pending'
              ? 'transparency.entryPending'
              : 'transparency.entryNotIncluded',
        )}
      />
      <Table
        className="fx-log-table"
        size="small"
        rowKey="column"
        columns={totals}
        dataSource={entry.totals}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="liabilities-totals"
      />
      <p className="fx-log-muted">{t('transparency.columnHelp')}</p>
      <h3 className="fx-log-subtitle">{t('transparency.identityTitle')}</h3>
      <p>{t('transparency.identityIntro')}</p>
      <Table
        className="fx-log-table"
        size="small"
        rowKey="currency"
        columns={identity}
        dataSource={entry.identity}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="liabilities-identity"
      />
    </>
  );
}

function VerifyCard() {
  const { t } = useTranslation();
  const origin = globalThis.location.origin;
  const commands = [
    { text: t('transparency.witness'), command: `npm run witness -- ${origin} --store ./witness` },
    {
      text: t('transparency.verifyPrices'),
      command:
        `npm run verify:prices -- ${origin} --save checkpoint.txt\n` +
        `npm run verify:prices -- ${origin} --checkpoint checkpoint.txt`,
    },
    {
      text: t('transparency.verifyLiabilities'),
      command: 'npm run verify:liabilities -- proof.json --checkpoint checkpoint.txt',
    },
  ];
  return (
    <section
      className="fx-price-record-card"
      aria-labelledby="fx-log-verify"
      data-testid="log-verify-yourself"
    >
      <h2 id="fx-log-verify">{t('transparency.verifyTitle')}</h2>
      <p>{t('transparency.verifyIntro')}</p>
      <ul className="fx-log-commands">
        {commands.map((item) => (
          <li key={item.command}>
            {item.text}
            <pre>{item.command}</pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
