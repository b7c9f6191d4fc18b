import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
  type ButtonProps,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT } from '../i18n.ts';
import { LANGUAGE_INFO, LANGUAGES } from '../../i18n/languages.ts';
import { adminApi } from '../../data/admin-api.ts';
import { Amount, PageHeader, Time, useAdminMutation } from '../components/common.tsx';
import { DecimalField, useDecimalRules } from '../components/form.tsx';
import { amountColumn, editColumn, LanguageTags, OnOffTag } from '../components/table.tsx';
import { can, useAdminSession } from '../session.ts';
import type {
  CurrenciesReply,
  CurrencyLine,
  MarketLine,
  MarketsReply,
} from '@fairex/shared/api/backoffice.ts';

export type { CurrencyLine, MarketLine } from '@fairex/shared/api/backoffice.ts';

/** Pairs and currencies: what trades, at which steps and fees, and what users may deposit and withdraw. */
export default function MarketsPage() {
  const t = useAdminT();
  return (
    <div>
      <PageHeader title={t('markets.title')} description={t('markets.description')} />
      <Card>
        <Tabs
          items={[
            { key: 'pairs', label: t('markets.pairs'), children: <Pairs /> },
            { key: 'currencies', label: t('markets.currencies'), children: <Currencies /> },
          ]}
        />
      </Card>
    </div>
  );
}

function Pairs() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const manage = can(permissions, 'catalog.manage');
  const markets = useQuery({
    queryKey: ['admin', 'markets'],
    queryFn: () => adminApi.get<MarketsReply>('/backoffice/markets'),
  });
  const [editing, setEditing] = useState<MarketLine | null>(null);
  const [adding, setAdding] = useState(false);
  const columns: ColumnsType<MarketLine> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('volume.market'),
      dataIndex: 'symbol',
      render: (symbol: string) => <span className="fx-admin-strong">{symbol}</span>,
    },
    amountColumn(t('markets.tick'), 'tick_size'),
    amountColumn(t('markets.lot'), 'lot_size'),
    amountColumn(t('markets.minSize'), 'min_size'),
    amountColumn(t('markets.minNotional'), 'min_notional'),
    {
      title: t('markets.fees'),
      key: 'fees',
      align: 'right',
      render: (_: unknown, row) => {
        const pending =
          row.engine !== null &&
          (row.engine.maker_fee !== row.maker_fee || row.engine.taker_fee !== row.taker_fee);
        return (
          <Tooltip title={t('markets.feesHint')}>
            <span data-testid={`market-fees-${row.id}`}>
              {row.maker_fee}% / {row.taker_fee}%
            </span>
            {pending && <Tag color="gold">{t('markets.enginePending')}</Tag>}
          </Tooltip>
        );
      },
    },
    {
      title: t('markets.shown'),
      dataIndex: 'is_display',
      render: (shown: boolean) => <OnOffTag on={shown} />,
    },
    {
      title: t('markets.index'),
      key: 'index',
      align: 'right',
      render: (_: unknown, row) => (
        <Space direction="vertical" size={0} className="fx-admin-right">
          <Amount value={row.index_price} />
          <Typography.Text type="secondary" className="fx-admin-small">
            <Time value={row.index_time} />
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('markets.engine'),
      key: 'engine',
      render: (_: unknown, row) =>
        row.engine ? (
          <Tag color="blue">{t('markets.inEngine')}</Tag>
        ) : (
          <Tag color="red">{t('markets.notInEngine')}</Tag>
        ),
    },
    ...(manage
      ? [editColumn<MarketLine>(t('common.edit'), setEditing, (row) => `market-edit-${row.id}`)]
      : []),
  ];
  return (
    <Space direction="vertical" size="large" className="fx-admin-full">
      <div className="fx-admin-toolbar-end">
        {manage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
            {t('markets.addPair')}
          </Button>
        )}
      </div>
      <Table<MarketLine>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={markets.data?.list}
        loading={markets.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="markets-table"
      />
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t('markets.priceSource')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('markets.source')}>
                <Tag color="blue">{markets.data?.price_source ?? '—'}</Tag>
                {markets.data && !markets.data.price_source_live && <Tag>{t('markets.sourceIdle')}</Tag>}
              </Descriptions.Item>
            </Descriptions>
            <Typography.Paragraph type="secondary" className="fx-admin-note">
              {t('markets.priceSourceNote')}
            </Typography.Paragraph>
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t('markets.marketMaker')}>
            {markets.data?.market_maker ? (
              <Descriptions column={2} size="small" data-testid="market-maker-settings">
                {Object.entries(markets.data.market_maker).map(([key, value]) => {
                  const shown = makerSetting(key, value);
                  return (
                    <Descriptions.Item
                      key={key}
                      label={
                        shown.label === null ? <span className="fx-admin-mono">{key}</span> : t(shown.label)
                      }
                    >
                      {shown.value}
                    </Descriptions.Item>
                  );
                })}
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('markets.makerOff')}</Typography.Text>
            )}
            <Typography.Paragraph type="secondary" className="fx-admin-note">
              {t('markets.makerNote')}
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
      {editing !== null && <EditPair market={editing} onClose={() => setEditing(null)} />}
      {adding && <AddPair onClose={() => setAdding(false)} />}
    </Space>
  );
}

