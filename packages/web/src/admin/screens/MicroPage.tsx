import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import type { MicroAdminConfig, MicroAdminOrder, MicroProof, MicroReserveReply } from '@fairex/shared';
import { useAdminT } from '../i18n.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { Amount, PageHeader, Time, useAdminMutation } from '../components/common.tsx';
import { HouseFundForm } from '../components/HouseFundForm.tsx';
import { can, useAdminSession } from '../session.ts';
import {
  addableCurrencies,
  bpPercent,
  capMarkets,
  ordersQuery,
  presetsFromText,
  type OrderFilters,
} from './micro-data.ts';

// useAdminMutation reads again the lists it is given under the console's 'admin' prefix: the lists are named
// without it, the queries with it.
export const MICRO_CONFIG = ['micro', 'config'];
export const MICRO_RESERVE = ['micro', 'reserve'];
const CONFIG_KEY = ['admin', ...MICRO_CONFIG];
const RESERVE_KEY = ['admin', ...MICRO_RESERVE];

/**
 * Seconds contracts' back office: the configuration the engine holds (each change a journaled command,
 * audited), the house reserve and its funding from the house's change wallet, and the settled orders with
 * their proofs.
 */
export default function MicroPage() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const config = useQuery({
    queryKey: CONFIG_KEY,
    queryFn: () => adminApi.get<MicroAdminConfig>('/backoffice/micro/config'),
  });
  return (
    <div>
      <PageHeader title={t('micro.title')} description={t('micro.description')} />
      <Space direction="vertical" size="large" className="fx-admin-full">
        {config.data !== undefined && (
          <>
            <SecondsCard config={config.data} editable={can(permissions, 'catalog.manage')} />
            <CurrenciesCard config={config.data} editable={can(permissions, 'catalog.manage')} />
            <CapsCard config={config.data} editable={can(permissions, 'catalog.manage')} />
            <StalenessCard config={config.data} editable={can(permissions, 'catalog.manage')} />
          </>
        )}
        <ReserveCard editable={can(permissions, 'funding.manage')} />
        <OrdersCard markets={config.data?.markets ?? []} />
      </Space>
    </div>
  );
}

function SecondsCard({ config, editable }: { config: MicroAdminConfig; editable: boolean }) {
  const t = useAdminT();
  const [form] = Form.useForm<{ options: { seconds: number; profit_ratio_bp: number }[] }>();
  const save = useAdminMutation(
    (options: { seconds: number; profit_ratio_bp: number }[]) =>
      adminApi.post('/backoffice/micro/seconds', { options }),
    { invalidate: [MICRO_CONFIG] },
  );
  return (
    <Card title={t('micro.seconds.title')} data-testid="micro-seconds">
      <Typography.Paragraph type="secondary">{t('micro.seconds.note')}</Typography.Paragraph>
      <Form
        form={form}
        layout="inline"
        disabled={!editable}
        initialValues={{ options: config.seconds }}
        onFinish={(values) => save.mutate(values.options)}
      >
        <Form.List name="options">
          {(fields, { add, remove }) => (
            <Space direction="vertical">
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item
                    name={[field.name, 'seconds']}
                    label={t('micro.seconds.seconds')}
                    rules={[{ required: true }]}
                  >
                    <InputNumber
                      min={1}
                      max={86_400}
                      precision={0}
                      data-testid={`micro-seconds-${field.name}`}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'profit_ratio_bp']}
                    label={t('micro.seconds.ratio')}
                    rules={[{ required: true }]}
                  >
                    <InputNumber
                      min={0}
                      max={100_000}
                      precision={0}
                      data-testid={`micro-ratio-${field.name}`}
                    />
                  </Form.Item>
                  <Form.Item shouldUpdate noStyle>
                    {() => (
                      <Typography.Text type="secondary">
                        {bpPercent(
                          Number(form.getFieldValue(['options', field.name, 'profit_ratio_bp']) ?? 0),
                        )}{' '}
                        %
                      </Typography.Text>
                    )}
                  </Form.Item>
                  <Button onClick={() => remove(field.name)}>{t('micro.remove')}</Button>
                </Space>
              ))}
              <Space>
                <Button onClick={() => add({ seconds: 60, profit_ratio_bp: 8_000 })}>{t('micro.add')}</Button>
                <Button
                  type="primary"
                  htmlType="submit"
                  loading={save.isPending}
                  data-testid="micro-seconds-save"
                >
                  {t('micro.save')}
                </Button>
              </Space>
            </Space>
          )}
        </Form.List>
      </Form>
    </Card>
  );
}

