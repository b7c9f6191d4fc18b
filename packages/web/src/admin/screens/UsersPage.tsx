import { SearchOutlined } from '@ant-design/icons';
import { Card, Checkbox, Input, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { Link } from 'react-router';
import type { Paged } from '../../data/admin-api.ts';
import { PageHeader, Time } from '../components/common.tsx';
import { useAdminPage } from '../components/table.tsx';
import type { UserSummary } from '@fairex/shared/api/backoffice.ts';

export type { UserSummary } from '@fairex/shared/api/backoffice.ts';

export function ReviewTag({ status }: { status: number }) {
  const t = useAdminT();
  const colour = status === 2 ? 'green' : status === 1 ? 'gold' : 'default';
  return <Tag color={colour}>{t(`users.review${status}` as AdminKey)}</Tag>;
}

export function FreezeTags({
  trading,
  withdrawals,
  full = false,
}: {
  trading: boolean;
  withdrawals: boolean;
  full?: boolean;
}) {
  const t = useAdminT();
  return (
    <>
      {full && <Tag color="red">{t('users.frozenFull')}</Tag>}
      {trading && <Tag color="red">{t('users.frozenTrading')}</Tag>}
      {withdrawals && <Tag color="red">{t('users.frozenWithdrawals')}</Tag>}
    </>
  );
}

/** Finding a user by id, account, e-mail or phone; frozen users on their own when asked. */
export default function UsersPage() {
  const t = useAdminT();
  const [query, setQuery] = useState('');
  const [frozen, setFrozen] = useState(false);
  const { list, setPage, pagination } = useAdminPage<Paged<UserSummary>>(
    ['users', query, frozen],
    '/backoffice/users',
    { q: query || undefined, frozen: frozen ? 1 : undefined },
    { showTotal: true },
  );
  const columns: ColumnsType<UserSummary> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    {
      title: t('users.account'),
      dataIndex: 'account',
      render: (account: string, row) => (
        <>
          <Link to={`/admin/users/${row.id}`} data-testid={`user-link-${row.id}`}>
            {account}
          </Link>
          {row.demo && (
            <Tag
              color="gold"
              style={{ marginLeft: 8 }}
              title={t('users.demoHint')}
              data-testid="user-demo-tag"
            >
              {t('users.demo')}
            </Tag>
          )}
        </>
      ),
    },
    { title: t('users.phone'), dataIndex: 'phone', render: (phone: string | null) => phone ?? '—' },
    {
      title: t('users.realName'),
      dataIndex: 'review_status',
      render: (status: number) => <ReviewTag status={status} />,
    },
    {
      title: t('users.secondFactor'),
      dataIndex: 'totp_enabled',
      render: (on: boolean) => (on ? <Tag color="blue">{t('common.on')}</Tag> : <Tag>{t('common.off')}</Tag>),
    },
    {
      title: t('users.state'),
      key: 'state',
      render: (_: unknown, row) =>
        row.frozen_trading || row.frozen_withdrawals ? (
          <FreezeTags trading={row.frozen_trading} withdrawals={row.frozen_withdrawals} />
        ) : (
          <Tag color="green">{t('users.active')}</Tag>
        ),
    },
    {
      title: t('users.registered'),
      dataIndex: 'created_at',
      render: (value: string) => <Time value={value} />,
    },
    {
      title: t('users.lastLogin'),
      dataIndex: 'last_login_at',
      render: (value: string | null) => <Time value={value} />,
    },
  ];
  return (
    <div>
      <PageHeader title={t('users.title')} description={t('users.description')} />
      <Card>
        <Space className="fx-admin-toolbar" wrap>
          <Input.Search
            allowClear
            enterButton={<SearchOutlined />}
            placeholder={t('users.searchPlaceholder')}
            onSearch={(value) => {
              setQuery(value.trim());
              setPage(1);
            }}
            className="fx-admin-search"
            data-testid="users-search"
          />
          <Checkbox
            checked={frozen}
            onChange={(event) => {
              setFrozen(event.target.checked);
              setPage(1);
            }}
          >
            {t('users.frozenOnly')}
          </Checkbox>
        </Space>
        <Table<UserSummary>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.data}
          loading={list.isFetching}
          pagination={pagination}
        />
      </Card>
    </div>
  );
}
