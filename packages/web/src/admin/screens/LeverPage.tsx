import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import type {
  LeverAdminPair,
  LeverAdminPairsReply,
  LeverInsuranceFund,
  LeverInsuranceMovement,
  LeverInsuranceReply,
  LeverLiquidationRow,
} from '@fairex/shared';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { Amount, PageHeader, useAdminMutation } from '../components/common.tsx';
import { HouseFundForm } from '../components/HouseFundForm.tsx';
import { can, useAdminSession } from '../session.ts';

// useAdminMutation reads again the lists it is given under the console's 'admin' prefix.
const PAIRS = ['lever', 'pairs'];
const INSURANCE = ['lever', 'insurance'];
const PAIRS_KEY = ['admin', ...PAIRS];
const INSURANCE_KEY = ['admin', ...INSURANCE];
const LIQUIDATIONS_KEY = ['admin', 'lever', 'liquidations'];

/**
 * Leverage's back office: each pair's rules (a change is one journaled setLeverPair, audited, and applies to
 * new positions only) with the house's open exposure against its limit; the insurance fund, its funding and
 * its movements; and every liquidation with the mark, the risk rate and the threshold it crossed.
 */
export default function LeverAdminPage() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  return (
    <div>
      <PageHeader title={t('lever.title')} description={t('lever.description')} />
      <Space direction="vertical" size="large" className="fx-admin-full">
        <PairsCard editable={can(permissions, 'catalog.manage')} />
        <InsuranceCard editable={can(permissions, 'funding.manage')} />
        <LiquidationsCard />
      </Space>
    </div>
  );
}

interface PairForm {
  market_id: number;
  enabled: boolean;
  multiples: string;
  share_presets: string;
  min_share: number;
  max_share: number;
  lever_share_num: string;
  spread: string;
  fee: string;
  overnight: string;
  liquidation_threshold: string;
  liquidation_fee: string;
  exposure_limit: string;
}

/** "5, 10, 20" as whole numbers; what is not one is left out (the server refuses an empty list). */
export function numberList(text: string): number[] {
  return text
    .split(/[\s,]+/)
    .filter((part) => /^\d{1,7}$/.test(part))
    .map(Number);
}