interface CurrencyForm {
  currency_id: number;
  fee_bp: number;
  min: string;
  max: string;
  presets: string;
  max_open_orders: number;
}

function CurrenciesCard({ config, editable }: { config: MicroAdminConfig; editable: boolean }) {
  const t = useAdminT();
  const [editing, setEditing] = useState<CurrencyForm | null>(null);
  const [form] = Form.useForm<CurrencyForm>();
  const save = useAdminMutation(
    (values: CurrencyForm) =>
      adminApi.post('/backoffice/micro/currency', { ...values, presets: presetsFromText(values.presets) }),
    { invalidate: [MICRO_CONFIG], onSuccess: () => setEditing(null) },
  );
  const addable = addableCurrencies(config);
  const open = (values: CurrencyForm) => {
    form.setFieldsValue(values);
    setEditing(values);
  };
  return (
    <Card
      title={t('micro.currencies.title')}
      extra={
        editable && addable.length > 0 ? (
          <Button
            onClick={() =>
              open({
                currency_id: addable[0]?.id ?? 0,
                fee_bp: 100,
                min: '',
                max: '',
                presets: '',
                max_open_orders: 20,
              })
            }
          >
            {t('micro.add')}
          </Button>
        ) : null
      }
    >
      <Table
        size="small"
        rowKey="currency_id"
        pagination={false}
        dataSource={config.currencies}
        columns={[
          { title: t('micro.currency'), dataIndex: 'code' },
          {
            title: t('micro.currencies.fee'),
            dataIndex: 'fee_bp',
            render: (bp: number) => `${bpPercent(bp)} %`,
          },
          {
            title: t('micro.currencies.min'),
            dataIndex: 'min',
            render: (value: string) => <Amount value={value} />,
          },
          {
            title: t('micro.currencies.max'),
            dataIndex: 'max',
            render: (value: string) => <Amount value={value} />,
          },
          {
            title: t('micro.currencies.presets'),
            dataIndex: 'presets',
            render: (list: string[]) => list.join(', '),
          },
          { title: t('micro.currencies.maxOpen'), dataIndex: 'max_open_orders' },
          {
            title: '',
            key: 'edit',
            render: (_: unknown, row: MicroAdminConfig['currencies'][number]) =>
              editable ? (
                <Button size="small" onClick={() => open({ ...row, presets: row.presets.join(', ') })}>
                  {t('micro.edit')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t('micro.currencies.title')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        confirmLoading={save.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
          <Form.Item name="currency_id" label={t('micro.currency')} rules={[{ required: true }]}>
            <Select
              options={config.all_currencies.map((currency) => ({
                value: currency.id,
                label: currency.code,
              }))}
            />
          </Form.Item>
          <Form.Item name="fee_bp" label={t('micro.currencies.feeBp')} rules={[{ required: true }]}>
            <InputNumber min={0} max={10_000} precision={0} />
          </Form.Item>
          <Form.Item name="min" label={t('micro.currencies.min')} rules={[{ required: true }]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="max" label={t('micro.currencies.max')} rules={[{ required: true }]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item
            name="presets"
            label={t('micro.currencies.presets')}
            extra={t('micro.currencies.presetsNote')}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="max_open_orders"
            label={t('micro.currencies.maxOpen')}
            extra={t('micro.currencies.maxOpenNote')}
          >
            <InputNumber min={0} max={10_000} precision={0} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

function CapsCard({ config, editable }: { config: MicroAdminConfig; editable: boolean }) {
  const t = useAdminT();
  const [form] = Form.useForm<{ currency_id: number; market_id: number; exposure_cap: string }>();
  const currencyId = Form.useWatch('currency_id', form) ?? config.currencies[0]?.currency_id;
  const save = useAdminMutation(
    (values: { currency_id: number; market_id: number; exposure_cap: string }) =>
      adminApi.post('/backoffice/micro/cap', values),
    { invalidate: [MICRO_CONFIG] },
  );
  return (
    <Card title={t('micro.caps.title')}>
      <Typography.Paragraph type="secondary">{t('micro.caps.note')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey={(row) => `${row.market_id}:${row.currency_id}`}
        pagination={false}
        dataSource={config.caps}
        columns={[
          { title: t('micro.market'), dataIndex: 'symbol' },
          { title: t('micro.currency'), dataIndex: 'code' },
          {
            title: t('micro.caps.cap'),
            dataIndex: 'exposure_cap',
            render: (value: string, row) => <Amount value={value} code={row.code} />,
          },
        ]}
      />
      {editable && (
        <Form
          form={form}
          layout="inline"
          className="fx-admin-full"
          initialValues={{ currency_id: config.currencies[0]?.currency_id }}
          onFinish={(values) => save.mutate(values)}
        >
          <Form.Item name="currency_id" label={t('micro.currency')} rules={[{ required: true }]}>
            <Select
              style={{ minWidth: 100 }}
              options={config.all_currencies.map((currency) => ({
                value: currency.id,
                label: currency.code,
              }))}
            />
          </Form.Item>
          <Form.Item name="market_id" label={t('micro.market')} rules={[{ required: true }]}>
            <Select
              style={{ minWidth: 140 }}
              options={capMarkets(config, currencyId ?? 0).map((market) => ({
                value: market.id,
                label: market.symbol,
              }))}
            />
          </Form.Item>
          <Form.Item name="exposure_cap" label={t('micro.caps.cap')} rules={[{ required: true }]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {t('micro.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}

function StalenessCard({ config, editable }: { config: MicroAdminConfig; editable: boolean }) {
  const t = useAdminT();
  const save = useAdminMutation(
    (max_sample_age_ms: number) => adminApi.post('/backoffice/micro/staleness', { max_sample_age_ms }),
    { invalidate: [MICRO_CONFIG] },
  );
  return (
    <Card title={t('micro.staleness.title')}>
      <Typography.Paragraph type="secondary">{t('micro.staleness.note')}</Typography.Paragraph>
      <Form
        layout="inline"
        disabled={!editable}
        initialValues={{ max_sample_age_ms: config.max_sample_age_ms }}
        onFinish={(values: { max_sample_age_ms: number }) => save.mutate(values.max_sample_age_ms)}
      >
        <Form.Item name="max_sample_age_ms" label={t('micro.staleness.ms')} rules={[{ required: true }]}>
          <InputNumber min={1} max={600_000} precision={0} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('micro.save')}
        </Button>
      </Form>
    </Card>
  );
}

function ReserveCard({ editable }: { editable: boolean }) {
  const t = useAdminT();
  const reserve = useQuery({
    queryKey: RESERVE_KEY,
    queryFn: () => adminApi.get<MicroReserveReply>('/backoffice/micro/reserve'),
  });
  const lines = reserve.data?.list ?? [];
  const fundings = reserve.data?.fundings ?? [];
  return (
    <Card title={t('micro.reserve.title')} loading={reserve.isPending} data-testid="micro-reserve">
      <Typography.Paragraph type="secondary">{t('micro.reserve.note')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="currency_id"
        pagination={false}
        dataSource={lines}
        columns={[
          { title: t('micro.currency'), dataIndex: 'code' },
          {
            title: t('micro.reserve.available'),
            dataIndex: 'available',
            render: (value: string) => (
              <span data-testid="micro-reserve-available">
                <Amount value={value} strong />
              </span>
            ),
          },
          {
            title: t('micro.reserve.held'),
            dataIndex: 'held',
            render: (value: string) => <Amount value={value} />,
          },
          {
            title: t('micro.reserve.change'),
            dataIndex: 'change_available',
            render: (value: string) => <Amount value={value} />,
          },
        ]}
      />
      <Typography.Title level={5}>{t('micro.reserve.fundings')}</Typography.Title>
      <Table
        size="small"
        rowKey={(row) => `${row.transfer_id}:${row.currency_id}`}
        pagination={false}
        dataSource={fundings}
        data-testid="micro-reserve-fundings"
        locale={{ emptyText: t('micro.reserve.noFundings') }}
        columns={[
          {
            title: t('micro.reserve.fundingTime'),
            dataIndex: 'time',
            render: (value: number) => <Time value={new Date(value).toISOString()} />,
          },
          { title: t('micro.currency'), dataIndex: 'code' },
          {
            title: t('micro.reserve.fundingAmount'),
            dataIndex: 'amount',
            render: (value: string) => <Amount value={value} />,
          },
          { title: t('micro.reserve.fundingMemo'), dataIndex: 'memo' },
        ]}
      />
      {editable && lines.length > 0 && (
        <HouseFundForm
          currencies={lines.map((line) => ({ id: line.currency_id, code: line.code }))}
          url="/backoffice/micro/reserve/fund"
          invalidate={[MICRO_RESERVE]}
          section="micro.reserve"
          currencyLabel="micro.currency"
          testId="micro"
        />
      )}
    </Card>
  );
}

function OrdersCard({ markets }: { markets: MicroAdminConfig['markets'] }) {
  const t = useAdminT();
  const [filters, setFilters] = useState<OrderFilters>({ page: 1 });
  const [proofId, setProofId] = useState<number | null>(null);
  const orders = useQuery({
    queryKey: ['admin', 'micro', 'orders', filters],
    queryFn: () => adminApi.get<Paged<MicroAdminOrder>>('/backoffice/micro/orders', ordersQuery(filters)),
  });
  const proof = useQuery({
    queryKey: ['admin', 'micro', 'proof', proofId],
    enabled: proofId !== null,
    queryFn: () => adminApi.get<MicroProof>('/backoffice/micro/proof', { id: proofId }),
  });
  return (
    <Card title={t('micro.orders.title')} data-testid="micro-orders">
      <Space wrap className="fx-admin-full">
        <InputNumber
          placeholder={t('micro.orders.user')}
          min={1}
          precision={0}
          onChange={(value) =>
            setFilters({ ...filters, page: 1, userId: value === null ? undefined : Number(value) })
          }
        />
        <Select
          allowClear
          placeholder={t('micro.market')}
          style={{ minWidth: 140 }}
          options={markets.map((market) => ({ value: market.id, label: market.symbol }))}
          onChange={(value: number | undefined) => setFilters({ ...filters, page: 1, marketId: value })}
        />
        <Select
          allowClear
          placeholder={t('micro.orders.outcome')}
          style={{ minWidth: 120 }}
          options={(['win', 'loss', 'draw', 'void'] as const).map((outcome) => ({
            value: outcome,
            label: t(`micro.outcome.${outcome}`),
          }))}
          onChange={(value: OrderFilters['outcome']) => setFilters({ ...filters, page: 1, outcome: value })}
        />
        <DatePicker.RangePicker
          onChange={(range: [Dayjs | null, Dayjs | null] | null) =>
            setFilters({
              ...filters,
              page: 1,
              fromDayMs: range?.[0]?.startOf('day').valueOf(),
              toDayMs: range?.[1]?.startOf('day').valueOf(),
            })
          }
        />
      </Space>
      <Table
        size="small"
        rowKey="id"
        loading={orders.isPending}
        dataSource={orders.data?.data}
        pagination={{
          current: filters.page,
          pageSize: orders.data?.per_page ?? 50,
          total: orders.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (page) => setFilters({ ...filters, page }),
        }}
        columns={[
          { title: t('micro.orders.id'), dataIndex: 'id' },
          { title: t('micro.orders.user'), dataIndex: 'user_id' },
          { title: t('micro.market'), dataIndex: 'symbol_name' },
          {
            title: t('micro.orders.direction'),
            dataIndex: 'type',
            render: (type: 1 | 2) => t(type === 1 ? 'micro.orders.up' : 'micro.orders.down'),
          },
          { title: t('micro.seconds.seconds'), dataIndex: 'seconds' },
          {
            title: t('micro.orders.stake'),
            dataIndex: 'number',
            render: (value: string, row: MicroAdminOrder) => (
              <Amount value={value} code={row.currency_name} />
            ),
          },
          { title: t('micro.orders.open'), dataIndex: 'open_price' },
          { title: t('micro.orders.end'), dataIndex: 'end_price' },
          {
            title: t('micro.orders.outcome'),
            dataIndex: 'outcome',
            render: (outcome: MicroAdminOrder['outcome']) => (
              <Tag color={outcome === 'win' ? 'red' : outcome === 'loss' ? 'green' : 'default'}>
                {t(`micro.outcome.${outcome}`)}
              </Tag>
            ),
          },
          {
            title: t('micro.orders.payout'),
            dataIndex: 'payout',
            render: (value: string) => <Amount value={value} />,
          },
          {
            title: t('micro.orders.settled'),
            dataIndex: 'settled_time',
            render: (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19),
          },
          {
            title: t('micro.orders.proof'),
            key: 'proof',
            render: (_: unknown, row: MicroAdminOrder) => (
              <Button
                size="small"
                type="link"
                onClick={() => setProofId(row.id)}
                data-testid={`micro-proof-${row.id}`}
              >
                {t('micro.orders.proof')}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={proofId !== null}
        title={`${t('micro.orders.proof')} #${proofId ?? ''}`}
        footer={null}
        width={720}
        onCancel={() => setProofId(null)}
      >
        <Typography.Paragraph type="secondary">
          {t('micro.orders.publicProof')}{' '}
          <Typography.Text code copyable>{`/api/microtrade/proof?id=${proofId ?? ''}`}</Typography.Text>
        </Typography.Paragraph>
        <pre
          className="fx-admin-mono"
          data-testid="micro-proof-body"
          style={{ maxHeight: 400, overflow: 'auto' }}
        >
          {proof.data === undefined ? '' : JSON.stringify(proof.data, null, 2)}
        </pre>
      </Modal>
    </Card>
  );
}
