import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Modal, Pagination, Radio, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { LEVER_PAGE_SIZE } from '@fairex/shared/api/lever.ts';
import { ApiError } from '../../data/api.ts';
import { useMessage } from '../../app/message.tsx';
import { dateTimeOf } from '../../components/trading/display.ts';
import { NO_VALUE, groupThousands } from '../../format/index.ts';
import {
  batchCloseLever,
  cancelLever,
  closeLever,
  useLeverTrades,
  type LeverStatus,
  type LeverTradeRow,
} from '../../data/lever.ts';
import type { Pair } from '../../data/spot.ts';
import { StopDialog } from './StopDialog.tsx';
import { CARD_ACTIONS, CARD_TABLE, cardColumns } from '../../components/card-table.ts';

// The leverage positions list (spec 01 sections 2 and 4, spec 02 section 2.14): four tabs, holdings (1),
// open orders (0), closed (3) and revoked (4), 10 a page. Holdings set stop-loss/take-profit and close;
// open orders revoke; a batch close offers all, longs only or shorts only. Close and revoke confirm first,
// then show the server's message; the lists refresh (and the `lever_trade` push refreshes them too).

export const LEVER_TABS: readonly LeverStatus[] = [1, 0, 3, 4];

interface PositionsPanelProps {
  /** One pair, or null for every pair (the /leverList page). */
  pair: Pair | null;
  loggedIn: boolean;
  /** Marks by symbol for the stop dialog's checks (the current mark of the row's pair). */
  markOf: (symbol: string) => string | null;
  initialTab?: LeverStatus;
}