interface PairForm {
  maker_fee: string;
  taker_fee: string;
  is_display: boolean;
  display_order: number;
  min_notional: string;
}

function EditPair({ market, onClose }: { market: MarketLine; onClose: () => void }) {
  const t = useAdminT();
  const [form] = Form.useForm<PairForm>();
  const decimal = useDecimalRules();
  const save = useAdminMutation(
    (values: PairForm) => adminApi.post('/backoffice/markets/update', { id: market.id, ...values }),
    {
      invalidate: [['markets'], ['settings']],
      onSuccess: onClose,
    },
  );
  return (
    <Modal
      open
      title={t('markets.editPair', { symbol: market.symbol })}
      okText={t('common.save')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'market-save' } as ButtonProps}
    >
      <Alert type="info" showIcon message={t('markets.feeEngineNote')} className="fx-admin-section-alert" />
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          maker_fee: market.maker_fee,
          taker_fee: market.taker_fee,
          is_display: market.is_display,
          display_order: market.display_order,
          min_notional: market.min_notional,
        }}
      >
        <Row gutter={16}>
          <DecimalField
            name="maker_fee"
            label={t('markets.makerFee')}
            span={12}
            suffix="%"
            testId="market-maker-fee"
          />
          <DecimalField
            name="taker_fee"
            label={t('markets.takerFee')}
            span={12}
            suffix="%"
            testId="market-taker-fee"
          />
        </Row>
        <Form.Item name="min_notional" label={t('markets.minNotional')} rules={decimal}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="display_order" label={t('markets.order')}>
              <InputNumber precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="is_display" label={t('markets.shown')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Paragraph type="secondary" className="fx-admin-note">
          {t('markets.fixedNote', { tick: market.tick_size, lot: market.lot_size })}
        </Typography.Paragraph>
      </Form>
    </Modal>
  );
}

interface NewPairForm {
  id: number;
  base_currency_id: number;
  quote_currency_id: number;
  price_scale: number;
  tick_size: string;
  lot_size: string;
  min_size: string;
  min_notional: string;
  maker_fee: string;
  taker_fee: string;
  is_display: boolean;
}

