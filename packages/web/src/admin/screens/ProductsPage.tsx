import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import type {
  AdminAccrualLine,
  AdminHoldingLine,
  AdminMinerRateLine,
  AdminPage,
  AdminProductLine,
  AdminProductsReply,
  ProductKind,
} from '@fairex/shared';
import { useAdminT } from '../i18n.ts';
import { adminApi } from '../../data/admin-api.ts';
import { Amount, PageHeader, useAdminMutation } from '../components/common.tsx';
import { useDecimalRules } from '../components/form.tsx';
import { can, useAdminSession } from '../session.ts';
import { bpPercent } from './micro-data.ts';
import { dayDate, dayNumber, nextDay, termsBody, termsValues, type TermsValues } from './products-data.ts';

const LIST_KEY = ['admin', 'products', 'list'];

/**
 * The products' back office (docs/products.md): every ICO, miner and defi product with its terms, what is sold,
 * the house account that funds it and what opening needs there; create, edit (future purchases only), open and
 * close; a miner's daily rates (recorded before each day starts); each product's holdings and daily accruals;
 * and running the accrual job now.
 */
export default function ProductsPage() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  // The server's rule (routes/api/backoffice/products.ts): reads need funding.read, changes to products
  // catalog.manage, running the accrual job funding.manage.
  const editable = can(permissions, 'catalog.manage');
  const canAccrue = can(permissions, 'funding.manage');
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: () => adminApi.get<AdminProductsReply>('/backoffice/products'),
  });
  const [editing, setEditing] = useState<AdminProductLine | ProductKind | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const accrue = useAdminMutation(() => adminApi.post('/backoffice/products/accrue'), {
    invalidate: [['products']],
  });
  const open = useAdminMutation((id: number) => adminApi.post('/backoffice/products/open', { id }), {
    invalidate: [['products']],
  });
  const close = useAdminMutation((id: number) => adminApi.post('/backoffice/products/close', { id }), {
    invalidate: [['products']],
  });
  const products = list.data?.products ?? [];
  const selected = products.find((line) => line.id === chosen) ?? null;

  return (
    <div data-testid="admin-products">
      <PageHeader
        title={t('products.title')}
        description={t('products.description')}
        extra={
          <Space wrap>
            <Button onClick={() => void list.refetch()}>{t('common.refresh')}</Button>
            {canAccrue && (
              <Button
                loading={accrue.isPending}
                onClick={() => accrue.mutate(undefined)}
                data-testid="products-accrue"
              >
                {t('products.accrue')}
              </Button>
            )}
            {editable &&
              (['ico', 'miner', 'defi'] as const).map((kind) => (
                <Button
                  key={kind}
                  type="primary"
                  onClick={() => setEditing(kind)}
                  data-testid={`products-create-${kind}`}
                >
                  {t(`products.create.${kind}`)}
                </Button>
              ))}
          </Space>
        }
      />
      <Card>
        <Table<AdminProductLine>
          rowKey="id"
          size="small"
          loading={list.isPending}
          dataSource={products}
          pagination={false}
          scroll={{ x: true }}
          onRow={(line) => ({ onClick: () => setChosen(line.id) })}
          rowClassName={(line) => (line.id === chosen ? 'ant-table-row-selected' : '')}
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: t('products.kind'), render: (_, line) => t(`products.kinds.${line.kind}`) },
            { title: t('products.name'), dataIndex: 'title' },
            {
              title: t('common.status'),
              render: (_, line) => (
                <Tag
                  color={line.status === 'open' ? 'green' : line.status === 'draft' ? 'default' : 'red'}
                  data-testid={`products-status-${line.id}`}
                >
                  {t(`products.statuses.${line.status}`)}
                </Tag>
              ),
            },
            {
              title: t('products.terms'),
              render: (_, line) => <TermsText line={line} />,
            },
            {
              title: t('products.total'),
              render: (_, line) => <Amount value={line.total} code={line.currency_name} />,
            },
            { title: t('products.sold'), render: (_, line) => <Amount value={line.sold} /> },
            { title: t('products.remaining'), render: (_, line) => <Amount value={line.remaining} /> },
            { title: t('products.holdings'), dataIndex: 'holdings' },
            {
              title: t('products.accruedThrough'),
              render: (_, line) => (line.accrued_through === null ? '—' : dayDate(line.accrued_through)),
            },
            {
              title: t('products.houseReserved'),
              render: (_, line) => <Amount value={line.house.reserved} code={line.house.currency_name} />,
            },
            {
              title: t('products.reserveRequired'),
              render: (_, line) => <Amount value={line.reserve_required} />,
            },
            {
              title: t('products.houseAvailable'),
              render: (_, line) => (
                <span data-testid={`products-house-available-${line.id}`}>
                  <Amount value={line.house_available} />
                </span>
              ),
            },
            {
              title: '',
              render: (_, line) =>
                editable ? (
                  <Space onClick={(event) => event.stopPropagation()}>
                    <Button
                      size="small"
                      onClick={() => setEditing(line)}
                      data-testid={`products-edit-${line.id}`}
                    >
                      {t('common.edit')}
                    </Button>
                    {line.status !== 'open' ? (
                      <Button
                        size="small"
                        type="primary"
                        loading={open.isPending}
                        onClick={() => open.mutate(line.id)}
                        data-testid={`products-open-${line.id}`}
                      >
                        {t('products.open')}
                      </Button>
                    ) : (
                      <Button
                        size="small"
                        danger
                        loading={close.isPending}
                        onClick={() =>
                          Modal.confirm({
                            title: t('products.closeConfirm', { title: line.title }),
                            content: t('products.closeNote'),
                            onOk: () => close.mutateAsync(line.id).catch(() => undefined),
                          })
                        }
                        data-testid={`products-close-${line.id}`}
                      >
                        {t('products.close')}
                      </Button>
                    )}
                  </Space>
                ) : null,
            },
          ]}
        />
        <Typography.Paragraph type="secondary" className="fx-admin-note">
          {t('products.houseNote')}
        </Typography.Paragraph>
      </Card>
      {selected !== null && <ProductDetail line={selected} editable={editable} canFund={canAccrue} />}
      {editing !== null && (
        <TermsDialog
          line={typeof editing === 'string' ? null : editing}
          kind={typeof editing === 'string' ? editing : editing.kind}
          currencies={list.data?.currencies ?? []}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}

function TermsText({ line }: { line: AdminProductLine }) {
  const t = useAdminT();
  if (line.kind === 'ico')
    return (
      <span>{t('products.termsIco', { price: line.price ?? '', pay: line.pay_currency_name ?? '' })}</span>
    );
  if (line.kind === 'miner')
    return (
      <span>
        {t('products.termsMiner', {
          price: line.price ?? '',
          pay: line.pay_currency_name ?? '',
          fee: bpPercent(line.fee_bp ?? 0),
          days: line.days ?? 0,
          min: line.earnings_min ?? '',
          max: line.earnings_max ?? '',
          rate: t(`products.rateKinds.${line.rate_kind ?? 'fixed'}`),
        })}
      </span>
    );
  return (
    <span>
      {t('products.termsDefi', {
        apr: bpPercent(line.apr_bp ?? 0),
        days: line.days ?? 0,
        exit: t(`products.exitPolicies.${line.early_exit ?? 'none'}`),
      })}
    </span>
  );
}

interface FormShape extends Omit<TermsValues, 'start_time' | 'end_time'> {
  window: [Dayjs, Dayjs];
}

function TermsDialog({
  line,
  kind,
  currencies,
  onClose,
}: {
  line: AdminProductLine | null;
  kind: ProductKind;
  currencies: AdminProductsReply['currencies'];
  onClose: () => void;
}) {
  const t = useAdminT();
  const decimal = useDecimalRules();
  const [form] = Form.useForm<FormShape>();
  const save = useAdminMutation(
    (body: Record<string, unknown>) =>
      adminApi.post(line === null ? '/backoffice/products/create' : '/backoffice/products/edit', body),
    { invalidate: [['products']], onSuccess: onClose },
  );
  const start = line === null ? null : termsValues(line);
  const initial: Partial<FormShape> =
    start === null
      ? {
          kind,
          rate_kind: 'fixed',
          early_exit: 'forfeit',
          fee_bp: 0,
          window: [dayjs().startOf('hour'), dayjs().add(30, 'day').startOf('hour')],
        }
      : { ...start, window: [dayjs(start.start_time), dayjs(start.end_time)] };
  const rateKind = Form.useWatch('rate_kind', form);
  const options = currencies.map((currency) => ({ value: currency.id, label: currency.code }));
  const submit = (values: FormShape) => {
    const [from, to] = values.window;
    save.mutate(
      termsBody(
        { ...values, kind, start_time: from.valueOf(), end_time: to.valueOf() },
        line?.id ?? undefined,
      ),
    );
  };
  return (
    <Modal
      open
      width={720}
      title={line === null ? t(`products.create.${kind}`) : t('products.editTitle', { title: line.title })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'products-terms-save' } as Record<string, string>}
      destroyOnHidden
    >
      {line !== null && (
        <Typography.Paragraph type="secondary">{t('products.editNote')}</Typography.Paragraph>
      )}
      <Form<FormShape>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={submit}
        data-testid="products-terms"
      >
        <Form.Item name="title" label={t('products.name')} rules={[{ required: true, max: 80 }]}>
          <Input data-testid="products-field-title" />
        </Form.Item>
        <Space wrap align="start">
          <Form.Item name="currency_id" label={t(`products.currencyOf.${kind}`)} rules={[{ required: true }]}>
            <Select
              style={{ minWidth: 120 }}
              options={options}
              disabled={line !== null}
              data-testid="products-field-currency"
            />
          </Form.Item>
          {kind !== 'defi' && (
            <Form.Item name="pay_currency_id" label={t('products.payCurrency')} rules={[{ required: true }]}>
              <Select
                style={{ minWidth: 120 }}
                options={options}
                disabled={line !== null}
                data-testid="products-field-pay"
              />
            </Form.Item>
          )}
          <Form.Item name="total" label={t(`products.totalOf.${kind}`)} rules={[{ required: true }]}>
            <InputNumber min={1} precision={0} data-testid="products-field-total" />
          </Form.Item>
          <Form.Item name="per_user_cap" label={t('products.perUserCap')}>
            <InputNumber min={1} precision={0} />
          </Form.Item>
        </Space>
        <Form.Item name="window" label={t('products.window')} rules={[{ required: true }]}>
          <DatePicker.RangePicker showTime />
        </Form.Item>
        {kind !== 'defi' && (
          <Space wrap align="start">
            <Form.Item name="price" label={t('products.price')} rules={decimal}>
              <Input inputMode="decimal" data-testid="products-field-price" />
            </Form.Item>
            {kind === 'miner' && (
              <Form.Item name="fee_bp" label={t('products.feeBp')} rules={[{ required: true }]}>
                <InputNumber min={0} max={10_000} precision={0} />
              </Form.Item>
            )}
          </Space>
        )}
        {kind !== 'ico' && (
          <Form.Item name="days" label={t('products.days')} rules={[{ required: true }]}>
            <InputNumber min={1} max={3650} precision={0} data-testid="products-field-days" />
          </Form.Item>
        )}
        {kind === 'miner' && (
          <Space wrap align="start">
            <Form.Item name="rate_kind" label={t('products.rateKind')} rules={[{ required: true }]}>
              <Select
                style={{ minWidth: 160 }}
                options={(['fixed', 'recorded'] as const).map((value) => ({
                  value,
                  label: t(`products.rateKinds.${value}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              name="earnings_min"
              label={rateKind === 'recorded' ? t('products.earningsMin') : t('products.earningsFixed')}
              rules={decimal}
            >
              <Input inputMode="decimal" data-testid="products-field-earnings-min" />
            </Form.Item>
            {rateKind === 'recorded' && (
              <Form.Item name="earnings_max" label={t('products.earningsMax')} rules={decimal}>
                <Input inputMode="decimal" />
              </Form.Item>
            )}
          </Space>
        )}
        {kind === 'defi' && (
          <Space wrap align="start">
            <Form.Item name="apr_bp" label={t('products.aprBp')} rules={[{ required: true }]}>
              <InputNumber min={0} max={100_000} precision={0} data-testid="products-field-apr" />
            </Form.Item>
            <Form.Item name="early_exit" label={t('products.earlyExit')} rules={[{ required: true }]}>
              <Select
                style={{ minWidth: 200 }}
                options={(['forfeit', 'none'] as const).map((value) => ({
                  value,
                  label: t(`products.exitPolicies.${value}`),
                }))}
              />
            </Form.Item>
          </Space>
        )}
        <Space wrap align="start">
          <Form.Item name="label" label={t(`products.labelOf.${kind}`)}>
            <Input maxLength={80} />
          </Form.Item>
          <Form.Item name="logo" label={t('products.logo')}>
            <Input maxLength={300} />
          </Form.Item>
          <Form.Item name="white" label={t('products.white')}>
            <Input maxLength={300} />
          </Form.Item>
          {kind === 'miner' && (
            <Form.Item name="image" label={t('products.image')}>
              <Input maxLength={300} />
            </Form.Item>
          )}
        </Space>
        <Form.Item name="description" label={t('products.descriptionField')}>
          <Input.TextArea maxLength={2000} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ProductDetail({
  line,
  editable,
  canFund,
}: {
  line: AdminProductLine;
  editable: boolean;
  canFund: boolean;
}) {
  const t = useAdminT();
  const items = [
    {
      key: 'holdings',
      label: t('products.holdingsTab'),
      children: <PagedTable<AdminHoldingLine> id={line.id} path="holdings" columns={holdingColumns(t)} />,
    },
    {
      key: 'accruals',
      label: t('products.accrualsTab'),
      children: <PagedTable<AdminAccrualLine> id={line.id} path="accruals" columns={accrualColumns(t)} />,
    },
  ];
  if (line.kind === 'miner')
    items.push({
      key: 'rates',
      label: t('products.ratesTab'),
      children: <RatesPanel line={line} editable={editable} />,
    });
  return (
    <Card
      title={t('products.detailTitle', { id: line.id, title: line.title })}
      className="fx-admin-full"
      style={{ marginTop: 16 }}
      data-testid={`products-detail-${line.id}`}
    >
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label={t('products.houseAccount')}>
          {t(`wallets.${line.house.wallet}`)} · {line.house.currency_name}
        </Descriptions.Item>
        <Descriptions.Item label={t('products.houseReserved')}>
          <Amount value={line.house.reserved} code={line.house.currency_name} />
        </Descriptions.Item>
        <Descriptions.Item label={t('products.accruedUnpaid')}>
          <Amount value={line.house.accrued_unpaid} code={line.house.currency_name} />
        </Descriptions.Item>
        <Descriptions.Item label={t('products.reserveRequired')}>
          <Amount value={line.reserve_required} code={line.house.currency_name} />
        </Descriptions.Item>
        <Descriptions.Item label={t('products.houseAvailable')}>
          <Amount value={line.house_available} code={line.house.currency_name} />
        </Descriptions.Item>
      </Descriptions>
      {canFund && <FundForm line={line} />}
      <Tabs items={items} />
    </Card>
  );
}

/**
 * Funds the product's house account from the house's change wallet (a journaled transfer, audited), after a
 * confirmation naming the amount; the server refuses what the change wallet does not hold.
 */
function FundForm({ line }: { line: AdminProductLine }) {
  const t = useAdminT();
  const decimal = useDecimalRules();
  const [form] = Form.useForm<{ amount: string; note?: string }>();
  const fund = useAdminMutation(
    (values: { amount: string; note?: string }) =>
      adminApi.post('/backoffice/products/fund', { id: line.id, ...values }),
    { invalidate: [['products']], onSuccess: () => form.resetFields() },
  );
  const code = line.house.currency_name;
  return (
    <Form
      form={form}
      layout="inline"
      className="fx-admin-full"
      style={{ margin: '8px 0 16px' }}
      onFinish={(values) =>
        Modal.confirm({
          title: t('products.fundTitle'),
          content: t('products.fundConfirm', {
            amount: values.amount.trim(),
            code,
            wallet: t(`wallets.${line.house.wallet}`),
          }),
          okText: t('products.fund'),
          okButtonProps: { 'data-testid': 'products-fund-confirm' } as Record<string, string>,
          // The mutation shows the server's refusal itself; the dialog just closes.
          onOk: () =>
            fund.mutateAsync({ amount: values.amount.trim(), note: values.note }).catch(() => undefined),
        })
      }
    >
      <Form.Item name="amount" label={t('products.fundAmount', { code })} rules={decimal}>
        <Input inputMode="decimal" data-testid="products-fund-amount" />
      </Form.Item>
      <Form.Item name="note" label={t('products.fundNote')}>
        <Input maxLength={200} />
      </Form.Item>
      <Button htmlType="submit" loading={fund.isPending} data-testid="products-fund">
        {t('products.fund')}
      </Button>
    </Form>
  );
}

type Columns<T> = { title: string; render: (_: unknown, row: T) => React.ReactNode }[];

function holdingColumns(t: ReturnType<typeof useAdminT>): Columns<AdminHoldingLine> {
  return [
    { title: 'ID', render: (_, row) => row.id },
    { title: t('products.user'), render: (_, row) => row.user_id },
    { title: t('products.number'), render: (_, row) => <Amount value={row.number} /> },
    { title: t('products.paid'), render: (_, row) => <Amount value={row.paid} /> },
    { title: t('products.fee'), render: (_, row) => <Amount value={row.fee} /> },
    { title: t('products.accrued'), render: (_, row) => <Amount value={row.accrued} /> },
    { title: t('products.paidOut'), render: (_, row) => <Amount value={row.paid_out} /> },
    { title: t('products.daysAccrued'), render: (_, row) => `${row.days_accrued} / ${row.days}` },
    { title: t('products.startDay'), render: (_, row) => dayDate(row.start_day) },
    { title: t('common.status'), render: (_, row) => t(`products.holdingStates.${row.state}`) },
    { title: t('common.time'), render: (_, row) => dayjs(row.created_time).format('YYYY-MM-DD HH:mm:ss') },
  ];
}

function accrualColumns(t: ReturnType<typeof useAdminT>): Columns<AdminAccrualLine> {
  return [
    { title: t('products.day'), render: (_, row) => dayDate(row.day) },
    { title: t('products.holdings'), render: (_, row) => row.holdings },
    { title: t('products.amount'), render: (_, row) => <Amount value={row.amount} /> },
    { title: t('products.perUnit'), render: (_, row) => <Amount value={row.per_unit} /> },
    { title: t('products.released'), render: (_, row) => <Amount value={row.released} /> },
    { title: t('products.seq'), render: (_, row) => row.seq },
    { title: t('common.time'), render: (_, row) => dayjs(row.time).format('YYYY-MM-DD HH:mm:ss') },
  ];
}

function PagedTable<T extends object>({
  id,
  path,
  columns,
}: {
  id: number;
  path: 'holdings' | 'accruals' | 'rates';
  columns: Columns<T>;
}) {
  const [page, setPage] = useState(1);
  const data = useQuery({
    queryKey: ['admin', 'products', path, id, page],
    queryFn: () => adminApi.get<AdminPage<T>>(`/backoffice/products/${path}`, { id, page }),
  });
  return (
    <Table<T>
      size="small"
      rowKey={(row) => String((row as { id?: number; day?: number }).id ?? (row as { day?: number }).day)}
      loading={data.isPending}
      dataSource={data.data?.data ?? []}
      columns={columns}
      scroll={{ x: true }}
      data-testid={`products-${path}`}
      pagination={{
        current: page,
        pageSize: data.data?.per_page ?? 50,
        total: data.data?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
    />
  );
}

function RatesPanel({ line, editable }: { line: AdminProductLine; editable: boolean }) {
  const t = useAdminT();
  const decimal = useDecimalRules();
  const [form] = Form.useForm<{ day: Dayjs; amount: string }>();
  const record = useAdminMutation(
    (values: { day: number; amount: string }) =>
      adminApi.post('/backoffice/products/miner_rate', { id: line.id, ...values }),
    { invalidate: [['products']], onSuccess: () => form.resetFields(['amount']) },
  );
  const first = nextDay(Date.now());
  return (
    <Space direction="vertical" className="fx-admin-full">
      <Typography.Paragraph type="secondary">
        {line.rate_kind === 'recorded'
          ? t('products.ratesNote', { min: line.earnings_min ?? '', max: line.earnings_max ?? '' })
          : t('products.ratesFixed')}
      </Typography.Paragraph>
      {editable && line.rate_kind === 'recorded' && (
        <Form
          form={form}
          layout="inline"
          initialValues={{ day: dayjs(dayDate(first)) }}
          onFinish={(values) => {
            const day = dayNumber(values.day.format('YYYY-MM-DD'));
            if (day !== null) record.mutate({ day, amount: values.amount.trim() });
          }}
        >
          <Form.Item name="day" label={t('products.dayUtc')} rules={[{ required: true }]}>
            <DatePicker
              disabledDate={(date) => (dayNumber(date.format('YYYY-MM-DD')) ?? 0) < first}
              data-testid="products-rate-day"
            />
          </Form.Item>
          <Form.Item name="amount" label={t('products.perUnit')} rules={decimal}>
            <Input inputMode="decimal" data-testid="products-rate-amount" />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            loading={record.isPending}
            data-testid="products-rate-save"
          >
            {t('products.recordRate')}
          </Button>
        </Form>
      )}
      <PagedTable<AdminMinerRateLine>
        id={line.id}
        path="rates"
        columns={[
          { title: t('products.day'), render: (_, row) => dayDate(row.day) },
          { title: t('products.perUnit'), render: (_, row) => <Amount value={row.amount} /> },
          {
            title: t('products.recorded'),
            render: (_, row) =>
              row.recorded ? (
                dayjs(row.recorded_time ?? 0).format('YYYY-MM-DD HH:mm:ss')
              ) : (
                <Tag>{t('products.minimumApplied')}</Tag>
              ),
          },
          {
            title: t('products.accruedTag'),
            render: (_, row) =>
              row.accrued ? <Tag color="green">{t('products.yes')}</Tag> : <Tag>{t('products.no')}</Tag>,
          },
        ]}
      />
    </Space>
  );
}
