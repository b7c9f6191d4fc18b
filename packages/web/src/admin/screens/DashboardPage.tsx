import { AlertOutlined, CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { Alert, Badge, Button, Card, Col, Row, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useAdminT } from '../i18n.ts';
import { Link } from 'react-router';
import { adminApi } from '../../data/admin-api.ts';
import { Amount, PageHeader } from '../components/common.tsx';
import type { Dashboard, MarketVolume as VolumeRow, SolvencyRow } from '@fairex/shared/api/backoffice.ts';
import { SOLVENCY_SYSTEM_COLUMNS } from '@fairex/shared/api/backoffice.ts';
import { WALLET_TYPES } from '@fairex/shared/socket-events.ts';

const WALLETS = WALLET_TYPES;
const SYSTEM = SOLVENCY_SYSTEM_COLUMNS;

/** The exchange at a glance: people, trading, queues, and whether every currency's books balance. */
export default function DashboardPage() {
  const t = useAdminT();
  const query = useQuery({
    queryKey: ['admin', 'dashboard'],
    queryFn: () => adminApi.get<Dashboard>('/backoffice/dashboard'),
    refetchInterval: 15_000,
  });
  const data = query.data;
  return (
    <div data-testid="admin-dashboard">
      <PageHeader
        title={t('dashboard.title')}
        description={
          data ? t('dashboard.asOf', { time: dayjs(data.generated_at).format('HH:mm:ss') }) : undefined
        }
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common.refresh')}
          </Button>
        }
      />
      {query.error && <Alert type="error" showIcon message={query.error.message} />}
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} xl={6}>
          <Card>
            <Statistic
              title={t('dashboard.users')}
              value={data?.users.total ?? '—'}
              loading={query.isPending}
            />
            <Typography.Text type="secondary">
              {t('dashboard.usersDetail', {
                today: data?.users.last_24h ?? 0,
                verified: data?.users.verified ?? 0,
                frozen: data?.users.frozen ?? 0,
              })}
            </Typography.Text>
          </Card>
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Card>
            <Link to="/admin/real-name">
              <Statistic
                title={t('dashboard.realNameWaiting')}
                value={data?.waiting.real_name ?? '—'}
                loading={query.isPending}
                valueStyle={
                  data && data.waiting.real_name > 0 ? { color: 'var(--ant-color-warning)' } : undefined
                }
              />
            </Link>
            <Typography.Text type="secondary">{t('dashboard.realNameHint')}</Typography.Text>
          </Card>
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Card>
            <Link to="/admin/funding">
              <Statistic
                title={t('dashboard.withdrawalsWaiting')}
                value={data?.waiting.withdrawals ?? '—'}
                loading={query.isPending}
                valueStyle={
                  data && data.waiting.withdrawals > 0 ? { color: 'var(--ant-color-warning)' } : undefined
                }
              />
            </Link>
            <div className="fx-admin-tags">
              {data?.waiting.withdrawals_by_currency.map((row) => (
                <Tag key={row.currency_id}>
                  {row.count} × <Amount value={row.amount} code={row.code} />
                </Tag>
              ))}
              {data?.waiting.withdrawals_by_currency.length === 0 && (
                <Typography.Text type="secondary">{t('dashboard.noneWaiting')}</Typography.Text>
              )}
            </div>
          </Card>
        </Col>
        <Col xs={24} sm={12} xl={6}>
          <Card>
            <Statistic
              title={t('dashboard.payoutsOpen')}
              value={data?.waiting.payouts_unconfirmed ?? '—'}
              loading={query.isPending}
            />
            <Typography.Text type="secondary">
              {t('dashboard.fundingDetail', {
                deposits: data?.waiting.deposits_uncredited ?? 0,
                callbacks: data?.waiting.callbacks_refused_24h ?? 0,
              })}
            </Typography.Text>
          </Card>
        </Col>
      </Row>
      {data?.engine && (
        <Typography.Paragraph type="secondary" data-testid="admin-journal">
          <Badge status={data.engine.projector_lag_commands > 1_000 ? 'warning' : 'success'} />{' '}
          {t('dashboard.journal', {
            committed: data.engine.committed_seq,
            projected: data.engine.projected_seq,
            commands: data.engine.projector_lag_commands,
            ms: data.engine.projector_lag_ms,
          })}
        </Typography.Paragraph>
      )}
      <Solvency data={data} loading={query.isPending} />
      <Volume rows={data?.volume} loading={query.isPending} />
    </div>
  );
}

