import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './PanelStates.tsx';

// A small semantic table for the user's orders under the trading panel. It draws what antd's small Table
// drew there (a header row, one line per row, an empty state, a spinner while the first page loads) with
// a plain <table>, so the trading page does not load antd's table, pagination and select code for it.
// The look (spot.css, .fx-spot-table) follows antd's small table and its theme tokens in day and night.

export interface CompactColumn<Row> {
  key: string;
  title: ReactNode;
  align?: 'left' | 'right';
  render: (row: Row) => ReactNode;
}

interface CompactTableProps<Row> {
  /** The table's name for assistive technology (a visually hidden caption). */
  caption: string;
  columns: readonly CompactColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  loading: boolean;
  empty: ReactNode;
  rowTestId: string;
}

export function CompactTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  empty,
  rowTestId,
}: CompactTableProps<Row>) {
  const { t } = useTranslation();
  const alignClass = (column: CompactColumn<Row>) => (column.align === 'right' ? 'is-right' : undefined);
  return (
    <div className="fx-spot-table-scroll">
      <table className="fx-spot-table" aria-busy={loading}>
        <caption className="fx-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={alignClass(column)}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  className={alignClass(column)}
                  data-label={typeof column.title === 'string' ? column.title : undefined}
                >
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr className="fx-spot-table-placeholder">
              <td colSpan={columns.length}>
                {loading ? <Spinner size="small" label={t('spot.loading')} /> : empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
