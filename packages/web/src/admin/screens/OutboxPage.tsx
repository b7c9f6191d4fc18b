import { Alert, Card, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import type { Paged } from '../../data/admin-api.ts';
import { PageHeader } from '../components/common.tsx';
import { statusColumn, timeColumn, useAdminPage } from '../components/table.tsx';
import type { OutboxLine as Message } from '@fairex/shared/api/backoffice.ts';

/** Mail and text messages the exchange sent, and in development the ones no transport took (with bodies). */
export default function OutboxPage() {
  const t = useAdminT();
  const [recipient, setRecipient] = useState('');
  const { list, setPage, pagination } = useAdminPage<Paged<Message>>(
    ['outbox', recipient],
    '/backoffice/outbox',
    {
      recipient: recipient || undefined,
    },
  );
  const columns: ColumnsType<Message> = [
    timeColumn(t('common.time'), 'created_at'),
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
    statusColumn(t('common.status'), 'status'),
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
            pagination={pagination}
          />
        </Space>
      </Card>
    </div>
  );
}
