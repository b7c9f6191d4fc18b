import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Input, Skeleton, Table } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { MinerEarningsRecord, MinerExtractRecord, MinerOrderInfo } from '@fairex/shared';
import { useMessage } from '../../app/message.tsx';
import {
  extractMiner,
  useMinerEarnings,
  useMinerExtractRecords,
  useMinerInfo,
  useProductsRefresh,
} from '../../data/products.ts';
import { RequireLogin } from '../auth/RequireLogin.tsx';
import { Figure, ProductFrame, num } from './ProductParts.tsx';

// A rent's two screens (spec 02 section 2.7): /miner_earnings?id= (the header and one line per accrued day,
// with the per-unit amount that day, so a recorded rate is visible in the history) and /miner_extract?id= (the
// header, total income, extracted, days left, total hashrate, the extract form and the extraction records).

function useRentId(): number | null {
  const [params] = useSearchParams();
  const text = params.get('id') ?? '';
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

function RentFrame({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: (id: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useRentId();
  return (
    <ProductFrame title={title} lead={t('products.miner.rentLead')} testId={testId}>
      <Button
        type="link"
        icon={<ArrowLeftOutlined />}
        className="fx-products-back"
        onClick={() => void navigate('/miner')}
        data-testid={`${testId}-back`}
      >
        {t('products.back')}
      </Button>
      <RequireLogin>
        {id === null ? <Alert type="error" showIcon message={t('products.miner.noRent')} /> : children(id)}
      </RequireLogin>
    </ProductFrame>
  );
}

/** The header both rent screens share. */
function RentHeader({ info, extra }: { info: MinerOrderInfo; extra?: ReactNode }) {
  const { t } = useTranslation();
  const pay = info.pay_currency_name;
  const earned = info.currency_name;
  return (
    <section className="fx-products-card" data-testid="rent-header">
      <div className="fx-products-figures">
        <Figure label={t('products.miner.dailyPerUnit', { currency: earned })} testId="rent-earnings" strong>
          {num(info.miner_earnings)}
        </Figure>
        <Figure label={t('products.miner.hashrate')} testId="rent-hashrate">
          {info.miner_hashrate}
        </Figure>
        <Figure label={t('products.miner.units')} testId="rent-number">
          {num(info.miner_number)}
        </Figure>
        <Figure label={t('products.miner.rentTotal', { currency: pay })} testId="rent-rent">
          {num(info.rent)}
        </Figure>
        <Figure label={t('products.miner.fee')} testId="rent-fee">
          {num(info.miner_fee)}%
        </Figure>
        <Figure label={t('products.miner.feePaid', { currency: pay })} testId="rent-fee-amount">
          {num(info.fee_amount)}
        </Figure>
        <Figure label={t('products.miner.expectedDaily', { currency: earned })} testId="rent-expected">
          {num(info.expected_daily)}
        </Figure>
        <Figure label={t('products.miner.range', { currency: earned })} testId="rent-range">
          {info.miner_earnings_range}
        </Figure>
        <Figure label={t('products.miner.daysAccrued')} testId="rent-days-accrued">
          {info.days_accrued}
        </Figure>
        {extra}
      </div>
      <p className="fx-products-rate-rule">{info.rule_text}</p>
    </section>
  );
}

export function MinerEarningsPage() {
  const { t } = useTranslation();
  return (
    <RentFrame title={t('products.miner.earningsTitle')} testId="miner-earnings-page">
      {(id) => <EarningsBody id={id} />}
    </RentFrame>
  );
}

function EarningsBody({ id }: { id: number }) {
  const { t } = useTranslation();
  const info = useMinerInfo(id);
  const records = useMinerEarnings(id);
  if (info.error) return <Alert type="error" showIcon message={info.error.message} />;
  if (!info.data) return <Skeleton active />;
  return (
    <>
      <RentHeader info={info.data} />
      <section className="fx-products-card">
        <h2 className="fx-products-card-title">{t('products.miner.earningsRecords')}</h2>
        <Table<MinerEarningsRecord>
          rowKey="id"
          size="small"
          loading={records.isLoading}
          dataSource={records.data?.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('products.empty') }}
          data-testid="miner-earnings-records"
          columns={[
            { title: t('products.miner.day'), render: (_, row) => dayText(row.day) },
            { title: t('products.miner.coin'), dataIndex: 'currency_name' },
            {
              title: t('products.miner.amount'),
              align: 'right',
              render: (_, row) => (
                <span data-testid={`earning-${row.id}-amount`}>{num(row.earnings_amount)}</span>
              ),
            },
            {
              title: t('products.miner.perUnit'),
              align: 'right',
              render: (_, row) => <span data-testid={`earning-${row.id}-per-unit`}>{num(row.per_unit)}</span>,
            },
            { title: t('products.time'), dataIndex: 'create_time_format' },
          ]}
        />
      </section>
    </>
  );
}

/** A UTC day number as its date (YYYY-MM-DD, UTC). */
export function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function MinerExtractPage() {
  const { t } = useTranslation();
  return (
    <RentFrame title={t('products.miner.extractTitle')} testId="miner-extract-page">
      {(id) => <ExtractBody id={id} />}
    </RentFrame>
  );
}

function ExtractBody({ id }: { id: number }) {
  const { t } = useTranslation();
  const message = useMessage();
  const refresh = useProductsRefresh();
  const info = useMinerInfo(id);
  const records = useMinerExtractRecords(id);
  const [number, setNumber] = useState('');
  const [sending, setSending] = useState(false);
  if (info.error) return <Alert type="error" showIcon message={info.error.message} />;
  if (!info.data) return <Skeleton active />;
  const data = info.data;
  const earned = data.currency_name;

  // Spec 02 section 5: no client check; the amount is sent as typed and the server's refusal is shown.
  const submit = async () => {
    setSending(true);
    try {
      const reply = await extractMiner(id, number.trim());
      void message.success(reply.message);
      setNumber('');
      await refresh();
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <RentHeader
        info={data}
        extra={
          <>
            <Figure
              label={t('products.miner.totalIncome', { currency: earned })}
              testId="rent-total-income"
              strong
            >
              {num(data.total_income)}
            </Figure>
            <Figure label={t('products.miner.extracted', { currency: earned })} testId="rent-extracted">
              {num(data.earnings_extract)}
            </Figure>
            <Figure label={t('products.miner.daysLeft')} testId="rent-days-left">
              {data.end_day}
            </Figure>
            <Figure label={t('products.miner.totalHashrate')} testId="rent-total-hashrate">
              {data.total_hashrate}
            </Figure>
          </>
        }
      />
      <section className="fx-products-card fx-products-extract" data-testid="miner-extract-form">
        <label className="fx-products-dialog-label" htmlFor="miner-extract-number">
          {t('products.miner.extractAmount')}
        </label>
        <div className="fx-products-extract-row">
          <Input
            id="miner-extract-number"
            value={number}
            inputMode="decimal"
            onChange={(event) => setNumber(event.target.value)}
            suffix={earned}
            data-testid="miner-extract-number"
          />
          <Button onClick={() => setNumber(data.earnings_total)} data-testid="miner-extract-all">
            {t('products.all')}
          </Button>
          <Button
            type="primary"
            loading={sending}
            onClick={() => void submit()}
            data-testid="miner-extract-submit"
          >
            {t('products.confirm')}
          </Button>
        </div>
        <div className="fx-products-dialog-row">
          <span>{t('products.miner.extractable', { currency: earned })}</span>
          <strong data-testid="rent-extractable">{num(data.earnings_total)}</strong>
        </div>
        <Alert type="info" showIcon message={t('products.miner.extractWarning')} />
      </section>
      <section className="fx-products-card">
        <h2 className="fx-products-card-title">{t('products.miner.extractRecords')}</h2>
        <Table<MinerExtractRecord>
          rowKey="id"
          size="small"
          loading={records.isLoading}
          dataSource={records.data?.data ?? []}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: t('products.empty') }}
          data-testid="miner-extract-records"
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: t('products.miner.coin'), dataIndex: 'currency_name' },
            {
              title: t('products.miner.amount'),
              align: 'right',
              render: (_, row) => (
                <span data-testid={`extract-${row.id}-amount`}>{num(row.extract_amount)}</span>
              ),
            },
            { title: t('products.time'), dataIndex: 'create_time_format' },
          ]}
        />
      </section>
    </>
  );
}