export function PositionsPanel({ pair, loggedIn, markOf, initialTab = 1 }: PositionsPanelProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<LeverStatus>(initialTab);
  const [pages, setPages] = useState<Record<LeverStatus, number>>({ 0: 1, 1: 1, 3: 1, 4: 1 });
  const [batchOpen, setBatchOpen] = useState(false);
  const [stopFor, setStopFor] = useState<LeverTradeRow | null>(null);
  const page = pages[tab];
  const trades = useLeverTrades(tab, pair, page, loggedIn);
  const queryClient = useQueryClient();
  const message = useMessage();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['lever'] });

  const act = (row: LeverTradeRow, kind: 'close' | 'cancel') => {
    Modal.confirm({
      title: t(kind === 'close' ? 'lever.list.closeConfirm' : 'lever.list.cancelConfirm', { id: row.id }),
      okText: t('lever.confirm.ok'),
      cancelText: t('lever.confirm.cancel'),
      okButtonProps: { 'data-testid': 'lever-act-confirm' } as Record<string, string>,
      onOk: async () => {
        try {
          await (kind === 'close' ? closeLever(row.id) : cancelLever(row.id));
          void message.success(
            t(kind === 'close' ? 'lever.list.closed' : 'lever.list.cancelled', { id: row.id }),
          );
        } catch (error) {
          void message.error(error instanceof ApiError ? error.message : t('lever.form.failed'));
        }
        refresh();
      },
    });
  };

  const money = (value: string | null) => (value === null ? NO_VALUE : groupThousands(value));
  const columns: ColumnsType<LeverTradeRow> = [
    { title: t('lever.list.pair'), dataIndex: 'symbol', render: (value: string) => value },
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
      title: t(tab === 0 ? 'lever.list.target' : 'lever.list.entry'),
      dataIndex: 'price',
      align: 'right',
      render: (value: string, row) => money(tab === 0 ? (row.target_price ?? value) : value),
    },
    {
      title: t(tab === 3 ? 'lever.list.closePrice' : 'lever.list.mark'),
      dataIndex: 'update_price',
      align: 'right',
      render: (value: string) => money(value),
    },
    {
      title: t('lever.list.margin'),
      dataIndex: 'caution_money',
      align: 'right',
      render: (value: string, row) => (
        <span title={t('lever.list.originMargin', { amount: row.origin_caution_money })}>{money(value)}</span>
      ),
    },
    {
      title: t('lever.list.fee'),
      dataIndex: 'trade_fee',
      align: 'right',
      render: (value: string) => money(value),
    },
    {
      title: t('lever.list.overnight'),
      dataIndex: 'overnight_money',
      align: 'right',
      render: (value: string) => money(value),
    },
    {
      title: t('lever.list.profits'),
      dataIndex: 'profits',
      align: 'right',
      render: (value: string) => (
        <span
          className={value.startsWith('-') ? 'fx-down' : value === '0' ? '' : 'fx-up'}
          data-testid="lever-row-profits"
        >
          {money(value)}
        </span>
      ),
    },
  ];
  if (tab === 1) {
    columns.push(
      {
        title: t('lever.list.stops'),
        key: 'stops',
        render: (_, row) => `${money(row.target_profit_price)} / ${money(row.stop_loss_price)}`,
      },
      {
        title: t('lever.list.liquidation'),
        dataIndex: 'liquidation_price',
        align: 'right',
        // An open position without one cannot be liquidated as things stand: say so, and why on hover.
        render: (value: string | null) =>
          value === null ? (
            <span title={t('lever.form.noLiquidationHint')} data-testid="lever-no-liquidation">
              {t('lever.list.noLiquidation')}
            </span>
          ) : (
            money(value)
          ),
      },
    );
  }
  if (tab === 3) {
    columns.push({
      title: t('lever.list.reason'),
      dataIndex: 'close_reason',
      render: (value: LeverTradeRow['close_reason']) =>
        value === null ? NO_VALUE : t(`lever.reason.${value}`),
    });
  }
  columns.push({
    title: t('lever.list.time'),
    key: 'time',
    render: (_, row) => (
      <span data-testid="lever-row-time">
        {dateTimeOf(row.complete_time ?? row.transaction_time ?? row.create_time)}
      </span>
    ),
  });
  if (tab === 1 || tab === 0) {
    columns.push({
      title: t('lever.list.actions'),
      key: 'actions',
      className: CARD_ACTIONS,
      render: (_, row) =>
        tab === 1 ? (
          <span className="fx-lever-actions">
            <Button size="small" onClick={() => setStopFor(row)} data-testid={`lever-setstop-${row.id}`}>
              {t('lever.list.setStop')}
            </Button>
            <Button
              size="small"
              danger
              onClick={() => act(row, 'close')}
              data-testid={`lever-close-${row.id}`}
            >
              {t('lever.list.close')}
            </Button>
          </span>
        ) : (
          <Button size="small" onClick={() => act(row, 'cancel')} data-testid={`lever-cancel-${row.id}`}>
            {t('lever.list.cancel')}
          </Button>
        ),
    });
  }

  const data = trades.data;
  return (
    <section className="fx-spot-panel fx-lever-positions" data-testid="lever-positions">
      <Tabs
        activeKey={String(tab)}
        onChange={(key) => setTab(Number(key) as LeverStatus)}
        tabBarExtraContent={
          tab === 1 && loggedIn ? (
            <Button size="small" onClick={() => setBatchOpen(true)} data-testid="lever-batch-open">
              {t('lever.list.batchClose')}
            </Button>
          ) : null
        }
        items={LEVER_TABS.map((status) => ({
          key: String(status),
          label: <span data-testid={`lever-tab-${status}`}>{t(`lever.status.${status}`)}</span>,
        }))}
      />
      {!loggedIn ? (
        <Empty description={t('lever.list.loginToSee')} />
      ) : (
        <>
          <Table<LeverTradeRow>
            rowKey="id"
            size="small"
            className={CARD_TABLE}
            columns={cardColumns(columns)}
            dataSource={data?.data ?? []}
            loading={trades.isLoading}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('lever.list.empty')} /> }}
            onRow={(row) => ({ 'data-testid': `lever-row-${row.id}` }) as Record<string, string>}
          />
          {data !== undefined && data.total > LEVER_PAGE_SIZE ? (
            <Pagination
              className="fx-lever-pager"
              current={page}
              pageSize={LEVER_PAGE_SIZE}
              total={data.total}
              showSizeChanger={false}
              onChange={(next) => setPages((current) => ({ ...current, [tab]: next }))}
            />
          ) : null}
        </>
      )}
      <BatchCloseDialog open={batchOpen} onClose={() => setBatchOpen(false)} onDone={refresh} />
      <StopDialog
        trade={stopFor}
        mark={stopFor === null ? null : markOf(stopFor.symbol)}
        onClose={() => setStopFor(null)}
        onDone={refresh}
      />
    </section>
  );
}

function BatchCloseDialog({
  open,
  onClose,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const [type, setType] = useState<0 | 1 | 2>(0);
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title={t('lever.batch.title')}
      okText={t('lever.batch.ok')}
      cancelText={t('lever.confirm.cancel')}
      confirmLoading={busy}
      okButtonProps={{
        danger: true,
        ...({ 'data-testid': 'lever-batch-confirm' } as Record<string, string>),
      }}
      onCancel={onClose}
      onOk={async () => {
        setBusy(true);
        try {
          const reply = await batchCloseLever(type);
          void message.success(t('lever.batch.done', { count: reply.closed }));
          onClose();
        } catch (error) {
          void message.error(error instanceof ApiError ? error.message : t('lever.form.failed'));
        } finally {
          setBusy(false);
          onDone();
        }
      }}
    >
      <Radio.Group
        value={type}
        onChange={(event) => setType(event.target.value as 0 | 1 | 2)}
        data-testid="lever-batch-type"
      >
        <Radio value={0}>{t('lever.batch.all')}</Radio>
        <Radio value={1}>{t('lever.batch.longs')}</Radio>
        <Radio value={2}>{t('lever.batch.shorts')}</Radio>
      </Radio.Group>
      <p className="fx-spot-muted" style={{ marginTop: 12 }}>
        {t('lever.batch.noteAll')}
      </p>
    </Modal>
  );
}
