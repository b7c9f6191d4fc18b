import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
  type ButtonProps,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import type {
  P2pAd,
  P2pAdminApplication,
  P2pAdminOrder,
  P2pConfig,
  P2pEvidenceEntry,
  P2pFiat,
  P2pOrderStatus,
} from '@fairex/shared/api/p2p.ts';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { FIATS, ORDER_STATUSES } from '../../data/p2p.ts';
import { Amount, PageHeader, errorText, useAdminMutation } from '../components/common.tsx';
import { can, useAdminSession } from '../session.ts';
import { adminImagePath, decideReady } from './p2p-data.ts';

// P2P fiat trade's back office (docs/p2p.md): merchant applications (approve, with the acceptor flag, or
// reject with a reason), ads (take one off the book), orders with the full evidence log of an appealed
// one (chat, uploads, status changes in time order) and the arbiter's decision with reason and the
// administrator's second factor, audited by the server; the reference prices floating ads follow.

// Query keys after the console's 'admin' prefix (useAdminMutation adds it when it invalidates).
const APPLICATIONS_KEY = ['p2p', 'applications'];
const ADS_KEY = ['p2p', 'ads'];
const ORDERS_KEY = ['p2p', 'orders'];
const ORDER_KEY = ['p2p', 'order'];

function when(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
}

export default function P2pPage() {
  const t = useAdminT();
  const [tab, setTab] = useState('applications');
  return (
    <div data-testid="admin-p2p">
      <PageHeader title={t('p2p.title')} description={t('p2p.description')} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'applications', label: t('p2p.tabs.applications'), children: <Applications /> },
          { key: 'appeals', label: t('p2p.tabs.appeals'), children: <Orders fixedStatus="appealed" /> },
          { key: 'orders', label: t('p2p.tabs.orders'), children: <Orders /> },
          { key: 'ads', label: t('p2p.tabs.ads'), children: <Ads /> },
          {
            key: 'reference',
            label: t('p2p.tabs.reference'),
            children: (
              <Space direction="vertical" size="large" className="fx-admin-full">
                <ConfigCard />
                <Reference />
              </Space>
            ),
          },
        ].map((item) => ({
          ...item,
          label: <span data-testid={`admin-p2p-tab-${item.key}`}>{item.label}</span>,
        }))}
      />
    </div>
  );
}

// ------------------------------------------------------------------------------------ applications

