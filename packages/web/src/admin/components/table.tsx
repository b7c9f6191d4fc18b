import { EditOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Tag } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table/index.js';
import { useState } from 'react';
import { Link } from 'react-router';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import { useAdminT } from '../i18n.ts';
import { Amount, StatusTag, Time } from './common.tsx';

// The columns, tags and paging the console's tables share, so that an amount, a time or a status reads the
// same on every screen.

/** A field of a table's row that a column shows. */
type Field<T> = Extract<keyof T, string>;

/** A right-aligned decimal amount exactly as the server sent it. */
export function amountColumn<T>(title: string, dataIndex: Field<T>): ColumnType<T> {
  return {
    title,
    dataIndex,
    align: 'right',
    render: (value: string | null) => <Amount value={value} />,
  };
}

/** The row's `amount` followed by its `currency` code. */
export function amountCodeColumn<T extends { amount: string; currency: string }>(
  title: string,
): ColumnType<T> {
  return {
    title,
    key: 'amount',
    align: 'right',
    render: (_: unknown, row: T) => <Amount value={row.amount} code={row.currency} />,
  };
}

/** A time in the operator's zone (exact instant on hover). */
export function timeColumn<T>(title: string, dataIndex: Field<T>): ColumnType<T> {
  return { title, dataIndex, render: (value: string | null) => <Time value={value} /> };
}

/** A status word of the server, translated and coloured. */
export function statusColumn<T>(title: string, dataIndex: Field<T>): ColumnType<T> {
  return { title, dataIndex, render: (value: string) => <StatusTag status={value} /> };
}

/** The user's account, linked to the user's page. */
export function accountColumn<T extends { user_id: number; account: string }>(title: string): ColumnType<T> {
  return {
    title,
    dataIndex: 'account',
    render: (account: string, row: T) => <Link to={`/admin/users/${row.user_id}`}>{account}</Link>,
  };
}

/** A right-aligned "Edit" link for a row. */
export function editColumn<T>(
  label: string,
  onEdit: (row: T) => void,
  testId?: (row: T) => string,
): ColumnType<T> {
  return {
    key: 'edit',
    align: 'right',
    render: (_: unknown, row: T) => (
      <Button type="link" icon={<EditOutlined />} onClick={() => onEdit(row)} data-testid={testId?.(row)}>
        {label}
      </Button>
    ),
  };
}

/** A switch's state: on in `colour` (green unless told), off plain. */
export function OnOffTag({ on, colour = 'green' }: { on: boolean; colour?: string }) {
  const t = useAdminT();
  return on ? <Tag color={colour}>{t('common.on')}</Tag> : <Tag>{t('common.off')}</Tag>;
}

function isList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}

/**
 * The five languages, blue where a text of that language is written: `written` is the texts by language,
 * or the languages that have one.
 */
export function LanguageTags({ written }: { written: Partial<Record<string, string>> | readonly string[] }) {
  const has = (lang: string) => (isList(written) ? written.includes(lang) : Boolean(written[lang]));
  return (
    <span className="fx-admin-langs">
      {LANGUAGES.map((lang) => (
        <Tag key={lang} color={has(lang) ? 'blue' : undefined}>
          {lang}
        </Tag>
      ))}
    </span>
  );
}

/**
 * One page of a back-office list: the page number, the reply (the previous page stays shown while the next
 * is read) and the table's pagination. The query key is `['admin', ...key, page]`; a filter belongs in `key`
 * and `query`, and whoever changes it goes back to page 1 with `setPage(1)`.
 */
export function useAdminPage<R extends Paged<unknown>>(
  key: readonly unknown[],
  path: string,
  query: Record<string, string | number | undefined> = {},
  options: {
    /** The page size until the server has said its own. */
    pageSize?: number;
    /** Show "N in all" beside the pages. */
    showTotal?: boolean;
    /** Keep the previous page on screen while the next is read (the default). */
    keepPrevious?: boolean;
    /** Read the page again every so many milliseconds. */
    refetchInterval?: number;
  } = {},
) {
  const t = useAdminT();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', ...key, page],
    queryFn: () => adminApi.get<R>(path, { ...query, page }),
    placeholderData: options.keepPrevious === false ? undefined : keepPreviousData,
    refetchInterval: options.refetchInterval,
  });
  const pagination: TablePaginationConfig = {
    current: page,
    pageSize: list.data?.per_page ?? options.pageSize ?? 20,
    total: list.data?.total ?? 0,
    onChange: setPage,
    showSizeChanger: false,
    ...(options.showTotal ? { showTotal: (total: number) => t('common.total', { total }) } : {}),
  };
  return { list, page, setPage, pagination };
}
