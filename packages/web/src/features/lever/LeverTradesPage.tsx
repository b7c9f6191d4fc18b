import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import type { LeverTradePayload } from '@fairex/shared/socket-events.ts';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import { useSocketEvent } from '../../data/feeds.ts';
import { onReconnect } from '../../data/market-feeds.ts';
import { fetchLeverDealAll, type LeverTradeRow } from '../../data/lever.ts';
import { useSession } from '../../data/session.ts';
import { LeverFrame } from './LeverFrame.tsx';
import { RiskBar } from './RiskBar.tsx';

// /leverTransactions: the user's open positions and pending limit entries across every pair, as the
// `lever_trade` push carries them (trades_all and trades_entrust), with each quote currency's risk rate.

export default function LeverTradesPage() {
  const { t } = useTranslation();
  const loggedIn = useSession((state) => state.token !== null);
  const queryClient = useQueryClient();
  const all = useQuery({
    queryKey: ['lever', 'dealall', 'all'],
    queryFn: ({ signal }) => fetchLeverDealAll(null, signal),
    enabled: loggedIn,
  });
  // Profits and risk move with the mark: the server pushes `lever_trade` to holders on each mark move (no
  // polling); after a reconnect, pushes may have been missed, so read again.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['lever', 'dealall'] });
  useSocketEvent('lever_trade', (_payload: LeverTradePayload) => refresh());
  useEffect(() => onReconnect(() => refresh()), [queryClient]); // eslint-disable-line react-hooks/exhaustive-deps
  const money = (value: string | null) => (value === null ? NO_VALUE : groupThousands(value));
  const columns = (entries: boolean): ColumnsType<LeverTradeRow> => [
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
    {
      title: t(entries ? 'lever.list.target' : 'lever.list.entry'),
      key: 'price',
      align: 'right',
      render: (_, row) => money(entries ? row.target_price : row.price),
    },
    { title: t('lever.list.mark'), dataIndex: 'update_price', align: 'right', render: money },
    { title: t('lever.list.margin'), dataIndex: 'caution_money', align: 'right', render: money },
    { title: t('lever.list.fee'), dataIndex: 'trade_fee', align: 'right', render: money },
    ...(entries
      ? []
      : ([
          {
            title: t('lever.list.profits'),
            dataIndex: 'profits',
            align: 'right',
            render: (value: string) => (
              <span className={value.startsWith('-') ? 'fx-down' : 'fx-up'}>{money(value)}</span>
            ),
          },
          {
            title: t('lever.list.liquidation'),
            dataIndex: 'liquidation_price',
            align: 'right',
            render: money,
          },
        ] as ColumnsType<LeverTradeRow>)),
  ];
  return (
    <LeverFrame title={t('lever.pages.trades')} testId="lever-trades-page">
      {(all.data?.risks ?? []).map((risk) => (
        <RiskBar key={risk.legal_id} risk={risk} />
      ))}
      <section className="fx-spot-panel fx-lever-positions">
        <h2 className="fx-lever-subtitle">{t('lever.status.1')}</h2>
        <Table<LeverTradeRow>
          rowKey="id"
          size="small"
          columns={columns(false)}
          dataSource={all.data?.trades_all ?? []}
          loading={all.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('lever.list.empty')} /> }}
        />
        <h2 className="fx-lever-subtitle">{t('lever.status.0')}</h2>
        <Table<LeverTradeRow>
          rowKey="id"
          size="small"
          columns={columns(true)}
          dataSource={all.data?.trades_entrust ?? []}
          loading={all.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('lever.list.empty')} /> }}
        />
      </section>
    </LeverFrame>
  );
}
