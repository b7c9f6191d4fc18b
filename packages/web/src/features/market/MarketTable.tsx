import { useCallback, useMemo, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, Link } from 'react-router';
import { Table, type TableColumnsType } from 'antd';
import {
  compareDecimals,
  directionOf,
  formatCompact,
  formatFixed,
  formatPercent,
} from '../../format/index.ts';
import { shownPrice, storeChosenPair } from '../../data/market.ts';
import { ShownPriceText } from '../../components/MarkTag.tsx';
import type { Language } from '../../i18n/languages.ts';
import { HIGH_LOW_DECIMALS, PRICE_DECIMALS, type BoardRow } from './board-rows.ts';
import { CoinPair } from './CoinPair.tsx';

interface MarketTableProps {
  rows: readonly BoardRow[];
  language: Language;
  loading: boolean;
  emptyText: string;
}

/** Every USDT pair: price, 24-hour change, high, low, volume and turnover, sortable by each. */
export function MarketTable({ rows, language, loading, emptyText }: MarketTableProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Columns and the row handler keep their identity between renders, so that a ticker of one pair
  // renders that pair's row again and not the whole table.
  const onRow = useCallback(
    (row: BoardRow) =>
      ({
        onClick: () => {
          storeChosenPair(row);
          void navigate('/dealCenter');
        },
        'data-testid': `market-row-${row.currency_name}`,
      }) as HTMLAttributes<HTMLElement>,
    [navigate],
  );
  const columns = useMemo<TableColumnsType<BoardRow>>(
    () => [
      {
        key: 'pair',
        title: t('market.pair'),
        sorter: (a, b) => a.symbol.localeCompare(b.symbol),
        render: (_, row) => (
          <Link
            to="/dealCenter"
            className="fx-market-pair-link"
            aria-label={t('market.trade', { symbol: row.symbol })}
            onClick={(event) => {
              event.stopPropagation();
              storeChosenPair(row);
            }}
          >
            <CoinPair row={row} />
          </Link>
        ),
      },
      {
        key: 'price',
        title: t('market.price'),
        align: 'right',
        sorter: (a, b) => compareDecimals(shownPrice(a).price, shownPrice(b).price),
        render: (_, row) => {
          const shown = shownPrice(row);
          return (
            <span
              className="fx-move fx-num"
              data-direction={directionOf(row.change)}
              data-testid="row-price"
              data-kind={shown.kind}
            >
              <ShownPriceText shown={shown} format={(price) => formatFixed(price, PRICE_DECIMALS)} />
            </span>
          );
        },
      },
      {
        key: 'change',
        title: t('market.change'),
        align: 'right',
        sorter: (a, b) => compareDecimals(a.change, b.change),
        render: (_, row) => (
          <span
            className="fx-move-badge fx-num"
            data-direction={directionOf(row.change)}
            data-testid="row-change"
          >
            {formatPercent(row.change)}
          </span>
        ),
      },
      {
        key: 'high',
        title: t('market.high'),
        align: 'right',
        sorter: (a, b) => compareDecimals(a.high, b.high),
        render: (_, row) => <span className="fx-num">{formatFixed(row.high, HIGH_LOW_DECIMALS)}</span>,
      },
      {
        key: 'low',
        title: t('market.low'),
        align: 'right',
        sorter: (a, b) => compareDecimals(a.low, b.low),
        render: (_, row) => <span className="fx-num">{formatFixed(row.low, HIGH_LOW_DECIMALS)}</span>,
      },
      {
        key: 'volume',
        title: t('market.volume'),
        align: 'right',
        sorter: (a, b) => compareDecimals(a.volume, b.volume),
        render: (_, row) => (
          <span className="fx-num">
            {formatCompact(row.volume, language)} <span className="fx-unit">{row.currency_name}</span>
          </span>
        ),
      },
      {
        key: 'turnover',
        title: t('market.turnover'),
        align: 'right',
        sorter: (a, b) => compareDecimals(a.amount, b.amount),
        render: (_, row) => (
          <span className="fx-num">
            {formatCompact(row.amount, language)} <span className="fx-unit">{row.legal_name}</span>
          </span>
        ),
      },
    ],
    [t, language],
  );
  // The table scrolls sideways inside its own wrapper (market.css) rather than through the table's
  // scroll option, which measures the scroll position after every render: a forced layout on each
  // live update.
  return (
    <div className="fx-market-table-scroll">
      <Table<BoardRow>
        className="fx-market-table"
        data-testid="market-table"
        rowKey="key"
        columns={columns}
        dataSource={rows as BoardRow[]}
        loading={loading}
        pagination={false}
        showSorterTooltip={false}
        locale={{ emptyText }}
        onRow={onRow}
      />
    </div>
  );
}
