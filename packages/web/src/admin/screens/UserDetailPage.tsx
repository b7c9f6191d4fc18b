import { ArrowLeftOutlined, LockOutlined, SafetyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { Link, useParams } from 'react-router';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { Amount, PageHeader, Time, useAdminMutation } from '../components/common.tsx';
import { amountColumn, OnOffTag, statusColumn, timeColumn, useAdminPage } from '../components/table.tsx';
import { can, useAdminSession } from '../session.ts';
import type {
  BalanceLine,
  LedgerLine,
  LoginLine,
  UserDetail as Detail,
  UserOrderLine as OrderLine,
} from '@fairex/shared/api/backoffice.ts';
import { WALLET_TYPES as WALLETS } from '@fairex/shared/socket-events.ts';
import { FreezeTags, ReviewTag } from './UsersPage.tsx';
import { DepositsTable, WithdrawalsTable } from './FundingPage.tsx';

/** One user: who they are, what they hold in each wallet, what they did, and what an operator can change. */
export default function UserDetailPage() {
  const t = useAdminT();
  const id = Number(useParams().id);
  const permissions = useAdminSession((state) => state.permissions);
  const detail = useQuery({
    queryKey: ['admin', 'user', id],
    queryFn: () => adminApi.get<Detail>('/backoffice/users/detail', { id }),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
  const user = detail.data;
  return (
    <div>
      <PageHeader
        title={user ? user.account : t('users.title')}
        description={user ? `ID ${user.id}` : undefined}
        extra={
          <Space>
            <Link to="/admin/users">
              <Button icon={<ArrowLeftOutlined />}>{t('common.back')}</Button>
            </Link>
            {user && can(permissions, 'users.manage') && <FreezeButton user={user} />}
            {user && can(permissions, 'users.manage') && user.totp_enabled && (
              <ResetSecondFactorButton userId={user.id} />
            )}
          </Space>
        }
      />
      {detail.error && <Alert type="error" showIcon message={detail.error.message} />}
      {user?.freeze && (
        <Alert
          type="warning"
          showIcon
          className="fx-admin-section-alert"
          message={
            <FreezeTags
              trading={user.freeze.trading}
              withdrawals={user.freeze.withdrawals}
              full={user.freeze.full}
            />
          }
          description={t('users.freezeBy', {
            reason: user.freeze.reason,
            admin: user.freeze.updated_by ?? '',
            time: dayjs(user.freeze.updated_at).format('YYYY-MM-DD HH:mm'),
          })}
          data-testid="user-freeze-alert"
        />
      )}
      <Card loading={detail.isPending}>
        {user && (
          <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
            <Descriptions.Item label={t('users.account')}>{user.account}</Descriptions.Item>
            <Descriptions.Item label={t('users.email')}>{user.email ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('users.phone')}>{user.phone ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('users.realName')}>
              <ReviewTag status={user.review_status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('users.secondFactor')}>
              <OnOffTag on={user.totp_enabled} colour="blue" />
            </Descriptions.Item>
            <Descriptions.Item label={t('users.inviteCode')}>
              <Typography.Text code>{user.extension_code}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('users.invitedBy')}>
              {user.parent ? <Link to={`/admin/users/${user.parent.id}`}>{user.parent.account}</Link> : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.invited')}>{user.invited_count}</Descriptions.Item>
            <Descriptions.Item label={t('users.registered')}>
              <Time value={user.created_at} />
            </Descriptions.Item>
            <Descriptions.Item label={t('users.lastLogin')}>
              <Time value={user.last_login_at} />{' '}
              {user.last_login_ip && (
                <Typography.Text type="secondary">({user.last_login_ip})</Typography.Text>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('users.openOrders')}>{user.open_orders}</Descriptions.Item>
            <Descriptions.Item label={t('users.pendingWithdrawals')}>
              {user.pending_withdrawals}
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card className="fx-admin-section">
        <Tabs
          items={[
            {
              key: 'balances',
              label: t('users.balances'),
              children: <Balances lines={user?.balances ?? []} />,
            },
            { key: 'orders', label: t('users.orders'), children: <Orders userId={id} /> },
            {
              key: 'ledger',
              label: t('users.ledger'),
              children: <Ledger userId={id} balances={user?.balances ?? []} />,
            },
            { key: 'logins', label: t('users.logins'), children: <Logins userId={id} /> },
            ...(can(permissions, 'funding.read')
              ? [
                  {
                    key: 'withdrawals',
                    label: t('funding.withdrawals'),
                    children: <WithdrawalsTable userId={id} />,
                  },
                  { key: 'deposits', label: t('funding.deposits'), children: <DepositsTable userId={id} /> },
                ]
              : []),
          ]}
        />
      </Card>
    </div>
  );
}

function Balances({ lines }: { lines: BalanceLine[] }) {
  const t = useAdminT();
  const columns: ColumnsType<BalanceLine> = [
    {
      title: t('solvency.currency'),
      dataIndex: 'code',
      fixed: 'left',
      render: (code: string) => <span className="fx-admin-strong">{code}</span>,
    },
    ...WALLETS.map((wallet) => ({
      title: t(`wallets.${wallet}`),
      key: wallet,
      align: 'right' as const,
      render: (_: unknown, line: BalanceLine) => (
        <div className="fx-admin-balance">
          <Amount value={line.wallets[wallet]?.available} />
          {line.wallets[wallet]?.locked !== undefined &&
            !/^0(\.0+)?$/.test(line.wallets[wallet]?.locked ?? '0') && (
              <Typography.Text type="secondary" className="fx-admin-locked">
                <LockOutlined /> {line.wallets[wallet]?.locked}
              </Typography.Text>
            )}
        </div>
      ),
    })),
  ];
  return (
    <Table
      size="small"
      rowKey="currency_id"
      columns={columns}
      dataSource={lines}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('users.noBalances') }}
      data-testid="user-balances"
    />
  );
}

function Orders({ userId }: { userId: number }) {
  const t = useAdminT();
  const { list, pagination } = useAdminPage<Paged<OrderLine>>(
    ['user-orders', userId],
    '/backoffice/users/orders',
    { id: userId },
  );
  const columns: ColumnsType<OrderLine> = [
    { title: t('orders.id'), dataIndex: 'order_id' },
    { title: t('volume.market'), dataIndex: 'symbol' },
    {
      title: t('orders.side'),
      dataIndex: 'side',
      render: (side: string) => (
        <span className={side === 'buy' ? 'fx-admin-up' : 'fx-admin-down'}>
          {t(`orders.${side}` as AdminKey)}
        </span>
      ),
    },
    { title: t('orders.kind'), dataIndex: 'kind', render: (kind: string) => t(`orders.${kind}` as AdminKey) },
    amountColumn(t('orders.price'), 'price'),
    amountColumn(t('orders.quantity'), 'quantity'),
    amountColumn(t('orders.filled'), 'filled'),
    {
      title: t('orders.fee'),
      key: 'fee',
      align: 'right',
      render: (_: unknown, row) => <Amount value={row.fee_paid} code={row.fee_currency} />,
    },
    statusColumn(t('common.status'), 'status'),
    timeColumn(t('common.time'), 'created_at'),
  ];
  return (
    <Table
      size="small"
      rowKey="order_id"
      columns={columns}
      dataSource={list.data?.data}
      loading={list.isFetching}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
    />
  );
}

function Ledger({ userId, balances }: { userId: number; balances: BalanceLine[] }) {
  const t = useAdminT();
  const [currency, setCurrency] = useState<number | undefined>(undefined);
  const { list, pagination } = useAdminPage<Paged<LedgerLine>>(
    ['user-ledger', userId, currency],
    '/backoffice/users/ledger',
    { id: userId, currency_id: currency },
  );
  const columns: ColumnsType<LedgerLine> = [
    timeColumn(t('common.time'), 'time'),
    {
      title: t('ledger.reason'),
      dataIndex: 'reason',
      render: (reason: string) => t(`reasons.${reason}` as AdminKey, { defaultValue: reason }),
    },
    {
      title: t('ledger.wallet'),
      dataIndex: 'wallet',
      render: (wallet: string) => t(`wallets.${wallet}` as AdminKey),
    },
    { title: t('solvency.currency'), dataIndex: 'currency' },
    amountColumn(t('ledger.change'), 'change'),
    amountColumn(t('ledger.available'), 'available_after'),
    amountColumn(t('ledger.lockedChange'), 'locked_change'),
    amountColumn(t('ledger.locked'), 'locked_after'),
    { title: t('ledger.reference'), dataIndex: 'reference_id' },
    { title: t('ledger.memo'), dataIndex: 'memo', render: (memo: string | null) => memo ?? '' },
  ];
  return (
    <Space direction="vertical" className="fx-admin-full">
      <Select
        allowClear
        placeholder={t('ledger.allCurrencies')}
        value={currency}
        onChange={(value: number | undefined) => setCurrency(value)}
        options={balances.map((line) => ({ value: line.currency_id, label: line.code }))}
        className="fx-admin-select"
      />
      <Table
        size="small"
        rowKey={(row) => `${row.seq}:${row.wallet}:${row.currency}:${row.reference_id}:${row.change}`}
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isFetching}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
      />
    </Space>
  );
}

function Logins({ userId }: { userId: number }) {
  const t = useAdminT();
  const { list, pagination } = useAdminPage<Paged<LoginLine>>(
    ['user-logins', userId],
    '/backoffice/users/logins',
    { id: userId },
  );
  const columns: ColumnsType<LoginLine> = [
    timeColumn(t('logins.start'), 'created_at'),
    timeColumn(t('logins.expires'), 'expires_at'),
    timeColumn(t('logins.ended'), 'revoked_at'),
    {
      title: t('common.status'),
      dataIndex: 'active',
      render: (active: boolean) =>
        active ? <Tag color="green">{t('logins.active')}</Tag> : <Tag>{t('logins.closed')}</Tag>,
    },
    {
      title: t('logins.ip'),
      dataIndex: 'ip',
      render: (ip: string | null) => <span className="fx-admin-mono">{ip ?? '—'}</span>,
    },
    {
      title: t('logins.agent'),
      dataIndex: 'user_agent',
      ellipsis: true,
      render: (agent: string | null) => agent ?? '—',
    },
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('logins.note')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="created_at"
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isFetching}
        pagination={pagination}
      />
    </>
  );
}

/** The freeze form: what `/users/freeze` takes besides the user's id. */
type FreezeValues = { trading: boolean; withdrawals: boolean; full: boolean; reason: string };

function FreezeButton({ user }: { user: Detail }) {
  const t = useAdminT();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<FreezeValues>();
  const save = useAdminMutation(
    (values: FreezeValues) => adminApi.post<string>('/backoffice/users/freeze', { id: user.id, ...values }),
    { invalidate: [['user', String(user.id)], ['user'], ['users']], onSuccess: () => setOpen(false) },
  );
  return (
    <>
      <Button
        danger={!user.freeze}
        icon={<LockOutlined />}
        data-testid="user-freeze"
        onClick={() => {
          form.setFieldsValue({
            trading: user.freeze?.trading ?? false,
            withdrawals: user.freeze?.withdrawals ?? false,
            full: user.freeze?.full ?? false,
            reason: '',
          });
          setOpen(true);
        }}
      >
        {t('users.freeze')}
      </Button>
      <Modal
        open={open}
        title={t('users.freezeTitle', { account: user.account })}
        okText={t('common.save')}
        onCancel={() => setOpen(false)}
        onOk={() => void form.validateFields().then((values) => save.mutate(values))}
        confirmLoading={save.isPending}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('users.freezeHelp')}</Typography.Paragraph>
        <Form form={form} layout="vertical">
          <Form.Item name="trading" label={t('users.freezeTrading')} valuePropName="checked">
            <Switch data-testid="freeze-trading" />
          </Form.Item>
          <Form.Item name="withdrawals" label={t('users.freezeWithdrawals')} valuePropName="checked">
            <Switch data-testid="freeze-withdrawals" />
          </Form.Item>
          <Form.Item name="full" label={t('users.freezeFull')} valuePropName="checked">
            <Switch data-testid="freeze-full" />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('common.reason')}
            rules={[{ required: true, max: 500, message: t('common.reasonRequired') }]}
          >
            <Input.TextArea rows={3} data-testid="freeze-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

function ResetSecondFactorButton({ userId }: { userId: number }) {
  const t = useAdminT();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const reset = useAdminMutation(
    () => adminApi.post<string>('/backoffice/users/reset_second_factor', { id: userId, reason }),
    {
      invalidate: [['user']],
      onSuccess: () => setOpen(false),
    },
  );
  return (
    <>
      <Button icon={<SafetyOutlined />} onClick={() => setOpen(true)}>
        {t('users.resetSecondFactor')}
      </Button>
      <Modal
        open={open}
        title={t('users.resetSecondFactor')}
        okText={t('users.resetConfirm')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        onCancel={() => setOpen(false)}
        onOk={() => reset.mutate(undefined)}
        confirmLoading={reset.isPending}
      >
        <Typography.Paragraph>{t('users.resetHelp')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder={t('common.reason')}
        />
      </Modal>
    </>
  );
}
