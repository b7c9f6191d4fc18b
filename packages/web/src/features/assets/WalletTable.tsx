import { Empty, Pagination, Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table/index.js';
import { useTranslation } from 'react-i18next';
import { CARD_TABLE, cardColumns } from '../../components/card-table.ts';
import { amountText, timeText } from './wallet-format.ts';

// The lists of the wallet and records pages (deposits, withdrawals, transfers, flash exchanges, ledgers):
// one look for all of them, their amounts grouped as the server gave them and their times in the display zone.

/**
 * A wallet list: rows by id, compact, every row of the page shown, and the "no data" picture when empty; on a
 * phone each row is a card (components/card-table.ts).
 */
export function WalletTable<R extends object>(
  props: Omit<TableProps<R>, 'rowKey' | 'size' | 'pagination' | 'locale'>,
) {
  const { t } = useTranslation();
  const { columns, className, ...rest } = props;
  return (
    <Table<R>
      rowKey="id"
      size="small"
      pagination={false}
      locale={{ emptyText: <Empty description={t('wallet.noData')} /> }}
      columns={columns === undefined ? undefined : cardColumns(columns)}
      className={className === undefined ? CARD_TABLE : `${CARD_TABLE} ${className}`}
      {...rest}
    />
  );
}

/** The pages below a wallet list, shown only when the server has more than one. */
export function WalletPager({
  list,
  page,
  onChange,
}: {
  list: { last_page: number; per_page: number; total: number } | undefined;
  page: number;
  onChange: (page: number) => void;
}) {
  if (!list || list.last_page <= 1) return null;
  return (
    <Pagination
      style={{ marginTop: 12, textAlign: 'right' }}
      current={page}
      pageSize={list.per_page}
      total={list.total}
      onChange={onChange}
      showSizeChanger={false}
    />
  );
}

/** A right-aligned amount as the server gave it, grouped in thousands. */
export function walletAmountColumn<T>(title: string, dataIndex: Extract<keyof T, string>): ColumnType<T> {
  return {
    title,
    dataIndex,
    align: 'right',
    render: (value: string) => <span className="fx-wallet-num">{amountText(value)}</span>,
  };
}

/** A server time in the display zone. */
export function walletTimeColumn<T>(title: string, dataIndex: Extract<keyof T, string>): ColumnType<T> {
  return { title, dataIndex, render: (value: string) => timeText(value) };
}