function Solvency({ data, loading }: { data: Dashboard | undefined; loading: boolean }) {
  const t = useAdminT();
  const columns: ColumnsType<SolvencyRow> = [
    {
      title: t('solvency.currency'),
      dataIndex: 'code',
      fixed: 'left',
      render: (code: string, row) => (
        <span className="fx-admin-strong">
          {row.balanced ? (
            <CheckCircleFilled className="fx-admin-ok" />
          ) : (
            <AlertOutlined className="fx-admin-alarm-icon" />
          )}{' '}
          {code}
        </span>
      ),
    },
    // The sum stays in view beside the currency (both pinned on the left) when the table scrolls sideways;
    // pinned on the right it covered the last column, the outside world's.
    {
      title: t('solvency.sum'),
      key: 'sum',
      align: 'right',
      fixed: 'left',
      render: (_: unknown, row) => (
        <span data-testid={`solvency-sum-${row.code}`}>
          <Amount value={row.sum} strong />
        </span>
      ),
    },
    {
      title: t('solvency.users'),
      children: WALLETS.map((wallet) => ({
        title: t(`wallets.${wallet}`),
        key: wallet,
        align: 'right' as const,
        render: (_: unknown, row: SolvencyRow) => <Amount value={row.users[wallet]} />,
      })),
    },
    {
      title: t('solvency.exchange'),
      children: SYSTEM.filter((owner) => owner !== 'outside').map((owner) => ({
        title: t(`owners.${owner}`),
        key: owner,
        align: 'right' as const,
        render: (_: unknown, row: SolvencyRow) => <Amount value={row.system[owner]} />,
      })),
    },
    {
      title: (
        <Tooltip title={t('solvency.outsideHint')}>
          <span className="fx-admin-help">{t('owners.outside')}</span>
        </Tooltip>
      ),
      key: 'outside',
      align: 'right',
      render: (_: unknown, row) => <Amount value={row.system.outside} />,
    },
  ];
  const balanced = data?.solvency.balanced ?? true;
  return (
    <Card
      className={`fx-admin-section${balanced ? '' : ' fx-admin-alarm'}`}
      title={
        <span>
          {t('solvency.title')}{' '}
          {data && (
            <Badge
              status={balanced ? 'success' : 'error'}
              text={balanced ? t('solvency.balanced') : t('solvency.unbalanced')}
              data-testid="solvency-state"
            />
          )}
        </span>
      }
      extra={<Typography.Text type="secondary">{t('solvency.source')}</Typography.Text>}
    >
      {!balanced && (
        <Alert
          type="error"
          showIcon
          icon={<AlertOutlined />}
          message={t('solvency.alarmTitle')}
          description={t('solvency.alarmText')}
          className="fx-admin-section-alert"
          data-testid="solvency-alarm"
        />
      )}
      <Table<SolvencyRow>
        size="small"
        rowKey="currency_id"
        columns={columns}
        dataSource={data?.solvency.rows}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowClassName={(row) => (row.balanced ? '' : 'fx-admin-row-alarm')}
        data-testid="solvency-table"
      />
    </Card>
  );
}

function Volume({ rows, loading }: { rows: VolumeRow[] | undefined; loading: boolean }) {
  const t = useAdminT();
  const columns: ColumnsType<VolumeRow> = [
    {
      title: t('volume.market'),
      dataIndex: 'symbol',
      render: (symbol: string) => <span className="fx-admin-strong">{symbol}</span>,
    },
    { title: t('volume.trades'), dataIndex: 'trades', align: 'right' },
    {
      title: t('volume.base'),
      dataIndex: 'base_volume',
      align: 'right',
      render: (value: string) => <Amount value={value} />,
    },
    {
      title: t('volume.quote'),
      dataIndex: 'quote_volume',
      align: 'right',
      render: (value: string) => <Amount value={value} />,
    },
    { title: t('volume.userTrades'), dataIndex: 'user_trades', align: 'right' },
    {
      title: t('volume.userQuote'),
      dataIndex: 'user_quote_volume',
      align: 'right',
      render: (value: string) => <Amount value={value} />,
    },
    { title: t('volume.makerFills'), dataIndex: 'maker_fills', align: 'right' },
  ];
  return (
    <Card
      className="fx-admin-section"
      title={t('volume.title')}
      extra={<Typography.Text type="secondary">{t('volume.source')}</Typography.Text>}
    >
      <Table<VolumeRow>
        size="small"
        rowKey="market_id"
        columns={columns}
        dataSource={rows}
        loading={loading}
        pagination={false}
      />
    </Card>
  );
}
