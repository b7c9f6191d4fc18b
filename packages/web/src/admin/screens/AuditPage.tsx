import { Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT } from '../i18n.ts';
import type { Paged } from '../../data/admin-api.ts';
import { PageHeader, Time } from '../components/common.tsx';
import { useAdminPage } from '../components/table.tsx';
import type { AuditLine as Entry } from '@fairex/shared/api/backoffice.ts';

const AREAS = [
  'admin.',
  'user.',
  'real_name.',
  'wallet.',
  'chain.',
  'currency.',
  'market.',
  'news_item.',
  'news_category.',
  'upload.',
  'outbox.',
  'invite.',
];

/** Every administrator action: who, what, on which record, what it was before and after, when, from where. */
export default function AuditPage() {
  const t = useAdminT();
  const [action, setAction] = useState<string | undefined>(undefined);
  const [admin, setAdmin] = useState('');
  const [target, setTarget] = useState('');
  const [targetType, targetId] = target.includes(':')
    ? target.split(':', 2)
    : [target || undefined, undefined];
  const { list, setPage, pagination } = useAdminPage<Paged<Entry>>(
    ['audit', action, admin, target],
    '/backoffice/audit',
    {
      action,
      admin: admin || undefined,
      target_type: targetType || undefined,
      target_id: targetId || undefined,
    },
    { pageSize: 30, showTotal: true, refetchInterval: 30_000 },
  );
  const columns: ColumnsType<Entry> = [
    {
      title: t('common.time'),
      dataIndex: 'created_at',
      width: 170,
      render: (value: string) => <Time value={value} />,
    },
    {
      title: t('audit.who'),
      dataIndex: 'admin',
      render: (value: string | null) => value ?? <Tag>{t('audit.commandLine')}</Tag>,
    },
    {
      title: t('audit.what'),
      dataIndex: 'action',
      render: (value: string) => (
        <Tag color="geekblue" className="fx-admin-mono">
          {value}
        </Tag>
      ),
    },
    {
      title: t('audit.target'),
      key: 'target',
      render: (_: unknown, row) =>
        row.target_type ? (
          <span className="fx-admin-mono">{`${row.target_type}:${row.target_id ?? ''}`}</span>
        ) : (
          '—'
        ),
    },
    {
      title: t('audit.from'),
      dataIndex: 'ip',
      render: (value: string | null) => <span className="fx-admin-mono">{value ?? '—'}</span>,
    },
    {
      title: t('audit.change'),
      dataIndex: 'detail',
      width: 380,
      render: (detail: Record<string, unknown>) => <Change detail={detail} />,
    },
  ];
  return (
    <div>
      <PageHeader title={t('audit.title')} description={t('audit.description')} />
      <Card>
        <Space className="fx-admin-toolbar" wrap>
          <Select
            allowClear
            placeholder={t('audit.allActions')}
            value={action}
            onChange={(value: string | undefined) => {
              setAction(value);
              setPage(1);
            }}
            options={AREAS.map((area) => ({ value: area, label: `${area}*` }))}
            className="fx-admin-select-wide"
            data-testid="audit-action"
          />
          <Input.Search
            allowClear
            placeholder={t('audit.adminPlaceholder')}
            onSearch={(value) => {
              setAdmin(value.trim());
              setPage(1);
            }}
            className="fx-admin-search-small"
          />
          <Input.Search
            allowClear
            placeholder={t('audit.targetPlaceholder')}
            onSearch={(value) => {
              setTarget(value.trim());
              setPage(1);
            }}
            className="fx-admin-search-small"
          />
        </Space>
        <Table<Entry>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={list.data?.data}
          loading={list.isFetching}
          data-testid="audit-table"
          scroll={{ x: 'max-content' }}
          pagination={pagination}
        />
      </Card>
    </div>
  );
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Before and after side by side, field by field; other details as key: value. */
function Change({ detail }: { detail: Record<string, unknown> }) {
  const before = (detail.before ?? {}) as Record<string, unknown>;
  const after = (detail.after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const rest = Object.entries(detail).filter(([key]) => key !== 'before' && key !== 'after');
  if (fields.length === 0 && rest.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div className="fx-admin-change">
      {fields.map((field) => (
        <div key={field}>
          <span className="fx-admin-mono fx-admin-muted">{field}</span>{' '}
          {field in before && <span className="fx-admin-before">{short(before[field])}</span>}
          {field in before && field in after && ' → '}
          {field in after && <span className="fx-admin-after">{short(after[field])}</span>}
        </div>
      ))}
      {rest.map(([key, value]) => (
        <div key={key}>
          <span className="fx-admin-mono fx-admin-muted">{key}</span> {short(value)}
        </div>
      ))}
    </div>
  );
}
