import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Card, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { PageHeader, StatusTag, Time } from '../components/common.tsx';
import type { OutboxLine as Message } from '@fairex/shared/api/backoffice.ts';

/** Mail and text messages the exchange sent, and in development the ones no transport took (with bodies). */
export default function OutboxPage() {
  const t = useAdminT();
  const [recipient, setRecipient] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'outbox', recipient, page],
    queryFn: () =>
      adminApi.get<Paged<Message>>('/backoffice/outbox', { recipient: recipient || undefined, page }),
    placeholderData: keepPreviousData,
  });
  const columns: ColumnsType<Message> = [
    { title: t('common.time'), dataIndex: 'created_at', render: (value: string) => <Time value={value} /> },
    {
      title: t('outbox.channel'),
      dataIndex: 'channel',
      render: (channel: string) => (
        <Tag color={channel === 'email' ? 'blue' : 'cyan'}>{t(`outbox.${channel}` as AdminKey)}</Tag>
      ),
    },
    {
      title: t('outbox.recipient'),
      dataIndex: 'recipient',
      render: (value: string) => <span className="fx-admin-mono">{value}</span>,
    },
    { title: t('outbox.subject'), dataIndex: 'subject', render: (value: string | null) => value ?? '—' },
    { title: t('outbox.purpose'), dataIndex: 'purpose' },
    {
      title: t('common.status'),
      dataIndex: 'status',
      render: (value: string) => <StatusTag status={value} />,
    },
  ];
  return (
    <div>
      <PageHeader title={t('outbox.title')} description={t('outbox.description')} />
      <Card>
        <Space direction="vertical" className="fx-admin-full">
          <Alert type="info" showIcon message={t('outbox.note')} />
          <Input.Search
            allowClear
            placeholder={t('outbox.recipientPlaceholder')}
            onSearch={(value) => {
              setRecipient(value.trim());
              setPage(1);
            }}
            className="fx-admin-search"
          />
          <Table<Message>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={list.data?.data}
            loading={list.isFetching}
            expandable={{
              expandedRowRender: (row) =>
                row.body !== null ? (
                  <pre className="fx-admin-pre">{row.body}</pre>
                ) : (
                  <Typography.Text type="secondary">{row.error ?? t('outbox.noBody')}</Typography.Text>
                ),
            }}
            pagination={{
              current: page,
              pageSize: 20,
              total: list.data?.total ?? 0,
              onChange: setPage,
              showSizeChanger: false,
            }}
          />
        </Space>
      </Card>
    </div>
  );
}
