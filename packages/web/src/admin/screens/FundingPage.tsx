import { CheckOutlined, CloseOutlined, ExperimentOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Segmented,
  Select,
  Space,
  Statistic,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { Link } from 'react-router';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { Amount, PageHeader, StatusTag, Time, useAdminMutation } from '../components/common.tsx';
import { useDecimalRules } from '../components/form.tsx';
import {
  accountColumn,
  amountCodeColumn,
  amountColumn,
  OnOffTag,
  statusColumn,
  timeColumn,
  useAdminPage,
} from '../components/table.tsx';
import { can, useAdminSession } from '../session.ts';
import type {
  CallbackLine as Callback,
  ChainLine as Chain,
  ChainsReply,
  CurrenciesReply,
  DepositLine as Deposit,
  DepositPage,
  FlashDeskReply,
  WithdrawalDetail,
  WithdrawalLine as Withdrawal,
  WithdrawalPage,
} from '@fairex/shared/api/backoffice.ts';

/** Money in and out: the withdrawal queue, deposits, the custody callback log, hand credits and chains. */
export default function FundingPage() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  return (
    <div>
      <PageHeader title={t('funding.title')} description={t('funding.description')} />
      <Card>
        <Tabs
          items={[
            { key: 'withdrawals', label: t('funding.withdrawals'), children: <WithdrawalsTable /> },
            { key: 'deposits', label: t('funding.deposits'), children: <DepositsTable /> },
            { key: 'callbacks', label: t('funding.callbacks'), children: <Callbacks /> },
            ...(can(permissions, 'funding.manage')
              ? [{ key: 'manual', label: t('funding.manual'), children: <ManualCredit /> }]
              : []),
            { key: 'chains', label: t('funding.chains'), children: <Chains /> },
            { key: 'flashDesk', label: t('funding.flashDesk'), children: <FlashDesk /> },
          ]}
        />
      </Card>
    </div>
  );
}

const STATUSES = ['pending', 'approved', 'completed', 'rejected', 'failed'] as const;

export function WithdrawalsTable({ userId }: { userId?: number }) {
  const t = useAdminT();
  const [status, setStatus] = useState<string>(userId === undefined ? 'pending' : 'all');
  const [open, setOpen] = useState<number | null>(null);
  const { list, setPage, pagination } = useAdminPage<WithdrawalPage>(
    ['withdrawals', status, userId],
    '/backoffice/withdrawals',
    { status: status === 'all' ? undefined : status, user_id: userId },
  );
  const columns: ColumnsType<Withdrawal> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    ...(userId === undefined ? [accountColumn<Withdrawal>(t('users.account'))] : []),
    amountCodeColumn(t('funding.amount')),
    amountColumn(t('funding.fee'), 'fee'),
    { title: t('funding.chain'), dataIndex: 'chain', render: (chain: string) => <Tag>{chain}</Tag> },
    {
      title: t('funding.address'),
      dataIndex: 'address',
      render: (address: string) => (
        <Typography.Text className="fx-admin-mono" copyable={{ text: address }} ellipsis>
          {address}
        </Typography.Text>
      ),
    },
    statusColumn(t('common.status'), 'status'),
    timeColumn(t('common.time'), 'created_at'),
    {
      key: 'open',
      align: 'right',
      render: (_: unknown, row) => (
        <Button type="link" onClick={() => setOpen(row.id)} data-testid={`withdrawal-open-${row.id}`}>
          {row.status === 'pending' ? t('realName.review') : t('common.view')}
        </Button>
      ),
    },
  ];
  return (
    <Space direction="vertical" className="fx-admin-full">
      {list.data?.sandbox && userId === undefined && (
        <Alert type="info" showIcon icon={<ExperimentOutlined />} message={t('funding.sandboxNote')} />
      )}
      <Segmented
        value={status}
        onChange={(value) => {
          setStatus(String(value));
          setPage(1);
        }}
        options={[
          ...STATUSES.map((key) => ({ value: key, label: t(`status.${key}`) })),
          { value: 'all', label: t('common.all') },
        ]}
      />
      <Table<Withdrawal>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        data-testid="withdrawals-table"
        pagination={pagination}
      />
      {open !== null && <WithdrawalDrawer id={open} onClose={() => setOpen(null)} />}
    </Space>
  );
}

function WithdrawalDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [txId, setTxId] = useState('');
  const detail = useQuery({
    queryKey: ['admin', 'withdrawal', id],
    queryFn: () => adminApi.get<WithdrawalDetail>('/backoffice/withdrawals/detail', { id }),
  });
  const invalidate = [['withdrawals'], ['withdrawal'], ['dashboard'], ['user']];
  const approve = useAdminMutation(() => adminApi.post('/backoffice/withdrawals/approve', { id }), {
    invalidate,
  });
  const reject = useAdminMutation(
    () => adminApi.post<string>('/backoffice/withdrawals/reject', { id, reason }),
    {
      invalidate,
      onSuccess: () => setRejecting(false),
    },
  );
  const confirm = useAdminMutation(
    () => adminApi.post<string>('/backoffice/withdrawals/confirm', { id, tx_id: txId }),
    {
      invalidate,
      onSuccess: () => setConfirming(false),
    },
  );
  const resend = useAdminMutation(() => adminApi.post('/backoffice/withdrawals/resend', { id }), {
    invalidate,
  });
  const data = detail.data;
  const withdrawal = data?.withdrawal;
  const manage = can(permissions, 'funding.manage');
  const otherColumns: ColumnsType<Withdrawal> = [
    { title: 'ID', dataIndex: 'id' },
    amountCodeColumn(t('funding.amount')),
    statusColumn(t('common.status'), 'status'),
    timeColumn(t('common.time'), 'created_at'),
  ];
  const depositColumns: ColumnsType<Deposit> = [
    amountCodeColumn(t('funding.amount')),
    {
      title: t('funding.source'),
      dataIndex: 'source',
      render: (source: string) => t(`funding.source_${source}` as AdminKey),
    },
    timeColumn(t('common.time'), 'created_at'),
  ];
  return (
    <Drawer
      open
      width={760}
      onClose={onClose}
      title={t('funding.withdrawalTitle', { id })}
      data-testid="withdrawal-drawer"
      extra={
        manage &&
        withdrawal && (
          <Space>
            {withdrawal.status === 'pending' && (
              <>
                <Button
                  danger
                  icon={<CloseOutlined />}
                  onClick={() => setRejecting(true)}
                  data-testid="withdrawal-reject"
                >
                  {t('common.reject')}
                </Button>
                <Button
                  type="primary"
                  icon={<CheckOutlined />}
                  loading={approve.isPending}
                  onClick={() => approve.mutate(undefined)}
                  data-testid="withdrawal-approve"
                >
                  {t('common.approve')}
                </Button>
              </>
            )}
            {withdrawal.status === 'approved' && withdrawal.payout_error && (
              <Button
                icon={<SendOutlined />}
                loading={resend.isPending}
                onClick={() => resend.mutate(undefined)}
              >
                {t('funding.resend')}
              </Button>
            )}
            {withdrawal.status === 'approved' && withdrawal.payout_adapter === 'sandbox' && (
              <Button
                icon={<ExperimentOutlined />}
                onClick={() => setConfirming(true)}
                data-testid="withdrawal-confirm"
              >
                {t('funding.confirmPayout')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {withdrawal && data && (
        <Space direction="vertical" size="large" className="fx-admin-full">
          {data.user.freeze?.withdrawals && (
            <Alert
              type="error"
              showIcon
              message={t('funding.userFrozen', { reason: data.user.freeze.reason })}
            />
          )}
          {withdrawal.payout_error && (
            <Alert
              type="warning"
              showIcon
              message={t('funding.payoutError', { error: withdrawal.payout_error })}
            />
          )}
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label={t('users.account')}>
              <Link to={`/admin/users/${withdrawal.user_id}`}>{withdrawal.account}</Link>
            </Descriptions.Item>
            <Descriptions.Item label={t('common.status')}>
              <StatusTag status={withdrawal.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('funding.amount')}>
              <Amount value={withdrawal.amount} code={withdrawal.currency} strong />
            </Descriptions.Item>
            <Descriptions.Item label={t('funding.receive')}>
              <Amount value={withdrawal.receive} code={withdrawal.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={t('funding.fee')}>
              <Amount value={withdrawal.fee} code={withdrawal.currency} />
            </Descriptions.Item>
            <Descriptions.Item label={t('funding.chain')}>{withdrawal.chain}</Descriptions.Item>
            <Descriptions.Item label={t('funding.address')} span={2}>
              <Typography.Text className="fx-admin-mono" copyable>
                {withdrawal.address}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('funding.requested')}>
              <Time value={withdrawal.created_at} />
            </Descriptions.Item>
            <Descriptions.Item label={t('realName.reviewer')}>
              {withdrawal.reviewed_by ?? '—'}
            </Descriptions.Item>
            {withdrawal.tx_id && (
              <Descriptions.Item label={t('funding.txId')} span={2}>
                <Typography.Text className="fx-admin-mono">{withdrawal.tx_id}</Typography.Text>
              </Descriptions.Item>
            )}
            {withdrawal.review_note && (
              <Descriptions.Item label={t('common.reason')} span={2}>
                {withdrawal.review_note}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Card size="small" title={t('funding.userBeside')}>
            <Row gutter={16}>
              <Col span={6}>
                <Statistic title={t('funding.available')} value={data.user.balance.available} />
              </Col>
              <Col span={6}>
                <Statistic title={t('funding.locked')} value={data.user.balance.locked} />
              </Col>
              <Col span={6}>
                <Statistic title={t('funding.depositedTotal')} value={data.user.deposited_total} />
              </Col>
              <Col span={6}>
                <Statistic title={t('funding.withdrawnTotal')} value={data.user.withdrawn_total} />
              </Col>
            </Row>
            <Typography.Paragraph type="secondary" className="fx-admin-note">
              {t('funding.totalsIn', { currency: withdrawal.currency })}
            </Typography.Paragraph>
            <Tabs
              size="small"
              items={[
                {
                  key: 'w',
                  label: t('funding.recentWithdrawals', { n: data.user.withdrawal_count }),
                  children: (
                    <Table
                      size="small"
                      rowKey="id"
                      columns={otherColumns}
                      dataSource={data.user.withdrawals}
                      pagination={false}
                    />
                  ),
                },
                {
                  key: 'd',
                  label: t('funding.recentDeposits', { n: data.user.deposit_count }),
                  children: (
                    <Table
                      size="small"
                      rowKey="id"
                      columns={depositColumns}
                      dataSource={data.user.deposits}
                      pagination={false}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Space>
      )}
      <Modal
        open={rejecting}
        title={t('funding.rejectTitle')}
        okText={t('common.reject')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        onOk={() => reject.mutate(undefined)}
        confirmLoading={reject.isPending}
        onCancel={() => setRejecting(false)}
      >
        <Typography.Paragraph type="secondary">{t('funding.rejectHelp')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={200}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          data-testid="withdrawal-reason"
        />
      </Modal>
      <Modal
        open={confirming}
        title={t('funding.confirmPayout')}
        okButtonProps={{ disabled: txId.trim() === '' }}
        onOk={() => confirm.mutate(undefined)}
        confirmLoading={confirm.isPending}
        onCancel={() => setConfirming(false)}
      >
        <Typography.Paragraph type="secondary">{t('funding.confirmHelp')}</Typography.Paragraph>
        <Input
          value={txId}
          onChange={(event) => setTxId(event.target.value)}
          placeholder={t('funding.txId')}
        />
      </Modal>
    </Drawer>
  );
}

export function DepositsTable({ userId }: { userId?: number }) {
  const t = useAdminT();
  const { list, pagination } = useAdminPage<DepositPage>(['deposits', userId], '/backoffice/deposits', {
    user_id: userId,
  });
  const columns: ColumnsType<Deposit> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    ...(userId === undefined ? [accountColumn<Deposit>(t('users.account'))] : []),
    amountCodeColumn(t('funding.amount')),
    {
      title: t('funding.chain'),
      dataIndex: 'chain',
      render: (chain: string | null) => (chain ? <Tag>{chain}</Tag> : '—'),
    },
    {
      // A chain transaction id is 64 characters: shown shortened (whole on hover, copyable) so that the
      // list fits the screen instead of scrolling sideways.
      title: t('funding.txId'),
      dataIndex: 'tx_id',
      render: (tx: string) => (
        <Typography.Text className="fx-admin-mono" copyable={{ text: tx }} title={tx}>
          {shortTxId(tx)}
        </Typography.Text>
      ),
    },
    {
      title: t('funding.source'),
      key: 'source',
      render: (_: unknown, row) => (
        <span>
          {t(`funding.source_${row.source}` as AdminKey)}
          {row.admin && <Typography.Text type="secondary"> · {row.admin}</Typography.Text>}
        </span>
      ),
    },
    { title: t('funding.note'), dataIndex: 'note', render: (note: string | null) => note ?? '' },
    statusColumn(t('common.status'), 'status'),
    timeColumn(t('common.time'), 'created_at'),
  ];
  return (
    <Table<Deposit>
      rowKey="id"
      size="middle"
      data-testid="deposits-table"
      columns={columns}
      dataSource={list.data?.data}
      loading={list.isFetching}
      scroll={{ x: 'max-content' }}
      pagination={pagination}
    />
  );
}

function Callbacks() {
  const t = useAdminT();
  const { list, pagination } = useAdminPage<Paged<Callback>>(['callbacks'], '/backoffice/callbacks');
  const columns: ColumnsType<Callback> = [
    timeColumn(t('funding.received'), 'received_at'),
    { title: 'IP', dataIndex: 'ip' },
    {
      title: t('funding.signature'),
      dataIndex: 'sign_ok',
      render: (ok: boolean) =>
        ok ? (
          <Tag color="green">{t('funding.signatureOk')}</Tag>
        ) : (
          <Tag color="red">{t('funding.signatureBad')}</Tag>
        ),
    },
    statusColumn(t('funding.outcome'), 'outcome'),
    {
      title: t('funding.txId'),
      dataIndex: 'tx_id',
      render: (tx: string | null) => <span className="fx-admin-mono">{tx ?? ''}</span>,
    },
    { title: t('funding.detail'), dataIndex: 'detail' },
  ];
  return (
    <Table<Callback>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={list.data?.data}
      loading={list.isFetching}
      expandable={{
        expandedRowRender: (row) => <pre className="fx-admin-pre">{row.body ?? ''}</pre>,
        rowExpandable: (row) => Boolean(row.body),
      }}
      locale={{ emptyText: t('funding.noCallbacks') }}
      pagination={pagination}
    />
  );
}

/**
 * The flash desk: the house's change wallet, which pays every flash exchange. Its balance per flash
 * currency and the latest movements of house capital through it (the demo's first-start funding, an
 * operator's house funding), as the seconds reserve's card shows the reserve.
 */
function FlashDesk() {
  const t = useAdminT();
  const desk = useQuery({
    queryKey: ['flash-desk'],
    queryFn: () => adminApi.get<FlashDeskReply>('/backoffice/flash_desk'),
  });
  type Funding = FlashDeskReply['fundings'][number];
  const columns: ColumnsType<Funding> = [
    {
      title: t('common.time'),
      dataIndex: 'time',
      render: (time: number) => <Time value={new Date(time).toISOString()} />,
    },
    {
      title: t('funding.amount'),
      dataIndex: 'amount',
      render: (amount: string, row) => <Amount value={amount} code={row.code} />,
    },
    { title: t('funding.flashDeskMemo'), dataIndex: 'memo', render: (memo: string | null) => memo ?? '' },
  ];
  return (
    <div data-testid="admin-flash-desk">
      <p className="fx-admin-muted">{t('funding.flashDeskHelp')}</p>
      <Space wrap size="large" style={{ marginBottom: 16 }}>
        {(desk.data?.list ?? []).map((line) => (
          <Card key={line.currency_id} size="small" data-testid={`flash-desk-${line.code}`}>
            <Amount value={line.available} code={line.code} strong />
          </Card>
        ))}
      </Space>
      <Table<Funding>
        rowKey={(row) => `${row.transfer_id}:${row.currency_id}`}
        size="small"
        columns={columns}
        dataSource={desk.data?.fundings}
        loading={desk.isFetching}
        locale={{ emptyText: t('funding.flashDeskEmpty') }}
        pagination={false}
      />
    </div>
  );
}

/** What `/deposits/manual` takes. */
type ManualCreditValues = { user_id: number; currency_id: number; amount: string; note: string };

function ManualCredit() {
  const t = useAdminT();
  const [form] = Form.useForm<ManualCreditValues>();
  const chains = useQuery({
    queryKey: ['admin', 'chains'],
    queryFn: () => adminApi.get<ChainsReply>('/backoffice/chains'),
  });
  const currencies = useQuery({
    queryKey: ['admin', 'currencies'],
    queryFn: () => adminApi.get<CurrenciesReply>('/backoffice/currencies'),
  });
  const credit = useAdminMutation(
    (values: ManualCreditValues) => adminApi.post('/backoffice/deposits/manual', values),
    { invalidate: [['deposits'], ['dashboard']], onSuccess: () => form.resetFields() },
  );
  const currencyId = Form.useWatch('currency_id', form);
  const decimal = useDecimalRules();
  if (chains.data && !chains.data.sandbox)
    return <Alert type="info" showIcon message={t('funding.manualOff')} />;
  const scale = currencies.data?.list.find((currency) => currency.id === currencyId)?.scale;
  return (
    <Row gutter={24}>
      <Col xs={24} lg={12}>
        <Alert
          type="warning"
          showIcon
          message={t('funding.manualWarning')}
          className="fx-admin-section-alert"
        />
        <Form form={form} layout="vertical" onFinish={(values) => credit.mutate(values)}>
          <Form.Item name="user_id" label={t('funding.userId')} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} className="fx-admin-full" />
          </Form.Item>
          <Form.Item name="currency_id" label={t('solvency.currency')} rules={[{ required: true }]}>
            <Select
              options={currencies.data?.list.map((currency) => ({
                value: currency.id,
                label: currency.code,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('funding.amount')}
            extra={scale === undefined ? undefined : t('common.decimals', { scale })}
            rules={decimal}
          >
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="note" label={t('funding.note')} rules={[{ required: true, max: 200 }]}>
            <Input />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={credit.isPending}>
            {t('funding.credit')}
          </Button>
        </Form>
      </Col>
    </Row>
  );
}

function Chains() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const chains = useQuery({
    queryKey: ['admin', 'chains'],
    queryFn: () => adminApi.get<ChainsReply>('/backoffice/chains'),
  });
  const [editing, setEditing] = useState<Chain | null>(null);
  const [confirmations, setConfirmations] = useState<number | null>(null);
  const [enabled, setEnabled] = useState(true);
  const save = useAdminMutation(
    () =>
      adminApi.post<string>('/backoffice/chains/update', {
        currency_id: editing?.currency_id,
        chain_type: editing?.chain_type,
        confirmations: confirmations ?? undefined,
        is_enabled: enabled,
      }),
    { invalidate: [['chains']], onSuccess: () => setEditing(null) },
  );
  const columns: ColumnsType<Chain> = [
    {
      title: t('solvency.currency'),
      dataIndex: 'currency',
      render: (code: string) => <span className="fx-admin-strong">{code}</span>,
    },
    {
      title: t('funding.chain'),
      dataIndex: 'code',
      render: (code: string, row) => <Tag>{`${code} · ${row.chain_type}`}</Tag>,
    },
    { title: t('funding.network'), dataIndex: 'network' },
    { title: t('markets.udunId'), dataIndex: 'udun_id' },
    {
      title: t('funding.coinType'),
      key: 'coin',
      render: (_: unknown, row) => (
        <span className="fx-admin-mono">{`${row.main_coin_type} / ${row.coin_type}`}</span>
      ),
    },
    { title: t('funding.chainDecimals'), dataIndex: 'chain_decimals', align: 'right' },
    { title: t('funding.confirmations'), dataIndex: 'confirmations', align: 'right' },
    {
      title: t('common.enabled'),
      dataIndex: 'is_enabled',
      render: (on: boolean, row) => <OnOffTag on={on && row.udun_id >= 0} />,
    },
    ...(can(permissions, 'funding.manage')
      ? [
          {
            key: 'edit',
            align: 'right' as const,
            render: (_: unknown, row: Chain) => (
              <Button
                type="link"
                onClick={() => {
                  setEditing(row);
                  setConfirmations(row.confirmations);
                  setEnabled(row.is_enabled);
                }}
              >
                {t('common.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('funding.chainsNote')}</Typography.Paragraph>
      <Table<Chain>
        rowKey={(row) => `${row.currency_id}:${row.chain_type}`}
        size="small"
        columns={columns}
        dataSource={chains.data?.list}
        loading={chains.isPending}
        pagination={false}
      />
      <Modal
        open={editing !== null}
        title={editing ? `${editing.currency} · ${editing.code}` : ''}
        onOk={() => save.mutate(undefined)}
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
      >
        <Form layout="vertical">
          <Form.Item label={t('funding.confirmations')}>
            <InputNumber
              min={0}
              max={1000}
              precision={0}
              value={confirmations}
              onChange={(value) => setConfirmations(value)}
            />
          </Form.Item>
          <Form.Item label={t('common.enabled')}>
            <Switch checked={enabled} onChange={setEnabled} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** The first and last characters of a long transaction id, enough to recognise it. */
export function shortTxId(tx: string): string {
  return tx.length <= 20 ? tx : `${tx.slice(0, 10)}…${tx.slice(-8)}`;
}
