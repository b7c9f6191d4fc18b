import { EditOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import type { SettingLine, SettingRow, SettingsReply, SettingValue } from '@fairex/shared';
import { useAdminT, type AdminKey, type AdminT } from '../i18n.ts';
import { adminApi } from '../../data/admin-api.ts';
import { Amount, PageHeader, useAdminMutation } from '../components/common.tsx';
import { useDecimalRules } from '../components/form.tsx';
import { can, useAdminSession } from '../session.ts';

type Value = SettingValue;
type Row = SettingRow;
type Setting = SettingLine;

/**
 * Every run-time setting, drawn from its definition on the server: later products add theirs there and they
 * appear here. Settings marked "engine" change money rules and reach the engine through a journaled command.
 */
export default function SettingsPage() {
  const t = useAdminT();
  const answer = useQuery({
    queryKey: ['admin', 'settings'],
    queryFn: () => adminApi.get<SettingsReply>('/backoffice/settings'),
  });
  return (
    <div>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      <Space direction="vertical" size="large" className="fx-admin-full">
        {answer.data?.settings.map((setting) => (
          <SettingCard key={setting.key} setting={setting} />
        ))}
        <Card title={t('settings.environment')} loading={answer.isPending}>
          <Typography.Paragraph type="secondary">{t('settings.environmentNote')}</Typography.Paragraph>
          <Table
            size="small"
            rowKey="variable"
            pagination={false}
            dataSource={answer.data?.environment}
            columns={[
              {
                title: t('settings.setting'),
                dataIndex: 'name',
                render: (name: string) => t(`settings.env.${name}` as AdminKey, { defaultValue: name }),
              },
              {
                title: t('settings.variable'),
                dataIndex: 'variable',
                render: (variable: string) => <Typography.Text code>{variable}</Typography.Text>,
              },
              {
                title: t('settings.value'),
                dataIndex: 'value',
                // A word ("on", "not set"...) comes with a code to translate; names and numbers as they are.
                render: (value: string, row: { value_code?: string }) => (
                  <span className="fx-admin-mono">
                    {row.value_code === undefined
                      ? value
                      : t(`settings.envValue.${row.value_code}` as AdminKey, { defaultValue: value })}
                  </span>
                ),
              },
            ]}
          />
        </Card>
      </Space>
    </div>
  );
}

function label(t: AdminT, field: string): string {
  return t(`settings.fields.${field}` as AdminKey, { defaultValue: field });
}

function SettingCard({ setting }: { setting: Setting }) {
  const t = useAdminT();
  const permissions = useAdminSession((state) => state.permissions);
  const [editing, setEditing] = useState<Row | null>(null);
  const columns: ColumnsType<Row> = [
    {
      title: t(`settings.scope.${setting.scope}`),
      dataIndex: 'target',
      render: (target: string) => (
        <span className="fx-admin-strong">
          {setting.scope === 'site' ? t('settings.scope.site') : target}
        </span>
      ),
    },
    ...setting.fields.map((field) => ({
      title: label(t, field.name),
      key: field.name,
      align: field.type === 'boolean' ? ('left' as const) : ('right' as const),
      render: (_: unknown, row: Row) => {
        const value = row.values[field.name];
        if (field.type === 'boolean')
          return value ? <Tag color="green">{t('common.on')}</Tag> : <Tag>{t('common.off')}</Tag>;
        if (field.type === 'percent') return <Amount value={`${String(value)}`} code="%" />;
        if (field.type === 'decimal') return <Amount value={String(value)} />;
        if (field.type === 'url') {
          return value ? (
            <Typography.Text copyable className="fx-admin-mono">
              {String(value)}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('settings.notSet')}</Typography.Text>
          );
        }
        return String(value);
      },
    })),
    ...(can(permissions, 'catalog.manage')
      ? [
          {
            key: 'edit',
            align: 'right' as const,
            render: (_: unknown, row: Row) => (
              <Button
                type="link"
                icon={<EditOutlined />}
                onClick={() => setEditing(row)}
                data-testid={`setting-${setting.key}-${row.target_id}`}
              >
                {t('common.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <Card
      title={
        <Space>
          {t(`settings.keys.${setting.key.replace('.', '_')}` as AdminKey, { defaultValue: setting.key })}
          <Typography.Text code className="fx-admin-small">
            {setting.key}
          </Typography.Text>
          {setting.engine && (
            <Tag icon={<ThunderboltOutlined />} color="orange">
              {t('settings.engine')}
            </Tag>
          )}
        </Space>
      }
    >
      <Table<Row>
        size="small"
        rowKey="target_id"
        columns={columns}
        dataSource={setting.rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
      {editing !== null && <SettingEditor setting={setting} row={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function SettingEditor({ setting, row, onClose }: { setting: Setting; row: Row; onClose: () => void }) {
  const t = useAdminT();
  const decimal = useDecimalRules();
  const [form] = Form.useForm<Record<string, Value>>();
  const save = useAdminMutation(
    (values: Record<string, Value>) => {
      // Only what changed goes to the server, so the audit log shows exactly the change.
      const changed = Object.fromEntries(
        Object.entries(values).filter(([key, value]) => String(value) !== String(row.values[key])),
      );
      return adminApi.post<string>('/backoffice/settings/apply', {
        key: setting.key,
        target_id: row.target_id,
        values: changed,
      });
    },
    { invalidate: [['settings'], ['markets'], ['currencies']], onSuccess: onClose },
  );
  return (
    <Modal
      open
      title={`${setting.scope === 'site' ? t('settings.scope.site') : row.target} · ${t(`settings.keys.${setting.key.replace('.', '_')}` as AdminKey, { defaultValue: setting.key })}`}
      okText={t('common.save')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      confirmLoading={save.isPending}
    >
      {setting.engine && (
        <Alert
          type="warning"
          showIcon
          message={t('settings.engineNote')}
          className="fx-admin-section-alert"
        />
      )}
      <Form form={form} layout="vertical" initialValues={row.values}>
        {setting.fields.map((field) => {
          if (field.type === 'boolean') {
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={label(t, field.name)}
                valuePropName="checked"
              >
                <Switch />
              </Form.Item>
            );
          }
          if (field.type === 'url') {
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={label(t, field.name)}
                extra={t('settings.urlNote')}
                normalize={(value: string | undefined) => value ?? ''}
                rules={[{ pattern: /^(https:\/\/\S+)?$/, message: t('settings.urlFormat') }]}
              >
                <Input inputMode="url" placeholder="https://" allowClear />
              </Form.Item>
            );
          }
          if (field.type === 'integer') {
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={label(t, field.name)}
                rules={[{ required: true }]}
              >
                <InputNumber min={field.min} max={field.max} precision={0} className="fx-admin-full" />
              </Form.Item>
            );
          }
          const scale = field.type === 'percent' ? 4 : (row.scales?.[field.name] ?? field.scale);
          return (
            <Form.Item
              key={field.name}
              name={field.name}
              label={label(t, field.name)}
              extra={
                field.type === 'percent'
                  ? t('settings.percentMax', { max: field.max })
                  : scale === undefined
                    ? undefined
                    : t('common.decimals', { scale })
              }
              rules={decimal}
            >
              <Input inputMode="decimal" suffix={field.type === 'percent' ? '%' : undefined} />
            </Form.Item>
          );
        })}
      </Form>
    </Modal>
  );
}
