import type { ColumnsType } from 'antd/es/table/index.js';
import './card-table.css';

// A table that shows each row as a card on a phone (card-table.css): the first column heads the card, then
// one line per column, its title on the left and the value on the right, so nothing hides behind a sideways
// swipe. On wider screens the table is the table it was.

/** The class that turns a table's rows into cards on a phone. */
export const CARD_TABLE = 'fx-card-table';

/** The class of a column whose cell runs across the card without a title (a row's actions). */
export const CARD_ACTIONS = 'fx-card-actions';

/** The columns with each cell carrying its column's title, which the card writes beside the value. */
export function cardColumns<R>(columns: ColumnsType<R>): ColumnsType<R> {
  return columns.map((column) => {
    const label = typeof column.title === 'string' ? column.title : '';
    const own = column.onCell;
    return {
      ...column,
      onCell: (record: R, index?: number) =>
        ({ ...own?.(record, index), 'data-label': label }) as ReturnType<NonNullable<typeof own>>,
    };
  });
}