function PairsCard({ editable }: { editable: boolean }) {
  const t = useAdminT();
  const pairs = useQuery({
    queryKey: PAIRS_KEY,
    queryFn: () => adminApi.get<LeverAdminPairsReply>('/backoffice/lever/pairs'),
  });
  const [editing, setEditing] = useState<LeverAdminPair | null>(null);
  const [form] = Form.useForm<PairForm>();
  const save = useAdminMutation(
    (values: PairForm) =>
      adminApi.post('/backoffice/lever/pair', {
        ...values,
        enabled: values.enabled ? 1 : 0,
        multiples: numberList(values.multiples),
        share_presets: numberList(values.share_presets),
      }),
    { invalidate: [PAIRS], onSuccess: () => setEditing(null) },
  );
  const open = (pair: LeverAdminPair) => {
    setEditing(pair);
    form.setFieldsValue({
      market_id: pair.market_id,
      enabled: pair.enabled,
      multiples: pair.multiples.join(', '),
      share_presets: pair.share_presets.join(', '),
      min_share: pair.min_share,
      max_share: pair.max_share,
      lever_share_num: pair.lever_share_num,
      spread: pair.spread,
      fee: pair.lever_trade_fee,
      overnight: pair.overnight,
      liquidation_threshold: pair.liquidation_threshold,
      liquidation_fee: pair.liquidation_fee,
      exposure_limit: pair.exposure_limit,
    });
  };
  return (
    <Card title={t('lever.pairs.title')} loading={pairs.isPending} data-testid="lever-admin-pairs">
      <Typography.Paragraph type="secondary">{t('lever.pairs.note')}</Typography.Paragraph>
      <Table<LeverAdminPair>
        size="small"
        rowKey="market_id"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={pairs.data?.list ?? []}
        columns={[
          { title: t('lever.pairs.symbol'), dataIndex: 'symbol' },
          {
            title: t('lever.pairs.enabled'),
            dataIndex: 'enabled',
            render: (value: boolean) =>
              value ? <Tag color="green">{t('lever.pairs.on')}</Tag> : <Tag>{t('lever.pairs.off')}</Tag>,
          },
          {
            title: t('lever.pairs.multiples'),
            dataIndex: 'multiples',
            render: (v: number[]) => v.join(', '),
          },
          {
            title: t('lever.pairs.lots'),
            key: 'lots',
            render: (_, row) => `${row.min_share} – ${row.max_share === 0 ? '∞' : row.max_share}`,
          },
          { title: t('lever.pairs.shareNum'), dataIndex: 'lever_share_num' },
          { title: t('lever.pairs.spread'), dataIndex: 'spread', render: (v: string) => `${v} %` },
          { title: t('lever.pairs.fee'), dataIndex: 'lever_trade_fee', render: (v: string) => `${v} %` },
          { title: t('lever.pairs.overnight'), dataIndex: 'overnight', render: (v: string) => `${v} %` },
          {
            title: t('lever.pairs.threshold'),
            dataIndex: 'liquidation_threshold',
            render: (v: string) => `${v} %`,
          },
          {
            title: t('lever.pairs.liquidationFee'),
            dataIndex: 'liquidation_fee',
            render: (v: string) => `${v} %`,
          },
          {
            title: t('lever.pairs.exposure'),
            key: 'exposure',
            render: (_, row) => (
              <span data-testid={`lever-exposure-${row.market_id}`}>
                <Amount value={row.exposure} strong /> / <Amount value={row.exposure_limit} />
                <Typography.Text type="secondary">
                  {' '}
                  ({t('lever.pairs.longsShorts', { longs: row.longs, shorts: row.shorts })})
                </Typography.Text>
              </span>
            ),
          },
          {
            title: '',
            key: 'edit',
            render: (_, row) =>
              editable ? (
                <Button size="small" onClick={() => open(row)} data-testid={`lever-edit-${row.market_id}`}>
                  {t('lever.edit')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={t('lever.pairs.editTitle', { symbol: editing?.symbol ?? '' })}
        okText={t('lever.save')}
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okButtonProps={{ 'data-testid': 'lever-pair-save' } as Record<string, string>}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(values) => save.mutate(values)}>
          <Form.Item name="market_id" hidden>
            <InputNumber />
          </Form.Item>
          <Form.Item name="enabled" label={t('lever.pairs.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="multiples" label={t('lever.pairs.multiples')} rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="share_presets" label={t('lever.pairs.presets')}>
            <Input />
          </Form.Item>
          <Space>
            <Form.Item name="min_share" label={t('lever.pairs.minShare')} rules={[{ required: true }]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
            <Form.Item name="max_share" label={t('lever.pairs.maxShare')} rules={[{ required: true }]}>
              <InputNumber min={0} precision={0} />
            </Form.Item>
          </Space>
          {(
            [
              ['lever_share_num', 'shareNum'],
              ['spread', 'spread'],
              ['fee', 'fee'],
              ['overnight', 'overnight'],
              ['liquidation_threshold', 'threshold'],
              ['liquidation_fee', 'liquidationFee'],
              ['exposure_limit', 'exposureLimit'],
            ] as const
          ).map(([name, label]) => (
            <Form.Item key={name} name={name} label={t(`lever.pairs.${label}`)} rules={[{ required: true }]}>
              <Input inputMode="decimal" data-testid={`lever-field-${name}`} />
            </Form.Item>
          ))}
        </Form>
        <Typography.Paragraph type="secondary">{t('lever.pairs.newOnly')}</Typography.Paragraph>
      </Modal>
    </Card>
  );
}

function InsuranceCard({ editable }: { editable: boolean }) {
  const t = useAdminT();
  const insurance = useQuery({
    queryKey: INSURANCE_KEY,
    queryFn: () => adminApi.get<LeverInsuranceReply>('/backoffice/lever/insurance'),
  });
  const funds = insurance.data?.funds ?? [];
  return (
    <Card
      title={t('lever.insurance.title')}
      loading={insurance.isPending}
      data-testid="lever-admin-insurance"
    >
      <Typography.Paragraph type="secondary">{t('lever.insurance.note')}</Typography.Paragraph>
      <Table<LeverInsuranceFund>
        size="small"
        rowKey="currency_id"
        pagination={false}
        dataSource={funds}
        columns={[
          { title: t('lever.currency'), dataIndex: 'currency_name' },
          {
            title: t('lever.insurance.balance'),
            dataIndex: 'balance',
            render: (value: string) => (
              <span data-testid="lever-insurance-balance">
                <Amount value={value} strong />
              </span>
            ),
          },
        ]}
      />
      {editable && (
        <HouseFundForm
          currencies={funds.map((line) => ({ id: line.currency_id, code: line.currency_name }))}
          url="/backoffice/lever/insurance/fund"
          invalidate={[INSURANCE]}
          section="lever.insurance"
          currencyLabel="lever.currency"
          testId="lever"
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('lever.insurance.movements')}
      </Typography.Title>
      <Table<LeverInsuranceMovement>
        size="small"
        rowKey={(row) => `${row.seq}:${row.kind}:${row.amount}:${row.position_id ?? 0}`}
        pagination={{ pageSize: 20 }}
        dataSource={insurance.data?.movements ?? []}
        columns={[
          {
            title: t('lever.time'),
            dataIndex: 'time',
            render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            title: t('lever.insurance.kind'),
            dataIndex: 'kind',
            render: (v: string) => t(`lever.kind.${v}` as AdminKey),
          },
          { title: t('lever.currency'), dataIndex: 'currency_name' },
          {
            title: t('lever.insurance.amount'),
            dataIndex: 'amount',
            render: (v: string) => <Amount value={v} />,
          },
          { title: t('lever.position'), dataIndex: 'position_id', render: (v: number | null) => v ?? '—' },
        ]}
      />
    </Card>
  );
}

function LiquidationsCard() {
  const t = useAdminT();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...LIQUIDATIONS_KEY, page],
    queryFn: () => adminApi.get<Paged<LeverLiquidationRow>>('/backoffice/lever/liquidations', { page }),
  });
  return (
    <Card title={t('lever.liquidations.title')} data-testid="lever-admin-liquidations">
      <Typography.Paragraph type="secondary">{t('lever.liquidations.note')}</Typography.Paragraph>
      <Table<LeverLiquidationRow>
        size="small"
        rowKey={(row) => `${row.seq}:${row.user_id}`}
        loading={list.isPending}
        dataSource={list.data?.data ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: list.data?.per_page ?? 50,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: t('lever.time'),
            dataIndex: 'time',
            render: (v: number) => dayjs(v).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: t('lever.liquidations.user'), dataIndex: 'user_id' },
          { title: t('lever.pairs.symbol'), dataIndex: 'symbol' },
          { title: t('lever.liquidations.mark'), dataIndex: 'mark' },
          { title: t('lever.liquidations.rate'), dataIndex: 'hazard_rate', render: (v: string) => `${v} %` },
          { title: t('lever.pairs.threshold'), dataIndex: 'threshold', render: (v: string) => `${v} %` },
          { title: t('lever.liquidations.positions'), dataIndex: 'positions' },
          {
            title: t('lever.liquidations.paidBack'),
            dataIndex: 'paid_back',
            render: (v: string) => <Amount value={v} />,
          },
          {
            title: t('lever.liquidations.shortfall'),
            dataIndex: 'shortfall',
            render: (v: string) => <Amount value={v} strong />,
          },
        ]}
      />
    </Card>
  );
}