function AddPair({ onClose }: { onClose: () => void }) {
  const t = useAdminT();
  const [form] = Form.useForm<NewPairForm>();
  const currencies = useQuery({
    queryKey: ['admin', 'currencies'],
    queryFn: () => adminApi.get<CurrenciesReply>('/backoffice/currencies'),
  });
  const options = currencies.data?.list
    .filter((currency) => currency.in_engine)
    .map((currency) => ({ value: currency.id, label: currency.code }));
  const save = useAdminMutation(
    (values: NewPairForm) => adminApi.post<string>('/backoffice/markets/create', { ...values }),
    {
      invalidate: [['markets'], ['settings'], ['dashboard']],
      onSuccess: onClose,
    },
  );
  return (
    <Modal
      open
      width={640}
      title={t('markets.addPair')}
      okText={t('common.create')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      confirmLoading={save.isPending}
    >
      <Alert type="warning" showIcon message={t('markets.addPairNote')} className="fx-admin-section-alert" />
      <Form
        form={form}
        layout="vertical"
        initialValues={{ is_display: true, maker_fee: '0.1', taker_fee: '0.1', min_notional: '0' }}
      >
        <Row gutter={16}>
          <Col span={8}>
            <Form.Item name="id" label="ID" rules={[{ required: true }]}>
              <InputNumber min={1} max={65535} precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="base_currency_id" label={t('markets.base')} rules={[{ required: true }]}>
              <Select options={options} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="quote_currency_id" label={t('markets.quote')} rules={[{ required: true }]}>
              <Select options={options} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="price_scale" label={t('markets.priceScale')} rules={[{ required: true }]}>
              <InputNumber min={0} max={12} precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <DecimalField name="tick_size" label={t('markets.tick')} span={8} />
          <DecimalField name="lot_size" label={t('markets.lot')} span={8} />
          <DecimalField name="min_size" label={t('markets.minSize')} span={8} />
          <DecimalField name="min_notional" label={t('markets.minNotional')} span={8} />
          <Col span={8}>
            <Form.Item name="is_display" label={t('markets.shown')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <DecimalField name="maker_fee" label={t('markets.makerFee')} span={12} suffix="%" />
          <DecimalField name="taker_fee" label={t('markets.takerFee')} span={12} suffix="%" />
        </Row>
      </Form>
    </Modal>
  );
}

function Currencies() {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const manage = can(permissions, 'catalog.manage');
  const currencies = useQuery({
    queryKey: ['admin', 'currencies'],
    queryFn: () => adminApi.get<CurrenciesReply>('/backoffice/currencies'),
  });
  const [editing, setEditing] = useState<CurrencyLine | 'new' | null>(null);
  const columns: ColumnsType<CurrencyLine> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('markets.code'),
      dataIndex: 'code',
      render: (code: string) => <span className="fx-admin-strong">{code}</span>,
    },
    { title: t('markets.name'), dataIndex: 'name' },
    { title: t('markets.scale'), dataIndex: 'scale', align: 'right' },
    { title: t('markets.udunId'), dataIndex: 'udun_id', align: 'right' },
    {
      title: t('funding.chains'),
      dataIndex: 'chains',
      render: (chains: string[]) => chains.map((chain) => <Tag key={chain}>{chain}</Tag>),
    },
    amountColumn(t('markets.withdrawMin'), 'withdraw_min'),
    amountColumn(t('markets.withdrawFee'), 'withdraw_fee'),
    {
      title: t('markets.languages'),
      dataIndex: 'descriptions',
      render: (descriptions: Record<string, string>) => <LanguageTags written={descriptions} />,
    },
    {
      title: t('common.status'),
      key: 'state',
      render: (_: unknown, row) => (
        <Space size={4}>
          <OnOffTag on={row.is_enabled} />
          {!row.in_engine && <Tag color="red">{t('markets.notInEngine')}</Tag>}
        </Space>
      ),
    },
    ...(manage ? [editColumn<CurrencyLine>(t('common.edit'), setEditing)] : []),
  ];
  return (
    <Space direction="vertical" size="large" className="fx-admin-full">
      <div className="fx-admin-toolbar-end">
        {manage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('markets.addCurrency')}
          </Button>
        )}
      </div>
      <Table<CurrencyLine>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={currencies.data?.list}
        loading={currencies.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      {editing !== null && (
        <CurrencyEditor currency={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </Space>
  );
}

interface CurrencyForm {
  id: number;
  code: string;
  name: string;
  scale: number;
  udun_id: number;
  withdraw_min: string;
  withdraw_fee: string;
  display_order: number;
  is_enabled: boolean;
  descriptions: Record<string, string>;
}

function CurrencyEditor({ currency, onClose }: { currency: CurrencyLine | null; onClose: () => void }) {
  const t = useAdminT();
  const [form] = Form.useForm<CurrencyForm>();
  const creating = currency === null;
  const save = useAdminMutation(
    (values: CurrencyForm) =>
      creating
        ? adminApi.post<string>('/backoffice/currencies/create', { ...values })
        : adminApi.post('/backoffice/currencies/update', {
            id: currency.id,
            name: values.name,
            udun_id: values.udun_id,
            withdraw_min: values.withdraw_min,
            withdraw_fee: values.withdraw_fee,
            display_order: values.display_order,
            is_enabled: values.is_enabled,
            descriptions: values.descriptions,
          }),
    { invalidate: [['currencies'], ['markets'], ['settings'], ['chains']], onSuccess: onClose },
  );
  return (
    <Modal
      open
      width={720}
      title={creating ? t('markets.addCurrency') : t('markets.editCurrency', { code: currency.code })}
      okText={creating ? t('common.create') : t('common.save')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      confirmLoading={save.isPending}
    >
      {creating && (
        <Alert
          type="warning"
          showIcon
          message={t('markets.addCurrencyNote')}
          className="fx-admin-section-alert"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={
          currency ?? {
            udun_id: -1,
            scale: 8,
            withdraw_min: '0',
            withdraw_fee: '0',
            is_enabled: true,
            descriptions: {},
          }
        }
      >
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="id" label="ID" rules={[{ required: true }]}>
              <InputNumber min={1} max={65535} precision={0} disabled={!creating} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item
              name="code"
              label={t('markets.code')}
              rules={[{ required: true, pattern: /^[A-Z0-9]{1,16}$/ }]}
            >
              <Input disabled={!creating} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label={t('markets.name')} rules={[{ required: true, max: 100 }]}>
              <Input />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item
              name="scale"
              label={t('markets.scale')}
              rules={[{ required: true }]}
              extra={creating ? undefined : t('markets.scaleFixed')}
            >
              <InputNumber min={0} max={12} precision={0} disabled={!creating} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item
              name="udun_id"
              label={t('markets.udunId')}
              rules={[{ required: true }]}
              extra={t('markets.udunHint')}
            >
              <InputNumber min={-1} precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <DecimalField name="withdraw_min" label={t('markets.withdrawMin')} span={6} />
          <DecimalField name="withdraw_fee" label={t('markets.withdrawFee')} span={6} />
          <Col span={6}>
            <Form.Item name="display_order" label={t('markets.order')}>
              <InputNumber precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          {!creating && (
            <Col span={6}>
              <Form.Item name="is_enabled" label={t('common.enabled')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Tabs
          size="small"
          items={LANGUAGES.map((lang) => ({
            key: lang,
            label: LANGUAGE_INFO[lang].nativeName,
            forceRender: true,
            children: (
              <Form.Item
                name={['descriptions', lang]}
                label={t('markets.descriptionLabel')}
                rules={[{ max: 5000 }]}
              >
                <Input.TextArea rows={4} lang={LANGUAGE_INFO[lang].locale} />
              </Form.Item>
            ),
          }))}
        />
      </Form>
    </Modal>
  );
}

type MakerLabel =
  | 'markets.maker.levels'
  | 'markets.maker.halfSpread'
  | 'markets.maker.levelStep'
  | 'markets.maker.levelNotional'
  | 'markets.maker.inventoryNotional'
  | 'markets.maker.maxCommands'
  | 'markets.maker.interval';

const MAKER_LABELS: Record<string, MakerLabel> = {
  levels: 'markets.maker.levels',
  halfSpreadPpm: 'markets.maker.halfSpread',
  levelStepPpm: 'markets.maker.levelStep',
  levelNotional: 'markets.maker.levelNotional',
  inventoryNotional: 'markets.maker.inventoryNotional',
  maxCommandsPerCycle: 'markets.maker.maxCommands',
  intervalMs: 'markets.maker.interval',
};

/** Parts per million as a percentage text, exactly: 500 ppm is 0.05 %. */
export function ppmPercent(ppm: number): string {
  const whole = Math.trunc(ppm / 10_000);
  const rest = String(Math.abs(ppm % 10_000))
    .padStart(4, '0')
    .replace(/0+$/, '');
  return `${whole}${rest === '' ? '' : `.${rest}`} %`;
}

/**
 * A market-maker setting as an operator reads it: a named label and the value in its unit (percent for
 * parts per million, seconds for milliseconds, USDT-like quote amounts as given). A key this screen does
 * not know yet keeps its raw name, so nothing the server sends is hidden.
 */
export function makerSetting(
  key: string,
  value: string | number,
): { label: MakerLabel | null; value: string } {
  const label = MAKER_LABELS[key] ?? null;
  if (typeof value === 'number' && key.endsWith('Ppm')) return { label, value: ppmPercent(value) };
  if (typeof value === 'number' && key === 'intervalMs') return { label, value: `${value / 1000} s` };
  return { label, value: String(value) };
}