function Applications() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const [status, setStatus] = useState<'pending' | 'approved' | 'rejected' | undefined>('pending');
  const [page, setPage] = useState(1);
  const [reviewing, setReviewing] = useState<{
    row: P2pAdminApplication;
    decision: 'approve' | 'reject';
  } | null>(null);
  const list = useQuery({
    queryKey: ['admin', ...APPLICATIONS_KEY, status, page],
    queryFn: () => adminApi.get<Paged<P2pAdminApplication>>('/backoffice/p2p/applications', { status, page }),
  });
  const editable = can(permissions, 'users.manage');
  return (
    <Card>
      <Space className="fx-admin-toolbar">
        <Radio.Group
          value={status ?? 'all'}
          onChange={(event) => {
            const value = event.target.value as string;
            setStatus(value === 'all' ? undefined : (value as 'pending'));
            setPage(1);
          }}
        >
          {(['pending', 'approved', 'rejected', 'all'] as const).map((value) => (
            <Radio.Button key={value} value={value}>
              {t(`p2p.applicationStatus.${value}`)}
            </Radio.Button>
          ))}
        </Radio.Group>
      </Space>
      <Table<P2pAdminApplication>
        {...pagedTable(list, page, setPage)}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('p2p.user'), render: (_, row) => `${row.account} (#${row.user_id})` },
          { title: t('p2p.nickname'), dataIndex: 'nickname' },
          {
            title: t('p2p.requirements'),
            render: (_, row) => (
              <Space wrap size={4}>
                {row.requirements.map((item) => (
                  <Tag key={item.key} color={item.met ? 'green' : 'red'}>
                    {t(`p2p.requirement.${item.key}`)}: {item.have}/{item.needed}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { title: t('p2p.note'), dataIndex: 'note', ellipsis: true },
          { title: t('common.time'), render: (_, row) => when(row.created_time) },
          {
            title: t('common.status'),
            render: (_, row) => (
              <span>
                <Tag>{t(`p2p.applicationStatus.${row.status}`)}</Tag>
                {row.reason !== '' && <Typography.Text type="secondary">{row.reason}</Typography.Text>}
              </span>
            ),
          },
          {
            title: '',
            render: (_, row) =>
              editable && row.status === 'pending' ? (
                <Space>
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setReviewing({ row, decision: 'approve' })}
                    data-testid={`admin-p2p-approve-${row.id}`}
                  >
                    {t('common.approve')}
                  </Button>
                  <Button size="small" danger onClick={() => setReviewing({ row, decision: 'reject' })}>
                    {t('common.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {reviewing !== null && (
        <ReviewDialog row={reviewing.row} decision={reviewing.decision} onClose={() => setReviewing(null)} />
      )}
    </Card>
  );
}

function ReviewDialog({
  row,
  decision,
  onClose,
}: {
  row: P2pAdminApplication;
  decision: 'approve' | 'reject';
  onClose: () => void;
}) {
  const t = useAdminT();
  const [reason, setReason] = useState('');
  const [acceptor, setAcceptor] = useState(false);
  const review = useAdminMutation(
    () =>
      adminApi.post('/backoffice/p2p/applications/review', {
        id: row.id,
        decision,
        reason: reason.trim() === '' ? undefined : reason.trim(),
        acceptor: decision === 'approve' ? (acceptor ? 1 : 0) : undefined,
      }),
    { invalidate: [APPLICATIONS_KEY], onSuccess: onClose },
  );
  const needsReason = decision === 'reject' && reason.trim() === '';
  return (
    <Modal
      open
      onCancel={onClose}
      title={
        decision === 'approve'
          ? t('p2p.approveTitle', { name: row.nickname })
          : t('p2p.rejectTitle', { name: row.nickname })
      }
      onOk={() => review.mutate(undefined)}
      confirmLoading={review.isPending}
      okButtonProps={{ disabled: needsReason, 'data-testid': 'admin-p2p-review-confirm' } as ButtonProps}
    >
      <Form layout="vertical">
        {decision === 'approve' && (
          <Form.Item label={t('p2p.acceptorFlag')} extra={t('p2p.acceptorHint')}>
            <Switch checked={acceptor} onChange={setAcceptor} data-testid="admin-p2p-acceptor" />
          </Form.Item>
        )}
        <Form.Item label={t('common.reason')} required={decision === 'reject'}>
          <Input.TextArea
            rows={3}
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// --------------------------------------------------------------------------------------------- ads

function Ads() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const [status, setStatus] = useState<'online' | 'paused' | 'closed' | undefined>('online');
  const [page, setPage] = useState(1);
  const [pausing, setPausing] = useState<P2pAd | null>(null);
  const [reason, setReason] = useState('');
  const list = useQuery({
    queryKey: ['admin', ...ADS_KEY, status, page],
    queryFn: () => adminApi.get<Paged<P2pAd>>('/backoffice/p2p/ads', { status, page }),
  });
  const pause = useAdminMutation(
    (input: { id: number; reason: string }) => adminApi.post('/backoffice/p2p/ads/pause', input),
    {
      invalidate: [ADS_KEY],
      onSuccess: () => {
        setPausing(null);
        setReason('');
      },
    },
  );
  return (
    <Card>
      <Space className="fx-admin-toolbar">
        <Select
          value={status ?? 'all'}
          style={{ width: 160 }}
          onChange={(value: string) => {
            setStatus(value === 'all' ? undefined : (value as 'online'));
            setPage(1);
          }}
          options={(['online', 'paused', 'closed', 'all'] as const).map((value) => ({
            value,
            label: t(`p2p.adStatus.${value}`),
          }))}
        />
      </Space>
      <Table<P2pAd>
        {...pagedTable(list, page, setPage)}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          {
            title: t('p2p.merchant'),
            render: (_, ad) => `${ad.merchant.nickname} (#${ad.merchant.user_id})`,
          },
          { title: t('p2p.side'), render: (_, ad) => t(`p2p.sides.${ad.side}`) },
          { title: t('p2p.pair'), render: (_, ad) => `${ad.currency_name}/${ad.fiat}` },
          { title: t('p2p.price'), render: (_, ad) => <Amount value={ad.price} code={ad.fiat} /> },
          {
            title: t('p2p.available'),
            render: (_, ad) => (
              <span>
                <Amount value={ad.available} /> / <Amount value={ad.total} code={ad.currency_name} />
              </span>
            ),
          },
          { title: t('p2p.limits'), render: (_, ad) => `${ad.min_fiat} - ${ad.max_fiat}` },
          { title: t('common.status'), render: (_, ad) => <Tag>{t(`p2p.adStatus.${ad.status}`)}</Tag> },
          {
            title: '',
            render: (_, ad) =>
              can(permissions, 'funding.manage') && ad.status === 'online' ? (
                <Button size="small" danger onClick={() => setPausing(ad)}>
                  {t('p2p.takeDown')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={pausing !== null}
        title={t('p2p.takeDownTitle', { id: pausing?.id ?? '' })}
        onCancel={() => setPausing(null)}
        onOk={() => pausing && pause.mutate({ id: pausing.id, reason: reason.trim() })}
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        confirmLoading={pause.isPending}
      >
        <Typography.Paragraph type="secondary">{t('p2p.takeDownNote')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={200}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Modal>
    </Card>
  );
}

// ------------------------------------------------------------------------------------------ orders

function Orders({ fixedStatus }: { fixedStatus?: P2pOrderStatus }) {
  const t = useAdminT();
  const [status, setStatus] = useState<P2pOrderStatus | undefined>(fixedStatus);
  const [userId, setUserId] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const user = /^\d+$/.test(userId.trim()) ? Number(userId.trim()) : undefined;
  const list = useQuery({
    queryKey: ['admin', ...ORDERS_KEY, status, user, page],
    queryFn: () =>
      adminApi.get<Paged<P2pAdminOrder>>('/backoffice/p2p/orders', { status, user_id: user, page }),
  });
  const testId = fixedStatus === 'appealed' ? 'admin-p2p-appeals' : 'admin-p2p-orders';
  return (
    <Card data-testid={testId}>
      <Space className="fx-admin-toolbar" wrap>
        {fixedStatus === undefined && (
          <Select
            value={status ?? 'all'}
            style={{ width: 180 }}
            onChange={(value: string) => {
              setStatus(value === 'all' ? undefined : (value as P2pOrderStatus));
              setPage(1);
            }}
            options={[...ORDER_STATUSES, 'all' as const].map((value) => ({
              value,
              label: t(`p2p.orderStatus.${value}`),
            }))}
          />
        )}
        <Input
          placeholder={t('p2p.userId')}
          value={userId}
          style={{ width: 160 }}
          onChange={(event) => {
            setUserId(event.target.value);
            setPage(1);
          }}
        />
      </Space>
      <Table<P2pAdminOrder>
        {...pagedTable(list, page, setPage)}
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('p2p.buyer'), render: (_, row) => `${row.buyer.nickname} (#${row.buyer.user_id})` },
          { title: t('p2p.seller'), render: (_, row) => `${row.seller.nickname} (#${row.seller.user_id})` },
          {
            title: t('p2p.amount'),
            render: (_, row) => <Amount value={row.amount} code={row.currency_name} />,
          },
          {
            title: t('p2p.fiatAmount'),
            render: (_, row) => <Amount value={row.fiat_amount} code={row.fiat} />,
          },
          { title: t('common.status'), render: (_, row) => <Tag>{t(`p2p.orderStatus.${row.status}`)}</Tag> },
          { title: t('common.time'), render: (_, row) => when(row.created_time) },
          {
            title: '',
            render: (_, row) => (
              <Button size="small" onClick={() => setOpen(row.id)} data-testid={`admin-p2p-order-${row.id}`}>
                {t('common.view')}
              </Button>
            ),
          },
        ]}
      />
      {open !== null && <OrderDrawer id={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}

/** An evidence image, read with the administrator's token. */
function EvidenceImage({ image }: { image: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    let made: string | null = null;
    adminApi.blobUrl(adminImagePath(image)).then(
      (objectUrl) => {
        made = objectUrl;
        if (active) setUrl(objectUrl);
        else URL.revokeObjectURL(objectUrl);
      },
      () => active && setFailed(true),
    );
    return () => {
      active = false;
      if (made !== null) URL.revokeObjectURL(made);
    };
  }, [image]);
  if (failed) return <Typography.Text type="danger">{image}</Typography.Text>;
  if (url === null) return <Spin size="small" />;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img
        src={url}
        alt={image}
        className="fx-admin-evidence-image"
        style={{ maxWidth: 220, maxHeight: 220 }}
      />
    </a>
  );
}

const EVIDENCE_COLOURS: Record<P2pEvidenceEntry['kind'], string> = {
  status: 'gray',
  message: 'blue',
  image: 'blue',
  appeal: 'red',
  decision: 'green',
};

function OrderDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const order = useQuery({
    queryKey: ['admin', ...ORDER_KEY, id],
    queryFn: () => adminApi.get<P2pAdminOrder>('/backoffice/p2p/orders/detail', { id }),
  });
  const who = (from: number, data: P2pAdminOrder) =>
    from === 0
      ? t('p2p.system')
      : from === -1
        ? t('p2p.arbiter')
        : from === data.buyer.user_id
          ? `${t('p2p.buyer')} ${data.buyer.nickname}`
          : from === data.seller.user_id
            ? `${t('p2p.seller')} ${data.seller.nickname}`
            : `#${from}`;
  return (
    <Drawer
      open
      onClose={onClose}
      size={720}
      title={t('p2p.orderTitle', { id })}
      data-testid="admin-p2p-order"
    >
      {order.isPending ? (
        <Spin />
      ) : order.isError ? (
        <Alert type="error" showIcon title={errorText(order.error)} />
      ) : (
        <Space direction="vertical" size="large" className="fx-admin-full">
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              {
                key: 'status',
                label: t('common.status'),
                children: (
                  <Tag data-testid="admin-p2p-order-status">{t(`p2p.orderStatus.${order.data.status}`)}</Tag>
                ),
              },
              {
                key: 'end',
                label: t('p2p.end'),
                children: order.data.end === null ? '—' : t(`p2p.ends.${order.data.end}`),
              },
              {
                key: 'buyer',
                label: t('p2p.buyer'),
                children: `${order.data.buyer.nickname} (#${order.data.buyer.user_id})`,
              },
              {
                key: 'seller',
                label: t('p2p.seller'),
                children: `${order.data.seller.nickname} (#${order.data.seller.user_id})`,
              },
              {
                key: 'amount',
                label: t('p2p.amount'),
                children: <Amount value={order.data.amount} code={order.data.currency_name} />,
              },
              {
                key: 'fiat',
                label: t('p2p.fiatAmount'),
                children: <Amount value={order.data.fiat_amount} code={order.data.fiat} />,
              },
              {
                key: 'price',
                label: t('p2p.price'),
                children: <Amount value={order.data.price} code={order.data.fiat} />,
              },
              {
                key: 'fees',
                label: t('p2p.fees'),
                children: `${order.data.buyer_fee} / ${order.data.seller_fee}`,
              },
              { key: 'created', label: t('p2p.created'), children: when(order.data.created_time) },
              { key: 'paid', label: t('p2p.paid'), children: when(order.data.paid_time) },
            ]}
          />
          {order.data.appeal !== null && (
            <Card size="small" title={t('p2p.appealTitle')}>
              <Typography.Paragraph>
                <Tag color="red">
                  {t(`p2p.appealReasons.${order.data.appeal.reason}` as AdminKey, {
                    defaultValue: order.data.appeal.reason,
                  })}
                </Tag>{' '}
                {who(order.data.appeal.by, order.data)} · {when(order.data.appeal.created_time)}
              </Typography.Paragraph>
              <Typography.Paragraph>{order.data.appeal.description}</Typography.Paragraph>
              <Space wrap>
                {order.data.appeal.evidence.map((image) => (
                  <EvidenceImage key={image} image={image} />
                ))}
              </Space>
            </Card>
          )}
          <Card size="small" title={t('p2p.evidenceLog')} data-testid="admin-p2p-evidence">
            <Timeline
              items={order.data.evidence_log.map((entry, index) => ({
                key: index,
                color: EVIDENCE_COLOURS[entry.kind],
                children: (
                  <div>
                    <Typography.Text type="secondary">
                      {when(entry.time)} · {t(`p2p.kind.${entry.kind}`)} · {who(entry.from, order.data)}
                    </Typography.Text>
                    {entry.text !== '' && (
                      <div className="fx-admin-pre">
                        {entry.kind === 'status'
                          ? t(`p2p.statusText.${entry.text}` as AdminKey, { defaultValue: entry.text })
                          : entry.text}
                      </div>
                    )}
                    {entry.image !== null && <EvidenceImage image={entry.image} />}
                  </div>
                ),
              }))}
            />
          </Card>
          {order.data.decision !== null && (
            <Alert
              type="success"
              showIcon
              title={t('p2p.decided', {
                to: t(`p2p.to.${order.data.decision.to}`),
                by: order.data.decision.by,
              })}
              description={order.data.decision.reason}
            />
          )}
          {order.data.status === 'appealed' && can(permissions, 'funding.manage') && (
            <DecideForm order={order.data} />
          )}
        </Space>
      )}
    </Drawer>
  );
}

function DecideForm({ order }: { order: P2pAdminOrder }) {
  const t = useAdminT();
  const [to, setTo] = useState<'buyer' | 'seller' | null>(null);
  const [reason, setReason] = useState('');
  const [code, setCode] = useState('');
  const decide = useAdminMutation(
    () =>
      adminApi.post('/backoffice/p2p/orders/decide', {
        id: order.id,
        to,
        reason: reason.trim(),
        totp_code: code,
      }),
    { invalidate: [ORDERS_KEY, ORDER_KEY] },
  );
  const ready = decideReady(to, reason, code);
  return (
    <Card size="small" title={t('p2p.decideTitle')} data-testid="admin-p2p-decide">
      <Typography.Paragraph type="secondary">{t('p2p.decideNote')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={() => ready && decide.mutate(undefined)}>
        <Form.Item label={t('p2p.decideTo')} required>
          <Radio.Group value={to} onChange={(event) => setTo(event.target.value as 'buyer' | 'seller')}>
            <Radio value="buyer" data-testid="admin-p2p-to-buyer">
              {t('p2p.toBuyer', {
                name: order.buyer.nickname,
                amount: order.amount,
                asset: order.currency_name,
              })}
            </Radio>
            <Radio value="seller" data-testid="admin-p2p-to-seller">
              {t('p2p.toSeller', { name: order.seller.nickname })}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item label={t('common.reason')} required extra={t('p2p.reasonRule')}>
          <Input.TextArea
            rows={3}
            maxLength={1000}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            data-testid="admin-p2p-decide-reason"
          />
        </Form.Item>
        <Form.Item label={t('p2p.totp')} required>
          <Input
            value={code}
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            style={{ width: 160 }}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
            data-testid="admin-p2p-decide-code"
          />
        </Form.Item>
        <Button
          type="primary"
          danger
          htmlType="submit"
          disabled={!ready}
          loading={decide.isPending}
          data-testid="admin-p2p-decide-submit"
        >
          {t('p2p.decideSubmit')}
        </Button>
      </Form>
    </Card>
  );
}

// ------------------------------------------------------------------------------------- reference

const CONFIG_KEY = ['p2p', 'config'];

/** Fees per side, the appeal wait and the daily cancellation limit: one journaled, audited command. */
function ConfigCard() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const config = useQuery({
    queryKey: ['admin', ...CONFIG_KEY],
    queryFn: () => adminApi.get<P2pConfig>('/backoffice/p2p/config'),
  });
  const save = useAdminMutation(
    (values: ConfigValues) => adminApi.post('/backoffice/p2p/config', { ...values }),
    { invalidate: [CONFIG_KEY] },
  );
  if (config.data === undefined) return <Spin />;
  const initial: ConfigValues = {
    maker_fee_bp: config.data.maker_fee_bp,
    taker_fee_bp: config.data.taker_fee_bp,
    appeal_wait_minutes: config.data.appeal_wait_minutes,
    cancellations_per_day: config.data.cancellations_per_day,
  };
  return (
    <Card title={t('p2p.configTitle')} data-testid="admin-p2p-config">
      <Typography.Paragraph type="secondary">{t('p2p.configNote')}</Typography.Paragraph>
      <Form<ConfigValues>
        layout="inline"
        initialValues={initial}
        disabled={!can(permissions, 'catalog.manage')}
        onFinish={(values) => save.mutate(values)}
      >
        <Form.Item name="maker_fee_bp" label={t('p2p.makerFee')} rules={[{ required: true }]}>
          <InputNumber min={0} max={1_000} precision={0} />
        </Form.Item>
        <Form.Item name="taker_fee_bp" label={t('p2p.takerFee')} rules={[{ required: true }]}>
          <InputNumber min={0} max={1_000} precision={0} />
        </Form.Item>
        <Form.Item name="appeal_wait_minutes" label={t('p2p.appealWait')} rules={[{ required: true }]}>
          <InputNumber min={0} max={1_440} precision={0} />
        </Form.Item>
        <Form.Item
          name="cancellations_per_day"
          label={t('p2p.cancellationsPerDay')}
          rules={[{ required: true }]}
        >
          <InputNumber min={1} max={100} precision={0} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
      <Typography.Paragraph type="secondary" className="fx-admin-note">
        {t('p2p.bpHint')}
      </Typography.Paragraph>
      {config.data.references.length > 0 && (
        <Space wrap>
          {config.data.references.map((reference) => (
            <Tag key={`${reference.currency_id}-${reference.fiat}`}>
              #{reference.currency_id} / {reference.fiat}: {reference.price ?? '—'}
              {reference.time !== null && ` · ${when(reference.time)}`}
            </Tag>
          ))}
        </Space>
      )}
    </Card>
  );
}

interface ConfigValues {
  maker_fee_bp: number;
  taker_fee_bp: number;
  appeal_wait_minutes: number;
  cancellations_per_day: number;
}

function Reference() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const [currencyId, setCurrencyId] = useState('');
  const [fiat, setFiat] = useState<P2pFiat>('CNY');
  const [price, setPrice] = useState('');
  const record = useAdminMutation(() =>
    adminApi.post('/backoffice/p2p/reference', {
      currency_id: Number(currencyId),
      fiat,
      price: price.trim(),
    }),
  );
  const ready = /^\d+$/.test(currencyId) && /^\d+(\.\d{1,2})?$/.test(price.trim());
  return (
    <Card title={t('p2p.referenceTitle')}>
      <Typography.Paragraph type="secondary">{t('p2p.referenceNote')}</Typography.Paragraph>
      <Space wrap>
        <Input
          placeholder={t('p2p.currencyId')}
          value={currencyId}
          style={{ width: 140 }}
          onChange={(event) => setCurrencyId(event.target.value.trim())}
        />
        <Select
          value={fiat}
          style={{ width: 100 }}
          onChange={setFiat}
          options={FIATS.map((value) => ({ value, label: value }))}
        />
        <Input
          placeholder={t('p2p.price')}
          value={price}
          style={{ width: 160 }}
          onChange={(event) => setPrice(event.target.value)}
        />
        <Button
          type="primary"
          disabled={!ready || !can(permissions, 'catalog.manage')}
          loading={record.isPending}
          onClick={() => record.mutate(undefined)}
        >
          {t('common.save')}
        </Button>
      </Space>
    </Card>
  );
}

/** The table settings every paged list of this console shares: its rows by id, its loading, its pages. */
function pagedTable<T>(list: UseQueryResult<Paged<T>>, page: number, setPage: (page: number) => void) {
  return {
    rowKey: 'id',
    size: 'small',
    loading: list.isFetching,
    dataSource: list.data?.data ?? [],
    scroll: { x: true },
    pagination: {
      current: page,
      total: list.data?.total ?? 0,
      pageSize: list.data?.per_page ?? 50,
      onChange: setPage,
    },
  } as const;
}
