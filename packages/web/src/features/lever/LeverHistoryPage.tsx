import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Empty, Pagination, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { LEVER_PAGE_SIZE } from '@fairex/shared/api/lever.ts';
import { dateTimeOf } from '../../components/trading/display.ts';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import { useLeverTrades, type LeverTradeRow } from '../../data/lever.ts';
import { useSession } from '../../data/session.ts';
import { LeverFrame } from './LeverFrame.tsx';

// /leverRecord (spec 02 section 2.14, "lever/USDT history page with back"): the user's closed positions in
// every pair, 10 a page, with the entry, the mark each closed at, why it closed, the margin, fee, overnight
// charges, the profit and what was paid back (and the insurance fund's part of it after a liquidation).

export default function LeverHistoryPage() {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const trades = useLeverTrades(3, null, page, loggedIn);
  const money = (value: string | null) => (value === null ? NO_VALUE : groupThousands(value));
  const columns: ColumnsType<LeverTradeRow> = [
    { title: t('lever.list.id'), dataIndex: 'id' },
    { title: t('lever.list.pair'), dataIndex: 'symbol' },
    {
      title: t('lever.list.side'),
      dataIndex: 'type',
      render: (value: 1 | 2, row) => (
        <span className={value === 1 ? 'fx-up' : 'fx-down'}>
          {t(value === 1 ? 'lever.list.long' : 'lever.list.short')} {row.multiple}X
        </span>
      ),
    },
    { title: t('lever.list.lots'), dataIndex: 'share', align: 'right' },
    { title: t('lever.list.entry'), dataIndex: 'price', align: 'right', render: money },
    { title: t('lever.list.closePrice'), dataIndex: 'update_price', align: 'right', render: money },
    {
      title: t('lever.list.originMarginShort'),
      dataIndex: 'origin_caution_money',
      align: 'right',
      render: money,
    },
    { title: t('lever.list.fee'), dataIndex: 'trade_fee', align: 'right', render: money },
    { title: t('lever.list.overnight'), dataIndex: 'overnight_money', align: 'right', render: money },
    {
      title: t('lever.list.profits'),
      dataIndex: 'profits',
      align: 'right',
      render: (value: string) => (
        <span className={value.startsWith('-') ? 'fx-down' : 'fx-up'}>{money(value)}</span>
      ),
    },
    { title: t('lever.list.paidBack'), dataIndex: 'paid_back', align: 'right', render: money },
    {
      title: t('lever.list.insurance'),
      dataIndex: 'insurance_paid',
      align: 'right',
      render: (value: string | null) =>
        value === null || /^0(\.0+)?$/.test(value) ? NO_VALUE : money(value),
    },
    {
      title: t('lever.list.reason'),
      dataIndex: 'close_reason',
      render: (value: LeverTradeRow['close_reason']) =>
        value === null ? NO_VALUE : t(`lever.reason.${value}`),
    },
    {
      title: t('lever.list.time'),
      key: 'time',
      render: (_, row) => dateTimeOf(row.complete_time ?? row.create_time),
    },
  ];
  const data = trades.data;
  return (
    <LeverFrame title={t('lever.pages.history')} testId="lever-history-page">
      <section className="fx-spot-panel fx-lever-positions">
        <Table<LeverTradeRow>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={data?.data ?? []}
          loading={trades.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('lever.list.empty')} /> }}
        />
        {data !== undefined && data.total > LEVER_PAGE_SIZE ? (
          <Pagination
            className="fx-lever-pager"
            current={page}
            pageSize={LEVER_PAGE_SIZE}
            total={data.total}
            showSizeChanger={false}
            onChange={(next) => setParams({ page: String(next) })}
          />
        ) : null}
      </section>
    </LeverFrame>
  );
}
